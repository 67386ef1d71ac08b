"""``study preview``: a question as the learner sees it, then everything the learner only sees in parts.

The learner's view is the quiz's own: :func:`study.quiz.instance.instantiate` builds the instance and
:func:`study.quiz.plain.describe` renders it, so a preview cannot drift from a real quiz. After it come the
answer, every choice's ``why``, the worked derivation, and for numeric questions each distractor's value in
this instance and whether the quiz offers it (one that rounds to the answer or to another option is dropped).
A templated question is shown for several seeds, each with its drawn parameters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Iterator

from study.bank.load import Diagnostic
from study.bank.schema import NumericAnswer, Question
from study.quiz.instance import Instance, InstanceError, format_value, instantiate
from study.quiz.plain import describe, plain_text

# Attempts per wanted instance when looking for distinct parameter draws of a small parameter space.
_DRAWS_PER_INSTANCE = 10


@dataclass(frozen=True)
class DistractorView:
    value: float
    display: str
    why: str
    offered: bool
    reason: str = ""  # why the quiz drops it, when it does


@dataclass(frozen=True)
class InstanceView:
    seed: int
    instance: Instance
    learner_text: str
    distractors: tuple[DistractorView, ...] = ()
    accepted: str = ""  # the numeric answers graded right, as a range


@dataclass(frozen=True)
class QuestionView:
    question: Question
    instances: tuple[InstanceView, ...] = ()
    error: str | None = None

    @property
    def where(self) -> str:
        return str(self.question.source) if self.question.source else ""


def _learner_text(inst: Instance) -> str:
    return describe(inst, 1, 1)


def accepted_range(value: float, unit: str, tolerance: str, digits: int) -> str:
    """The span of answers graded right, e.g. ``137.2 GB to 142.8 GB``."""
    text = tolerance.strip()
    if text.endswith("%"):
        bound = abs(value) * float(text[:-1]) / 100.0
    else:
        try:
            bound = float(text)  # a bare number is in the answer's unit
        except ValueError:
            bound = _absolute(text, unit)
    shown = max(digits, 4)
    return f"{format_value(value - bound, unit, shown)} to {format_value(value + bound, unit, shown)}"


def _absolute(text: str, unit: str) -> float:
    """An absolute tolerance with its own unit (``0.5 GB``) in the answer's unit, as grading reads it."""
    from study.calc.units import convert, parse_quantity

    return float(convert(float(parse_quantity(text).value), unit))


def _distractors(question: Question, inst: Instance) -> tuple[DistractorView, ...]:
    from study.quiz.instance import evaluate, in_unit, within

    answer = question.answer
    key = inst.numeric
    if not isinstance(answer, NumericAnswer) or key is None:
        return ()
    offered = list(key.distractors)
    out: list[DistractorView] = []
    for d in question.distractors or ():
        value = in_unit(evaluate(d.calc, inst.params), key.unit) if d.calc is not None else float(d.value)  # type: ignore[arg-type]
        display = format_value(value, key.unit, key.digits)
        match = next((i for i, (v, why) in enumerate(offered) if v == value and why == d.why), None)
        if match is not None:
            offered.pop(match)
            out.append(DistractorView(value, display, d.why, True))
            continue
        if within(value, key.value, key.tolerance, key.unit):
            reason = f"within the {key.tolerance} tolerance of the answer"
        else:
            reason = "shows the same as the answer or another distractor"
        out.append(DistractorView(value, display, d.why, False, reason))
    return tuple(out)


def _view(question: Question, seed: int, exam: bool) -> InstanceView:
    inst = instantiate(question, seed, as_choice=exam)
    distractors: tuple[DistractorView, ...] = ()
    accepted = ""
    if inst.numeric is not None:
        distractors = _distractors(question, inst)
        key = inst.numeric
        accepted = accepted_range(key.value, key.unit, key.tolerance, key.digits)
    return InstanceView(seed, inst, _learner_text(inst), distractors, accepted)


def _drawn(question: Question, seed: int) -> dict[str, Any]:
    """The parameters ``instantiate`` draws for ``seed`` (same generator), to name them when it fails."""
    import random

    from study.quiz.instance import draw_params

    return draw_params(question, random.Random(f"{seed}:{question.id}"))


def preview_question(question: Question, seed: int = 0, instances: int = 3, exam: bool = False) -> QuestionView:
    """One view of a fixed question; up to ``instances`` views with distinct parameters of a templated one.

    A draw that cannot be built (a calc error for some parameters) is reported with its parameters and the
    next seed is tried, so one bad combination does not hide the good ones."""
    wanted = instances if question.is_templated else 1
    views: list[InstanceView] = []
    errors: list[str] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for s in range(seed, seed + wanted * _DRAWS_PER_INSTANCE):
        drawn = tuple(sorted((k, repr(v)) for k, v in _drawn(question, s).items()))
        if drawn in seen:
            continue
        seen.add(drawn)
        try:
            views.append(_view(question, s, exam))
        except (InstanceError, ArithmeticError, ValueError, TypeError, KeyError) as exc:
            message = str(exc).removeprefix(f"{question.id}: ")
            params = _params_text(_drawn(question, s))
            errors.append(f"seed {s}" + (f" ({params})" if params else "") + f": {message}")
        if len(views) + len(errors) >= wanted:
            break
    return QuestionView(question, tuple(views), "; ".join(errors) or None)


# --- one rendering, as (style, text) lines, for the plain and the rich output ------------------------------

@dataclass(frozen=True)
class Line:
    """``style``: heading, meta, learner, answer, right, wrong, step, value, dropped, note, error."""

    style: str
    text: str


def _params_text(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in params.items())


def question_lines(view: QuestionView) -> Iterator[Line]:
    q = view.question
    bits = [f"objective {q.objective}", q.type.replace("_", "/"), f"difficulty {q.difficulty}"]
    if q.is_templated:
        bits.append("templated")
    if q.topic:
        bits.append(f"topic {q.topic}")
    bits.append(f"verified {q.verified}" + (", volatile" if q.volatile else ""))
    yield Line("heading", f"{q.id}  ({view.where})" if view.where else q.id)
    yield Line("meta", " · ".join(bits))
    for n, iv in enumerate(view.instances, 1):
        yield from _instance_lines(q, iv, n, len(view.instances))
    if view.error:
        where = f"{view.where}: " if view.where else ""
        yield Line("error", f"{where}error: cannot build this question for {view.error}")
    yield Line("note", "")
    yield Line("note", "")


def worked_steps(inst: Any) -> list[str]:
    """The derivation, ending in the answer's unit: a calculator states its outcome in the unit that reads
    best (25.3 min), which beside "Right answer: 1,516 s" looks like another number."""
    steps = list(inst.derivation)
    key = inst.numeric
    if steps and key is not None and not steps[-1].rstrip().endswith(key.display):
        steps.append(f"in the answer's unit ({key.unit}): {key.display}")
    return steps


def _instance_lines(q: Question, iv: InstanceView, n: int, total: int) -> Iterator[Line]:
    inst = iv.instance
    if q.is_templated:
        yield Line("note", "")
        yield Line("meta", f"instance {n} of {total} (seed {iv.seed}): {_params_text(dict(inst.params))}")
    yield Line("learner", iv.learner_text)
    yield Line("note", "")
    if inst.numeric is not None and not inst.options:
        key = inst.numeric
        yield Line("answer", f"Right answer: {key.display} (graded right from {iv.accepted}, tolerance {key.tolerance})")
    else:
        yield Line("answer", f"Right answer: {inst.expected_display}")
        for label, opt in zip(inst.labels, inst.options):
            if opt.why:
                yield Line("right" if opt.correct else "wrong", f"  {label}) {'right' if opt.correct else 'wrong'}: {plain_text(opt.why)}")
    if inst.derivation:
        yield Line("meta", "Worked:")
        for step in worked_steps(inst):
            yield Line("step", f"  {step}")
    if iv.distractors:
        yield Line("meta", "Distractors:")
        for d in iv.distractors:
            if d.offered:
                yield Line("value", f"  {d.display}: {plain_text(d.why)}")
            else:
                yield Line("dropped", f"  {d.display} (not offered: {d.reason}): {plain_text(d.why)}")
    yield Line("note", f"Why: {plain_text(inst.explanation)}")
    for title, url in inst.references:
        yield Line("note", f"Source: {title} <{url}>")


def question_json(view: QuestionView) -> dict[str, Any]:
    q = view.question
    return {
        "id": q.id,
        "source": view.where,
        "objective": q.objective,
        "type": q.type,
        "difficulty": q.difficulty,
        "templated": q.is_templated,
        "error": view.error,
        "instances": [
            {
                "seed": iv.seed,
                "params": dict(iv.instance.params),
                "learner_text": iv.learner_text,
                "expected": iv.instance.expected_display,
                "accepted": iv.accepted or None,
                "derivation": worked_steps(iv.instance),
                "options": [{"label": lab, "text": o.text, "correct": o.correct, "why": o.why}
                            for lab, o in zip(iv.instance.labels, iv.instance.options)],
                "distractors": [{"value": d.value, "display": d.display, "why": d.why, "offered": d.offered,
                                 "reason": d.reason or None} for d in iv.distractors],
            }
            for iv in view.instances
        ],
    }


# --- what to preview ---------------------------------------------------------------------------------------

@dataclass
class FilePreview:
    """The questions of some files that validated, and every finding lint has about those files."""

    questions: list[Question] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def load_for_preview(paths: list[Path]) -> FilePreview:
    """Questions of ``paths`` as they load on their own (so one with an unknown topic still shows), and lint's
    findings for them checked with the built-in bank (duplicate ids, topics, calc expressions)."""
    from study.bank.bank import display_path
    from study.bank.lint import lint
    from study.bank.load import QUESTION_SUFFIXES, iter_files, load_question_file

    out = FilePreview()
    for path in iter_files(paths, QUESTION_SUFFIXES):
        found, _ = load_question_file(path, display_path(path))
        out.questions.extend(found)
    out.diagnostics = list(lint(paths).diagnostics)
    return out


def findings_of_unloaded(bank: Any, qid: str) -> tuple[str, list[Diagnostic]] | None:
    """The file that writes question ``qid`` and the findings inside its entry that keep it out of ``bank``, or
    None when no question file has a question with that id (then it is a typo of the id)."""
    from study.bank.load import QUESTION_SUFFIXES
    from study.bank.yamlsafe import decode_utf8, parse_yaml

    for shown in bank.files:
        if not shown.endswith(QUESTION_SUFFIXES):
            continue
        try:
            text, _ = decode_utf8(Path(shown).read_bytes())
        except OSError:
            continue
        doc = parse_yaml(text or "")
        items = doc.data.get("questions") if isinstance(doc.data, dict) else None
        for i, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, dict) and str(item.get("id", "")).strip() == qid:
                first, last = doc.span(("questions", i))
                return shown, [d for d in bank.diagnostics if d.path == shown and first <= d.line <= last]
    return None
