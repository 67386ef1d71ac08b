"""Reading many learners' exported results into a learner x question matrix of first-answer marks.

Accepted inputs, told apart by content, not by name:

- a progress export (``study export``): one JSON object with ``"format": "study-progress"``; one file is
  one learner, except that exports sharing any attempt ``uid`` come from one store (a backup before and after
  more practice) and are merged into one learner, each attempt counted once;
- xAPI statements (``study export --format xapi``): JSON lines, a JSON array, or an LRS's answer to
  ``GET statements`` (``{"statements": [...], "more": ...}``: only the statements in the file are read, and a
  non-empty ``more`` is reported); statements are grouped by actor across all files (a statement id met twice
  counts once); ``answered`` statements count, and ``attempted`` ones with a result (an exam question left
  unanswered, marked 0); the question id is the last segment of the object IRI, the mark
  ``result.score.scaled`` (partial credit) or else ``result.success``, the mode the parent activity. Several
  JSON-lines files that each hold one actor, the same one, without a statement in common, look like several
  learners exported with one ``--actor`` (all logged in as the same user): still one learner, with a warning.
  Many actors in one file, or one actor across an LRS's pages, is normal and says nothing;
- a directory: every ``*.json``, ``*.jsonl`` and ``*.ndjson`` file below it. Files there that are neither
  (a settings file, a note) are skipped and listed; a named file that is neither is an error, and a progress
  store (SQLite) given by mistake gets the export command to run.

A progress export and an xAPI export of the same learner cannot be matched (xAPI statements carry no attempt
uid): give one kind per learner.

Like Moodle's statistics, which use each student's first attempt, a learner's mark for a question is the
mark of their *first* answer to it (in time order) among the answers the mode keeps.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from operator import itemgetter
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Iterator, Mapping
from urllib.parse import unquote

import numpy as np

from study.analysis.answers import Answer, Response, response_of, response_of_statement
from study.analysis.learner_reports import reports_of_export
from study.analysis.merge import same_store_groups
from study.inputs import MAX_JSON_INPUT, InputFileError, parse_json, raw_decode_json, read_bounded

PROGRESS_FORMAT = "study-progress"
RESULT_SUFFIXES = (".json", ".jsonl", ".ndjson")
MODES = ("all", "exam", "practice", "lab")
ANSWERED_VERB = "http://adlnet.gov/expapi/verbs/answered"
ATTEMPTED_VERB = "http://adlnet.gov/expapi/verbs/attempted"  # an exam question left unanswered
STUDY_MODES = ("exam", "quiz", "practice", "review", "lab")
SQLITE_MAGIC = b"SQLite format 3\x00"


class ResultsError(ValueError):
    """A results file cannot be read; the message starts with its location."""


@dataclass(frozen=True)
class Responses:
    """``marks[l, q]``: learner l's first mark on question q (0..1), NaN when l never answered q."""

    learners: tuple[str, ...]
    questions: tuple[str, ...]
    marks: np.ndarray
    files: int = 0
    answers: int = 0  # answers read (all of them, before keeping each learner's first per question)
    skipped: tuple[str, ...] = field(default=())  # files passed over, each "path: why"
    warnings: tuple[str, ...] = field(default=())  # learners merged or likely mixed up, pages not read
    reports: tuple[dict[str, Any], ...] = field(default=())  # learners' reports of problems, from exports
    given: Mapping[tuple[int, int], Response] = field(default_factory=dict)  # (l, q): the first answer's response


@dataclass
class _Learner:
    label: str
    first: dict[str, float]  # question id -> mark of the first answer
    answers: int  # answers read, before keeping the first per question


@dataclass
class _Export:
    """One progress export's answers that the mode keeps, as columns, and the uids of all its attempts."""

    label: str
    times: list[Any]
    qids: list[str]
    marks: list[float]
    kept_uids: list[str] | None  # the uid of each kept answer, None when the file has no uids
    uids: list[str] | None  # every attempt's uid, None for a hand-made file without them
    read: int  # attempts in the file, whatever the mode
    learner: str | None = None  # the store's learner id (its settings), which default xAPI actors carry


def first_marks(times: list[Any], qids: list[str], marks: list[float]) -> dict[str, float]:
    """The mark of the earliest answer to each question; ties keep the order read."""
    if times != sorted(times):  # exports are written in time order: sort only what is not
        order = sorted(range(len(times)), key=times.__getitem__)
        qids = [qids[k] for k in order]
        marks = [marks[k] for k in order]
    # Read backwards, the earliest answer to a question is written last and stays.
    return dict(zip(reversed(qids), reversed(marks)))


def keeps(mode: str, attempt_mode: str | None) -> bool:
    """Whether ``--mode`` keeps an answer given in ``attempt_mode``; practice is everything but exams (labs
    included: a lab task is answered while learning), ``lab`` only the operations labs' tasks."""
    if mode == "all":
        return True
    if mode in ("exam", "lab"):
        return attempt_mode == mode
    return attempt_mode != "exam"


def expand(paths: Iterable[str | os.PathLike[str]]) -> list[tuple[Path, bool]]:
    """The files to read, each with whether it was named (True) or found in a directory (False)."""
    found: list[tuple[Path, bool]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            inside = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in RESULT_SUFFIXES)
            if not inside:
                raise ResultsError(f"{path}: no .json, .jsonl or .ndjson files in this directory")
            found.extend((p, False) for p in inside)
        elif path.exists():
            found.append((path, True))
        else:
            raise ResultsError(f"{path}: no such file or directory")
    return found


def _time(value: Any, where: str) -> dt.datetime:
    if not isinstance(value, str):
        raise ResultsError(f"{where}: the time must be an ISO 8601 string, not {value!r}")
    try:
        at = dt.datetime.fromisoformat(value.replace("Z", "+00:00") if value.endswith("Z") else value)
    except ValueError:
        raise ResultsError(f"{where}: {value!r} is not an ISO 8601 time") from None
    return at if at.tzinfo else at.replace(tzinfo=dt.timezone.utc)


def _sortable(times: list[Any], where: str) -> list[Any]:
    """Times that sort chronologically: the export's own UTC form sorts as text, anything else is parsed."""
    # map() keeps the checks in C: this runs once per attempt of every learner.
    if times and set(map(type, times)) == {str} and set(map(len, times)) == {32} \
            and set(map(itemgetter(slice(26, None)), times)) == {"+00:00"}:
        return times
    return [_time(t, f"{where} {n + 1}") for n, t in enumerate(times)]


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
        _time(a.get("at"), where)
    return ResultsError(f"{label}: unreadable attempts")  # pragma: no cover - the fast path found something


def _shown_ids(qids: list[str]) -> list[str]:
    """Question ids from a file are printed in the table: a control character in one (an ESC, or %1b in an
    xAPI object IRI) is shown escaped (issue 19, defect 8). Bank ids never hold one, so matching is unchanged."""
    from study.untrusted import has_controls, shown

    if not any(has_controls(q) or "\n" in q for q in qids):
        return qids
    return [shown(q, keep_newlines=False) for q in qids]


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


def _progress_export(data: dict[str, Any], label: str, mode: str) -> _Export:
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
    marks = [Answer(1.0 if c else 0.0, a, response_of) for c, a in zip(correct, attempts)]
    try:
        uids: list[str] | None = list(map(str, [a["uid"] for a in attempts]))
    except KeyError:  # a hand-made file: no way to tell a copy
        uids = None
    kept_uids = uids
    if mode != "all":
        kept = [k for k, a in enumerate(attempts) if keeps(mode, a.get("mode"))]
        qids, marks, times = [qids[k] for k in kept], [marks[k] for k in kept], [times[k] for k in kept]
        kept_uids = [uids[k] for k in kept] if uids is not None else None
    settings = data.get("settings")
    learner = data.get("learner") or (settings.get("learner_id") if isinstance(settings, dict) else None)
    return _Export(label, times, _shown_ids(qids), marks, kept_uids, uids, len(attempts),
                   learner if isinstance(learner, str) and _LEARNER_ID.fullmatch(learner) else None)


# ``study export`` keeps the store's learner id in its settings, the last part of the file; the default xAPI
# actor is named ``<user>-<learner id>``, which is how the two forms of one learner are matched.
_LEARNER_ID = re.compile(r"[A-Za-z0-9]{6,64}")
_LEARNER_IN_SETTINGS = re.compile(r'"learner_id":\s{0,8}"([A-Za-z0-9]{6,64})"')
_ACTOR_LEARNER = re.compile(r"-([A-Za-z0-9]{6,64})")


def _merge_exports(exports: list[_Export], warnings: list[str]) -> list[_Learner]:
    learners = []
    for group in same_store_groups(exports):
        if len(group) == 1:
            ex = exports[group[0]]
            learners.append(_Learner(ex.label, first_marks(ex.times, ex.qids, ex.marks), ex.read))
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
            times = [_time(t, exports[group[0]].label) if isinstance(t, str) else t for t in times]
        labels = [exports[i].label for i in group]
        learners.append(_Learner(labels[0], first_marks(times, qids, marks), len(every)))
        shown = ", ".join(labels[:4]) + (f" and {len(labels) - 4} more" if len(labels) > 4 else "")
        warnings.append(f"{len(labels)} progress exports share answers (the same attempt ids), so they come from one "
                        f"store: counted as one learner, each answer once ({shown})")
    return learners


def _join_both_forms(exports: list[_Export], actors: _XapiActors, warnings: list[str]) -> None:
    """A learner who sent both a progress export and xAPI statements is one learner: the xAPI answers join
    that export's (an answer in both, same question and second, once) when the actor carries the store's
    learner id; the class is warned when the two forms are mixed and some cannot be matched."""
    by_learner = {ex.learner: ex for ex in exports if ex.learner}
    unmatched = 0
    for key in list(actors.read):
        name = key.rsplit("|", 1)[-1]
        found = _ACTOR_LEARNER.search(name)
        ex = by_learner.get(found.group(1)) if found and found.end() == len(name) else None
        if ex is None:
            unmatched += 1
            continue
        times, qids, marks = actors.columns.pop(key, ([], [], []))
        read = actors.read.pop(key)
        # An xAPI-only answer gets a uid of its own, so exports of one store still merge by their uids.
        uids = (ex.kept_uids or [f"{ex.label}#{n}" for n in range(len(ex.qids))]) + \
            [f"xapi|{key}|{n}" for n in range(len(qids))]
        both = [(_time(t, ex.label) if isinstance(t, str) else t, q, m, u)
                for t, q, m, u in zip(ex.times + times, ex.qids + qids, ex.marks + marks, uids)]
        seen: set[tuple[Any, str]] = set()
        kept = []
        for item in sorted(both, key=itemgetter(0)):
            mark = (item[0].replace(microsecond=0), item[1])
            if mark not in seen:
                seen.add(mark)
                kept.append(item)
        ex.times, ex.qids, ex.marks = [k[0] for k in kept], [k[1] for k in kept], [k[2] for k in kept]
        if ex.kept_uids is not None:
            ex.kept_uids = [k[3] for k in kept]
        ex.read = max(ex.read, read, len(kept))
        warnings.append(f"{ex.label} and the xAPI statements of {name} are one learner (learner id "
                        f"{ex.learner}): counted once")
    if unmatched and exports:
        warnings.append(f"{unmatched} xAPI learner(s) and {len(exports)} progress export(s) could not be matched "
                        "(an --actor hides the store's learner id): a learner who sent both counts twice")


def _actor_key(actor: Any) -> str | None:
    if not isinstance(actor, dict):
        return None
    if isinstance(actor.get("mbox"), str):
        return actor["mbox"]
    account = actor.get("account")
    if isinstance(account, dict) and "name" in account:
        return f"{account.get('homePage', '')}|{account['name']}"
    for key in ("mbox_sha1sum", "openid", "name"):
        if isinstance(actor.get(key), str):
            return actor[key]
    return None


def _xapi_mark(result: Any, where: str) -> float:
    if not isinstance(result, dict):
        raise ResultsError(f"{where}: an answer statement needs a result")
    score = result.get("score")
    if isinstance(score, dict) and type(score.get("scaled")) in (int, float):
        if score["scaled"] != score["scaled"] or abs(score["scaled"]) == float("inf"):
            raise ResultsError(f"{where}: result.score.scaled must be a number from -1 to 1, not {score['scaled']}")
        # Partial credit when the statement carries it; a negative scaled score counts as nothing.
        return min(max(float(score["scaled"]), 0.0), 1.0)
    success = result.get("success")
    if isinstance(success, bool):
        return float(success)
    raise ResultsError(f"{where}: an answer statement needs result.success or result.score.scaled")


def _xapi_mode(statement: Mapping[str, Any]) -> str | None:
    """The study mode of an answer: ``study export --format xapi`` makes the assessment ``<base>/<mode>`` the
    statement's parent activity."""
    context = statement.get("context")
    activities = context.get("contextActivities") if isinstance(context, dict) else None
    parents = activities.get("parent") if isinstance(activities, dict) else None
    for parent in parents if isinstance(parents, list) else [parents]:
        pid = parent.get("id") if isinstance(parent, dict) else None
        if isinstance(pid, str):
            last = pid.rstrip("/").rsplit("/", 1)[-1]
            if last in STUDY_MODES:
                return last
    return None


def _question_id(iri: str) -> str:
    """``<base>/questions/<id>`` (a templated instance adds ``?name=value``): the id is the last segment."""
    return _shown_ids([unquote(iri.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1])])[0]


def _xapi_statements(text: str, label: str, parsed: Any) -> Iterator[tuple[Mapping[str, Any], str]]:
    """Each statement with its location; ``parsed`` is the file's JSON when it was one value, else None."""
    if parsed is None and text.lstrip().startswith("["):
        try:
            parsed = parse_json(text)
        except json.JSONDecodeError as exc:
            raise ResultsError(f"{label}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    if isinstance(parsed, dict) and isinstance(parsed.get("statements"), list):
        parsed = parsed["statements"]  # an LRS's StatementResult
    if isinstance(parsed, list):
        for n, st in enumerate(parsed):
            yield st, f"{label}: statement {n + 1}"
        return
    if isinstance(parsed, dict):  # one statement alone
        yield parsed, f"{label}:1"
        return
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            st = parse_json(line)
        except json.JSONDecodeError as exc:
            raise ResultsError(f"{label}:{lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
        yield st, f"{label}:{lineno}"


@dataclass
class _XapiFile:
    label: str
    lines: bool  # JSON lines, as ``study export --format xapi`` writes; not an LRS's answer
    ids: dict[str, set[str]] = field(default_factory=dict)  # actor -> the statement ids read for it


@dataclass
class _XapiActors:
    """Answers per actor over every xAPI file: an LRS may split one learner's statements across files, and a
    statement met twice (the same export given twice) counts once, by its id."""

    columns: dict[str, tuple[list[Any], list[str], list[float]]] = field(default_factory=dict)
    read: dict[str, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    duplicates: int = 0
    files: list[_XapiFile] = field(default_factory=list)

    def learners(self) -> list[_Learner]:
        return [_Learner(actor, first_marks(*self.columns.get(actor, ([], [], []))), n)
                for actor, n in self.read.items()]

    def shared_actors(self) -> list[str]:
        """Warnings for actors that look like several learners under one name: JSON-lines files (``study
        export``'s form) each holding only that actor, in two or more groups with no statement in common (an
        export repeated after more practice shares its earlier statements, so it is not another learner)."""
        by_actor: dict[str, list[_XapiFile]] = {}
        for f in self.files:
            if f.lines and len(f.ids) == 1:
                by_actor.setdefault(next(iter(f.ids)), []).append(f)
        out = []
        for actor, files in by_actor.items():
            if len(files) < 2:
                continue
            groups: list[set[str]] = []
            for f in files:
                ids = f.ids[actor]
                touching = [g for g in groups if ids and not g.isdisjoint(ids)]
                merged = set(ids).union(*touching)
                groups = [g for g in groups if all(g is not t for t in touching)] + [merged]
            if len(groups) > 1:
                out.append(f"{len(files)} files share the actor {actor}; they are counted as one learner — give "
                           "each learner their own --actor")
        return out


def _read_xapi(text: str, label: str, mode: str, actors: _XapiActors, parsed: Any = None) -> None:
    lrs = text.lstrip().startswith("[") or isinstance(parsed, dict) and "statements" in parsed
    file = _XapiFile(label, lines=not lrs)
    actors.files.append(file)
    for st, where in _xapi_statements(text, label, parsed):
        if not isinstance(st, dict) or "verb" not in st or "actor" not in st:
            raise ResultsError(f"{where}: not an xAPI statement (no actor or verb)")
        verb = st["verb"].get("id") if isinstance(st["verb"], dict) else None
        # completed / passed / failed are about a whole exam, not a question.
        if verb not in (ANSWERED_VERB, ATTEMPTED_VERB):
            continue
        result = st.get("result")
        if verb == ATTEMPTED_VERB and not isinstance(result, dict):
            continue  # only an unanswered exam question (with its mark of 0) says anything about the question
        actor = _actor_key(st["actor"])
        if actor is None:
            raise ResultsError(f"{where}: the actor has no mbox, account or name")
        obj = st.get("object")
        oid = obj.get("id") if isinstance(obj, dict) else None
        if not isinstance(oid, str) or not _question_id(oid):
            raise ResultsError(f"{where}: the object has no id")
        mark = Answer(_xapi_mark(result, where), st, response_of_statement)
        sid = st.get("id")
        ids = file.ids.setdefault(actor, set())
        if isinstance(sid, str):
            ids.add(sid)
            if sid in actors.seen:
                actors.duplicates += 1
                continue
            actors.seen.add(sid)
        actors.read[actor] = actors.read.get(actor, 0) + 1
        if not keeps(mode, _xapi_mode(st)):
            continue
        times, qids, marks = actors.columns.setdefault(actor, ([], [], []))
        times.append(_time(st.get("timestamp"), where))
        qids.append(_question_id(oid))
        marks.append(mark)


# ``study export`` writes these keys first, in this order, and none of their values can hold a quote.
_EXPORT_HEAD = re.compile(
    r'\s*\{\s*"format":\s*"study-progress",\s*"version":\s*(\d{1,9}),\s*"schema":\s*-?\d+,'
    r'\s*"exported_at":\s*"[^"\\]*",\s*"attempts":\s*(?=\[)'
)


def _export_attempts(text: str) -> dict[str, Any] | None:
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


def _kind(text: str) -> tuple[str, Any]:
    """("progress", data) | ("xapi", the file's one JSON value or None) | ("other", why)."""
    head = text.lstrip()[:1]
    if head == "{":
        fast = _export_attempts(text)
        if fast is not None:
            return "progress", fast
        try:
            data = parse_json(text)
        except json.JSONDecodeError as exc:
            if exc.msg == "Extra data":  # several JSON values: JSON lines
                return "xapi", None
            return "other", exc
        if isinstance(data, dict) and data.get("format") == PROGRESS_FORMAT:
            return "progress", data
        if isinstance(data, dict) and ("verb" in data and "actor" in data or isinstance(data.get("statements"), list)):
            return "xapi", data
        return "other", "neither a progress export (\"format\": \"study-progress\") nor xAPI statements"
    if head == "[":
        return "xapi", None
    return "other", "neither a progress export nor xAPI statements (not JSON)"


def _store_advice(path: Path, label: str) -> str:
    out = path.with_suffix(".json")
    if out == path:
        out = path.with_name(f"{path.stem}-export.json")
    return (f"{label} is a progress store, not an export: run `study --db {shlex.quote(label)} export "
            f"{shlex.quote(str(out))}` first")


def _more(parsed: Any, label: str) -> str | None:
    """The warning for an LRS page that says there are more statements (they are not fetched)."""
    more = parsed.get("more") if isinstance(parsed, dict) and "statements" in parsed else None
    if isinstance(more, str) and more.strip():
        return (f"{label}: the LRS has more statements than this file holds (\"more\": {more}); only the ones "
                "in the file were read — fetch the next pages into files of their own and analyse them together")
    return None


def load_results(paths: Iterable[str | os.PathLike[str]], mode: str = "all") -> Responses:
    """Read every results file and keep each learner's first mark on each question."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    files = expand(paths)
    exports: list[_Export] = []
    skipped: list[str] = []
    warnings: list[str] = []
    actors = _XapiActors()
    reports: list[dict[str, Any]] = []
    for path, named in files:
        label = str(path)
        try:
            raw = read_bounded(path, MAX_JSON_INPUT)
        except InputFileError as exc:
            if named:
                raise ResultsError(str(exc)) from None
            skipped.append(str(exc))  # a FIFO or a huge file found in a folder: the rest still counts
            continue
        if raw.startswith(SQLITE_MAGIC):
            if named:
                raise ResultsError(_store_advice(path, label))
            skipped.append(f"{label}: a progress store, not an export")
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if named:
                raise ResultsError(f"{label}: not UTF-8 text, so neither a progress export nor xAPI statements") \
                    from None
            skipped.append(f"{label}: not UTF-8 text")
            continue
        try:
            kind, data = _kind(text)
        except RecursionError:
            kind, data = "other", "JSON nested too deeply to be a progress export or xAPI statements"
        if kind == "other":
            if isinstance(data, json.JSONDecodeError):
                why = f"not valid JSON: {data.msg}"
                if named:
                    raise ResultsError(f"{label}:{data.lineno}:{data.colno}: {why}")
            else:
                why = str(data)
                if named:
                    raise ResultsError(f"{label}: {why}")
            skipped.append(f"{label}: {why}")
            continue
        if kind == "progress":
            exports.append(_progress_export(data, label, mode))
            reports.extend(reports_of_export(text, data))
            continue
        try:
            _read_xapi(text, label, mode, actors, data)
        except RecursionError:  # one statement per line can still nest deeply
            raise ResultsError(f"{label}: JSON nested too deeply to be xAPI statements") from None
        more = _more(data, label)
        if more:
            warnings.append(more)
    _join_both_forms(exports, actors, warnings)
    learners = _merge_exports(exports, warnings)
    learners.extend(actors.learners())
    warnings.extend(actors.shared_actors())
    if actors.duplicates:
        skipped.append(f"{actors.duplicates} xAPI statement(s) met twice (same statement id): counted once")
    return replace(_matrix(learners, len(files), skipped, warnings), reports=tuple(reports))


def load_results_from_pages(pages: Iterable[Mapping[str, Any]], label: str, mode: str = "all") -> Responses:
    """The same analysis input as ``load_results``, from an LRS's StatementResult pages read one at a time
    (``study analyze --lrs``): only the marks are kept, never a page once it has been read."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    actors = _XapiActors()
    n_pages = 0
    for n_pages, page in enumerate(pages, 1):
        _read_xapi("", f"{label} page {n_pages}", mode, actors, dict(page))
    skipped = []
    if actors.duplicates:
        skipped.append(f"{actors.duplicates} xAPI statement(s) met twice (same statement id): counted once")
    return _matrix(actors.learners(), n_pages, skipped, [])


def _matrix(learners: list[_Learner], n_files: int, skipped: list[str], warnings: list[str]) -> Responses:
    kept = [lr for lr in learners if lr.first]
    questions = sorted({q for lr in kept for q in lr.first})
    column = {q: i for i, q in enumerate(questions)}
    marks = np.full((len(kept), len(questions)), np.nan)
    rows = [r for r, lr in enumerate(kept) for _ in lr.first]
    cols = [column[q] for lr in kept for q in lr.first]
    vals = [m for lr in kept for m in lr.first.values()]
    if rows:
        marks[rows, cols] = vals
    given = {(r, c): v.response for r, c, v in zip(rows, cols, vals) if getattr(v, "response", None) is not None}
    return Responses(
        learners=tuple(lr.label for lr in kept),
        questions=tuple(questions),
        marks=marks,
        files=n_files,
        answers=sum(lr.answers for lr in learners),
        skipped=tuple(skipped),
        warnings=tuple(warnings),
        given=given,
    )
