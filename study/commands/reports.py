"""``study reports``: the problems you reported with questions (R in the app), newest first."""

from __future__ import annotations

import argparse
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reports",
        help=command_help("reports"),
        description="List the problems you reported with questions, newest first. They travel to your "
        "instructor in `study export` (JSON backup), and `study analyze` shows them beside each question.",
    )
    p.add_argument("--question", metavar="ID", help="only the reports about this question id")
    p.add_argument("--json", action="store_true", help="print the reports as a JSON list")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    from study.paths import default_db_path
    from study.progress import open_store
    from study.progress.reports import KIND_LABELS, list_reports

    # A store that cannot be opened is one error line from cli.main, as for every command.
    with open_store(default_db_path(args.db)) as store:
        reports = list_reports(store, args.question)
    if args.json:
        print(json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=2))
        return 0
    if not reports:
        about = f" about {args.question}" if args.question else ""
        print(f"No reports{about}. Press R on a question in the app (practice, exam, review, results) to report one.")
        return 0
    from study.untrusted import shown

    # Reports can come from a backup made elsewhere: their text reaches the terminal escaped (issue 19).
    for r in reports:
        where = f" in {shown(r.context, keep_newlines=False)}" if r.context else ""
        print(f"{r.at[:16].replace('T', ' ')} UTC  {shown(r.item_id, keep_newlines=False)}  {r.kind}: "
              f"{KIND_LABELS[r.kind]}{where}")
        if r.text:
            print("    " + shown(r.text).replace("\n", "\n    "))
    print(f"\n{len(reports)} report{'s' if len(reports) != 1 else ''}. They reach your instructor in `study export`.")
    return 0
