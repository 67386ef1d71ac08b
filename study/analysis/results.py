"""Reading many learners' exported results into a learner x question matrix of first-answer marks.

Accepted inputs, told apart by content, not by name:

- a progress export (``study export``): one JSON object with ``"format": "study-progress"``; one file is
  one learner, except that exports sharing any attempt ``uid`` come from one store (a backup before and after
  more practice) and are merged into one learner, each attempt counted once;
- xAPI statements (``study export --format xapi``): JSON lines, a JSON array, or an LRS's answer to
  ``GET statements`` (``{"statements": [...], "more": ...}``: only the statements in the file are read, and a
  non-empty ``more`` is reported); statements are grouped by actor across all files (a statement id met twice
  counts once); ``answered`` statements count, and ``attempted`` ones with a result (an exam question left
  unanswered, marked 0), unless a ``voided`` statement in any of the files names them (a regrade); the
  question id is the last segment of the object IRI, the mark ``result.score.scaled`` (partial credit) or else
  ``result.success``, the mode the parent activity. Several
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

import json
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from operator import itemgetter
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping

import numpy as np

from study.analysis.answers import Answer, Response
from study.analysis.forms import EXPORT_MARK as FORM_IN_EXPORT
from study.analysis.forms import STATEMENT_MARK as FORM_IN_STATEMENTS
from study.analysis.forms import FormTally
from study.analysis.learner_reports import reports_of_export
from study.analysis.results_exports import (
    PROGRESS_FORMAT,
    ProgressExport,
    export_attempts,
    merge_exports,
    progress_export,
)
from study.analysis.results_marks import Learner, ResultsError, first_marks, keeps, parse_time
from study.analysis.results_xapi import ANSWERED_VERB, ATTEMPTED_VERB, STUDY_MODES, XapiActors, more_warning, read_xapi
from study.inputs import MAX_JSON_INPUT, InputFileError, parse_json, read_bounded

# The readers of each form live beside this module (results_exports, results_xapi, results_marks); the names
# callers use are all here.
__all__ = [
    "ANSWERED_VERB",
    "ATTEMPTED_VERB",
    "MODES",
    "PROGRESS_FORMAT",
    "RESULT_SUFFIXES",
    "STUDY_MODES",
    "Responses",
    "ResultsError",
    "expand",
    "first_marks",
    "keeps",
    "load_results",
    "load_results_from_pages",
]

RESULT_SUFFIXES = (".json", ".jsonl", ".ndjson")
MODES = ("all", "exam", "practice", "lab")
SQLITE_MAGIC = b"SQLite format 3\x00"


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
    # The class exam forms the answers were given in (``study.analysis.forms``), each with its counts.
    forms: tuple[dict[str, Any], ...] = field(default=())
    form: str | None = None  # the one form whose answers were kept (``--form``), None: every answer


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


# The default xAPI actor is named ``<user>-<learner id>`` after the store's learner id, which progress exports
# keep in their settings (``results_exports``): that is how the two forms of one learner are matched.
_ACTOR_LEARNER = re.compile(r"-([A-Za-z0-9]{6,64})")


def _join_both_forms(exports: list[ProgressExport], actors: XapiActors, warnings: list[str]) -> None:
    """A learner who sent both a progress export and xAPI statements is one learner: the xAPI answers join
    that export's (an answer in both, same question and second, once) when the actor carries the store's
    learner id; the class is warned when the two forms are mixed and some cannot be matched."""
    by_learner = {ex.learner: ex for ex in exports if ex.learner}
    named: list[str] = []  # actors that carry no learner id: given with --actor
    joined: list[tuple[str, str, str]] = []  # (export, actor name, learner id) of each learner matched
    for key in list(actors.read):
        name = key.rsplit("|", 1)[-1]
        found = _ACTOR_LEARNER.search(name)
        carries_id = bool(found and found.end() == len(name)) and "@" not in key
        ex = by_learner.get(found.group(1)) if found and carries_id else None
        if ex is None:
            if not carries_id:
                named.append(key)
            continue
        times, qids, marks = actors.columns.pop(key, ([], [], []))
        read = actors.read.pop(key)
        # An xAPI-only answer gets a uid of its own, so exports of one store still merge by their uids.
        uids = (ex.kept_uids or [f"{ex.label}#{n}" for n in range(len(ex.qids))]) + \
            [f"xapi|{key}|{n}" for n in range(len(qids))]
        both = [(parse_time(t, ex.label) if isinstance(t, str) else t, q, m, u)
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
        joined.append((ex.label, name, str(ex.learner)))
    if len(joined) == 1:
        label, name, learner = joined[0]
        warnings.append(f"{label} and the xAPI statements of {name} are one learner (learner id {learner}): "
                        "counted once")
    elif joined:
        # One line with the count: a class that sends both forms would otherwise get a line per learner.
        shown = ", ".join(f"{label} + {name}" for label, name, _ in joined[:3])
        more = f", and {len(joined) - 3} more" if len(joined) > 3 else ""
        warnings.append(f"{len(joined)} learners sent both a progress export and xAPI statements, matched by their "
                        f"learner id: each counted once ({shown}{more})")
    if not (exports and actors.read):
        return
    # Each cause in its own words: an actor and an export that both carry learner ids and differ are two
    # learners, each with one form, and say nothing.
    no_id = [ex.label for ex in exports if not ex.learner]
    if no_id:
        warnings.append(f"{len(no_id)} progress export(s) carry no learner id ({_some(no_id)}): written by a study "
                        "from before every export carried one, they cannot be matched with xAPI statements, so "
                        "a learner who sent both counts twice; export it again with this version")
    if named:
        warnings.append(f"{len(named)} xAPI actor(s) given with --actor ({_some(named)}) carry no store learner "
                        "id, so they cannot be matched with progress exports: a learner who sent both counts "
                        "twice")


def _some(names: list[str], n: int = 3) -> str:
    return ", ".join(names[:n]) + (f" and {len(names) - n} more" if len(names) > n else "")


def _kind(text: str) -> tuple[str, Any]:
    """("progress", data) | ("xapi", the file's one JSON value or None) | ("other", why)."""
    head = text.lstrip()[:1]
    if head == "{":
        fast = export_attempts(text)
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


def load_results(paths: Iterable[str | os.PathLike[str]], mode: str = "all", form: str | None = None) -> Responses:
    """Read every results file and keep each learner's first mark on each question (with ``form``, among the
    answers given in that class exam form only)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    files = expand(paths)
    exports: list[ProgressExport] = []
    skipped: list[str] = []
    warnings: list[str] = []
    actors = XapiActors()
    reports: list[dict[str, Any]] = []
    pages_left: list[tuple[str, str]] = []  # (file, warning) of each LRS page that says there are more
    tally = FormTally()
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
            exports.append(progress_export(data, label, mode, form=form,
                                           tally=tally if FORM_IN_EXPORT in text else None))
            reports.extend(reports_of_export(text, data))
            continue
        try:
            read_xapi(text, label, mode, actors, data, form=form,
                      tally=tally if FORM_IN_STATEMENTS in text else None)
        except RecursionError:  # one statement per line can still nest deeply
            raise ResultsError(f"{label}: JSON nested too deeply to be xAPI statements") from None
        more = more_warning(data, label)
        if more:
            pages_left.append((label, more))
    actors.apply_voids()  # before the xAPI answers join a progress export's: a voided one joins nothing
    if len(pages_left) == 1:
        warnings.append(pages_left[0][1])
    elif pages_left:
        warnings.append(f"{len(pages_left)} files are LRS pages that say the LRS has more statements than they hold "
                        f"({_some([label for label, _ in pages_left])}); only the ones in the files were read — fetch the next pages into "
                        "files of their own and analyse them together")
    _join_both_forms(exports, actors, warnings)
    learners = merge_exports(exports, warnings)
    learners.extend(actors.learners())
    warnings.extend(actors.shared_actors())
    skipped.extend(actors.notes())
    return replace(_matrix(learners, len(files), skipped, warnings), reports=tuple(reports),
                   forms=tally.summary(), form=form)


def load_results_from_pages(pages: Iterable[Mapping[str, Any]], label: str, mode: str = "all",
                            form: str | None = None) -> Responses:
    """The same analysis input as ``load_results``, from an LRS's StatementResult pages read one at a time
    (``study analyze --lrs``): only the marks are kept, never a page once it has been read."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    actors = XapiActors()
    tally = FormTally()
    n_pages = 0
    for n_pages, page in enumerate(pages, 1):
        read_xapi("", f"{label} page {n_pages}", mode, actors, dict(page), form=form, tally=tally)
    actors.apply_voids()
    return replace(_matrix(actors.learners(), n_pages, actors.notes(), []), forms=tally.summary(), form=form)


def _matrix(learners: list[Learner], n_files: int, skipped: list[str], warnings: list[str]) -> Responses:
    kept = [lr for lr in learners if lr.first]
    questions = sorted({q for lr in kept for q in lr.first})
    column = {q: i for i, q in enumerate(questions)}
    marks = np.full((len(kept), len(questions)), np.nan)
    rows = [r for r, lr in enumerate(kept) for _ in lr.first]
    cols = [column[q] for lr in kept for q in lr.first]
    vals = [m for lr in kept for m in lr.first.values()]
    if rows:
        marks[rows, cols] = vals
    given = {(r, c): v.response for r, c, v in zip(rows, cols, vals)
             if isinstance(v, Answer) and v.response is not None}
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
