"""The bank as GIFT for Moodle: categories per objective, ``::id::`` titles, Markdown text, feedback, weights.

What GIFT has no field for (objective, difficulty, topic, references, verified, volatile, unit, relative
tolerance) is written in ``// study: key=value`` comments directly above each question, and the id and tags
also as Moodle's own ``// [id:...] [tag:...]`` comment, so ``study import`` can restore the question and
Moodle keeps its id number and tags.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from study.bank.schema import NumericAnswer, Question
from study.interop.gift_syntax import escape, escape_piece

EXPORT_SEED = 0
# A numeric question states its unit in the text, because a GIFT number has none; import strips it again.
UNIT_SENTENCE = "\n\nAnswer in {unit}."
# Metadata whose value may contain spaces: alone on its line, the value runs to the end of the line.
FREE_KEYS = ("reference", "accept", "unit", "tolerance", "templated", "source", "exhibit", "calc", "distractor-calc")


@dataclass
class ExportReport:
    counts: Counter = field(default_factory=Counter)
    templated: list[str] = field(default_factory=list)
    calc_only: list[str] = field(default_factory=list)
    numeric: int = 0
    multi: int = 0
    failed: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """What could not be expressed exactly, one line per kind of loss."""
        out = []
        if self.templated:
            out.append(f"{len(self.templated)} templated questions exported as one fixed instance each (seed "
                       f"{EXPORT_SEED}): GIFT has no parameters or formulas")
        if self.calc_only:
            out.append(f"{len(self.calc_only)} numeric answers computed by a calc expression: GIFT holds the value it "
                       "gives, and the expression travels in a '// study: calc=' comment that study import restores")
        if self.numeric:
            out.append(f"{self.numeric} numeric questions: the unit is stated in the question text (a GIFT number has "
                       "no unit) and relative tolerances became \u00b1 values around the exported number")
        if self.multi:
            out.append(f"{self.multi} choose-N questions: Moodle gives partial credit (+100/N per right pick, wrong "
                       "picks cancel them, so ticking everything scores 0); study grades them all or nothing")
        if self.counts:
            out.append("objective, difficulty, topic, references, verified and volatile are kept in '// study:' "
                       "comments, which Moodle ignores (it keeps the id and tags from '// [id:] [tag:]')")
        return out


def number(value: float) -> str:
    """A number for GIFT: 12 significant digits, no trailing zeros, no float noise."""
    text = f"{value:.12g}"
    return "0" if text in ("-0", "0") else text


def percent(value: float) -> str:
    """A Moodle weight: at most 5 decimals, which matches Moodle's grade list (33.33333% = 0.3333333)."""
    text = f"{value:.5f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def nominal_tolerance(tolerance: str, value: float, unit: str) -> float:
    """Our tolerance ("3%", "0.5", "0.5 GB") as GIFT's \u00b1 amount around ``value``, in ``unit``."""
    text = tolerance.strip()
    if text.endswith("%"):
        return abs(value) * float(text[:-1]) / 100.0
    try:
        return float(text)
    except ValueError:
        from study.calc.units import convert, parse_quantity

        return float(convert(float(parse_quantity(text).value), unit))


def _category(bank, objective: str) -> str:
    bp = bank.blueprint
    domain = bp.domain_of(objective)
    title = bp.objective(objective).title

    def seg(s: str) -> str:
        return s.replace("/", "//")  # Moodle reads "//" as a slash inside a category name

    return f"{seg(bp.exam.code)}/{seg(f'{domain.id} {domain.name}')}/{seg(f'{objective} {title}')}"


def _comment_value(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def metadata_lines(q: Question) -> list[str]:
    tags = "".join(f" [tag:{t.replace(']', chr(92) + ']')}]" for t in q.tags)
    lines = [f"// [id:{q.id}]{tags}"]
    simple = [f"objective={q.objective}", f"difficulty={q.difficulty}"]
    if q.topic:
        simple.append(f"topic={q.topic}")
    if q.concept:
        simple.append(f"concept={q.concept}")
    simple.append(f"verified={q.verified.isoformat()}")
    simple.append(f"volatile={'true' if q.volatile else 'false'}")
    lines.append("// study: " + " ".join(simple))
    for ref in q.references:
        lines.append(f"// study: reference={ref.url} {_comment_value(ref.title)}")
    # A lint warning the author accepted with a reason travels too, or the re-imported bank warns again.
    for accepted in q.accept:
        pair = f":{accepted.other}" if accepted.other else ""
        lines.append(f"// study: accept={accepted.code}{pair} {_comment_value(accepted.reason)}")
    lines += exhibit_lines(q)
    if q.source is not None:
        # Never the exporting machine's absolute path: the folder and file are what a reader can use.
        path = q.source.path
        if os.path.isabs(path):
            path = "/".join(Path(path).parts[-2:])
        lines.append(f"// study: source={path}:{q.source.line}")
    return lines


def exhibit_lines(q: Question) -> list[str]:
    """A lab exhibit travels as a comment (so an import restores it) and, in the text, as the rendered block
    Moodle shows."""
    ex = getattr(q, "exhibit", None)
    if ex is None:
        return []
    import json

    return [f"// study: exhibit={json.dumps(ex.model_dump(), separators=(',', ':'))}"]


def calc_lines(q: Question, key: Any) -> list[str]:
    """A fixed numeric question's calculator expressions, which GIFT has no field for: the answer's
    (``calc=EXPR``, with ``value=stated`` when the author wrote the number too) and each distractor's
    (``distractor-calc=N EXPR``, N its place among the GIFT wrong numbers, ``N+value`` when it states a number
    too), so ``study import`` brings the question back as written rather than as the numbers they gave.
    A distractor the instance left out (it rounds to the answer) is not in the GIFT file, so not here."""
    answer = q.answer
    assert isinstance(answer, NumericAnswer)
    lines = []
    if answer.calc is not None:
        lines.append(f"// study: calc={_comment_value(answer.calc)}")
        if answer.value is not None:
            lines.append("// study: value=stated")
    shown = iter(enumerate(key.distractors, 1))
    place = next(shown, None)
    for d in q.distractors or ():
        if place is None or place[1][1] != d.why:
            continue  # left out of the instance, so of the GIFT file
        if d.calc is not None:
            stated = "+value" if d.value is not None else ""
            lines.append(f"// study: distractor-calc={place[0]}{stated} {_comment_value(d.calc)}")
        place = next(shown, None)
    return lines


def _feedback(text: str | None) -> str:
    return f"#{escape_piece(text)}" if text else ""


def question_gift(q: Question, report: ExportReport) -> str:
    """One question as a GIFT block (comments, title, text, answers, general feedback)."""
    from study.quiz.instance import instantiate

    from study.quiz.instance import render_stem

    lines = metadata_lines(q)
    instance = None
    if q.is_templated or "{=" in q.stem or q.type == "numeric":
        instance = instantiate(q, EXPORT_SEED, shuffle=False)
        stem = instance.stem
    else:
        stem = render_stem(q, {})  # what the learner reads: {{ and }} are literal braces
    if q.is_templated:
        shown = ", ".join(f"{k}={v}" for k, v in instance.params.items())  # type: ignore[union-attr]
        lines.append(f"// study: templated=one fixed instance (seed {EXPORT_SEED}) with {_comment_value(shown)}; "
                     "GIFT cannot express parameters")
        report.templated.append(q.id)
    body: list[str] = []
    if q.type == "single":
        for c in q.choices or ():
            marker = "=" if c.correct else ("~%0%" if c.text.startswith("%") else "~")
            body.append(f"\t{marker}{escape_piece(c.text)}{_feedback(c.why)}")
        opening = "{"
    elif q.type == "multi":
        choices = q.choices or ()
        right = sum(c.correct for c in choices)
        wrong = len(choices) - right
        report.multi += 1
        for c in choices:
            weight = 100.0 / right if c.correct else -100.0 / max(wrong, 1)
            body.append(f"\t~%{percent(weight)}%{escape_piece(c.text)}{_feedback(c.why)}")
        opening = "{"
    elif q.type == "true_false":
        opening = "{" + ("TRUE" if q.answer else "FALSE")
    else:
        answer = q.answer
        assert isinstance(answer, NumericAnswer) and instance is not None and instance.numeric is not None
        key = instance.numeric
        report.numeric += 1
        if answer.calc is not None and not q.is_templated and answer.value is None:
            report.calc_only.append(q.id)
        lines.append(f"// study: unit={key.unit}")
        lines.append(f"// study: tolerance={key.tolerance}")
        lines.append(f"// study: digits={key.digits}")
        if not q.is_templated:
            lines += calc_lines(q, key)
        if key.unit.strip() not in ("", "1"):
            stem += UNIT_SENTENCE.format(unit=key.unit)
        tol = nominal_tolerance(key.tolerance, key.value, key.unit)
        body.append(f"\t={number(key.value)}:{number(tol)}")
        for value, why in key.distractors:
            dtol = nominal_tolerance(key.tolerance, value, key.unit)
            body.append(f"\t=%0%{number(value)}:{number(dtol)}{_feedback(why)}")
        opening = "{#"
    head = f"::{escape(q.id)}::[markdown]{escape(stem)}"
    general = f"####{escape_piece(q.explanation)}"
    if q.type == "true_false":
        lines.append(f"{head}{opening}{general}}}")
    else:
        lines.append(f"{head}{opening}")
        lines.extend(body)
        lines.append(f"\t{general}")
        lines.append("}")
    report.counts[q.type] += 1
    return "\n".join(lines)


def bank_gift(bank, questions: Iterable[Question] | None = None) -> tuple[str, ExportReport]:
    """The whole bank (or ``questions``) as one GIFT text, grouped by objective in blueprint order."""
    report = ExportReport()
    order = {o: i for i, o in enumerate(bank.blueprint.objective_ids())}
    chosen = list(bank.questions if questions is None else questions)
    chosen.sort(key=lambda q: order.get(q.objective, len(order)))  # stable: file order within an objective
    parts = ["\n".join([
        f"// {bank.blueprint.exam.code} question bank, exported by `study export --format gift`.",
        "// Import into Moodle (Question bank > Import > GIFT, 'Get category from file') or back into study",
        "// with `study import FILE.gift --out questions/NAME.yaml`. The '// study:' lines carry what GIFT has",
        "// no field for; templated questions appear as one fixed instance each.",
    ])]
    current = None
    for q in chosen:
        if q.objective != current:
            current = q.objective
            parts.append(f"$CATEGORY: {_category(bank, q.objective)}")
        try:
            parts.append(question_gift(q, report))
        except Exception as exc:  # noqa: BLE001 - a question the calculator cannot instantiate is reported, not fatal
            report.failed.append(f"{q.source or q.id}: {exc}")
    return "\n\n".join(parts) + "\n", report
