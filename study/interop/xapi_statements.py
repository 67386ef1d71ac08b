"""xAPI statements from a progress export (``Store.export_data()``): one per answer, and per finished
session ``completed`` plus ``passed`` or ``failed`` when it was graded. What they say and why is described in
``study.interop.xapi``; this module builds them.

A regrade (``study regrade``) changes an answer's mark and its session's score, but a statement never changes
under its id (xAPI 1.0.3, Data 2.3.1): the statement of each earlier grade is voided by a statement of the
reserved verb ``voided`` whose object is a ``StatementRef`` to it (Data 2.3.2), and the answer and its
session's verdict go out again under new ids (the n-th regrade of an answer is version n). A voided statement
is never issued again under its id, as 2.3.2 asks of a provider that wants to "unvoid" one, so an answer
regraded back to its first mark still gets a new id."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import quote

from study.interop.xapi_actor import DEFAULT_BASE, actor_key, check_base
from study.interop.xapi_formats import ADL_TYPE, ADL_VERB, LANG, NAMESPACE, iso_duration, iso_timestamp, lang
from study.interop.xapi_interactions import BankLookup, interaction_as_shown, interaction_from_bank, usable_shown
from study.interop.xapi_sessions import StoredSession, read_sessions

_MODE_NAMES = {"exam": "timed exam", "quiz": "custom timed quiz", "practice": "practice", "review": "review"}


@dataclass
class Summary:
    """What an export wrote, for the one-line report on stderr."""

    answers: int = 0
    sessions: int = 0
    statements: int = 0
    missing: set[str] = field(default_factory=set)
    missing_answers: int = 0
    no_response: int = 0
    voids: int = 0  # voiding statements, one per statement a regrade replaced


VOIDED_VERB = ADL_VERB + "voided"


class _Builder:
    def __init__(self, data: Mapping[str, Any], bank: Any, actor: Mapping[str, Any], base: str,
                 regrades: Mapping[str, Sequence[Any]] | None = None) -> None:
        self.regrades = regrades or {}
        self.base = base
        self.ext = f"{base}/extensions"
        self.actor = dict(actor)
        self.actor_key = actor_key(actor)
        self.bank = BankLookup(bank)
        self.sessions = read_sessions(data.get("sessions") or ())
        self.data = data
        self.summary = Summary()
        exam = getattr(getattr(bank, "blueprint", None), "exam", None)
        self.course_name = f"{exam.name} ({exam.code}) preparation" if exam is not None else "NCA-AIIO preparation"
        self.exam_code = exam.code if exam is not None else "NCA-AIIO"
        self.target = exam.target_percent if exam is not None else 70

    # activities

    def course(self) -> dict[str, Any]:
        return {"objectType": "Activity", "id": self.base,
                "definition": {"name": lang(self.course_name), "type": ADL_TYPE + "course"}}

    def assessment(self, mode: str) -> dict[str, Any]:
        name = f"{self.exam_code} {_MODE_NAMES.get(mode, mode)}"
        return {"objectType": "Activity", "id": f"{self.base}/{quote(mode, safe='')}",
                "definition": {"name": lang(name), "type": ADL_TYPE + "assessment"}}

    def objective(self, oid: str, shown_title: str | None = None) -> dict[str, Any]:
        title = oid if shown_title is None else f"{oid} {shown_title}"
        bank = self.bank.bank
        if bank is not None and shown_title is None:
            try:
                title = f"{oid} {bank.blueprint.objective(oid).title}"
            except KeyError:
                pass
        return {"objectType": "Activity", "id": f"{self.base}/objectives/{quote(oid, safe='.')}",
                "definition": {"name": lang(title), "type": ADL_TYPE + "objective"}}

    def question_iri(self, qid: str, params: Mapping[str, Any] | None = None) -> str:
        iri = f"{self.base}/questions/{quote(qid, safe='._-')}"
        if params:
            query = "&".join(f"{quote(str(k), safe='')}={quote(_param_text(params[k]), safe='.-_')}"
                             for k in sorted(params))
            iri += f"?{query}"
        return iri

    def statement_id(self, what: str) -> str:
        return str(uuid.uuid5(NAMESPACE, f"{what}|{self.actor_key}|{self.base}"))

    def versioned_id(self, what: str, version: int) -> str:
        # Version 0 keeps the id exported before regrades existed, so nothing already in an LRS changes.
        return self.statement_id(what if version == 0 else f"{what}|regrade|{version}")

    def void(self, target: str, what: str, at: Any, about: str, session_id: str | None,
             change: Mapping[str, Any]) -> dict[str, Any]:
        """The statement voiding ``target`` (Data 2.3.2). Its context names the course and the activity the
        voided statement was about, so a query for either (``related_activities``) finds the void too, and
        says in an extension what the regrade changed; no ``revision`` or ``platform``, which 2.4.6 allows only
        with an Activity object. ``at`` is the voided statement's own timestamp, not the regrade's time: the
        void is then the same statement from every copy of the store regraded alike (an LRS compares the
        timestamp too, Data 2.3.1, and would refuse the second copy's void as a conflict), and a query by
        time (``since``) that finds the voided statement finds its void."""
        self.summary.voids += 1
        ctx: dict[str, Any] = {}
        if session_id:
            ctx["registration"] = self.registration(session_id)
        ctx["contextActivities"] = {"grouping": [self.course()], "other": [{"objectType": "Activity", "id": about}]}
        ctx["language"] = LANG
        ctx["extensions"] = {f"{self.ext}/regrade": dict(change)}
        return {
            "id": self.statement_id(f"void|{what}"),
            "actor": self.actor,
            "verb": {"id": VOIDED_VERB, "display": lang("voided")},
            "object": {"objectType": "StatementRef", "id": target},
            "context": ctx,
            "timestamp": iso_timestamp(at),
        }

    def form_activity(self, form: Mapping[str, Any]) -> dict[str, Any]:
        """The class exam form an answer or a session belongs to, as a grouping activity: an LRS query for it
        (``activity`` with ``related_activities``) finds every statement of the form."""
        return {"objectType": "Activity", "id": f"{self.base}/forms/{quote(str(form['name']), safe='._-')}",
                "definition": {"name": lang(f"exam form {form['name']}"), "type": ADL_TYPE + "assessment"}}

    def with_form(self, st: dict[str, Any], form: Any) -> dict[str, Any]:
        """``st`` naming ``form`` (``{"name", "id"}``, from the answer's shown record or the session's report)
        in its context: an extension with both, read back by ``study analyze``, and the form's activity."""
        if not (isinstance(form, Mapping) and isinstance(form.get("name"), str) and isinstance(form.get("id"), str)):
            return st
        ctx = st["context"]
        ctx["contextActivities"].setdefault("grouping", []).append(self.form_activity(form))
        ctx.setdefault("extensions", {})[f"{self.ext}/form"] = {"name": form["name"], "id": form["id"]}
        return st

    def registration(self, session_id: str) -> str:
        return str(uuid.uuid5(NAMESPACE, f"registration|{session_id}"))

    def verb(self, name: str) -> dict[str, Any]:
        return {"id": ADL_VERB + name, "display": lang(name)}

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

    def attempt_versions(self, a: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The answer's statement, and one void for each statement of it a regrade replaced."""
        st = self.attempt(a)
        what = f"attempt|{a['uid']}"
        history = list(self.regrades.get(str(a["uid"]), ()))
        if not history:
            return [st]
        st["id"] = self.versioned_id(what, len(history))
        # Says which statement this one replaces (context.statement: "another Statement to be considered as
        # context", Data 2.4.6).
        st["context"]["statement"] = {"objectType": "StatementRef", "id": self.versioned_id(what, len(history) - 1)}
        sid = a.get("session_id")
        voids = [self.void(self.versioned_id(what, k), f"{what}|{k + 1}", a["at"], st["object"]["id"],
                           str(sid) if sid else None,
                           {"was_correct": r.old_correct, "now_correct": r.new_correct})
                 for k, r in enumerate(history)]
        return [st, *voids]

    def attempt(self, a: Mapping[str, Any]) -> dict[str, Any]:
        qid = str(a["item_id"])
        given = str(a.get("given") or "").strip()
        correct = bool(a.get("correct"))
        params = a.get("params") or {}
        mode = str(a.get("mode") or "practice")
        sid = a.get("session_id")
        session = self.sessions.get(str(sid)) if sid else None
        shown = usable_shown(a.get("shown"))
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
            interaction = interaction_as_shown(shown, qid, given, correct, self.ext)
            obj = {"objectType": "Activity", "id": self.question_iri(qid, params if templated else None),
                   "definition": interaction.definition}
            if templated:
                other.append({"objectType": "Activity", "id": self.question_iri(qid),
                              "definition": {"name": lang(f"question {qid}"), "type": ADL_TYPE + "question"}})
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
            interaction = interaction_from_bank(question, inst, given, correct, session, self.ext,
                                                stored=list(a.get("picked") or ()) or None)
            obj = {"objectType": "Activity", "id": obj_id, "definition": interaction.definition}
            if templated:
                other.append({"objectType": "Activity", "id": self.question_iri(qid),
                              "definition": {"name": lang(f"question {qid}"), "type": ADL_TYPE + "question"}})
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
            definition: dict[str, Any] = {"name": lang(f"question {qid}"), "type": ADL_TYPE + "question"}
            if row is not None and isinstance(row.get("stem"), str) and row["stem"].strip():
                definition["description"] = lang(row["stem"].strip())
            reported = (row or {}).get("objective") or getattr(question, "objective", None)
            if isinstance(reported, str) and reported:
                other.append(self.objective(reported))
            obj = {"objectType": "Activity", "id": self.question_iri(qid, params or None), "definition": definition}
            if question is not None and given:
                self.summary.no_response += 1
        if given:
            # As recorded: the letters refer to the shuffled order the learner saw; numbers keep their unit.
            result["extensions"] = {f"{self.ext}/given": given}
        revision = a.get("content_hash")
        return self.with_form({
            "id": self.statement_id(f"attempt|{a['uid']}"),
            "actor": self.actor,
            "verb": self.verb("answered" if given else "attempted"),
            "object": obj,
            "result": result,
            "context": self.context(mode, str(sid) if sid else None, other,
                                    revision=str(revision) if revision else None, platform=platform),
            "timestamp": iso_timestamp(a["at"]),
        }, shown.get("form") if shown is not None else None)

    def session_statements(self, s: StoredSession) -> list[dict[str, Any]]:
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
            seconds = ((dt.datetime.fromisoformat(end) - dt.datetime.fromisoformat(start)).total_seconds()
                       if start else 0.0)
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
        listed = report.get("regrades")
        # A report damaged or edited by hand states no regrade it cannot show: its statements keep their ids.
        regrades = [r for r in listed if isinstance(r, dict) and isinstance(r.get("at"), str)] \
            if isinstance(listed, list) else []
        version = len(regrades)
        out = []
        for verb in verbs:
            what = f"session|{s.id}|{verb}"
            st = {
                "id": self.versioned_id(what, version),
                "actor": self.actor,
                "verb": self.verb(verb),
                "object": self.assessment(mode),
                "result": result,
                "context": self.context(mode, s.id, parent=False),
                "timestamp": iso_timestamp(s.finished_at),
            }
            out.append(self.with_form(st, report.get("form")))
        # Each regrade replaced the session's statements of the version before it: completed (its score
        # changed) and the verdict it had then, which the report kept.
        for k, r in enumerate(regrades):
            was = r.get("passed")
            if not isinstance(was, bool):
                right_then = r.get("correct")
                was = isinstance(right_then, int) and isinstance(target, (int, float)) \
                    and 100.0 * right_then / total >= float(target)
            for verb in ["completed"] + (["passed" if was else "failed"] if graded else []):
                what = f"session|{s.id}|{verb}"
                out.append(self.void(self.versioned_id(what, k), f"{what}|{k + 1}", s.finished_at,
                                     self.assessment(mode)["id"], s.id,
                                     {"was_correct": r.get("correct"), "of": total}))
        return out


def _param_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return value if isinstance(value, str) else json.dumps(value)


def build_statements(data: Mapping[str, Any], bank: Any, actor: Mapping[str, Any],
                     base: str = DEFAULT_BASE, regrades: Mapping[str, Sequence[Any]] | None = None,
                     ) -> tuple[list[dict[str, Any]], Summary]:
    """Statements for a progress export (``Store.export_data()``), oldest first, and what was written.
    ``regrades`` maps an attempt uid to its regrades, oldest first (``study.progress.regrades``'s records):
    without them a regraded answer would go out with its new mark under the id of its old one."""
    builder = _Builder(data, bank, actor, check_base(base), regrades)
    # Ties (an exam records every answer at submit time) keep the store's order, answers before the verdict.
    keyed: list[tuple[str, int, int, dict[str, Any]]] = []
    for n, a in enumerate(data.get("attempts") or ()):
        builder.summary.answers += 1
        for st in builder.attempt_versions(a):
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

