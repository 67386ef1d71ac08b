"""GIFT (Moodle) export and import: ``study export --format gift`` and ``study import FILE.gift --out YAML``.

The reading and writing of GIFT text is in :mod:`study.interop.gift_syntax`, the bank-to-GIFT mapping in
:mod:`study.interop.gift_export` and the GIFT-to-question mapping in :mod:`study.interop.gift_import`; this
module holds the two commands and the YAML writer.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from study.interop.gift_export import bank_gift
from study.interop.gift_import import Converted, ImportResult, convert, slug
from study.text import count

TODO = "TODO(gift-import)"
KEY_ORDER = ("id", "objective", "topic", "difficulty", "type", "choose", "tags", "stem", "choices", "answer",
             "distractors", "explanation", "references", "verified", "volatile")
TYPE_NAMES = {"single": "single", "multi": "choose-N", "true_false": "true/false", "numeric": "numeric"}


def _err(message: str) -> None:
    print(f"study: error: {message}", file=sys.stderr)


# --- export -------------------------------------------------------------------------------------------------


def export_command(args: argparse.Namespace) -> int:
    from study.bank.from_options import bank_for
    from study.interop.output import emit, report_bank_problems

    bank = bank_for(args)
    broken = report_bank_problems(bank)
    text, report = bank_gift(bank)

    where = emit(getattr(args, "file", None), text)
    if where is None:
        return 1
    total = sum(report.counts.values())
    kinds = ", ".join(f"{report.counts[t]} {TYPE_NAMES[t]}" for t in TYPE_NAMES if report.counts[t])
    print(f"exported {count(total, 'question')}{f' ({kinds})' if kinds else ''} to {where}", file=sys.stderr)
    lines = report.lines()
    if lines:
        print("not exact in GIFT:", file=sys.stderr)
        for line in lines:
            print(f"  {line}", file=sys.stderr)
    for failure in report.failed:
        print(f"study: error: not exported: {failure}", file=sys.stderr)
    return 1 if report.failed or broken else 0


# --- YAML ---------------------------------------------------------------------------------------------------


def _block_safe(text: str) -> bool:
    if "\n" not in text or text[0].isspace() or text.endswith("\n"):
        return False
    if any(not (ch == "\n" or ch.isprintable()) or ch in "\u2028\u2029\x85\ufeff" for ch in text):
        return False
    return all(line == line.rstrip(" \t") for line in text.split("\n"))


def yaml_scalar(value: Any, indent: int) -> str:
    """``value`` as YAML after ``key: ``; Markdown with newlines as a ``|-`` block so it stays readable."""
    import yaml

    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        text = repr(value)
        if "e" in text and "." not in text:
            text = text.replace("e", ".0e")  # YAML 1.1 reads 1e-05 as a string; 1.0e-05 is a float
        return text
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value)
    if _block_safe(text):
        pad = " " * indent
        return "|-\n" + "\n".join(pad + line if line else "" for line in text.split("\n"))
    # Line breaks YAML knows beyond "\n" (NEL, LS, PS) and unprintables are safe only as double-quoted escapes.
    awkward = any(not ch.isprintable() or ch in "\u2028\u2029\x85\ufeff" for ch in text)
    style = '"' if awkward else None
    dumped = yaml.safe_dump(text, allow_unicode=True, width=2**31 - 1, default_style=style)
    if dumped.endswith("\n...\n"):
        dumped = dumped[:-5]
    return dumped.rstrip("\n")


WHY_TODO = "why this choice is right or wrong (the GIFT answer had no feedback)"


def _mapping_lines(data: dict[str, Any], indent: int, first_prefix: str, notes: dict[str, Any],
                   todo: dict[str, str], order: tuple[str, ...]) -> list[str]:
    """A mapping as block YAML; ``first_prefix`` ("- ") starts the first line of a list item.

    ``todo`` fields are written as ``# TODO(gift-import): field: why`` comments where the field belongs;
    ``notes`` add an end-of-line comment to a field (a nested mapping's notes sit under ``"__" + key``).
    """
    out: list[str] = []
    pad = " " * indent
    keys = [k for k in order if k in data or k in todo] + [k for k in data if k not in order and k not in todo]

    def start() -> str:
        return (pad[:-len(first_prefix)] + first_prefix) if (first_prefix and not out) else pad

    for key in keys:
        if key in todo and key not in data:
            out.append(f"{start()}# {TODO}: {key}: {todo[key]}")
            continue
        value = data[key]
        comment = f"  # {notes[key]}" if isinstance(notes.get(key), str) else ""
        if isinstance(value, dict):
            out.append(f"{start()}{key}:{comment}")
            out.extend(_mapping_lines(value, indent + 2, "", notes.get("__" + key) or {}, {}, tuple(value)))
        elif isinstance(value, list):
            out.append(f"{start()}{key}:{comment}")
            for item in value:
                if isinstance(item, dict):
                    fields = {k: v for k, v in item.items() if k != "__why_todo__"}
                    item_todo = {"why": WHY_TODO} if item.get("__why_todo__") else {}
                    order_here = ("text", "correct", "why") if "text" in fields else tuple(fields)
                    out.extend(_mapping_lines(fields, indent + 4, "- ", {}, item_todo, order_here))
                else:
                    out.append(f"{pad}  - {yaml_scalar(item, indent + 4)}")
        else:
            out.append(f"{start()}{key}: {yaml_scalar(value, indent + 2)}{comment}")
    return out


def question_yaml(conv: Converted) -> list[str]:
    data = dict(conv.data)
    notes: dict[str, Any] = dict(conv.comments)
    if "unit" in notes:
        notes["__answer"] = {"unit": notes.pop("unit")}
    if "choices" in data:
        data["choices"] = [dict(c, __why_todo__=True) if i in conv.choice_todo else c
                           for i, c in enumerate(data["choices"])]
    return _mapping_lines(data, 4, "- ", notes, conv.todo, KEY_ORDER)


def yaml_text(result: ImportResult, source_name: str, today: dt.date) -> str:
    head = [
        f"# Imported from {source_name} by `study import` on {today.isoformat()}.",
        f"# Comments marked {TODO} name what the GIFT file did not say: the loader skips such a question",
        "# until it is filled in, and `study lint` on this file lists each one.",
        "questions:",
    ]
    body: list[str] = []
    for conv in result.questions:
        body.extend(question_yaml(conv))
    return "\n".join(head + body) + "\n"


# --- import -------------------------------------------------------------------------------------------------

PROBLEM_WORDS = {"error": "error", "skip": "skipped", "note": "note"}


def import_command(args: argparse.Namespace) -> int:
    from study import paths
    from study.bank.load import load_blueprint

    source_path = args.file
    out = getattr(args, "out", None)
    if not out:
        _err("importing a GIFT file needs --out, the question file to write (e.g. --out questions/d1-x/moodle.yaml; "
             "--out - prints it)")
        return 2
    try:
        blueprint = load_blueprint(paths.content_dir() / "blueprint.yaml")
    except Exception as exc:  # noqa: BLE001 - any failure here is the installation's, reported in one line
        _err(f"cannot read the blueprint: {exc}")
        return 1
    objectives = set(blueprint.objective_ids())
    default_objective = getattr(args, "objective", None)
    if default_objective is not None and default_objective not in objectives:
        _err(f"--objective {default_objective!r} is not a blueprint objective (1.1 to 3.4)")
        return 2
    from study.bank.load import QUESTION_SUFFIXES

    if out != "-" and Path(out).suffix.lower() not in QUESTION_SUFFIXES:
        _err(f"--out {out}: the bank reads only {', '.join(QUESTION_SUFFIXES)} files")
        return 2
    if out != "-" and Path(out).exists() and not getattr(args, "force", False):
        _err(f"{out} already exists; nothing written (pass --force to replace it, or choose another --out)")
        return 1
    from study.inputs import MAX_GIFT_INPUT, InputFileError, read_bounded

    try:
        raw = read_bounded(source_path, MAX_GIFT_INPUT)
    except InputFileError as exc:
        _err(str(exc))
        return 1
    try:
        source = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        _err(f"{source_path}:{line}:{col}: not UTF-8 text (save the file as UTF-8)")
        return 1
    name = Path(out).stem if out != "-" else Path(source_path).stem
    today = dt.date.today()
    from study.interop.gift_syntax import TooManyQuestions

    try:
        result = convert(source, prefix=slug(name, 30), objectives=objectives, default_objective=default_objective)
    except TooManyQuestions as exc:
        _err(f"{source_path}: {exc}; nothing written")
        return 1
    for p in result.problems:
        print(f"{source_path}:{p.loc}: {PROBLEM_WORDS[p.kind]}: {p.message}", file=sys.stderr)
    errors = sum(p.kind == "error" for p in result.problems)
    if not result.questions:
        _err(f"nothing written: no question in {source_path} could be imported")
        return 1
    text = yaml_text(result, Path(source_path).name, today)
    if out == "-":
        sys.stdout.write(text)
    else:
        from study.interop.output import write_atomic

        Path(out).parent.mkdir(parents=True, exist_ok=True)
        if not write_atomic(out, text):
            return 1
    _summary(result, out, errors)
    return 1 if errors or result.skipped else 0


def _summary(result: ImportResult, out: str, errors: int) -> None:
    counts = Counter(c.data["type"] for c in result.questions)
    kinds = ", ".join(f"{counts[t]} {TYPE_NAMES[t]}" for t in TYPE_NAMES if counts[t])
    where = "standard output" if out == "-" else out
    tail = []
    if result.skipped:
        tail.append(f"{result.skipped} skipped")
    if errors:
        tail.append(f"{errors} malformed")
    n = len(result.questions)
    print(f"wrote {n} question{'' if n == 1 else 's'} ({kinds}) to {where}" + (f"; {', '.join(tail)}" if tail else ""),
          file=sys.stderr)
    todo = Counter(k for c in result.questions for k in c.todo)
    whys = sum(len(c.choice_todo) for c in result.questions)
    needs = [f"{n} {field}" for field, n in todo.items()]
    if whys:
        needs.append(f"{whys} choice whys")
    if needs:
        lint_on = out if out != "-" else "FILE"
        print(f"to fill in ({TODO} comments; the loader skips a question until its gaps are filled, and "
              f"`study lint {lint_on}` lists them): {', '.join(needs)}", file=sys.stderr)
        if todo.get("objective"):
            print("  all questions on one objective? import again with --objective X.Y", file=sys.stderr)
    guessed = Counter(k for c in result.questions for k in c.comments)
    if guessed.get("difficulty"):
        print(f"assumed: difficulty 2 for {guessed['difficulty']} questions (GIFT has no difficulty)", file=sys.stderr)
    if guessed.get("unit"):
        print(f"assumed: a plain number (unit '1') for {guessed['unit']} numeric answers (GIFT numbers have no unit)",
              file=sys.stderr)
    if result.templated:
        print(f"{result.templated} questions were templated in study: each comes back as the one fixed instance "
              "the GIFT file holds (parameters and calc expressions are not in GIFT)", file=sys.stderr)
    if result.multi:
        print(f"{result.multi} multiple-answer questions become choose-N, graded all or nothing (Moodle gives "
              "partial credit)", file=sys.stderr)
    if out != "-":
        _check_ids(result)


def _check_ids(result: ImportResult) -> None:
    """Ids the built-in bank already uses: lint will report them, so say it now."""
    try:
        from study.bank.bank import load_bank

        known = {q.id for q in load_bank().questions}
    except Exception:  # noqa: BLE001 - a broken built-in bank is lint's to report, not the importer's
        return
    taken = [c.data["id"] for c in result.questions if c.data["id"] in known]
    if taken:
        shown = ", ".join(taken[:3]) + (", ..." if len(taken) > 3 else "")
        print(f"{len(taken)} ids are already used by the built-in bank ({shown}): lint will report them as "
              "duplicates; rename them if these are new questions", file=sys.stderr)
