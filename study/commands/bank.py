from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bank", help="facts about the question bank")
    bank_sub = p.add_subparsers(dest="bank_command", metavar="SUBCOMMAND")
    stats = bank_sub.add_parser("stats", help="counts by domain, objective, type and difficulty")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(func=run_stats)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def run_stats(args: argparse.Namespace) -> int:
    import json

    from study.bank import load_bank
    from study.bank.stats import bank_stats

    stats = bank_stats(load_bank())
    if args.json:
        print(json.dumps(stats, indent=2))
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"{stats['questions']} questions, {stats['cards']} cards in {stats['topics']} topics")
    for col in ("objective", "title", "questions", "cards"):
        table.add_column(col, justify="right" if col in ("questions", "cards") else "left")
    for d in stats["domains"]:
        table.add_row(f"[b]{d['id']}[/b]", f"[b]{d['name']}[/b] (blueprint {d['weight']}%, bank {d['percent']}%)", f"[b]{d['questions']}[/b]", "")
        for o in d["objectives"]:
            table.add_row(o["id"], o["title"], str(o["questions"]), str(o["cards"]))
    console.print(table)
    types = ", ".join(f"{k} {v}" for k, v in stats["types"].items())
    diff = ", ".join(f"{k}: {v}" for k, v in stats["difficulty"].items())
    console.print(f"types: {types}; choose-two {stats['choose_two_percent']}%; difficulty {diff}; calculator scenarios {stats['calculator']}")
    return 0
