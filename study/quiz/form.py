"""A class exam form: one fixed list of questions that every learner of a class is asked, in the same order,
with the same values for templated questions and the same choice order (issue 36.9).

Random full-bank exams spread a class over the whole bank: 30 learners covered 459 questions and only 6 got
ten answers or more, so item analysis had almost nothing to work on. A form gives every question of it one
answer per learner. It is a small YAML file an instructor writes with ``study export --form NAME`` (and may
edit by hand), hands out, and each learner takes with ``study quiz --form FILE``::

    format: study-form
    version: 1
    name: midterm-a
    seed: 7          # the choice order, and the values of a templated question without a seed of its own
    minutes: 12
    questions:
      - id: memory-llm-inference-fp16
        seed: 7      # templated: the values every learner gets
        hash: 3f0c...  # the question's content hash when the form was written (a later edit is named)

Every answer given in a form carries its name and id (:meth:`Form.tag`) in the record of what was shown, and
the session's saved state and report carry it too, so exports, xAPI statements and ``study analyze`` can
tell the form's answers from the rest. The id is a digest of the name, the seed and the questions with their
seeds: two different forms under one name do not pass for one.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Sequence

FORMAT = "study-form"
VERSION = 1
# A form of the real exam's 50 questions is 4 KB; the bound only keeps a wrong file (a dump, /dev/zero) out.
MAX_FORM_BYTES = 1_000_000
MAX_FORM_QUESTIONS = 1_000  # as many as a saved session may hold (study.quiz.saved_state.MAX_QUESTIONS)
MAX_MINUTES = 24 * 60
# A name is printed in tables and sent in xAPI statements: letters, digits and a few separators, no controls.
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._ -]{0,63}")
_SEED_RE = re.compile(r"[A-Za-z0-9._-]{1,64}")
_KEYS = ("format", "version", "name", "seed", "minutes", "questions")
_ITEM_KEYS = ("id", "seed", "hash")


class FormError(ValueError):
    """A form file that cannot be used; the message starts with its location (file:line:col when known)."""


@dataclass(frozen=True)
class FormItem:
    id: str
    seed: int | str | None = None  # the values of a templated question; None: the form's seed
    hash: str | None = None  # the question's content hash when the form was written


@dataclass(frozen=True)
class Form:
    name: str
    seed: int | str
    items: tuple[FormItem, ...]
    minutes: float | None = None  # None: the blueprint's pace for this many questions

    @property
    def id(self) -> str:
        """12 hex digits of the SHA-256 of what the learners are asked (name, seed, questions and their
        seeds): the same form written twice has the same id, an edited one another."""
        canon = json.dumps([self.name, str(self.seed), [[i.id, None if i.seed is None else str(i.seed)]
                                                        for i in self.items]], separators=(",", ":"))
        return hashlib.sha256(canon.encode("utf-8")).hexdigest()[:12]

    def tag(self) -> dict[str, str]:
        """What each answer, session and statement of the form carries."""
        return {"name": self.name, "id": self.id}

    def seed_of(self, item: FormItem) -> int | str:
        return self.seed if item.seed is None else item.seed


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        from study.untrusted import shown

        raise FormError(f"form name {shown(repr(name), keep_newlines=False)[:80]} must be 1 to 64 letters, digits, "
                        "spaces, dots, dashes or underscores, starting with a letter or digit")
    return name


def make_form(bank: Any, name: str, seed: int | str, *, count: int | None = None, minutes: float | None = None,
              ids: Sequence[str] | None = None, questions: Sequence[Any] | None = None) -> Form:
    """A form from ``bank``: the questions ``ids`` names, in that order, or else an exam draw shaped like
    the real one (``count`` questions by the blueprint's domain weights, seeded by ``seed``, no learner's
    history in it). A question the calculator cannot instantiate is left out of a draw and refused by id."""
    from study.quiz.build import _instances
    from study.quiz.select import select_exam

    check_name(name)
    if ids:
        chosen = [_question(bank, qid) for qid in _no_repeats(ids)]
        instances = _instances(bank, lambda broken: chosen, seed, as_choice=True)
        if len(instances) < len(chosen):
            made = {i.qid for i in instances}
            bad = next(q.id for q in chosen if q.id not in made)
            raise FormError(f"question {bad} cannot be instantiated (run `study preview {bad}`)")
    else:
        pool = list(bank.questions if questions is None else questions)
        n = bank.blueprint.exam.questions if count is None else count

        def pick(broken: set[str]) -> list[Any]:
            return select_exam([q for q in pool if q.id not in broken], bank.blueprint, n, seed)

        instances = _instances(bank, pick, seed, as_choice=True)
        chosen = [_question(bank, inst.qid) for inst in instances]
    if not chosen:
        raise FormError("no questions match: the form would be empty")
    items = tuple(FormItem(q.id, seed if q.params else None, _hash(bank, q.id)) for q in chosen)
    return Form(name, seed, items, minutes)


def _no_repeats(ids: Sequence[str]) -> list[str]:
    seen: set[str] = set()
    for qid in ids:
        if qid in seen:
            raise FormError(f"question {qid} is named twice: a form asks each question once")
        seen.add(qid)
    return list(ids)


def _question(bank: Any, qid: str) -> Any:
    try:
        return bank.question(qid)
    except KeyError:
        import difflib

        from study.untrusted import shown

        near = difflib.get_close_matches(qid, [q.id for q in bank.questions], n=3, cutoff=0.6)
        raise FormError(f"no question {shown(qid, keep_newlines=False)[:80]} in the bank"
                        f"{'; did you mean ' + ' or '.join(near) + '?' if near else ''}") from None


def _hash(bank: Any, qid: str) -> str | None:
    fn = getattr(bank, "content_hash", None)
    try:
        return fn(qid) if fn is not None else None
    except KeyError:
        return None


def minutes_of(form: Form, bank: Any) -> float:
    """The form's time limit: its own, else the real exam's pace for its length (60 for 50 is 1.2 each)."""
    if form.minutes is not None:
        return form.minutes
    exam = bank.blueprint.exam
    return float(round(float(exam.minutes) * len(form.items) / exam.questions, 1))


def to_yaml(form: Form, bank: Any = None) -> str:
    """The form file, with comments that say what each part does and the questions' titles for the reader."""
    lines = [
        "# A class exam form for `study quiz --form FILE`: every learner answers these questions in this order,",
        "# with the same values and choice order, so `study analyze` has one answer per learner on each.",
        "# Editing a question's id or seed makes another form (its id changes); hash only notices bank edits.",
        f"format: {FORMAT}",
        f"version: {VERSION}",
        f"name: {json.dumps(form.name)}",
        f"seed: {json.dumps(form.seed)}",
    ]
    if bank is not None or form.minutes is not None:
        lines.append(f"minutes: {form.minutes if form.minutes is not None else minutes_of(form, bank):g}")
    lines.append("questions:")
    for item in form.items:
        note = ""
        if bank is not None:
            try:
                q = bank.question(item.id)
                note = f"  # {q.objective} {q.type}" + (", templated" if q.params else "")
            except KeyError:
                pass
        lines.append(f"  - id: {json.dumps(item.id)}{note}")
        if item.seed is not None:
            lines.append(f"    seed: {json.dumps(item.seed)}")
        if item.hash:
            lines.append(f"    hash: {json.dumps(item.hash)}")
    return "\n".join(lines) + "\n"


def read_form(path: Any) -> Form:
    """A form file (YAML; JSON is YAML too) checked for shape; :func:`check_form` checks it against a bank.
    Anything wrong is one :class:`FormError` naming the file and, when known, the line and column."""
    from pathlib import Path

    from study.bank.yamlsafe import decode_utf8, parse_yaml
    from study.inputs import InputFileError, read_bounded
    from study.untrusted import shown

    label = shown(str(path), keep_newlines=False)
    try:
        raw = read_bounded(Path(path), MAX_FORM_BYTES)
    except InputFileError as exc:
        raise FormError(f"form {exc}") from None
    text, bad = decode_utf8(raw)
    if bad is not None or text is None:
        assert bad is not None
        raise FormError(f"{label}:{bad.line}:{bad.column}: {bad.message}")
    doc = parse_yaml(text)
    if doc.fatal:
        f = doc.findings[0]
        raise FormError(f"{label}:{f.line}:{f.column}: {f.message}")
    for f in doc.findings:
        if f.severity == "error":
            raise FormError(f"{label}:{f.line}:{f.column}: {f.message}")
    data = doc.data

    def fail(where: tuple[Any, ...], message: str) -> FormError:
        line, col = doc.position(where)
        return FormError(f"{label}:{line}:{col}: {message}")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise fail((), f"not a study exam form (it starts with `format: {FORMAT}`; write one with "
                       "`study export --form NAME FILE`)")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        line, col = doc.key_position((), str(unknown[0]))
        raise FormError(f"{label}:{line}:{col}: unknown key {shown(repr(unknown[0]), keep_newlines=False)[:60]} "
                        f"(a form has {', '.join(_KEYS)})")
    if data.get("version") != VERSION:
        raise fail(("version",), f"form version {shown(repr(data.get('version')), keep_newlines=False)[:40]} is not "
                                 f"{VERSION}, the one this study reads")
    try:
        name = check_name(data.get("name"))  # type: ignore[arg-type]
    except FormError as exc:
        raise fail(("name",), str(exc)) from None
    seed = _seed(data.get("seed"))
    if seed is None:
        raise fail(("seed",), "seed must be a whole number or a short word (letters, digits, . _ -)")
    minutes = data.get("minutes")
    if minutes is not None and not (isinstance(minutes, (int, float)) and not isinstance(minutes, bool)
                                    and 0 < minutes <= MAX_MINUTES):
        raise fail(("minutes",), f"minutes must be a number above 0 and at most {MAX_MINUTES}")
    rows = data.get("questions")
    if not isinstance(rows, list) or not rows:
        raise fail(("questions",), "questions must be a list of at least one question (- id: ...)")
    if len(rows) > MAX_FORM_QUESTIONS:
        raise fail(("questions",), f"{len(rows)} questions: a form holds at most {MAX_FORM_QUESTIONS}")
    items: list[FormItem] = []
    seen: set[str] = set()
    for n, row in enumerate(rows):
        if isinstance(row, str):
            row = {"id": row}
        if not isinstance(row, dict) or not isinstance(row.get("id"), str) or not row["id"].strip():
            raise fail(("questions", n), f"question {n + 1} must be a mapping with an id (- id: ...)")
        extra = [k for k in row if k not in _ITEM_KEYS]
        if extra:
            line, col = doc.key_position(("questions", n), str(extra[0]))
            raise FormError(f"{label}:{line}:{col}: unknown key {shown(repr(extra[0]), keep_newlines=False)[:60]} "
                            f"in question {n + 1} (a question has {', '.join(_ITEM_KEYS)})")
        qid = row["id"].strip()
        if qid in seen:
            raise fail(("questions", n, "id"), f"question {shown(qid, keep_newlines=False)[:80]} is listed twice: a "
                                               "form asks each question once")
        seen.add(qid)
        item_seed = None if row.get("seed") is None else _seed(row["seed"])
        if row.get("seed") is not None and item_seed is None:
            raise fail(("questions", n, "seed"), "seed must be a whole number or a short word (letters, digits, . _ -)")
        digest = row.get("hash")
        if digest is not None and not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{8,64}", digest)):
            raise fail(("questions", n, "hash"), "hash must be the hex digest `study export --form` wrote")
        items.append(FormItem(qid, item_seed, digest))
    return Form(name, seed, tuple(items), float(minutes) if minutes is not None else None)


def _seed(value: Any) -> int | str | None:
    """A seed as written, or None when it cannot be one (a float, a list, a long text)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**18:
        return value
    if isinstance(value, str) and _SEED_RE.fullmatch(value):
        return value
    return None


def check_form(form: Form, bank: Any) -> list[str]:
    """Raise :class:`FormError` when a question of the form is not in ``bank`` (or cannot be asked); return a
    warning for each question edited since the form was written (its content hash differs): the class then
    answers the edited question, which an instructor fixing a typo wants and one comparing classes should
    know."""
    changed = []
    for item in form.items:
        _question(bank, item.id)
        now = _hash(bank, item.id)
        if item.hash and now and now != item.hash:
            changed.append(item.id)
    if not changed:
        return []
    shown_ids = ", ".join(changed[:5]) + (f" and {len(changed) - 5} more" if len(changed) > 5 else "")
    return [f"form {form.name}: {len(changed)} question(s) changed in the bank since the form was written "
            f"({shown_ids}): the learners answer them as they are now"]


def form_instances(form: Form, bank: Any) -> list[Any]:
    """The form's questions as asked (exam mode: a numeric question with distractors as choices)."""
    from study.quiz.build import _hash as content_hash
    from study.quiz.instance import InstanceError, instantiate

    out = []
    for item in form.items:
        question = _question(bank, item.id)
        try:
            out.append(instantiate(question, form.seed_of(item), as_choice=True,
                                   hash_=content_hash(bank, item.id)))
        except InstanceError as exc:
            raise FormError(f"form {form.name}: question {item.id} cannot be asked ({exc})") from None
    return out


def build_form_exam(bank: Any, form: Form, *, store: Any = None, now: Any = None, clock: Any = None,
                    session_id: str | None = None) -> Any:
    """A timed exam session asking exactly ``form`` (no draw, no history: every learner gets the same)."""
    from study.quiz.clock import as_utc, system_clock
    from study.quiz.session import QuizSession, _domain_names, _objective_titles, _resolve_now

    instances = form_instances(form, bank)
    started, now_clock = _resolve_now(now)
    clock = clock or now_clock or system_clock
    started = started or as_utc(clock())
    session = QuizSession(
        instances, mode="exam", started_at=started, minutes=minutes_of(form, bank), seed=form.seed,
        session_id=session_id, target_percent=bank.blueprint.exam.target_percent,
        domain_names=_domain_names(bank), objective_titles=_objective_titles(bank), clock=clock, store=store,
        form=form.tag(),
    )
    # Saved at once, as build_exam does: an exam closed before its first answer still resumes.
    session._persist()
    return session
