"""``study lint``: everything the loader finds, plus checks that need the calculator.

The loader already reports syntax, structure and cross-file problems. Lint adds what is too slow or too
calculator-specific to do on every start: every ``calc`` expression is compiled and evaluated for every
parameter combination (a seeded sample when there are many), and the result is held against the stated value,
the answer's unit, the tolerance and the distractors.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Iterator, Sequence

from study.bank.bank import Bank, load_bank
from study.bank.load import Diagnostic
from study.bank.schema import NUMBER_PATTERN, PLACEHOLDER_RE, Question, param_values

MAX_COMBINATIONS = 200
# A distractor this close to the answer (relative) would be marked right: the tolerance is too loose.
LOOSE_TOLERANCE = 0.25


@dataclass(frozen=True)
class LintResult:
    diagnostics: tuple[Diagnostic, ...]
    files: int
    questions: int
    cards: int
    # Information (severity "info"): worth knowing, nothing to fix, so never in ``diagnostics``, where a
    # clean bank is an empty tuple.
    notes: tuple[Diagnostic, ...] = ()

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)


def combinations(q: Question, limit: int = MAX_COMBINATIONS, seed: int = 0) -> Iterator[dict[str, Any]]:
    """Every parameter combination, or a seeded sample of ``limit`` of them."""
    params = q.params or {}
    if not params:
        yield {}
        return
    names = list(params)
    values = [param_values(spec) for spec in params.values()]
    total = math.prod(len(v) for v in values)
    if total <= limit:
        for combo in itertools.product(*values):
            yield dict(zip(names, combo))
        return
    rng = random.Random(f"{q.id}:{seed}")
    for _ in range(limit):
        yield {n: rng.choice(v) for n, v in zip(names, values)}


def parse_tolerance(text: str) -> tuple[float, str | None]:
    """``"2%"`` -> (0.02, None); ``"0.5 GB"`` -> (0.5, "GB"); ``"0.5"`` -> (0.5, None) read in the answer's unit."""
    text = text.strip()
    if text.endswith("%"):
        return float(text[:-1]) / 100.0, "%"
    m = re.match(rf"^({NUMBER_PATTERN})\s*(.*)$", text)
    if not m:
        raise ValueError(f"bad tolerance {text!r}")
    return float(m.group(1)), (m.group(2) or None)


class _Located:
    """Positions of a question's fields, found again from its file for calc findings."""

    def __init__(self) -> None:
        self._docs: dict[str, Any] = {}

    def span(self, q: Question) -> tuple[int, int]:
        """The first and last line of the question in its file."""
        assert q.source is not None
        self.position(q, ())
        doc = self._docs.get(q.source.path)
        index = self._index(q, doc) if doc is not None else None
        if doc is None or index is None:
            return q.source.line, q.source.line
        first, last = doc.span(("questions", index))
        return first, last

    @staticmethod
    def _index(q: Question, doc: Any) -> int | None:
        data = doc.data
        if isinstance(data, dict) and isinstance(data.get("questions"), list):
            for i, item in enumerate(data["questions"]):
                if isinstance(item, dict) and item.get("id") == q.id:
                    return i
        return None

    def position(self, q: Question, path: tuple[Any, ...], offset: int | None = None) -> tuple[int, int]:
        """Where the value at ``path`` starts, or with ``offset`` where that character of its text is."""
        from study.bank.yamlsafe import parse_yaml

        src = q.source
        assert src is not None
        doc = self._docs.get(src.path)
        if doc is None:
            try:
                doc = parse_yaml(Path(src.path).read_bytes().decode("utf-8-sig"))
            except (OSError, UnicodeDecodeError):
                return src.line, src.column
            self._docs[src.path] = doc
        data = doc.data
        index = None
        if isinstance(data, dict) and isinstance(data.get("questions"), list):
            for i, item in enumerate(data["questions"]):
                if isinstance(item, dict) and item.get("id") == q.id:
                    index = i
                    break
        if index is None:
            return src.line, src.column
        if offset is not None:
            return doc.text_position(("questions", index, *path), offset)
        return doc.position(("questions", index, *path))


def _calc_findings(q: Question, where: _Located) -> list[Diagnostic]:
    """Compile and evaluate the question's expressions; compare with value, unit, tolerance, distractors."""
    from study import calc

    src = q.source
    assert src is not None
    out: list[Diagnostic] = []

    # Where each expression starts in the text at its path: a stem's `{= ...}` sits inside the stem.
    starts: dict[tuple[Any, ...], int] = {}

    def report(path: tuple[Any, ...], severity: str, code: str, message: str, offset: int | None = None) -> None:
        key = path[:1] if path[1:2] == ("#",) else path
        if path in starts:
            offset = starts[path] + (offset or 0)
        line, col = where.position(q, key, offset)
        out.append(Diagnostic(src.path, line, col, severity, code, message))

    answer = q.answer if q.type == "numeric" and not isinstance(q.answer, bool) else None
    declared = set(q.params or {})

    # Expressions: (path in the YAML, source text).
    exprs: list[tuple[tuple[Any, ...], str]] = []
    if answer is not None and answer.calc:
        exprs.append((("answer", "calc"), answer.calc))
    for i, d in enumerate(q.distractors or ()):
        if d.calc:
            exprs.append((("distractors", i, "calc"), d.calc))
    for m in PLACEHOLDER_RE.finditer(q.stem):
        if m.group(1) and m.group(1).startswith("="):
            # Each `{= ...}` of the stem is its own expression; "#" and its start tell them apart.
            path = ("stem", "#", m.start(1) + 1)
            starts[path] = m.start(1) + 1
            exprs.append((path, m.group(1)[1:]))

    compiled: dict[tuple[Any, ...], Any] = {}
    for path, text in exprs:
        try:
            expr = calc.compile_expr(text)
        except calc.ExprError as exc:
            report(path, "error", "calc-syntax", exc.message, offset=exc.offset)
            continue
        unknown = set(expr.names) - declared
        if unknown:
            report(path, "error", "undefined-parameter", f"expression uses {', '.join(sorted(unknown))} which {'is' if len(unknown) == 1 else 'are'} not declared under params")
            continue
        compiled.setdefault(path, expr)

    for name in declared:
        used = re.search(r"\{" + re.escape(name) + r"\}", q.stem) or any(name in e.names for e in compiled.values())
        if not used:
            report(("params", name), "warning", "unused-parameter", f"parameter {name!r} is not used in the stem or any expression")

    unit_info = None
    if answer is not None:
        try:
            unit_info = calc.parse_unit(answer.unit)
        except ValueError as exc:
            report(("answer", "unit"), "error", "unknown-unit", str(exc))
            return out
        try:
            tol_value, tol_unit = parse_tolerance(answer.tolerance)
        except ValueError as exc:
            report(("answer", "tolerance"), "error", "bad-tolerance", str(exc))
            return out
        if tol_unit not in (None, "%"):
            try:
                tu = calc.parse_unit(tol_unit)
            except ValueError as exc:
                report(("answer", "tolerance"), "error", "bad-tolerance", f"tolerance unit: {exc}")
                return out
            if tu.dim != unit_info.dim:
                report(("answer", "tolerance"), "error", "bad-tolerance", f"tolerance is {calc.dimension_name(tu.dim)} but the answer is {calc.dimension_name(unit_info.dim)}")
                return out
        bits_or_bytes = _bits_bytes_hint(q, answer, unit_info.dim)
        if bits_or_bytes:
            report(("answer", "unit"), "warning", "unit-bits-bytes", bits_or_bytes)
        if tol_unit is None:
            from study.calc.units import GPUS, ONE, TOKENS

            tol_text = f"{tol_value:g} {answer.unit}".strip()
            # A bare 0.5 on a count of GPUs is plain; a bare 3 on a size silently meant 3 GB.
            if unit_info.dim not in (ONE, GPUS, TOKENS):
                report(("answer", "tolerance"), "warning", "tolerance-unit", f"tolerance {answer.tolerance!r} has no unit, so it is read in the answer's unit as {tol_text}: write {tol_text!r}, or a percentage such as '2%'")
        else:
            tol_text = answer.tolerance.strip()
        rel_floor = 0.5 * 10 ** (1 - answer.digits)
        if tol_unit == "%" and tol_value < rel_floor:
            report(("answer", "tolerance"), "warning", "tolerance-too-tight", f"{answer.tolerance} is tighter than the {answer.digits} digits shown in feedback (at least {rel_floor:.2%}): a learner copying the shown value could be marked wrong")
        if tol_unit == "%" and tol_value > LOOSE_TOLERANCE:
            report(("answer", "tolerance"), "warning", "tolerance-too-loose", f"{answer.tolerance} accepts answers far from the right one")

    answer_expr = compiled.get(("answer", "calc"))
    failed: set[tuple[Any, ...]] = set()
    for env in combinations(q):
        values: dict[tuple[Any, ...], float] = {}
        for path, expr in compiled.items():
            if path in failed:
                continue
            try:
                ev = expr.evaluate(env)
            except Exception as exc:  # noqa: BLE001 - any failure of an expression is the author's to see
                shown = ", ".join(f"{k}={v}" for k, v in env.items())
                offset = exc.offset if isinstance(exc, calc.ExprError) else None
                text = exc.message if isinstance(exc, calc.ExprError) else f"{exc}"
                report(path, "error", "calc-error", text + (f" (with {shown})" if shown else ""), offset=offset)
                failed.add(path)
                continue
            if unit_info is not None and answer is not None and path[0] != "stem":  # unit_info implies answer
                try:
                    values[path] = calc.value_in_unit(ev, answer.unit)
                except calc.DimensionError:
                    report(path, "error", "unit-mismatch", f"the expression gives {calc.dimension_name(ev.dim)} but the answer unit {answer.unit!r} is {calc.dimension_name(unit_info.dim)}")
                    failed.add(path)
                    continue
                except calc.ExprError as exc:
                    report(path, "error", "calc-not-a-number", exc.message)
                    failed.add(path)
                    continue
                # Every answer in this bank is an amount (a size, a rate, a time, a count): zero or less means
                # an impossible input, such as seq_len=0 or kv_heads=-8, went through the formula.
                if not values[path] > 0:
                    shown = ", ".join(f"{k}={v}" for k, v in env.items())
                    report(path, "error", "impossible-value", f"the expression gives {values.pop(path):.4g} {answer.unit}"
                           + (f" (with {shown})" if shown else "")
                           + "; an answer is a positive amount: check the sizes and counts it is given", offset=0)
                    failed.add(path)
        if answer is None or unit_info is None:
            continue
        expected = values.get(("answer", "calc"), answer.value if answer_expr is None else None)
        if expected is None:
            continue
        if answer.value is not None and answer_expr is not None and ("answer", "calc") in values:
            if not _within(answer.value, expected, answer.tolerance, calc, unit_info):
                report(("answer", "value"), "error", "value-mismatch", f"value {answer.value:g} {answer.unit} disagrees with calc, which gives {expected:.6g} {answer.unit}")
                failed.add(("answer", "value"))
        for i, _d in enumerate(q.distractors or ()):
            dpath = ("distractors", i, "calc")
            dv = values.get(dpath, _d.value)
            if dv is None or dpath in failed:
                continue
            if _within(dv, expected, answer.tolerance, calc, unit_info):
                shown = ", ".join(f"{k}={v}" for k, v in env.items())
                report(("distractors", i), "error", "distractor-within-tolerance", f"distractor gives {dv:.4g} {answer.unit}, inside the {tol_text} tolerance of the answer {expected:.4g} {answer.unit}" + (f" (with {shown})" if shown else ""))
                failed.add(dpath)
        # Two distractors the learner cannot tell apart: the quiz drops one and shows fewer options.
        dvals = [(i, values.get(("distractors", i, "calc"), d.value)) for i, d in enumerate(q.distractors or ())]
        for a in range(len(dvals)):
            for b in range(a + 1, len(dvals)):
                (ia, va), (ib, vb) = dvals[a], dvals[b]
                key = ("coincide", ia, ib)
                if va is None or vb is None or key in failed:
                    continue
                if _within(va, vb, answer.tolerance, calc, unit_info):
                    shown = ", ".join(f"{k}={v}" for k, v in env.items())
                    report(("distractors", ib), "warning", "distractors-coincide", f"distractors[{ia}] and distractors[{ib}] give {va:.4g} and {vb:.4g} {answer.unit}, within the {tol_text} tolerance of each other, so a learner cannot tell them apart" + (f" (with {shown})" if shown else ""))
                    failed.add(key)
        if ("answer", "value") in failed and answer_expr is not None:
            break
    return out


_IN_BITS = re.compile(r"^[kKMGTPE]?i?(?:b|bits?)(?:/s|ps)?$")
_IN_BYTES = re.compile(r"^[kKMGTPE]?i?B(?:/s|ps)?$")
# Network links are rated in bits per second; memory, NVLink and PCIe bandwidth in bytes per second.
_BITS_USUAL = re.compile(r"\b(?:ib|eth)-|infiniband|ethernet|spectrum|connectx|\bnic\b|\bnetwork", re.I)
_BYTES_USUAL = re.compile(r"nvlink|pcie|\.bandwidth\b|\bhbm|memory bandwidth", re.I)


def _bits_bytes_hint(q: Question, answer: Any, dim: Any) -> str | None:
    """A size stated in bits, or a rate in the other of bits and bytes than its kind is usually quoted in."""
    from study.calc.units import BANDWIDTH, BYTES

    unit = answer.unit.strip()
    if dim == BYTES and _IN_BITS.match(unit):
        return f"{unit!r} is in bits: memory and file sizes are stated in bytes ({re.sub(r'(?:b|bits?)(?=/s|ps|$)', 'B', unit)!r}); bits are for network rates"
    if dim != BANDWIDTH:
        return None
    text = " ".join([q.stem, answer.calc or "", *(d.calc or "" for d in q.distractors or ())])
    if _IN_BYTES.match(unit) and _BITS_USUAL.search(text) and not _BYTES_USUAL.search(text):
        return f"{unit!r} is in bytes, but network links are rated in bits per second (Gb/s): is this meant to be a network rate?"
    if _IN_BITS.match(unit) and _BYTES_USUAL.search(text) and not _BITS_USUAL.search(text):
        return f"{unit!r} is in bits, but memory, NVLink and PCIe bandwidth are stated in bytes per second (GB/s)"
    return None


def _within(given: float, expected: float, tolerance: str, calc: Any, unit_info: Any) -> bool:
    tol_value, tol_unit = parse_tolerance(tolerance)
    if tol_unit == "%":
        allowed = abs(expected) * tol_value
    elif tol_unit is None:
        allowed = tol_value
    else:
        allowed = tol_value * calc.parse_unit(tol_unit).factor / unit_info.factor
    return abs(given - expected) <= allowed * (1 + 1e-9) + 1e-12


def _calc_available() -> bool:
    try:
        from study import calc  # noqa: F401

        return all(hasattr(calc, n) for n in ("compile_expr", "parse_unit", "dimension_name", "Dim", "ExprError"))
    except ImportError:
        return False


def lint(paths: Sequence[Path | str] = (), *, bank: Bank | None = None, with_calc: bool = True) -> LintResult:
    """Lint the built-in bank, or the given files/folders loaded together with it.

    With ``paths``, findings are reported for those files only, but duplicate ids and unknown topics are
    checked against the whole bank."""
    given = [Path(p) for p in paths]
    if bank is None:
        bank = load_bank(extra=given) if given else load_bank()
    if given:
        from study.bank.bank import display_path
        from study.bank.load import QUESTION_SUFFIXES, iter_files

        wanted = {display_path(p) for p in iter_files(given, (*QUESTION_SUFFIXES, ".md"))}
        diags = [d for d in bank.diagnostics if d.path in wanted]
        questions = [q for q in bank.questions if q.source and q.source.path in wanted]
    else:
        wanted = None
        diags = list(bank.diagnostics)
        questions = list(bank.questions)
    if with_calc and _calc_available():
        where = _Located()
        for q in questions:
            if q.type == "numeric" or "{=" in q.stem:
                diags.extend(_calc_findings(q, where))
        diags = _never_guess(questions, diags, where)
    elif with_calc:
        diags.append(Diagnostic("study", 1, 1, "warning", "calc-unavailable", "the calculator is not available: calc expressions were not checked"))
    diags.extend(_control_findings(questions, bank, wanted))
    diags = _item_flaw_hook(diags, bank, questions, wanted)
    n_files = len(wanted) if wanted is not None else len(bank.files)
    notes = tuple(sorted({d for d in diags if d.severity == "info"}))
    return LintResult(tuple(sorted({d for d in diags if d.severity != "info"})), n_files, len(questions),
                      len(bank.cards), notes)


def _item_flaw_hook(diags: list[Diagnostic], bank: Bank, questions: list[Question], wanted: set[str] | None) -> list[Diagnostic]:
    """Item-writing flaws and near-duplicates (the whole bank, reported for ``wanted``), then ``accept``."""
    from study.bank.accept import apply_accepts
    from study.bank.item_flaws import common_words, flaw_findings
    from study.bank.near_duplicates import near_duplicate_findings
    from study.bank.twins import marking_findings, twin_findings

    everything = list(bank.questions)
    diags = diags + flaw_findings(questions, common_words(everything))
    # Both compare across the whole bank: a new file's twin may sit in a file that was not given.
    diags += [d for d in near_duplicate_findings(everything) + twin_findings(everything)
              if wanted is None or d.path in wanted]
    diags += marking_findings(everything, wanted)
    return apply_accepts(diags, everything, questions)[0]


def _control_findings(questions: Sequence[Question], bank: Bank, wanted: set[str] | None) -> list[Diagnostic]:
    """Control and bidi characters in question and card text (issue 19, defect 8): a terminal obeys an ESC
    sequence in a stem, and a bidi override makes a choice read as another. YAML lets them in through
    escapes ("\\x1b", "\\u202e") and a Markdown file holds them raw, so values and card files are read."""
    from study.untrusted import has_controls, shown

    out: list[Diagnostic] = []
    where = _Located()

    def walk(value: Any, path: tuple[Any, ...], q: Question) -> None:
        if isinstance(value, str):
            if has_controls(value):
                offset = next(k for k, ch in enumerate(value) if has_controls(ch))
                line, col = where.position(q, path, offset)
                out.append(Diagnostic(q.source.path, line, col, "error", "control-character",  # type: ignore[union-attr]
                                      f"{shown(value[offset])} in {'.'.join(map(str, path))}: control and bidi "
                                      "characters are not allowed in question text (they act on the terminal)"))
        elif isinstance(value, dict):
            for key, child in value.items():
                walk(child, (*path, key), q)
        elif isinstance(value, (list, tuple)):
            for i, child in enumerate(value):
                walk(child, (*path, i), q)

    for q in questions:
        if q.source is not None:
            walk(q.model_dump(mode="json", exclude_none=True), (), q)
    for topic in bank.topics:
        if topic.source is None or (wanted is not None and topic.source.path not in wanted):
            continue
        try:
            text = Path(topic.source.path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            continue
        # Not splitlines(): it also breaks at \x1c-\x1e and \x85, the very characters looked for.
        for number, row in enumerate(text.split("\n"), 1):
            row = row.removesuffix("\r")
            if has_controls(row):
                col = next(k for k, ch in enumerate(row) if has_controls(ch)) + 1
                out.append(Diagnostic(topic.source.path, number, col, "error", "control-character",
                                      f"{shown(row[col - 1])}: control and bidi characters are not allowed in card "
                                      "text (they act on the terminal)"))
    return out


def _never_guess(questions: Sequence[Question], diags: list[Diagnostic], where: _Located) -> list[Diagnostic]:
    """Catalog ids that name no part or several (once, where written) and exam forms with few options."""
    from study.bank.lint_catalog import catalog_findings, drop_repeats, exam_form_findings, without_consequences

    found: list[Diagnostic] = []
    spans: dict[str, tuple[str, int, int]] = {}
    for q in questions:
        found.extend(catalog_findings(q, where.position))
        forms = exam_form_findings(q, where.position)
        if forms and q.source is not None:
            spans[q.id] = (q.source.path, *where.span(q))
        found.extend(forms)
    return drop_repeats(diags, found) + without_consequences(diags, found, spans)


def format_text(result: LintResult) -> Iterable[str]:
    for d in result.diagnostics:
        yield str(d)
