"""``study plan``: days to the exam, today's plan in minutes at your own pace, and whether you are on track."""

from __future__ import annotations

import argparse
import sys

from study.commands import add_bank_options, bank_for
from study.cli import command_help


def register(sub: argparse._SubParsersAction) -> None:
    from study.progress.plan_method import PLAN_METHOD

    p = sub.add_parser("plan", help=command_help("plan"),
                       description=PLAN_METHOD)
    p.add_argument("--json", action="store_true", help="print the plan as JSON")
    add_bank_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import json

    import datetime as dt

    from study.paths import default_db_path
    from study.progress import open_store
    from study.progress.plan import compute_plan

    bank = bank_for(args)
    now = dt.datetime.now().astimezone()
    with open_store(default_db_path(args.db)) as store:
        if store.notice:
            print(f"study: {store.notice}", file=sys.stderr)
        plan = compute_plan(store, bank, now)
    if args.json:
        print(json.dumps(plan.to_dict(), indent=1, default=str))
        return 0
    print(render(plan))
    return 0


def render(plan) -> str:
    from study.text import fill

    lines = []
    if plan.days_left is None:
        lines.append("No exam date set.")
    elif plan.days_left >= 0:
        when = "today" if plan.days_left == 0 else f"in {plan.days_left} day{'s' if plan.days_left != 1 else ''}"
        lines.append(f"Exam {when} ({plan.exam_date.isoformat()}).")
    else:
        lines.append(f"Exam date {plan.exam_date.isoformat()} has passed.")
    lines.append(f"Today: {plan.summary()}.")
    if plan.new_by_objective:
        lines.append("New questions: " + ", ".join(f"{o.objective} {o.title} ({o.questions})"
                                                   for o in plan.new_by_objective))
    pace = plan.pace
    basis = (f"median of your last {pace.answers_measured} answers and {pace.ratings_measured} card ratings"
             if pace.measured else "defaults until you have answered and rated 10 of each")
    lines.append(f"Pace: {pace.seconds_per_answer:.0f} s per answer, {pace.seconds_per_rating:.0f} s per card "
                 f"({basis}).")
    lines.append(f"Goal: {plan.answered_today}/{plan.daily_goal} questions answered today.")
    lines.append(plan.on_track_text)
    return "\n".join(fill(line) for line in lines)
