from __future__ import annotations

import argparse
from study.cli import command_help

QUESTION_DESCRIPTION = (
    "Write a commented skeleton of a question: a fresh id, the objective, the fields its type needs, and a "
    "TODO comment on every value to write. The values are left empty, so `study lint` reports each TODO as "
    "an error until it is written; once they are all written the question lints clean. Without --out the "
    "question goes into the bank's folder for the objective's domain: the file named after --topic, or else "
    "the file holding most of the objective's questions. An existing file is appended to (its text and "
    "comments are kept as they are); a file is never replaced. --out - prints the skeleton instead. "
    "Exit status: 0 written, 1 when the file cannot take it, 2 on usage errors (an unknown objective, topic "
    "or type)."
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help=command_help("new"))
    new_sub = p.add_subparsers(dest="new_command", metavar="WHAT")
    q = new_sub.add_parser("question", help="write a question skeleton that lints clean once filled in",
                           description=QUESTION_DESCRIPTION)
    q.add_argument("--type", required=True, choices=("single", "multi", "true_false", "numeric"),
                   help="single answer, choose-two, true or false, or a number (with a calc example)")
    q.add_argument("--objective", required=True, metavar="X", help="blueprint objective, e.g. 2.6")
    q.add_argument("--topic", metavar="ID", help="the topic that teaches it (content/topics/ID.md)")
    q.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="1 recall, 2 apply, 3 analyse (else a TODO)")
    q.add_argument("--out", metavar="FILE", help="question file to append to or create; - prints the skeleton")
    q.set_defaults(func=run_question)
    p.set_defaults(func=_what_to_start)


def _what_to_start(args: argparse.Namespace) -> int:
    # One line, as for every other mistake; the help is a --help away.
    from study.cli import UsageError

    raise UsageError("new: say what to start: study new question --type TYPE --objective X "
                     "(study new question --help)")


def run_question(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from study import paths
    from study.authoring.new import AuthoringError, default_target, place, plan, resolve_objective, resolve_topic, write
    from study.authoring.skeleton import render_file, todo_count
    from study.bank import load_bank
    from study.bank.bank import display_path
    from study.cli import UsageError

    bank = load_bank()
    try:
        objective = resolve_objective(bank, args.objective)
        topic = resolve_topic(bank, args.topic) if args.topic else None
    except AuthoringError as exc:
        raise UsageError(str(exc)) from None
    if topic and objective not in bank.topic(topic).meta.objectives:
        listed = ", ".join(bank.topic(topic).meta.objectives)
        print(f"study: note: topic {topic!r} teaches {listed}, not {objective}", file=sys.stderr)

    # An installed copy keeps the built-in bank inside the package: not somewhere to edit.
    installed = paths.questions_dir().parent.name == "_data"
    if args.out and args.out != "-":
        target = Path(args.out)
        if target.suffix not in (".yaml", ".yml"):
            raise UsageError(f"{args.out}: question files end in .yaml or .yml")
        if target.exists() and not target.is_file():  # reading a FIFO to append to it would wait forever
            raise UsageError(f"{args.out} is not a regular file")
    elif installed and args.out != "-":
        raise UsageError("the built-in bank is installed read-only here; give --out FILE (or --out - to print)")
    else:
        target = default_target(bank, objective, topic, paths.questions_dir())
    spec = plan(bank, qtype=args.type, objective=objective, topic=topic, difficulty=args.difficulty, target=target)
    if args.out == "-":
        # The id follows the file the question would have joined, so pasting it there keeps the series.
        sys.stdout.write(render_file(spec))
        return 0
    try:
        placement = place(target, spec)
        write(placement)
    except AuthoringError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"study: error: cannot write {display_path(target)}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    shown = display_path(target)
    verb = "added" if placement.exists else "created"
    todos = todo_count(placement.addition)
    print(f"{verb} {spec.qid} ({args.type}, objective {objective}) at {shown}:{placement.id_line}")
    print(f"fill in the {todos} values marked TODO, then check it: study lint {shown}; see it: study preview {shown}")
    return 0
