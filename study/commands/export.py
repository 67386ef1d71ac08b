from __future__ import annotations

import argparse
import sys

from study.commands import add_bank_options, bounded_number
from study.cli import command_help

# Formats other than the progress backup live in ``study.interop.<format>``, each with ``export_command``.
INTEROP_FORMATS = {
    "gift": "questions for Moodle (GIFT text)",
    "anki": "topic cards and questions as an Anki deck (.apkg)",
    "xapi": "your answers and exams as xAPI statements (JSON lines)",
}


def register(sub: argparse._SubParsersAction) -> None:
    formats = "; ".join(f"{k}: {v}" for k, v in INTEROP_FORMATS.items())
    p = sub.add_parser(
        "export",
        help=command_help("export"),
        description=f"Default: a JSON backup of all progress (attempts, reviews, sessions, schedule, "
        f"settings) that `study import` restores. Other formats: {formats}.",
    )
    p.add_argument("--format", choices=["json", *INTEROP_FORMATS], default="json",
                   help="json (progress backup, default), gift, anki or xapi")
    p.add_argument("--actor", metavar="ACTOR",
                   help="xapi: who the statements are about: an email (mailto) or HOMEPAGE|NAME for an account "
                   "(default: an account named after the local user and this store's learner id, made on the "
                   "store's first export of any kind and kept in its settings, so its JSON exports carry it too)")
    p.add_argument("--xapi-base", metavar="IRI",
                   help="xapi: the IRI under which questions and exams are named, e.g. "
                   "https://lms.example.edu/xapi/nca-aiio (default: $STUDY_XAPI_BASE, else a reserved .invalid one)")
    p.add_argument("--form", metavar="NAME",
                   help="write a class exam form named NAME instead (YAML): a fixed list of questions, with the "
                   "seed of each templated one, that every learner takes with `study quiz --form FILE`; by "
                   "default an exam draw shaped like the real one (--count, --seed), or exactly --ids")
    p.add_argument("--count", type=int, metavar="N", help="form: how many questions (default: the real exam's 50)")
    p.add_argument("--seed", metavar="SEED",
                   help="form: the draw, the choice order and templated values (default: a random one, printed)")
    p.add_argument("--minutes", type=bounded_number(0, 24 * 60, low_open=True, unit=" minutes"),
                   help="form: its time limit (default: the real exam's pace, 60 for 50)")
    p.add_argument("--ids", action="append", metavar="ID[,ID...]",
                   help="form: exactly these questions, in this order (repeatable)")
    add_bank_options(p, "gift/anki/xapi/form: ")
    p.add_argument("--force", action="store_true",
                   help="replace FILE even if it is not an earlier export (a question file, a store)")
    p.add_argument("file", nargs="?", metavar="FILE", help="where to write (default: standard output; "
                   "anki needs a file)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from study.interop.output import refusal

    if args.form is None:
        given = [o for o, v in (("--count", args.count), ("--seed", args.seed), ("--minutes", args.minutes),
                                ("--ids", args.ids)) if v is not None]
        if given:
            from study.cli import UsageError

            raise UsageError(f"{given[0]} goes with --form NAME")
    elif args.format != "json":
        from study.cli import UsageError

        raise UsageError("--form writes an exam form; it does not go with --format")
    reason = refusal(args.file, force=args.force, fmt="form" if args.form is not None else args.format)
    if reason:
        print(f"study: error: {reason}", file=sys.stderr)
        return 2
    if args.form is not None:
        return _export_form(args)  # from the bank alone: no store is read
    explicit_db = args.db or os.environ.get("STUDY_DB")
    if args.format in ("json", "xapi") and explicit_db and not Path(explicit_db).exists():
        # Opening would create an empty store and "export" nothing: a typo would look like success.
        print(f"study: error: no progress store at {explicit_db}", file=sys.stderr)
        return 1
    if args.format != "json":
        import importlib

        return int(importlib.import_module(f"study.interop.{args.format}").export_command(args))
    return _export_progress(args)


def _export_progress(args: argparse.Namespace) -> int:
    import json

    from study.paths import default_db_path
    from study.progress import StoreError, open_store

    try:
        with open_store(default_db_path(args.db)) as store:
            if store.notice:
                print(f"study: {store.notice}", file=sys.stderr)
            from study.quiz.saved_state import read_saved_session
            data = store.export_data(read_saved_session)
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    from study.interop.output import emit

    where = emit(args.file, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    if where is None:
        return 1
    if where != args.file:
        return 0
    from study.text import count
    from study.untrusted import shown

    print(f"exported {count(len(data['attempts']), 'answer')}, {count(len(data['reviews']), 'card review')}, "
          f"{count(len(data['sessions']), 'session')} to {shown(args.file, keep_newlines=False)}", file=sys.stderr)
    return 0


def _export_form(args: argparse.Namespace) -> int:
    """``study export --form NAME``: the form file, and on stderr what it holds and how learners take it."""
    import os

    from study.cli import UsageError
    from study.commands import bank_for
    from study.interop.output import emit
    from study.quiz.form import FormError, check_name, make_form, minutes_of, to_yaml
    from study.text import count, whole_number
    from study.untrusted import shown

    try:
        check_name(args.form)
    except FormError as exc:
        raise UsageError(str(exc)) from None
    if args.count is not None and not 1 <= args.count <= 1000:
        raise UsageError("--count must be from 1 to 1000")
    if args.ids and args.count is not None:
        raise UsageError("--ids names the questions; --count goes with a draw")
    ids = [i.strip() for chunk in args.ids or () for i in chunk.split(",") if i.strip()] or None
    seed_text = args.seed if args.seed is not None else str(int.from_bytes(os.urandom(3), "big"))
    number = whole_number(seed_text)
    seed: int | str = seed_text if number is None else number
    bank = bank_for(args)
    from study.interop.output import report_bank_problems

    report_bank_problems(bank)
    try:
        form = make_form(bank, args.form, seed, count=args.count, minutes=args.minutes, ids=ids)
    except FormError as exc:
        raise UsageError(str(exc)) from None
    where = emit(args.file, to_yaml(form, bank))
    if where is None:
        return 1
    templated = sum(1 for i in form.items if i.seed is not None)
    target = shown(args.file, keep_newlines=False) if where == args.file else "FILE"
    print(f"form {form.name} (id {form.id}): {count(len(form.items), 'question')}"
          f"{f', {templated} templated' if templated else ''}, {minutes_of(form, bank):g} minutes, seed {seed_text}"
          f"{' to ' + target if where == args.file else ''}; learners take it with `study quiz --form {target}`",
          file=sys.stderr)
    return 0
