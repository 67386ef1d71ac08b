from __future__ import annotations

import argparse
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("locate", help=command_help("locate"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from study import paths

    print(f"content    {paths.content_dir()}")
    print(f"questions  {paths.questions_dir()}")
    print(f"store      {paths.default_db_path(args.db)}")
    return 0
