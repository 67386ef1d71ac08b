from __future__ import annotations

import argparse

from study.commands import add_bank_options
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tui", help=command_help("tui"),
                       description="Open the full-screen app. With --questions or --content it serves that bank "
                                   "instead of the built-in one, and reloads it when its files are saved.")
    add_bank_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from study.tui.app import run_app

    return run_app(db=getattr(args, "db", None), watch=getattr(args, "watch", None),
                   questions=getattr(args, "questions", None), content=getattr(args, "content", None))
