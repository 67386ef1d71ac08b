"""Reading progress exports (``study export``) for item analysis: the attempts the mode keeps, as columns,
read fast when the file is as ``study export`` wrote it; and merging the exports of one store (sharing an
attempt uid) into one learner, each attempt once."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from study.analysis.answers import Answer, response_of
from study.analysis.forms import FormTally, form_of_attempt
from study.analysis.merge import same_store_groups
from study.analysis.results_marks import Learner, ResultsError, first_marks, keeps, parse_time, shown_ids
from study.inputs import raw_decode_json

PROGRESS_FORMAT = "study-progress"


@dataclass
class ProgressExport:
    """One progress export's answers that the mode keeps, as columns, and the uids of all its attempts."""

    label: str
    times: list[Any]
    qids: list[str]
    marks: list[float]
    kept_uids: list[str] | None  # the uid of each kept answer, None when the file has no uids
    uids: list[str] | None  # every attempt's uid, None for a hand-made file without them
    read: int  # attempts in the file, whatever the mode
    learner: str | None = None  # the store's learner id (its settings), which default xAPI actors carry


def _sortable(times: list[Any], where: str) -> list[Any]:
    """Times that sort chronologically: the export's own UTC form sorts as text, anything else is parsed."""
    # map() keeps the checks in C: this runs once per attempt of every learner.
    if times and set(map(type, times)) == {str} and set(map(len, times)) == {32} \
            and set(map(itemgetter(slice(26, None)), times)) == {"+00:00"}:
        return times
    return [parse_time(t, f"{where} {n + 1}") for n, t in enumerate(times)]


def _bad_attempt(attempts: list[Any], label: str) -> ResultsError:
    """The first attempt the fast path could not read, with why (the slow, precise path)."""
    for n, a in enumerate(attempts):
        where = f"{label}: attempt {n + 1}"
        if not isinstance(a, dict):
            return ResultsError(f"{where}: not an object")
        qid, correct = a.get("item_id"), a.get("correct")
        if not isinstance(qid, str) or not qid:
            return ResultsError(f"{where}: \"item_id\" must be a question id")
        if not (correct is True or correct is False or type(correct) is int and correct in (0, 1)):
            return ResultsError(f"{where}: \"correct\" must be true or false, not {correct!r}")
        parse_time(a.get("at"), where)
    return ResultsError(f"{label}: unreadable attempts")  # pragma: no cover - the fast path found something


def _check_export_version(version: Any, label: str) -> None:
    """Only a too-high whole number is "newer": a text, a fraction or a version below 1 is a damaged file."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise ResultsError(f"{label}: progress export version {_short(version)} is not a whole number; "
                           "expected 1 (is this file from `study export`?)")
    if version > 1:
        raise ResultsError(f"{label}: progress export version {version} is newer than this study reads (1); "
                           "upgrade study")
    if version < 1:
        raise ResultsError(f"{label}: progress export version {version} does not exist; expected 1")


def _short(value: Any) -> str:
    from study.untrusted import shown

    text = shown(repr(value), keep_newlines=False)
    return text if len(text) <= 40 else text[:37] + "..."


def progress_export(data: dict[str, Any], label: str, mode: str, *, form: str | None = None,
                    tally: FormTally | None = None) -> ProgressExport:
    """One export's answers that ``mode`` keeps (and, with ``form``, only those given in that form); each
    answer given in a form is counted in ``tally``."""
    _check_export_version(data.get("version"), label)
    attempts = data.get("attempts")
    if not isinstance(attempts, list):
        raise ResultsError(f"{label}: \"attempts\" must be a list")
    # Column by column with comprehensions: a class's worth of exports is 100,000s of attempts.
    try:
        qids = [a["item_id"] for a in attempts]
        correct = [a["correct"] for a in attempts]
        times = [a["at"] for a in attempts]
    except (KeyError, TypeError, AttributeError):
        raise _bad_attempt(attempts, label) from None
    if qids and (set(map(type, qids)) != {str} or "" in qids or not set(map(type, correct)) <= {bool} and not all(
        c is True or c is False or type(c) is int and c in (0, 1) for c in correct
    )):
        raise _bad_attempt(attempts, label)
    times = _sortable(times, f"{label}: attempt")
    marks: list[float] = [Answer(1.0 if c else 0.0, a, response_of) for c, a in zip(correct, attempts)]
    try:
        uids: list[str] | None = list(map(str, [a["uid"] for a in attempts]))
    except KeyError:  # a hand-made file: no way to tell a copy
        uids = None
    kept_uids = uids
    settings = data.get("settings")
    learner = data.get("learner") or (settings.get("learner_id") if isinstance(settings, dict) else None)
    learner = learner if isinstance(learner, str) and _LEARNER_ID.fullmatch(learner) else None
    forms = [form_of_attempt(a) for a in attempts] if form is not None or tally is not None else None
    if mode != "all" or form is not None:
        kept = [k for k, a in enumerate(attempts) if keeps(mode, a.get("mode"))]
        if tally is not None and forms is not None:
            # Every form's answers, whichever one --form keeps, so an unknown name can be told the ones there are.
            for k in kept:
                f = forms[k]
                if f is not None:
                    tally.add(f, learner or label, qids[k], marks[k])
            tally = None
        if form is not None and forms is not None:
            kept = [k for k in kept if (f := forms[k]) is not None and f["name"] == form]
        qids, marks, times = [qids[k] for k in kept], [marks[k] for k in kept], [times[k] for k in kept]
        kept_uids = [uids[k] for k in kept] if uids is not None else None
    if tally is not None and forms is not None:
        for f, q, m in zip(forms, qids, marks):
            if f is not None:
                tally.add(f, learner or label, q, m)
    return ProgressExport(label, times, shown_ids(qids), marks, kept_uids, uids, len(attempts), learner)


# ``study export`` keeps the store's learner id in its settings, the last part of the file; the default xAPI
# actor is named ``<user>-<learner id>``, which is how the two forms of one learner are matched.
_LEARNER_ID = re.compile(r"[A-Za-z0-9]{6,64}")
_LEARNER_IN_SETTINGS = re.compile(r'"learner_id":\s{0,8}"([A-Za-z0-9]{6,64})"')


def merge_exports(exports: list[ProgressExport], warnings: list[str]) -> list[Learner]:
    learners = []
    merged: list[list[str]] = []  # the files of each learner who sent several exports of one store
    for group in same_store_groups(exports):
        if len(group) == 1:
            ex = exports[group[0]]
            learners.append(Learner(ex.label, first_marks(ex.times, ex.qids, ex.marks), ex.read))
            continue
        # Each attempt once, by uid, whichever file it was read from first.
        times: list[Any] = []
        qids: list[str] = []
        marks: list[float] = []
        taken: set[str] = set()
        for i in group:
            ex = exports[i]
            assert ex.kept_uids is not None  # only files with uids can share one
            for t, q, m, u in zip(ex.times, ex.qids, ex.marks, ex.kept_uids):
                if u not in taken:
                    taken.add(u)
                    times.append(t)
                    qids.append(q)
                    marks.append(m)
        every = set().union(*(exports[i].uids or () for i in group))
        if len(set(map(type, times))) > 1:  # the export's own time text beside parsed times: parse all
            times = [parse_time(t, exports[group[0]].label) if isinstance(t, str) else t for t in times]
        labels = [exports[i].label for i in group]
        learners.append(Learner(labels[0], first_marks(times, qids, marks), len(every)))
        merged.append(labels)
    if len(merged) == 1:
        labels = merged[0]
        shown = ", ".join(labels[:4]) + (f" and {len(labels) - 4} more" if len(labels) > 4 else "")
        warnings.append(f"{len(labels)} progress exports share answers (the same attempt ids), so they come from one "
                        f"store: counted as one learner, each answer once ({shown})")
    elif merged:
        # One line for the class, not one per learner: 30 learners who each sent two backups gave 30 lines.
        shown = "; ".join(" + ".join(labels) for labels in merged[:3])
        more = f"; and {len(merged) - 3} more" if len(merged) > 3 else ""
        warnings.append(f"{len(merged)} learners each sent several progress exports of one store (the same attempt "
                        f"ids): each counted as one learner, each answer once ({shown}{more})")
    return learners


# ``study export`` writes these keys first, in this order, and none of their values can hold a quote.
_EXPORT_HEAD = re.compile(
    r'\s*\{\s*"format":\s*"study-progress",\s*"version":\s*(\d{1,9}),\s*"schema":\s*-?\d+,'
    r'\s*"exported_at":\s*"[^"\\]*",\s*"attempts":\s*(?=\[)'
)


def export_attempts(text: str) -> dict[str, Any] | None:
    """Only the attempts of an export as ``study export`` writes it: its sessions (whole exam states) and
    schedule are often most of the file and item analysis needs none of them. None: parse it all instead."""
    head = _EXPORT_HEAD.match(text)
    if head is None or not text.rstrip().endswith("}"):
        return None
    try:
        attempts, _ = raw_decode_json(text, head.end())
    except json.JSONDecodeError:
        return None  # the full parse reports where
    tail = _LEARNER_IN_SETTINGS.findall(text, max(0, len(text) - 65536))
    return {"format": PROGRESS_FORMAT, "version": int(head.group(1)), "attempts": attempts,
            "learner": tail[-1] if tail else None}
