from __future__ import annotations

import argparse

from study.commands import add_bank_options, bank_for
from study.cli import command_help

STATS_DESCRIPTION = (
    "Counts of the question bank by domain, objective, type, difficulty and templated or not, held against "
    "the blueprint weights and the content targets (at least 300 questions; each domain within 5 points of "
    "its weight; each objective at least 8 questions and 2 cards; at least 15% choose-two; difficulties 1 to "
    "3; at least 40 calculator scenarios), followed by the gaps: what is short and by how much. A gap is an "
    "error when a target is missed and a warning when it is only worth closing (a domain under its weight "
    "but within 5 points, an objective without a choose-two question or without a difficulty level). "
    "Exit status, as for `study lint`: 0 when no target is missed, 1 when one is (or, with --strict, when "
    "there is any warning), 2 on usage errors."
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bank", help=command_help("bank"))
    bank_sub = p.add_subparsers(dest="bank_command", metavar="SUBCOMMAND")
    stats = bank_sub.add_parser(
        "stats",
        help="counts by domain, objective, type and difficulty against the blueprint, and the gaps",
        description=STATS_DESCRIPTION,
    )
    stats.add_argument("--json", action="store_true", help="print JSON (domains, objectives, targets, gaps)")
    stats.add_argument("--strict", action="store_true", help="warnings also make the exit status 1")
    add_bank_options(stats)
    stats.set_defaults(func=run_stats)
    p.set_defaults(func=_what_to_show)


def _what_to_show(args: argparse.Namespace) -> int:
    # One line, as for every other mistake (and as `study new` alone); the help is a --help away.
    from study.cli import UsageError

    raise UsageError("bank: say what to show: study bank stats (study bank --help)")


def run_stats(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from study.bank.stats import bank_stats, gap_counts
    from study.cli import UsageError

    for given in [*(args.questions or ()), *([args.content] if args.content else [])]:
        if not Path(given).exists():
            raise UsageError(f"no such file or folder: {given}")
    bank = bank_for(args)
    stats = bank_stats(bank)
    errors, warnings = gap_counts(stats["gaps"])
    status = 1 if errors or (args.strict and warnings) else 0
    if args.json:
        print(json.dumps(stats, indent=2))
        return status
    from rich.console import Console

    from study.authoring.stats_view import stats_renderables

    console = Console(highlight=False)
    for item in stats_renderables(stats, console.width):
        console.print(item)
    return status
