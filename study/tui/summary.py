"""Turn the progress statistics into what the home screen shows. Formatting only: numbers come from
``study.progress.stats.compute_stats``."""

from __future__ import annotations

from datetime import date
from typing import Any

from study.text import count
from study.tui.services import Services
from study.tui.widgets.bars import BarRow


def _stats(services: Services) -> Any:
    if services.store is None or services.bank is None:
        return None
    try:
        from study.progress.stats import compute_stats
    except ImportError:
        return None
    return compute_stats(services.store, services.bank, services.now())


def countdown_text(exam_date: Any, today: date) -> str:
    if not exam_date:
        return "No exam date set: press [b],[/] to set one."
    try:
        when = date.fromisoformat(str(exam_date))
    except ValueError:
        return f"Exam date {exam_date!r} is not a date: press [b],[/] to fix it."
    days = (when - today).days
    if days > 1:
        return f"Exam in [b]{days}[/] days ({when:%a %d %b %Y})"
    if days == 1:
        return f"Exam [b]tomorrow[/] ({when:%a %d %b})"
    if days == 0:
        return "Exam [b]today[/]. Good luck."
    return f"Exam date {when:%d %b %Y} has passed: press [b],[/] to set the next one."


EXAM_ROWS = 10  # the tall home's last row has room for this many
FIRST_STEPS = (
    "No exams yet. One way to start:\n"
    "[b]t[/]  read the cards of a topic\n"
    "[b]p[/]  practise questions on it\n"
    "[b]r[/]  review what comes due\n"
    "[b]o[/]  find the fault on a simulated GPU cluster (labs)\n"
    "[b]e[/]  take a 50-question exam\n"
    "[b],[/]  set your exam date"
)
NEXT_ROWS = 8  # objectives listed under "Study next"; the panel shows as many as its height allows


class NextRow:
    """One "study next" row: objective, title and gain. The title takes the width the panel has (cut with …
    only when it must), the gain stays right-aligned. A one-line renderable rather than a Rich table per row:
    Home paints these at start-up, several times over while the terminal settles its size, and a table's
    column measuring was a seventh of that first paint."""

    def __init__(self, objective: str, title: str, gain: str) -> None:
        self.objective, self.title, self.gain = objective, title, gain

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        width = options.max_width
        room = max(0, width - len(self.objective) - len(self.gain) - 2)
        title = self.title if len(self.title) <= room else self.title[: max(0, room - 1)] + "…"
        line = Text(f"{self.objective} {title.ljust(room)} ", no_wrap=True, overflow="crop")
        line.append(self.gain, style="dim")
        line.truncate(width)
        yield line

    def __rich_measure__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        return Measurement(len(self.objective) + len(self.gain) + 4, options.max_width)


def next_table(rows: list[tuple[str, str, str]]) -> Any:
    """The rows of "study next" as one renderable each (see :class:`NextRow`); several rows are stacked."""
    from rich.console import Group

    items = [NextRow(*row) for row in rows]
    return items[0] if len(items) == 1 else Group(*items)


def home(services: Services) -> dict[str, Any]:
    now = services.now()
    today = now.date()
    bank = services.bank
    data: dict[str, Any] = {
        "countdown": countdown_text(services.setting("exam_date"), today),
        "readiness_rows": [],
        "today": "",
        "next": "",
        "next_rows": [],
        "heatmap": {},
        "today_date": today,
        "problems": "",
        "forecast": [],
        "exams": "",
    }
    errors = list(services.errors)
    if services.reload_error:
        errors.append("the last edit could not be reloaded")
    if bank is not None:
        n_err = sum(1 for d in bank.diagnostics if d.severity == "error")
        if n_err:
            errors.append(f"{count(n_err, 'problem')} in the bank: those items are left out")
    if errors:
        data["problems"] = "⚠ " + "; ".join(errors) + " (press ! for details)"
    if bank is None:
        data["countdown"] = "The question bank could not be loaded (press ! for details)."
        return data

    from study.tui.exam_state import paused_exam

    data["paused"] = paused_exam(services)
    try:
        stats = _stats(services)
    except Exception as exc:  # shown on home rather than taking the whole app down
        stats = None
        data["problems"] = (data["problems"] + "; " if data["problems"] else "⚠ ") + f"statistics failed: {exc}"
    if stats is None:
        data["readiness_rows"] = [
            BarRow(f"{d.id} {d.name}", 0.0, "", suffix=f"({d.weight}%)") for d in bank.blueprint.domains
        ]
        data["today"] = f"{len(bank.questions)} questions\n{len(bank.cards)} cards"
        return data
    from study.tui.today import todays_plan

    plan = todays_plan(services.store, bank, now, stats)
    if plan is not None:
        data["plan"] = plan.summary()
        if plan.exam_date is not None:  # whether the bank will have been seen by then
            data["countdown"] += f"\n{plan.on_track_text}"
    return fill_from_stats(data, stats, bank, reviews_today=plan.reviews if plan is not None else None)


def _due_lines(now: int, today: int) -> list[str]:
    # Review serves what is due now; what falls due later today is said apart, so the two never disagree.
    lines = [f"Due now      [b]{now}[/]"]
    if today > now:
        lines.append(f"Later today  {today - now}")
    return lines


def fill_from_stats(data: dict[str, Any], stats: Any, bank: Any, reviews_today: int | None = None) -> dict[str, Any]:
    """Due counts are the core's (``study.progress.due``): what is due now is what Review serves;
    ``reviews_today`` (the plan's reviews, due by the end of today) adds what comes later today."""
    from study.tui.format import percent

    readiness = stats.readiness
    target = bank.blueprint.exam.target_percent / 100
    rows = []
    for dom in bank.blueprint.domains:
        value = readiness.domains.get(dom.id, 0.0)
        rows.append(BarRow(f"{dom.id} {dom.name}", value, percent(value), marker=target, suffix=f"({dom.weight}%)"))
    data["readiness_rows"] = rows
    low, high = readiness.low, readiness.high
    data["countdown"] += f"\nReadiness [b]{percent(readiness.expected)}[/] (likely {percent(low)}–{percent(high)})"
    activity = list(stats.activity)
    goal = stats.settings.get("daily_goal") or 20
    data["today"] = "\n".join(
        [
            *_due_lines(stats.due_now, stats.due_now if reviews_today is None else reviews_today),
            f"Never seen   {stats.new_items}",
            # The daily goal counts questions answered (the core's answers_today), not card ratings.
            f"Today        {stats.answers_today}/{goal}",
            f"Streak       {stats.streak} day{'s' if stats.streak != 1 else ''}",
        ]
    )
    nxt = list(readiness.study_next)[:NEXT_ROWS]
    if nxt:
        data["next_rows"] = [(n.objective, n.title, f"+{n.gain * 100:.1f} pts/h") for n in nxt]
    else:
        data["next"] = "Nothing stands out: take a practice exam (e)."
    data["heatmap"] = dict(activity)
    data["forecast"] = [n for _d, n in stats.forecast]
    exams = []
    for e in stats.exam_history[-EXAM_ROWS:]:
        rep = e.get("report") or {}
        if isinstance(rep.get("score"), (int, float)):
            exams.append(f"{(e.get('finished_at') or '')[:10]}  {rep['score']:5.1f}%  ({rep.get('correct')}/{rep.get('total')})")
    data["exams"] = "\n".join(exams) or FIRST_STEPS
    data["first_steps"] = "" if exams else FIRST_STEPS.split("\n", 1)[1]
    return data
