from __future__ import annotations

import argparse
import sys
from typing import Any

from study.commands import add_bank_options, bank_for
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "regrade",
        help=command_help("regrade"),
        description="Looks at your stored answers to questions that changed since you answered them. Where the "
        "question as you saw it still matches the current one (same stem, same choices, same unit), your "
        "answer is marked again against the current key; the schedule of each question whose marks changed "
        "is replayed from its whole history (without FSRS's random fuzz, so --dry-run shows the very dates the "
        "real run sets), and the stored report of each exam or session that asked it is scored again (score, "
        "verdict, and the readiness measured on exams). Each change keeps the grade it replaced in the store's "
        "regrade history; the next xAPI export or sync voids the statements that carried the old grade and "
        "sends new ones. An answer to a question asked differently keeps its grade. Exits 0 (also when "
        "nothing changed); --dry-run shows what would change without writing.",
    )
    p.add_argument("--dry-run", action="store_true", help="show what would change, change nothing")
    p.add_argument("--json", action="store_true", help="print the changes as JSON")
    add_bank_options(p, ", to regrade against")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import datetime as dt
    import json

    from study.analysis.regrade import plan_regrade
    from study.paths import default_db_path
    from study.progress import StoreError, open_store
    from study.progress.regrades import regrade_store

    try:
        bank = bank_for(args)
    except (OSError, ValueError) as exc:
        print(f"study: error: cannot load the question bank: {exc}", file=sys.stderr)
        return 1
    try:
        # No fuzz: the replay must be the same in a dry run and in the real one (fuzz draws at random).
        store = open_store(default_db_path(args.db), fuzz=False)
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    with store:
        if store.notice:
            print(f"study: {store.notice}", file=sys.stderr)
        plan = plan_regrade(store.history(), bank)
        # What this run wrote (another regrade running at the same time may have applied some already), or for
        # a dry run what it would write, due dates and exam scores included, rolled back.
        outcome = regrade_store(store, plan.changes, dt.datetime.now(dt.timezone.utc), dry_run=args.dry_run)
    changes, due = outcome.applied, outcome.due
    if args.json:
        print(json.dumps({
            "format": "study-regrade", "applied": not args.dry_run,
            "changes": [{"attempt": c.attempt_uid, "question": c.item_id, "answered_at": c.at.isoformat(),
                         "was_correct": c.old_correct, "now_correct": c.new_correct} for c in changes],
            "unchanged": plan.unchanged, "not_comparable": plan.not_comparable, "missing": plan.missing,
            "due": {q: s.due.isoformat() if s is not None else None for q, s in due.items()},
            "exams": [{"session": r.session_id, "mode": r.mode, "was": r.was.to_dict(), "now": r.now.to_dict()}
                      for r in outcome.sessions],
        }, indent=1))
        return 0
    verb = "would change" if args.dry_run else "changed"
    for c in changes:
        mark = lambda ok: "right" if ok else "wrong"  # noqa: E731
        print(f"{c.item_id}  answered {c.at:%Y-%m-%d %H:%M}  {mark(c.old_correct)} -> {mark(c.new_correct)}")
    print(f"{len(changes)} answer(s) {verb}; {plan.unchanged} kept their grade; {plan.not_comparable} asked "
          f"differently or without the response kept (grade kept)"
          + (f"; {_missing(args, plan)}" if plan.missing else ""))
    for q, s in sorted(due.items()):
        if s is not None:
            print(f"  {q}: next review {s.due:%Y-%m-%d %H:%M} UTC")
    for r in outcome.sessions:
        print(f"  {r.mode} {r.session_id[:12]}: {_score(r.was)} -> {_score(r.now)}")
    return 0


def _missing(args: argparse.Namespace, plan: Any) -> str:
    """The answers to questions outside the bank, said truly: with --questions, the built-in questions a
    learner also answered are only outside the bank given, not gone."""
    if not args.questions:
        return f"{plan.missing} answer(s) to questions no longer in the bank (grade kept)"
    from study.bank import load_bank

    try:
        shipped = {q.id for q in load_bank().questions}
    except (OSError, ValueError):
        shipped = set()
    builtin = sum(n for qid, n in plan.missing_by_id.items() if qid in shipped)
    return (f"{plan.missing} answer(s) to questions outside the bank given with --questions"
            + (f", {builtin} of them built-in (grade kept; regrade without --questions for those)" if builtin
               else " (grade kept)"))


def _score(v: Any) -> str:
    percent = f"{100.0 * v.correct / v.total:.1f}%" if v.total else "nothing graded"
    verdict = "" if v.passed is None else (", at or above the target" if v.passed else ", below the target")
    return f"{v.correct}/{v.total} ({percent}{verdict})"
