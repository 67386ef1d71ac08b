from __future__ import annotations

import argparse
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("schema", help=command_help("schema"))
    p.add_argument("--kind", choices=("questions", "topic"), default="questions", help="which format (default: questions)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from study.bank.jsonschema import questions_schema, topic_schema

    schema = questions_schema() if args.kind == "questions" else topic_schema()
    print(json.dumps(schema, indent=2))
    return 0
