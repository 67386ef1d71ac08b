from __future__ import annotations

import argparse
from typing import TYPE_CHECKING  # `study lint` and `study lint --help` import typing already (measured)
from study.cli import command_help

if TYPE_CHECKING:
    from collections.abc import Callable

    from study.bank.lint import LintResult


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lint",
        help=command_help("lint"),
        description="Check the built-in bank, or the given files and folders together with it (so duplicate "
        "ids and unknown topics are caught). Exit 0 when clean, 1 with errors (or warnings with --strict), 2 on "
        "usage errors.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="question files or folders (default: the built-in bank)")
    p.add_argument("--json", action="store_true", help="print findings as JSON")
    p.add_argument("--strict", action="store_true", help="warnings also make the exit code 1")
    p.add_argument("--no-calc", action="store_true", help="skip evaluating calc expressions (faster)")
    p.add_argument("--notes", action="store_true", help="also list information (shown by default for PATHs), such as "
                   "a concept shared across objectives")
    from study.commands import add_bank_options

    add_bank_options(p, ", linted alone as the bank it replaces the built-in one with (PATHs are linted with the built-in bank)")
    p.set_defaults(func=run)


def _lint_bank_alone(args: argparse.Namespace):
    """A bank used with ``--questions DIR`` replaces the built-in one, so it is linted alone: its copies of
    built-in questions are not duplicates of anything."""
    from study.bank import load_bank
    from study.bank.lint import lint
    from pathlib import Path

    from study.cli import UsageError

    if args.paths:
        raise UsageError("give PATHs (linted with the built-in bank) or --questions (a bank alone), not both")
    missing = [p for p in args.questions if not Path(p).exists()]
    if missing:
        raise UsageError(f"no such file or folder: {missing[0]}")
    import dataclasses

    from study.lab.lint import exhibit_findings

    bank = load_bank(questions=args.questions, content=args.content)
    result = lint(bank=bank, with_calc=not args.no_calc)
    # An exhibit runs a lab command when the question is built: a bank of its own is checked for it as well.
    found = exhibit_findings(bank.questions)
    return dataclasses.replace(result, diagnostics=tuple(sorted({*result.diagnostics, *found})))


def run(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from study.bank.lint import lint
    from study.cli import UsageError

    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise UsageError(f"no such file or folder: {missing[0]}")
    unknown = [p for p in args.paths if Path(p).is_file() and Path(p).suffix not in (".yaml", ".yml", ".md")]
    if unknown:
        raise UsageError(f"{unknown[0]}: lint reads question files (.yaml, .yml) and topic files (.md)")
    from study.bank import load_bank

    # --content without --questions was dropped here, so the built-in content was linted in its place.
    result = (_lint_bank_alone(args) if args.questions
              else _with_labs(args.paths, lambda paths: lint(paths, bank=load_bank(content=args.content, extra=paths),
                                                             with_calc=not args.no_calc), args.content))
    if args.json:
        print(
            json.dumps(
                {
                    "files": result.files,
                    "questions": result.questions,
                    "cards": result.cards,
                    "errors": result.errors,
                    "warnings": result.warnings,
                    "findings": [d.to_json() for d in result.diagnostics],
                    "notes": [d.to_json() for d in result.notes],
                },
                indent=2,
            )
        )
    else:
        for d in result.diagnostics:
            print(d)
        # The whole bank's notes would bury a run after each edit; an author's own files show theirs.
        for d in result.notes if args.paths or args.notes else ():
            print(d)
        import sys

        from study.text import count

        summary = (f"{count(result.files, 'file')}, {count(result.questions, 'question')}, "
                   f"{count(result.cards, 'card')}: {count(result.errors, 'error')}, "
                   f"{count(result.warnings, 'warning')}")
        if result.notes and not (args.paths or args.notes):
            summary += f" ({count(len(result.notes), 'note')}: study lint --notes)"
        print(summary, file=sys.stderr)
    failed = result.errors > 0 or (args.strict and result.warnings > 0)
    return 1 if failed else 0


def _with_labs(paths: list[str], lint_bank: Callable[[list[str]], LintResult], content: str | None = None) -> LintResult:
    """Lab files (``content/labs/*.yaml``) are linted by ``study.lab.lint``; everything else by the bank.
    With no paths both run; with only lab paths the bank is not re-linted."""
    import dataclasses
    from pathlib import Path

    from study.lab.lint import is_lab_file, lint_labs
    from study.lab.load import lab_paths

    given = [Path(p) for p in paths]
    labs = [p for p in given if p.is_file() and is_lab_file(p)]
    labs += [q for p in given if p.is_dir() and p.name == "labs" for q in lab_paths(p)]
    rest = [str(p) for p in given if p not in labs and not (p.is_dir() and p.name == "labs")]
    if not given:
        result, found = lint_bank([]), lint_labs()
    elif rest:
        result, found = lint_bank(rest), lint_labs(labs)
    else:
        from study.bank.lint import LintResult

        result, found = LintResult((), 0, 0, 0), lint_labs(labs)
    n_labs = len(labs) if given else len(lab_paths())
    if rest or not given:
        from study.bank.bank import load_bank
        from study.lab.lint import exhibit_findings

        bank = load_bank(content=content, extra=[Path(p) for p in rest])
        shown = None
        if rest:
            from study.bank.bank import display_path
            from study.bank.load import QUESTION_SUFFIXES, iter_files

            shown = {display_path(p) for p in iter_files([Path(p) for p in rest], QUESTION_SUFFIXES)}
        found = [*found, *(d for d in exhibit_findings(bank.questions) if shown is None or d.path in shown)]
    return dataclasses.replace(result, diagnostics=tuple(sorted({*result.diagnostics, *found})),
                               files=result.files + n_labs)
