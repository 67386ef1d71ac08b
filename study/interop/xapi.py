"""The learner's answers and exams as xAPI 1.0.3 statements, one JSON object per line, for a learning record store.

What is written (IRIs under a base, ``https://study-nca-aiio.invalid/nca-aiio`` unless ``STUDY_XAPI_BASE`` names
the institution's own):

* one ``answered`` statement per recorded answer (``attempted`` for a blank that a store from before blanks
  stopped being recorded still holds; a question left unanswered now appears only in its exam's report). The
  object is the question as a ``cmi.interaction`` activity ``<base>/questions/<id>``: ``choice`` (components
  ``a``, ``b``, ... in the order the author wrote the choices, not the shuffled letters the learner saw),
  ``true-false`` or ``numeric`` (correct range ``min[:]max`` in the answer's unit, from the tolerance). A
  templated question's instance is its own activity, ``<base>/questions/<id>?name=value&...``, because xAPI
  wants one activity to keep one set of correct responses; the question it was drawn from is listed under
  ``contextActivities.other`` so a ``related_activities`` query on the question's IRI finds every instance.
* per finished exam or timed quiz, ``completed`` plus ``passed`` or ``failed`` against the quiz engine's target
  (``exam.target_percent``, unofficial); a finished practice set gets ``completed`` only.

Statement ids are UUID 5 of the attempt's (or session's) uid and the actor, and the registration is UUID 5 of
the session id, so exporting again yields the same statements and an LRS stores them once.

The actor is ``--actor`` (an email, or ``HOMEPAGE|NAME`` for an account). Without it, the actor is an account on the
base's site (``https://study-nca-aiio.invalid``) named after the progress store's learner, not the computer's
user: ``<local user name>-<learner id>``, where the learner id is 12 random hex digits made on the first xAPI export
and kept in the store's settings (``learner_id``). So 24 stores exported on lab machines all logged in as ``root``
give 24 actors, while one store exported again keeps its actor (and its statement ids). The id travels with the
store's JSON backup, so a restored store keeps it too. An institution should still pass ``--actor`` with the
learner's real identity, which overrides the default. The answer exactly as given (shown letters,
a number with its unit) goes in ``result.extensions["<base>/extensions/given"]``; the numeric unit and tolerance
in the definition's extensions. The picked choices come from the attempt itself (stores at schema 5 keep their
texts); from schema 6 each answer keeps the question as shown (``attempts.shown_json``: the stem, the choices in
the order shown with a stable id each, a hash of the choice's text, the numeric key, the version of study that
asked), and its statement is built from that alone: rewording a stem or reordering choices in the bank later
changes no statement already exported, and ``result.response`` names choices by those ids. An older answer
without it is described from the current bank, as before; an older answer whose shown choice order the store did not keep (a practice set that was never
submitted nor timed) goes out without ``response``; one to a question gone from the bank goes out with
the question id and whatever the session report still says of it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import sys
import uuid
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from collections.abc import Iterable, Mapping
from urllib.parse import quote, urlsplit

from study.text import count

DEFAULT_BASE = "https://study-nca-aiio.invalid/nca-aiio"
BASE_ENV = "STUDY_XAPI_BASE"
# Fixed forever: changing it would give every statement a new id and duplicate a learner's history in an LRS.
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://study-nca-aiio.invalid/xapi")
LANG = "en"

ADL_VERB = "http://adlnet.gov/expapi/verbs/"
ADL_TYPE = "http://adlnet.gov/expapi/activities/"
INTERACTION_TYPE = ADL_TYPE + "cmi.interaction"
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_MODE_NAMES = {"exam": "timed exam", "quiz": "custom timed quiz", "practice": "practice", "review": "review"}
_LETTERS = re.compile(r"^[A-Z](?:,[A-Z])*$")
_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$"
)


# The store setting holding the learner's random id, the default actor's distinguishing part.
LEARNER_ID_SETTING = "learner_id"
# Ours are 12 hex digits; any other plain token found there (an older or edited store) is kept, not replaced,
# because replacing it would give the learner a second identity in the LRS.
_LEARNER_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


class ActorError(ValueError):
    """``--actor`` (or the base IRI) is malformed; a usage mistake, exit 2."""


# --- actor and base --------------------------------------------------------------------------------------


def _absolute_http(text: str) -> bool:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:  # "Invalid IPv6 URL" and bad ports are malformed IRIs, one usage error, not a traceback
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not re.search(r"[\s<>\"{}|\\^`]", text)


def check_base(base: str, origin: str = BASE_ENV) -> str:
    """``origin`` names where the value came from (the option or the variable), for the error message."""
    base = base.strip().rstrip("/")
    if not _absolute_http(base) or urlsplit(base).query or urlsplit(base).fragment:
        raise ActorError(f"{origin} {base!r}: expected an absolute http(s) IRI without query or fragment, "
                         "like https://lms.example.edu/xapi/nca-aiio")
    return base


def parse_actor(text: str) -> dict[str, Any]:
    """``alice@example.com`` (or ``mailto:...``) becomes an mbox Agent; ``HOMEPAGE|NAME`` an account Agent."""
    raw = text.strip()
    if "|" in raw:
        home, name = (p.strip() for p in raw.split("|", 1))
        if not _absolute_http(home) or not name:
            raise ActorError(f"--actor {text!r}: HOMEPAGE|NAME needs an absolute http(s) home page and a "
                             "non-empty name, like 'https://lms.example.edu|alice'")
        return {"objectType": "Agent", "account": {"homePage": home, "name": name}}
    email = raw[len("mailto:"):] if raw.lower().startswith("mailto:") else raw
    if not _EMAIL.match(email):
        raise ActorError(f"--actor {text!r}: expected an email address (alice@example.com) or HOMEPAGE|NAME "
                         "(https://lms.example.edu|alice)")
    local, domain = email.rsplit("@", 1)
    # The domain is case-insensitive; lower case keeps one learner one agent (and one mbox_sha1sum).
    return {"objectType": "Agent", "mbox": f"mailto:{local}@{domain.lower()}"}


def default_actor(base: str, learner: str) -> dict[str, Any]:
    """An account on the base's site named ``<local user>-<learner>``: the user name alone is shared by every
    learner in a lab where all log in as the same user, so the store's own ``learner`` id tells them apart, and
    the user name keeps the account readable in an LRS. An institution should pass ``--actor`` instead."""
    import getpass

    try:
        name = getpass.getuser().strip()
    except Exception:  # no USER and no passwd entry (some containers)
        name = ""
    parts = urlsplit(base)
    return {"objectType": "Agent",
            "account": {"homePage": f"{parts.scheme}://{parts.netloc}", "name": f"{name or 'learner'}-{learner}"}}


def store_learner_id(store: Any) -> str:
    """The store's learner id (``LEARNER_ID_SETTING``), made and saved on first use."""
    current = store.get_setting(LEARNER_ID_SETTING)
    if isinstance(current, str) and _LEARNER_ID.match(current):
        return current
    store.set_setting(LEARNER_ID_SETTING, uuid.uuid4().hex[:12])
    # Read back: if another export made one at the same moment, the stored value is the one that lasts.
    return str(store.get_setting(LEARNER_ID_SETTING))


def _actor_key(actor: Mapping[str, Any]) -> str:
    if "mbox" in actor:
        return str(actor["mbox"])
    acc = actor["account"]
    return f"{acc['homePage']}|{acc['name']}"


# --- small formats ---------------------------------------------------------------------------------------


def iso_timestamp(text: str | dt.datetime) -> str:
    """RFC 3339 in UTC with milliseconds (``2026-11-30T12:00:05.250Z``); a naive time is taken as UTC, as the
    store writes UTC."""
    value = dt.datetime.fromisoformat(text) if isinstance(text, str) else text
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    value = value.astimezone(dt.timezone.utc)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def iso_duration(seconds: float) -> str:
    """ISO 8601 duration to 0.01 s, the precision xAPI compares (``PT42.5S``, ``PT1H5M2S``, ``PT0S``)."""
    # Decimal from the shortest repr rounds as a person would: 12.345 s is 12.35 s, not the binary 12.34.
    hundredths = max(0, int(Decimal(repr(float(seconds))).scaleb(2).quantize(Decimal(1), ROUND_HALF_UP)))
    hours, rest = divmod(hundredths, 360000)
    minutes, rest = divmod(rest, 6000)
    secs = f"{rest // 100}.{rest % 100:02d}".rstrip("0").rstrip(".")
    out = "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    if rest or out == "PT":
        out += f"{secs}S"
    return out


def number_text(value: float) -> str:
    """A decimal without exponent, to 12 significant digits (response patterns come from SCORM's decimals)."""
    text = format(Decimal(f"{float(value):.12g}"), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def choice_id(i: int) -> str:
    """The component id of the author's ``i``-th choice: ``a``, ``b``, ... (``c27`` past the alphabet)."""
    return _LOWER[i] if i < len(_LOWER) else f"c{i + 1}"


def _lang(text: str) -> dict[str, str]:
    return {LANG: text}


def _title(stem: str, limit: int = 100) -> str:
    line = " ".join(stem.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "\u2026"


# --- what the store knows about a session ----------------------------------------------------------------


@dataclass
class _Session:
    id: str
    kind: str
    started_at: str | None
    finished_at: str | None
    report: dict[str, Any] | None
    # question id -> the option texts in the order shown (from the saved state of an unfinished session)
    shown: dict[str, list[str]] = field(default_factory=dict)
    # question id -> the report's row (given, given_display, stem, type, objective)
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)


def _loads(text: Any) -> Any:
    if not isinstance(text, str) or not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _sessions(rows: Iterable[Mapping[str, Any]]) -> dict[str, _Session]:
    out: dict[str, _Session] = {}
    for row in rows:
        report = _loads(row.get("report_json"))
        s = _Session(str(row["id"]), str(row.get("kind") or ""), row.get("started_at"), row.get("finished_at"),
                     report if isinstance(report, dict) else None)
        state = _loads(row.get("state_json"))
        if isinstance(state, dict):
            for inst in state.get("instances") or ():
                if isinstance(inst, dict) and inst.get("options"):
                    s.shown[str(inst.get("qid"))] = [str(o.get("text", "")) for o in inst["options"]]
        if s.report is not None:
            for q in s.report.get("questions") or ():
                if isinstance(q, dict) and "id" in q:
                    s.rows[str(q["id"])] = q
        out[s.id] = s
    return out


def _picked_texts(session: _Session | None, qid: str, given: str) -> list[str] | None:
    """The texts of the options the learner picked, from the session's saved order or its report."""
    if session is None:
        return None
    letters = given.split(",")
    shown = session.shown.get(qid)
    if shown is not None:
        idx = [ord(c) - ord("A") for c in letters]
        return [shown[i] for i in idx] if all(0 <= i < len(shown) for i in idx) else None
    row = session.rows.get(qid)
    if row is None or row.get("given") != given or not isinstance(row.get("given_display"), str):
        return None
    # given_display is "; ".join("B) text" for each picked letter, in order), so each letter's text runs up to
    # the next "; X) ".
    display: str = row["given_display"]
    texts, pos = [], 0
    for k, letter in enumerate(letters):
        head = f"{letter}) "
        if not display.startswith(head, pos):
            return None
        start = pos + len(head)
        if k + 1 < len(letters):
            end = display.find(f"; {letters[k + 1]}) ", start)
            if end < 0:
                return None
            pos = end + 2
        else:
            end = len(display)
        texts.append(display[start:end])
    return texts


# --- questions as interactions ----------------------------------------------------------------------------


class _Bank:
    """Look-ups into the bank, with each question instance built once."""

    def __init__(self, bank: Any) -> None:
        self.bank = bank
        self._instances: dict[tuple[str, str], Any] = {}

    def question(self, qid: str) -> Any:
        if self.bank is None:
            return None
        try:
            return self.bank.question(qid)
        except KeyError:
            return None

    def instance(self, question: Any, params: Mapping[str, Any]) -> Any:
        """The question as it was asked: a templated one with the attempt's parameters, unshuffled. None if
        the bank can no longer build it (a parameter renamed or a value no longer valid)."""
        key = (question.id, json.dumps(params, sort_keys=True))
        if key not in self._instances:
            from study.quiz.instance import InstanceError, instantiate

            inst = None
            try:
                pinned = {name: params[name] for name in question.params} if question.params else None
                inst = instantiate(question, 0, shuffle=False, hash_="", params=pinned)
            except (KeyError, InstanceError, ValueError, ArithmeticError):
                inst = None
            self._instances[key] = inst
        return self._instances[key]


def _half_width(key: Any) -> float:
    text = key.tolerance.strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100.0 * abs(key.value)
    try:
        return float(text)
    except ValueError:
        from study.calc.units import convert, parse_quantity

        return float(convert(float(parse_quantity(text).value), key.unit))


def _numeric_response(inst: Any, text: str, correct: bool, low: float, high: float) -> str | None:
    """The number the learner gave, in the answer's unit, read the way the grader reads it."""
    from study.quiz.grade import AnswerError, read_number

    try:
        reading = read_number(inst, text)
    except (AnswerError, ValueError):
        return None
    if reading.value is None:  # a time given for a size: no number in the question's unit
        return None
    value = reading.value
    # The grader also accepts a bare number in base units (1.4e11 for 140 GB); report the reading it graded.
    if correct and not low <= value <= high and reading.base_value is not None and low <= reading.base_value <= high:
        value = reading.base_value
    return number_text(value)


@dataclass
class _Interaction:
    definition: dict[str, Any]
    response: str | None


def _interaction(question: Any, inst: Any, given: str, correct: bool, session: _Session | None,
                 ext: str, stored: list[str] | None = None) -> _Interaction:
    """The activity definition of ``question`` as asked in ``inst``, and ``given`` in its response format.

    ``stored`` is the attempt's own record of the picked texts (schema 5 on); older attempts fall back to
    the session's saved order or its report."""
    definition: dict[str, Any] = {
        "name": _lang(_title(inst.stem)),
        "description": _lang(inst.stem.strip()),
        "type": INTERACTION_TYPE,
    }
    extensions: dict[str, Any] = {f"{ext}/objective": question.objective, f"{ext}/difficulty": question.difficulty}
    response: str | None = None
    if question.type in ("single", "multi"):
        choices = list(question.choices or ())
        definition["interactionType"] = "choice"
        definition["correctResponsesPattern"] = ["[,]".join(choice_id(i) for i, c in enumerate(choices) if c.correct)]
        definition["choices"] = [{"id": choice_id(i), "description": _lang(c.text)} for i, c in enumerate(choices)]
        if given and _LETTERS.match(given):
            texts = stored or _picked_texts(session, question.id, given)
            by_text = {c.text: i for i, c in enumerate(choices)}
            if texts is not None and all(t in by_text for t in texts):
                response = "[,]".join(choice_id(i) for i in sorted({by_text[t] for t in texts}))
    elif question.type == "true_false":
        definition["interactionType"] = "true-false"
        definition["correctResponsesPattern"] = ["true" if question.answer else "false"]
        if given in ("T", "F"):
            response = "true" if given == "T" else "false"
    else:
        low, high = _numeric_definition(inst.numeric, definition, extensions, ext)
        text: str | None = given or None
        if given and _LETTERS.match(given):  # asked as multiple choice (exam): the picked option is a number
            picked = stored or _picked_texts(session, question.id, given)
            text = picked[0] if picked and len(picked) == 1 else None
        if text:
            response = _numeric_response(inst, text, correct, low, high)
    definition["extensions"] = extensions
    return _Interaction(definition, response)


def _numeric_definition(key: Any, definition: dict[str, Any], extensions: dict[str, Any],
                        ext: str) -> tuple[float, float]:
    """A numeric interaction's accepted range, unit and tolerance, the same from the bank or as shown."""
    definition["interactionType"] = "numeric"
    low, high = key.value - _half_width(key), key.value + _half_width(key)
    definition["correctResponsesPattern"] = [f"{number_text(low)}[:]{number_text(high)}"]
    extensions[f"{ext}/unit"] = key.unit
    extensions[f"{ext}/tolerance"] = key.tolerance
    return low, high


def _interaction_as_shown(shown: Mapping[str, Any], qid: str, given: str, correct: bool,
                          ext: str) -> _Interaction:
    """The activity definition from what the learner was shown (``attempts.shown_json``), so the statement
    never changes when the bank is reworded or reordered later: the stem as shown, the choices in the order
    shown with their stable ids, and the response by those ids."""
    from study.quiz.shown import shown_instance

    stem = str(shown.get("stem") or "")
    definition: dict[str, Any] = {"name": _lang(_title(stem)), "description": _lang(stem.strip()),
                                  "type": INTERACTION_TYPE}
    extensions: dict[str, Any] = {f"{ext}/objective": shown.get("objective"), f"{ext}/difficulty": shown.get("difficulty")}
    choices = [c for c in shown.get("choices") or () if isinstance(c, Mapping)]
    kind = shown.get("type")
    picked: list[int] = []
    if given and _LETTERS.match(given):
        picked = sorted({ord(x) - ord("A") for x in given.split(",")})
        if not all(0 <= i < len(choices) for i in picked):
            picked = []
    response: str | None = None
    if kind in ("single", "multi"):
        definition["interactionType"] = "choice"
        definition["correctResponsesPattern"] = ["[,]".join(str(c["id"]) for c in choices if c.get("correct"))]
        definition["choices"] = [{"id": str(c["id"]), "description": _lang(str(c["text"]))} for c in choices]
        if picked:
            response = "[,]".join(str(choices[i]["id"]) for i in picked)
    elif kind == "true_false":
        definition["interactionType"] = "true-false"
        truth = any(c.get("correct") and str(c.get("text")).lower() == "true" for c in choices)
        definition["correctResponsesPattern"] = ["true" if truth else "false"]
        if given in ("T", "F"):
            response = "true" if given == "T" else "false"
    else:
        inst = shown_instance(dict(shown), qid)
        low, high = _numeric_definition(inst.numeric, definition, extensions, ext)
        text: str | None = given or None
        if given and _LETTERS.match(given) and choices:  # asked as multiple choice: the picked option is a number
            text = str(choices[picked[0]]["text"]) if len(picked) == 1 else None
        if text:
            response = _numeric_response(inst, text, correct, low, high)
    definition["extensions"] = extensions
    return _Interaction(definition, response)


def _usable_shown(value: Any) -> Mapping[str, Any] | None:
    if isinstance(value, str):
        value = _loads(value)
    if isinstance(value, Mapping) and value.get("v") == 1 and value.get("type") and "stem" in value:
        if value.get("type") == "numeric" and not isinstance(value.get("numeric"), Mapping):
            return None
        return value
    return None


# --- statements ------------------------------------------------------------------------------------------


@dataclass
class Summary:
    """What an export wrote, for the one-line report on stderr."""

    answers: int = 0
    sessions: int = 0
    statements: int = 0
    missing: set[str] = field(default_factory=set)
    missing_answers: int = 0
    no_response: int = 0


class _Builder:
    def __init__(self, data: Mapping[str, Any], bank: Any, actor: Mapping[str, Any], base: str) -> None:
        self.base = base
        self.ext = f"{base}/extensions"
        self.actor = dict(actor)
        self.actor_key = _actor_key(actor)
        self.bank = _Bank(bank)
        self.sessions = _sessions(data.get("sessions") or ())
        self.data = data
        self.summary = Summary()
        exam = getattr(getattr(bank, "blueprint", None), "exam", None)
        self.course_name = f"{exam.name} ({exam.code}) preparation" if exam is not None else "NCA-AIIO preparation"
        self.exam_code = exam.code if exam is not None else "NCA-AIIO"
        self.target = exam.target_percent if exam is not None else 70

    # activities

    def course(self) -> dict[str, Any]:
        return {"objectType": "Activity", "id": self.base,
                "definition": {"name": _lang(self.course_name), "type": ADL_TYPE + "course"}}

    def assessment(self, mode: str) -> dict[str, Any]:
        name = f"{self.exam_code} {_MODE_NAMES.get(mode, mode)}"
        return {"objectType": "Activity", "id": f"{self.base}/{quote(mode, safe='')}",
                "definition": {"name": _lang(name), "type": ADL_TYPE + "assessment"}}

    def objective(self, oid: str, shown_title: str | None = None) -> dict[str, Any]:
        title = oid if shown_title is None else f"{oid} {shown_title}"
        bank = self.bank.bank
        if bank is not None and shown_title is None:
            try:
                title = f"{oid} {bank.blueprint.objective(oid).title}"
            except KeyError:
                pass
        return {"objectType": "Activity", "id": f"{self.base}/objectives/{quote(oid, safe='.')}",
                "definition": {"name": _lang(title), "type": ADL_TYPE + "objective"}}

    def question_iri(self, qid: str, params: Mapping[str, Any] | None = None) -> str:
        iri = f"{self.base}/questions/{quote(qid, safe='._-')}"
        if params:
            query = "&".join(f"{quote(str(k), safe='')}={quote(_param_text(params[k]), safe='.-_')}"
                             for k in sorted(params))
            iri += f"?{query}"
        return iri

    def statement_id(self, what: str) -> str:
        return str(uuid.uuid5(NAMESPACE, f"{what}|{self.actor_key}|{self.base}"))

    def registration(self, session_id: str) -> str:
        return str(uuid.uuid5(NAMESPACE, f"registration|{session_id}"))

    def verb(self, name: str) -> dict[str, Any]:
        return {"id": ADL_VERB + name, "display": _lang(name)}

    def context(self, mode: str, session_id: str | None, other: list[dict[str, Any]] | None = None,
                parent: bool = True, revision: str | None = None, platform: str | None = None) -> dict[str, Any]:
        from study import __version__

        ctx: dict[str, Any] = {}
        if session_id:
            ctx["registration"] = self.registration(session_id)
        activities: dict[str, Any] = {}
        if parent:
            activities["parent"] = [self.assessment(mode)]
        activities["grouping"] = [self.course()]
        if other:
            activities["other"] = other
        ctx["contextActivities"] = activities
        if revision:
            ctx["revision"] = revision
        ctx["platform"] = platform or f"study {__version__}"
        ctx["language"] = LANG
        return ctx

    # statements

    def attempt(self, a: Mapping[str, Any]) -> dict[str, Any]:
        qid = str(a["item_id"])
        given = str(a.get("given") or "").strip()
        correct = bool(a.get("correct"))
        params = a.get("params") or {}
        mode = str(a.get("mode") or "practice")
        sid = a.get("session_id")
        session = self.sessions.get(str(sid)) if sid else None
        shown = _usable_shown(a.get("shown"))
        question = self.bank.question(qid) if shown is None else None
        inst = self.bank.instance(question, params) if question is not None else None
        other: list[dict[str, Any]] = []
        result: dict[str, Any] = {
            "score": {"scaled": 1.0 if correct else 0.0, "raw": 1 if correct else 0, "min": 0, "max": 1},
            "success": correct,
            "completion": bool(given),
            "duration": iso_duration(float(a.get("seconds") or 0.0)),
        }
        platform: str | None = None
        if shown is not None:
            # Fixed at answer time: edits to the bank change nothing already exported.
            templated = bool(shown.get("templated"))
            interaction = _interaction_as_shown(shown, qid, given, correct, self.ext)
            obj = {"objectType": "Activity", "id": self.question_iri(qid, params if templated else None),
                   "definition": interaction.definition}
            if templated:
                other.append({"objectType": "Activity", "id": self.question_iri(qid),
                              "definition": {"name": _lang(f"question {qid}"), "type": ADL_TYPE + "question"}})
            objective = str(shown.get("objective") or "")
            title = str(shown.get("objective_title") or "")
            other.insert(0, self.objective(objective, title or None))
            if interaction.response is not None:
                result["response"] = interaction.response
            elif given:
                self.summary.no_response += 1
            platform = str(shown["platform"]) if shown.get("platform") else None
        elif question is not None and inst is not None:
            templated = bool(question.params)
            obj_id = self.question_iri(qid, params if templated else None)
            interaction = _interaction(question, inst, given, correct, session, self.ext,
                                       stored=list(a.get("picked") or ()) or None)
            obj = {"objectType": "Activity", "id": obj_id, "definition": interaction.definition}
            if templated:
                other.append({"objectType": "Activity", "id": self.question_iri(qid),
                              "definition": {"name": _lang(f"question {qid}"), "type": ADL_TYPE + "question"}})
            other.insert(0, self.objective(question.objective))
            if interaction.response is not None:
                result["response"] = interaction.response
            elif given:
                self.summary.no_response += 1
        else:
            # Gone from the bank (or no longer buildable): say what the store and the session report know.
            if question is None:
                self.summary.missing.add(qid)
                self.summary.missing_answers += 1
            row = session.rows.get(qid) if session is not None else None
            definition: dict[str, Any] = {"name": _lang(f"question {qid}"), "type": ADL_TYPE + "question"}
            if row is not None and isinstance(row.get("stem"), str) and row["stem"].strip():
                definition["description"] = _lang(row["stem"].strip())
            objective = (row or {}).get("objective") or getattr(question, "objective", None)
            if isinstance(objective, str) and objective:
                other.append(self.objective(objective))
            obj = {"objectType": "Activity", "id": self.question_iri(qid, params or None), "definition": definition}
            if question is not None and given:
                self.summary.no_response += 1
        if given:
            # As recorded: the letters refer to the shuffled order the learner saw; numbers keep their unit.
            result["extensions"] = {f"{self.ext}/given": given}
        revision = a.get("content_hash")
        return {
            "id": self.statement_id(f"attempt|{a['uid']}"),
            "actor": self.actor,
            "verb": self.verb("answered" if given else "attempted"),
            "object": obj,
            "result": result,
            "context": self.context(mode, str(sid) if sid else None, other, revision=str(revision) if revision else None,
                                    platform=platform),
            "timestamp": iso_timestamp(a["at"]),
        }

    def session_statements(self, s: _Session) -> list[dict[str, Any]]:
        report = s.report
        if report is None or not s.finished_at:
            return []
        total = report.get("total")
        right = report.get("correct")
        if not isinstance(total, int) or not isinstance(right, int) or total <= 0 or not 0 <= right <= total:
            return []
        mode = s.kind or str(report.get("mode") or "practice")
        target = report.get("target_percent", self.target)
        passed = report.get("passed")
        if not isinstance(passed, bool):
            passed = 100.0 * right / total >= float(target)
        seconds = report.get("seconds")
        if not isinstance(seconds, (int, float)):
            start, end = s.started_at, s.finished_at
            seconds = (dt.datetime.fromisoformat(end) - dt.datetime.fromisoformat(start)).total_seconds() if start else 0.0
        graded = mode in ("exam", "quiz")
        result: dict[str, Any] = {
            "score": {"scaled": right / total, "raw": right, "min": 0, "max": total},
            "completion": True,
            "duration": iso_duration(float(seconds)),
        }
        if graded:
            result["success"] = passed
            result["extensions"] = {f"{self.ext}/target-percent": target,
                                    f"{self.ext}/timed-out": bool(report.get("timed_out", False))}
        verbs = ["completed"] + (["passed" if passed else "failed"] if graded else [])
        return [
            {
                "id": self.statement_id(f"session|{s.id}|{verb}"),
                "actor": self.actor,
                "verb": self.verb(verb),
                "object": self.assessment(mode),
                "result": result,
                "context": self.context(mode, s.id, parent=False),
                "timestamp": iso_timestamp(s.finished_at),
            }
            for verb in verbs
        ]


def _param_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, str) else json.dumps(value)


def build_statements(data: Mapping[str, Any], bank: Any, actor: Mapping[str, Any],
                     base: str = DEFAULT_BASE) -> tuple[list[dict[str, Any]], Summary]:
    """Statements for a progress export (``Store.export_data()``), oldest first, and what was written."""
    builder = _Builder(data, bank, actor, check_base(base))
    # Ties (an exam records every answer at submit time) keep the store's order, answers before the verdict.
    keyed: list[tuple[str, int, int, dict[str, Any]]] = []
    for n, a in enumerate(data.get("attempts") or ()):
        st = builder.attempt(a)
        builder.summary.answers += 1
        keyed.append((st["timestamp"], 0, n, st))
    for n, s in enumerate(builder.sessions.values()):
        sts = builder.session_statements(s)
        if sts:
            builder.summary.sessions += 1
        for k, st in enumerate(sts):
            keyed.append((st["timestamp"], 1 + k, n, st))
    keyed.sort(key=lambda t: t[:3])
    statements = [t[3] for t in keyed]
    builder.summary.statements = len(statements)
    return statements, builder.summary


def to_jsonl(statements: Iterable[Mapping[str, Any]]) -> str:
    return "".join(json.dumps(s, ensure_ascii=False, separators=(",", ":")) + "\n" for s in statements)


# --- the command -----------------------------------------------------------------------------------------


def base_and_actor(args: argparse.Namespace) -> tuple[str, dict[str, Any] | None]:
    """``--xapi-base`` (else ``STUDY_XAPI_BASE``, else the default) and ``--actor`` (None: the store's learner).

    Raises ``ActorError`` for either one malformed."""
    if getattr(args, "xapi_base", None):
        base = check_base(args.xapi_base, "--xapi-base")
    else:
        base = check_base(os.environ.get(BASE_ENV) or DEFAULT_BASE, BASE_ENV)
    return base, parse_actor(args.actor) if getattr(args, "actor", None) else None


def warn_summary(summary: Summary) -> None:
    """Say on stderr what the statements could not carry (shared by export and sync)."""
    if summary.missing:
        shown = ", ".join(sorted(summary.missing)[:5]) + (", ..." if len(summary.missing) > 5 else "")
        print(f"study: {count(summary.missing_answers, 'answer')} to {count(len(summary.missing), 'question')} "
              f"no longer in the bank ({shown}): exported with the question id only", file=sys.stderr)
    if summary.no_response:
        print(f"study: {count(summary.no_response, 'answer')} exported without result.response (the order the "
              "choices were shown in was not kept, the question changed, or the number was of the wrong kind); "
              "the answer as given is in result.extensions", file=sys.stderr)


def export_command(args: argparse.Namespace) -> int:
    """``study export --format xapi [FILE] [--actor ACTOR]``: exit 0, 1 (store or file problem), 2 (bad actor)."""
    from study.bank.from_options import bank_for
    from study.paths import default_db_path
    from study.progress import StoreError, open_store

    try:
        base, actor = base_and_actor(args)
    except ActorError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 2
    try:
        with open_store(default_db_path(getattr(args, "db", None))) as store:
            if store.notice:
                print(f"study: {store.notice}", file=sys.stderr)
            if actor is None:
                actor = default_actor(base, store_learner_id(store))
            data = store.export_data()
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    statements, summary = build_statements(data, bank_for(args), actor, base)
    warn_summary(summary)
    from study.interop.output import emit

    where = emit(args.file, to_jsonl(statements))
    if where is None:
        return 1
    if where != args.file:
        return 0
    print(f"exported {count(summary.statements, 'xAPI statement')} ({count(summary.answers, 'answer')}, "
          f"{count(summary.sessions, 'finished session')}) to {args.file}", file=sys.stderr)
    return 0
