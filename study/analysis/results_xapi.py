"""Reading xAPI statements for item analysis: JSON lines, a JSON array or an LRS's StatementResult page;
``answered`` statements (and ``attempted`` ones with a result) grouped by actor across every file, each
statement id counted once, with the mark, the question id and the study mode read from each. A statement
voided by another (verb ``voided``, object a ``StatementRef`` to its id: xAPI 1.0.3, Data 2.3.2; what
``study regrade`` sends) is not counted, wherever the void is read: in the same file, a later file or a later
page of the LRS. An LRS should leave voided statements out of its answers (Communication 2.1.3), but not every
one does (Ralph 5.1 returns them), and files never do."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterator, Mapping
from urllib.parse import unquote

from study.analysis.answers import Answer, response_of_statement
from study.analysis.forms import FormTally, form_of_statement
from study.analysis.results_marks import Learner, ResultsError, first_marks, keeps, parse_time, shown_ids
from study.inputs import parse_json

ANSWERED_VERB = "http://adlnet.gov/expapi/verbs/answered"
ATTEMPTED_VERB = "http://adlnet.gov/expapi/verbs/attempted"  # an exam question left unanswered
VOIDED_VERB = "http://adlnet.gov/expapi/verbs/voided"
STUDY_MODES = ("exam", "quiz", "practice", "review", "lab")


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
    return shown_ids([unquote(iri.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1])])[0]


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
class XapiActors:
    """Answers per actor over every xAPI file: an LRS may split one learner's statements across files, and a
    statement met twice (the same export given twice) counts once, by its id."""

    columns: dict[str, tuple[list[Any], list[str], list[float]]] = field(default_factory=dict)
    read: dict[str, int] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    duplicates: int = 0
    files: list[_XapiFile] = field(default_factory=list)
    answer_ids: dict[str, list[str | None]] = field(default_factory=dict)  # actor -> statement id of each column row
    counted_ids: dict[str, list[str]] = field(default_factory=dict)  # actor -> every answer statement id counted
    voided: set[str] = field(default_factory=set)  # ids the voiding statements read name (lower case)
    voided_answers: int = 0

    def apply_voids(self) -> None:
        """Take every voided answer out, once all statements are read (a void may come after its target)."""
        if not self.voided:
            return
        for actor, ids in self.counted_ids.items():
            gone = sum(1 for i in ids if i.lower() in self.voided)
            if gone:
                self.read[actor] -= gone
                self.voided_answers += gone
        for actor, row_ids in self.answer_ids.items():
            keep = [k for k, i in enumerate(row_ids) if i is None or i.lower() not in self.voided]
            if len(keep) == len(row_ids):
                continue
            times, qids, marks = self.columns[actor]
            self.columns[actor] = ([times[k] for k in keep], [qids[k] for k in keep], [marks[k] for k in keep])
            self.answer_ids[actor] = [row_ids[k] for k in keep]
        self.voided = set()  # applied: a second call changes nothing

    def notes(self) -> list[str]:
        """What the analysis passed over, for the report's "skipped" list."""
        out = []
        if self.duplicates:
            out.append(f"{self.duplicates} xAPI statement(s) met twice (same statement id): counted once")
        if self.voided_answers:
            out.append(f"{self.voided_answers} xAPI answer statement(s) voided by a later statement (a regrade "
                       "replaced them): not counted")
        return out

    def learners(self) -> list[Learner]:
        return [Learner(actor, first_marks(*self.columns.get(actor, ([], [], []))), n)
                for actor, n in self.read.items()]

    def shared_actors(self) -> list[str]:
        """Warnings for actors that look like several learners under one name: JSON-lines files (``study
        export``'s form) each holding only that actor, in two or more groups with no statement in common (an
        export repeated after more practice shares its earlier statements, so it is not another learner)."""
        by_actor: dict[str, list[_XapiFile]] = {}
        for f in self.files:
            if f.lines and len(f.ids) == 1:
                by_actor.setdefault(next(iter(f.ids)), []).append(f)
        shared: list[tuple[str, int]] = []
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
                shared.append((actor, len(files)))
        if len(shared) == 1:
            actor, n = shared[0]
            return [f"{n} files share the actor {actor}; they are counted as one learner — give each learner "
                    "their own --actor"]
        if not shared:
            return []
        # One line for the class, with the count, rather than one per actor.
        shown = ", ".join(f"{actor}: {n} files" for actor, n in shared[:3])
        more = f", and {len(shared) - 3} more" if len(shared) > 3 else ""
        return [f"{len(shared)} actors are each shared by files with no statement in common ({shown}{more}); "
                "each is counted as one learner — give each learner their own --actor"]


def read_xapi(text: str, label: str, mode: str, actors: XapiActors, parsed: Any = None, *,
              form: str | None = None, tally: FormTally | None = None) -> None:
    """Add the answers of one file (or LRS page) to ``actors``: those ``mode`` keeps and, with ``form``, only
    the ones given in that form; each answer given in a form is counted in ``tally``."""
    lrs = text.lstrip().startswith("[") or isinstance(parsed, dict) and "statements" in parsed
    file = _XapiFile(label, lines=not lrs)
    actors.files.append(file)
    for st, where in _xapi_statements(text, label, parsed):
        if not isinstance(st, dict) or "verb" not in st or "actor" not in st:
            raise ResultsError(f"{where}: not an xAPI statement (no actor or verb)")
        verb = st["verb"].get("id") if isinstance(st["verb"], dict) else None
        if verb == VOIDED_VERB:
            target = st.get("object")
            if isinstance(target, dict) and target.get("objectType") == "StatementRef" \
                    and isinstance(target.get("id"), str):
                actors.voided.add(target["id"].lower())
            continue
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
        if isinstance(sid, str):
            actors.counted_ids.setdefault(actor, []).append(sid)
        if not keeps(mode, _xapi_mode(st)):
            continue
        in_form = form_of_statement(st) if form is not None or tally is not None else None
        if in_form is not None and tally is not None:
            # Every form's answers, whichever one --form keeps, so an unknown name can be told the ones there
            # are; a voided answer is counted too: the tally summarises what the files hold.
            tally.add(in_form, actor, _question_id(oid), float(mark))
        if form is not None and (in_form is None or in_form["name"] != form):
            continue
        actors.answer_ids.setdefault(actor, []).append(sid if isinstance(sid, str) else None)
        times, qids, marks = actors.columns.setdefault(actor, ([], [], []))
        times.append(parse_time(st.get("timestamp"), where))
        qids.append(_question_id(oid))
        marks.append(mark)


def more_warning(parsed: Any, label: str) -> str | None:
    """The warning for an LRS page that says there are more statements (they are not fetched)."""
    more = parsed.get("more") if isinstance(parsed, dict) and "statements" in parsed else None
    if isinstance(more, str) and more.strip():
        return (f"{label}: the LRS has more statements than this file holds (\"more\": {more}); only the ones "
                "in the file were read — fetch the next pages into files of their own and analyse them together")
    return None
