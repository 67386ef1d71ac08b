"""Lint checks that never guess: catalog ids that name more than one part, unknown ids reported once where
they are written, and exam forms with too few options.

A catalog id reaches an expression two ways: written in it (``gpu('h100')``) or as a parameter's value
(``params: {g: [h100, a100]}`` with ``gpu(g)`` or ``mfu(..., gpu=g)``). An unknown id used three times was
reported three times at its uses, never at the ``params`` line where the author typed it; it is reported
once, there, and the evaluation errors it causes are dropped.
"""

from __future__ import annotations

import ast
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from study.bank.load import Diagnostic
from study.bank.schema import Question

CATALOG_KINDS = ("gpu", "model", "link")
# An exam asks a numeric question as a choice among the answer and its distractors; with fewer than this
# many options a guess is too likely to pay (two options: 50%).
MIN_EXAM_OPTIONS = 4


def _expressions(q: Question) -> Iterable[tuple[tuple[Any, ...], str]]:
    from study.bank.schema import NumericAnswer, PLACEHOLDER_RE

    if isinstance(q.answer, NumericAnswer) and q.answer.calc:
        yield ("answer", "calc"), q.answer.calc
    for i, d in enumerate(q.distractors or ()):
        if d.calc:
            yield ("distractors", i, "calc"), d.calc
    for m in PLACEHOLDER_RE.finditer(q.stem):
        if m.group(1) and m.group(1).startswith("="):
            yield ("stem",), m.group(1)[1:]


def catalog_uses(text: str) -> list[tuple[str, str, bool]]:
    """``(kind, name or id, is_parameter)`` for each catalog look-up in an expression's text."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return []  # the calc checks report the syntax
    out = []

    def take(kind: str, node: ast.AST) -> None:
        if isinstance(node, ast.Name):
            out.append((kind, node.id, True))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append((kind, node.value, False))

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in CATALOG_KINDS and node.args:
            take(node.func.id, node.args[0])
        for kw in node.keywords:
            if kw.arg in CATALOG_KINDS:
                take(kw.arg, kw.value)
    return out


def _check(kind: str, key: str) -> tuple[str, str] | None:
    """(code, message) for an id that does not name exactly one part."""
    from study.calc import specs

    cat = specs.catalog()
    candidates = cat.ambiguous(kind, key)
    if candidates:
        return ("ambiguous-catalog-id", f"{kind} {key!r} names more than one part: write one of "
                f"{', '.join(candidates)}")
    try:
        cat.find(kind, key)
    except specs.CatalogError as exc:
        return ("unknown-catalog-id", str(exc))
    return None


Position = Callable[[Question, tuple[Any, ...]], tuple[int, int]]


def catalog_findings(q: Question, position: Position) -> list[Diagnostic]:
    """Each catalog id of ``q`` that is unknown or ambiguous, once, at the line where it is written."""
    assert q.source is not None
    out: list[Diagnostic] = []
    seen: set[tuple[tuple[Any, ...], str]] = set()
    params = q.params or {}
    for path, text in _expressions(q):
        for kind, name, is_param in catalog_uses(text):
            if is_param:
                spec = params.get(name)
                if not isinstance(spec, list):
                    continue
                places = [(("params", name, k), v) for k, v in enumerate(spec) if isinstance(v, str)]
            else:
                places = [(path, name)]
            for where, key in places:
                if (where, key) in seen:
                    continue
                seen.add((where, key))
                found = _check(kind, key)
                if found:
                    line, col = position(q, where)
                    out.append(Diagnostic(q.source.path, line, col, "error", found[0], found[1]))
    return out


def _exam_options(q: Question) -> int | None:
    """How many options the exam form of ``q`` shows with its first parameters, counted as the quiz does:
    the answer and each distractor that rounds to neither the answer nor an earlier option and lies outside
    the tolerance. None when it cannot be computed (the calc checks say why)."""
    from study import calc
    from study.bank.lint import _within, combinations
    from study.bank.schema import NumericAnswer

    answer = q.answer
    if not isinstance(answer, NumericAnswer):
        return None
    env = next(iter(combinations(q, limit=1)), {})
    try:
        unit_info = calc.parse_unit(answer.unit)

        def value(text: str | None, fixed: float | None) -> float:
            if text is None or (fixed is not None and not q.params):
                return float(fixed)  # type: ignore[arg-type]
            return float(calc.value_in_unit(calc.compile_expr(text).evaluate(env), answer.unit))

        key = value(answer.calc, answer.value)
        labels = {f"{key:.{answer.digits}g}"}
        for d in q.distractors or ():
            dv = value(d.calc, d.value)
            label = f"{dv:.{answer.digits}g}"
            if label in labels or _within(dv, key, answer.tolerance, calc, unit_info):
                continue
            labels.add(label)
    except Exception:  # noqa: BLE001 - an expression that fails is the calc checks' finding, not this one's
        return None
    return len(labels)


def exam_form_findings(q: Question, position: Position) -> list[Diagnostic]:
    """A numeric question with distractors becomes a choice in an exam: warn when it would have fewer than
    ``MIN_EXAM_OPTIONS`` options."""
    if q.type != "numeric" or not q.distractors:
        return []
    assert q.source is not None
    shown = _exam_options(q)
    if shown is None or shown >= MIN_EXAM_OPTIONS:
        return []
    line, col = position(q, ("distractors",))
    return [Diagnostic(q.source.path, line, col, "warning", "few-exam-options",
                       f"in an exam this question is a choice among {shown} options (the answer and "
                       f"{shown - 1} distinct distractor(s)), so a guess scores {100 / shown:.0f}%: give at "
                       f"least {MIN_EXAM_OPTIONS - 1} distractors that differ")]


# A finding that already says a distractor is dropped from the choice: the missing option is its consequence.
_DROPS_A_DISTRACTOR = ("distractors-coincide", "distractor-within-tolerance")


def without_consequences(diags: Sequence[Diagnostic], found: Sequence[Diagnostic],
                         spans: dict[str, tuple[str, int, int]]) -> list[Diagnostic]:
    """``found`` without a few-exam-options warning for a question whose distractor finding explains it."""
    dropping = [d for d in diags if d.code in _DROPS_A_DISTRACTOR]
    out = []
    for d in found:
        if d.code == "few-exam-options":
            qid = next((q for q, (p, a, b) in spans.items() if p == d.path and a <= d.line <= b), None)
            span = spans.get(qid) if qid else None
            if span and any(x.path == span[0] and span[1] <= x.line <= span[2] for x in dropping):
                continue
        out.append(d)
    return out


def drop_repeats(diags: Sequence[Diagnostic], catalog: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The calc errors an unknown id caused at each use, dropped: it is reported once where it is written."""
    unknown = {(d.path, d.message.split(";")[0]) for d in catalog if d.code == "unknown-catalog-id"}
    return [d for d in diags if not (d.code == "calc-error" and (d.path, d.message.split(";")[0]) in unknown)]
