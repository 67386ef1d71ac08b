from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tui", help="open the Textual app (the default when no command is given)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from study.tui.app import run_app

    return run_app(db=getattr(args, "db", None), watch=getattr(args, "watch", None))
