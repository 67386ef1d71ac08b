"""``study lab``: the operations labs from the command line (list, run one command, or work one plainly)."""

from __future__ import annotations

import argparse
import sys
from typing import Any
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lab",
        help=command_help("lab"),
        description="Simulated GPU cluster labs. Nothing is executed: every command's output is rendered from "
        "the lab's scenario. A seed picks the case (which GPU, which Xid, ...); the same seed gives the same case.",
    )
    p.add_argument("lab_id", nargs="?", metavar="ID", help="the lab to open (see --list)")
    p.add_argument("--list", action="store_true", help="list the labs")
    p.add_argument("--json", action="store_true", help="with --list: JSON objects (id, title, objectives, commands)")
    p.add_argument("--run", metavar="COMMAND", help="print what COMMAND shows in the lab's scenario and exit")
    p.add_argument("--seed", type=int, default=None, help="the case to draw (default 0 with --run, random otherwise)")
    p.add_argument("--plain", action="store_true", help="work the lab in a plain terminal (tasks graded and recorded)")
    p.add_argument("--no-store", action="store_true", help="with --plain: do not record answers")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from study.cli import UsageError
    from study.lab.where import LabError

    try:
        return _run(args)
    except LabError as exc:
        raise UsageError(str(exc)) from None


def _run(args: argparse.Namespace) -> int:
    from study.cli import UsageError

    if args.list:
        return _list(args.json)
    if not args.lab_id:
        raise UsageError("lab: give a lab ID (see study lab --list)")
    if args.run is not None:
        from study.lab.quick import run_cached
        from study.untrusted import shown

        text, status = run_cached(args.lab_id, args.seed or 0, args.run)
        sys.stdout.write(shown(text) + ("\n" if text and not text.endswith("\n") else ""))
        return status  # as bash exits: 127 not found (or not simulated), 2 a syntax error, so scripts can tell
    import random

    from study.lab.case import build_case
    from study.lab.load import load_lab

    lab = load_lab(args.lab_id)

    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    case = build_case(lab, seed)
    if not args.plain:
        print(f"{lab.title} ({lab.id}, objectives {', '.join(lab.objectives)})")
        print(lab.brief)
        print(f"Work it with: study lab {lab.id} --plain   or one command: study lab {lab.id} --run \"nvidia-smi\"")
        return 0
    from study.lab.plain import run_plain
    from study.lab.session import LabSession

    store = None if args.no_store else _open_store(args)
    try:
        run_plain(LabSession(case, store=store, objective_titles=_objective_titles()), sys.stdin, sys.stdout)
    finally:
        if store is not None:
            store.close()
    return 0


def _objective_titles() -> dict[str, str]:
    """The blueprint's objective titles, stored with each answer as the app stores them (the results and the
    answer review name an objective by its title)."""
    from study.bank.load import load_blueprint
    from study.paths import blueprint_path

    try:
        blueprint = load_blueprint(blueprint_path())
    except (OSError, ValueError) as exc:
        print(f"study: warning: cannot read the blueprint ({exc}); objectives are stored without titles",
              file=sys.stderr)
        return {}
    return blueprint.objective_titles()


def _open_store(args: argparse.Namespace) -> Any:
    from study.paths import default_db_path
    from study.progress import StoreError, open_store

    try:
        return open_store(default_db_path(args.db))
    except StoreError as exc:
        print(f"study: warning: {exc}; this lab is not recorded", file=sys.stderr)
        return None


def _list(as_json: bool) -> int:
    from study.lab.load import all_labs

    labs = all_labs()
    if as_json:
        import json

        print(json.dumps([{"id": lab.id, "title": lab.title, "objectives": lab.objectives, "commands": lab.commands}
                          for lab in labs], indent=2))
        return 0
    for lab in labs:
        print(f"{lab.id:<28} {', '.join(lab.objectives):<10} {lab.title}")
    return 0
