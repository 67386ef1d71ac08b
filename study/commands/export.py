from __future__ import annotations

import argparse
import sys

from study.commands import add_bank_options
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
    add_bank_options(p, "gift/anki/xapi: ")
    p.add_argument("--force", action="store_true",
                   help="replace FILE even if it is not an earlier export (a question file, a store)")
    p.add_argument("file", nargs="?", metavar="FILE", help="where to write (default: standard output; "
                   "anki needs a file)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from study.interop.output import refusal

    reason = refusal(args.file, force=args.force, fmt=args.format)
    if reason:
        print(f"study: error: {reason}", file=sys.stderr)
        return 2
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
