from __future__ import annotations

import argparse
import sys
from typing import Any

from study.cli import command_help
from study.commands import add_bank_options, bank_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("stats", help=command_help("stats"))
    p.add_argument("--json", action="store_true", help="print every figure as JSON")
    p.add_argument("--exam-date", metavar="YYYY-MM-DD",
                   help="save your exam date (readiness is predicted for that day); 'none' clears it")
    p.add_argument("--exam", nargs="?", const="", metavar="N",
                   help="reopen a past exam: its results and every answer again (N: its number, 1 = the first "
                        "taken, 'last' or its session id); alone, list the exams taken")
    add_bank_options(p, ", for the questions readiness and coverage count")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import datetime as dt

    from study.paths import default_db_path
    from study.progress import StoreError, open_store
    from study.progress.stats import compute_stats

    if args.exam is not None:
        return _past_exam(args)
    try:
        bank = bank_for(args)
    except (OSError, ValueError) as exc:
        print(f"study: error: cannot load the question bank: {exc}", file=sys.stderr)
        return 1
    try:
        store = open_store(default_db_path(args.db))
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    with store:
        opened_with = store.notice
        if opened_with:
            print(f"study: {opened_with}", file=sys.stderr)
        if args.exam_date:
            if args.exam_date.lower() == "none":
                store.set_setting("exam_date", None)
            else:
                from study.progress.settings import exam_date_setting

                try:
                    store.set_setting("exam_date", exam_date_setting(args.exam_date))
                except ValueError as exc:
                    print(f"study: error: --exam-date {exc}", file=sys.stderr)
                    return 2
        stats = compute_stats(store, bank, dt.datetime.now().astimezone())
        if store.notice and store.notice != opened_with:  # found while reading: rows with damaged times
            print(f"study: {store.notice}", file=sys.stderr)
    if args.json:
        print(stats.to_json())
        return 0
    render(stats)
    return 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def render(stats, console=None) -> None:
    from rich.console import Console
    from rich.table import Table

    from study.text import count

    console = console or Console()
    r = stats.readiness
    when = f"on {r.exam_date.isoformat()}" if r.exam_date and r.at > stats.now else "if the exam were today"
    console.print(
        f"[b]Exam readiness {when}:[/b] expected {_pct(r.expected)} "
        f"(90% range {_pct(r.low)}-{_pct(r.high)} on a {r.questions}-question exam)"
    )
    if r.measured is not None:
        console.print(f"Measured on your last {count(r.measured_exams, 'exam')}: {_pct(r.measured)} "
                      "(each weighted by its share of questions new to you)")
    if not r.exam_date:
        console.print("[dim]Set your exam date with `study stats --exam-date YYYY-MM-DD` to predict for that day.[/dim]")
    table = Table(title="By domain")
    for col, justify in (("domain", "left"), ("weight", "right"), ("answered", "right"), ("accuracy", "right"),
                         ("mastery", "right"), ("coverage", "right"), ("exam day", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for g in stats.domains:
        table.add_row(f"{g.id} {g.title}", f"{g.weight:.0f}%", str(g.attempts), _pct(g.accuracy), _pct(g.mastery),
                      f"{g.seen}/{g.total}", _pct(r.domains.get(g.id)))
    console.print(table)
    if r.study_next:
        console.print("[b]Study next[/b] (expected score gain from an hour):")
        for s in r.study_next:
            console.print(f"  {s.objective} {s.title}: +{100 * s.gain:.1f} points ({s.unseen} unseen)")
    console.print(
        f"Streak {count(stats.streak, 'day')} (longest {stats.longest_streak}); {_due(stats)}; "
        f"answered today {stats.answers_today}/{stats.settings.get('daily_goal') or 20}; "
        f"new {stats.new_items}; {count(stats.attempts, 'answer')} and {count(stats.reviews, 'card review')} "
        f"recorded; {count(len(stats.exam_history), 'exam')} taken"
        + (" (`study stats --exam` lists them to reopen)." if stats.exam_history else ".")
    )
    from study.interop.sync import status_line

    sync = status_line(stats.settings)
    if sync:
        console.print(sync, markup=False)
    console.print(f"[dim]How: {r.method}[/dim]")


def _due(stats: Any) -> str:
    """"due now 5", or when nothing is: "due now 0 (next at 14:20)", in the learner's zone."""
    text = f"due now {stats.due_now}"
    if not stats.due_now and stats.next_due is not None:
        at = stats.next_due.astimezone(stats.now.tzinfo)
        day = "" if at.date() == stats.now.date() else f"{at:%a %d %b} "
        text += f" (next {day}at {at:%H:%M})"
    return text


def _past_exam(args: argparse.Namespace) -> int:
    """``--exam``: the list of exams taken, or one exam's report with every question reviewed, read from the
    store alone (no bank needed: the report keeps each question as it was asked)."""
    import json

    from study.paths import default_db_path
    from study.progress import StoreError, open_store
    from study.quiz.past import find_past_exam, past_exams

    try:
        store = open_store(default_db_path(args.db))
    except StoreError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return 1
    with store:
        exams = past_exams(store)
    if not args.exam:
        if args.json:
            print(json.dumps([_listed(e) for e in exams], ensure_ascii=False))
        elif not exams:
            print("No exam taken yet: `study quiz --plain --exam` or e on the app's Home starts one.")
        else:
            for e in exams:
                print(_line(e))
            print("Reopen one with `study stats --exam N` (or 'last').")
        return 0
    try:
        exam = find_past_exam(exams, args.exam)
    except LookupError as exc:
        print(f"study: error: --exam: {exc}", file=sys.stderr)
        return 2
    if exam.report is None:
        print(f"study: error: {exam.label}: its saved report is damaged ({exam.error})", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({**exam.report.to_dict(), "number": exam.number}, ensure_ascii=False))
        return 0
    print(f"{exam.label[0].upper()}{exam.label[1:]} of {len(exams)}, session {exam.session_id}"
          + (f", regraded {exam.regraded} time{'s' if exam.regraded != 1 else ''}" if exam.regraded else ""))
    print(exam.report.render_text())
    print()
    print(_every_answer(exam.report))
    return 0


def _every_answer(report: Any) -> str:
    """Every question in one or two lines: its number, outcome, id (what a problem report or `study suspend`
    needs), time, and the answer given against the right one."""
    from study.text import fill

    def mark(q: Any) -> str:
        return "right" if q.correct else ("unanswered" if not q.answered else "wrong")

    lines = ["Every answer:"]
    for q in report.questions:
        flag = ", flagged" if q.flagged else ""
        secs = int(round(q.seconds))
        lines.append(f"  Q{q.position} {mark(q)} [{q.id}, objective {q.objective}] {secs // 60}:{secs % 60:02d}{flag}")
        picks = [c for c in q.choices if c.picked]
        given = ("; ".join(f"{c.label}) {c.text}" for c in picks) if picks else (q.given_display or q.given or "")) \
            if q.answered else "none"
        right = "; ".join(f"{c.label}) {c.text}" for c in q.choices if c.correct) or q.expected_display
        lines.append(fill(f"yours: {given}", head="    ", indent="      "))
        if not q.correct:
            lines.append(fill(f"right: {right}", head="    ", indent="      "))
    return "\n".join(lines)


def _when(iso: str) -> str:
    """A stored UTC time as the learner's local minute."""
    import datetime as dt

    try:
        return dt.datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16]


def _listed(e: Any) -> dict[str, Any]:
    r = e.report
    return {"number": e.number, "session_id": e.session_id, "finished_at": e.finished_at,
            "score": r.score if r else None, "correct": r.correct if r else None, "total": r.total if r else None,
            "passed": r.passed if r else None, "timed_out": r.timed_out if r else None, "regraded": e.regraded,
            "error": e.error or None}


def _line(e: Any) -> str:
    r = e.report
    if r is None:
        return f"{e.number:>3}  {_when(e.finished_at)}  damaged report: {e.error}"
    timed = ", time ran out" if r.timed_out else ""
    regraded = ", regraded" if e.regraded else ""
    return (f"{e.number:>3}  {_when(e.finished_at)}  {r.score:5.1f}% ({r.correct}/{r.total}), "
            f"{'at or above' if r.passed else 'below'} the {r.target_percent}% target{timed}{regraded}")
