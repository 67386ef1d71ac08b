from __future__ import annotations

import argparse

from study.cli import command_help
from study.commands import add_bank_options, bank_for

DESCRIPTION = (
    "Show questions exactly as a learner sees them in a quiz, then the right answer, why each choice is right "
    "or wrong, the worked derivation, and for numeric questions each distractor's value (and whether the quiz "
    "offers it). A templated question is shown with K draws of its parameters. FILE (or a folder) previews "
    "every question in it and prints lint's findings for it as path:line:col on stderr; ID previews one "
    "question of the bank. Colour on a terminal, plain text when piped or with NO_COLOR. Exit status: 0 when "
    "everything rendered and the file has no errors, 1 otherwise, 2 on usage errors (an unknown id)."
)

MAX_INSTANCES = 1000

STYLES = {
    "heading": "bold cyan",
    "meta": "dim",
    "answer": "bold green",
    "right": "green",
    "wrong": "",
    "step": "cyan",
    "value": "yellow",
    "dropped": "dim yellow",
    "note": "",
    "error": "bold red",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("preview", help=command_help("preview"),
                       description=DESCRIPTION)
    p.add_argument("target", metavar="FILE|ID", help="a question file or folder, or a question id")
    p.add_argument("--seed", type=int, default=0, help="seed of the first draw (default 0); the same seed gives the same instance")
    p.add_argument("--instances", type=int, default=3, metavar="K", help=f"draws of a templated question (default 3, at most {MAX_INSTANCES})")
    p.add_argument("--exam", action="store_true", help="as in an exam: a numeric question with distractors is multiple choice")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_bank_options(p, ", to find ID in")
    p.set_defaults(func=run)


def _is_file_target(text: str) -> bool:
    from pathlib import Path

    return Path(text).exists() or text.endswith((".yaml", ".yml")) or "/" in text


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    from study.authoring.new import did_you_mean
    from study.authoring.preview import (
        findings_of_unloaded, load_for_preview, preview_question, question_json, question_lines,
    )
    from study.cli import UsageError
    from study.untrusted import shown as escaped

    # Draws stop at K distinct ones, or after 10 x K tries in a small parameter space: an unbounded K made
    # `--instances 1000000000` try ten billion draws of a 12-combination question before printing anything.
    if not 1 <= args.instances <= MAX_INSTANCES:
        raise UsageError(f"--instances must be from 1 to {MAX_INSTANCES}, not {args.instances}")
    diagnostics = []
    if _is_file_target(args.target):
        path = Path(args.target)
        if not path.exists():
            raise UsageError(f"no such file or folder: {args.target}")
        if path.is_file() and path.suffix not in (".yaml", ".yml"):
            raise UsageError(f"{args.target}: preview reads question files (.yaml, .yml)")
        loaded = load_for_preview([path])
        questions, diagnostics = loaded.questions, loaded.diagnostics
    else:
        try:
            bank = bank_for(args)
        except (OSError, ValueError) as exc:
            print(f"study: error: cannot load the question bank: {exc}", file=sys.stderr)
            return 1
        try:
            questions = [bank.question(args.target)]
        except KeyError:
            found = findings_of_unloaded(bank, args.target)
            if found is None:
                raise UsageError(f"no question {args.target!r} in the bank{did_you_mean(args.target, (q.id for q in bank.questions))}") from None
            # The question is written but does not load: its findings say why, which a did-you-mean would hide.
            shown, findings = found
            if args.json:
                print(json.dumps({"questions": [], "findings": [d.to_json() for d in findings]}, indent=2))
                return 1
            for d in findings:
                print(d, file=sys.stderr)
            print(f"study: error: question {args.target!r} in {shown} does not load: "
                  f"{'fix the findings above' if findings else 'see'} (study lint {shown})", file=sys.stderr)
            return 1

    views = [preview_question(q, args.seed, args.instances, exam=args.exam) for q in questions]
    errors = sum(d.severity == "error" for d in diagnostics)
    failed = errors + sum(v.error is not None for v in views)
    if args.json:
        print(json.dumps({"questions": [question_json(v) for v in views],
                          "findings": [d.to_json() for d in diagnostics]}, indent=2, default=str))
        return 1 if failed else 0
    for d in diagnostics:
        print(d, file=sys.stderr)
    if not views and not diagnostics:
        print(f"study: {args.target}: no questions", file=sys.stderr)
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.panel import Panel
        from rich.text import Text

        console = Console(highlight=False)
        for view in views:
            for line in question_lines(view):
                # The file under preview is the one lint has not passed yet: an ESC or a bidi override in its
                # text would act on the terminal instead of being seen (lint's control-character finding).
                text = escaped(line.text)
                if line.style == "learner":
                    # The learner's screen in a box, so it stands apart from what only the author sees.
                    console.print(Panel(Text(text), expand=False))
                else:
                    # soft_wrap: the text keeps its own line breaks, as the plain quiz prints it.
                    console.print(Text(text, style=STYLES.get(line.style, "")), soft_wrap=True)
    else:
        for view in views:
            for line in question_lines(view):
                print(escaped(line.text))
    if diagnostics:
        shown = f"{errors} errors, {len(diagnostics) - errors} warnings"
        print(f"{len(views)} questions previewed; {shown} (above, or run study lint {args.target})", file=sys.stderr)
    return 1 if failed else 0
