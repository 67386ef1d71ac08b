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


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def home(services: Services) -> dict[str, Any]:
    now = services.now()
    today = now.date()
    bank = services.bank
    data: dict[str, Any] = {
        "countdown": countdown_text(services.setting("exam_date"), today),
        "readiness_rows": [],
        "today": "",
        "next": "",
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

    try:
        stats = _stats(services)
    except Exception as exc:  # shown on home rather than taking the whole app down
        stats = None
        data["problems"] = (data["problems"] + "; " if data["problems"] else "⚠ ") + f"statistics failed: {exc}"
    if stats is None:
        data["readiness_rows"] = [
            BarRow(f"{d.id} {d.name}", 0.0, f"{d.weight}%") for d in bank.blueprint.domains
        ]
        data["today"] = f"{len(bank.questions)} questions\n{len(bank.cards)} cards"
        return data
    return fill_from_stats(data, stats, bank)


def fill_from_stats(data: dict[str, Any], stats: Any, bank: Any) -> dict[str, Any]:
    from study.tui.format import percent

    readiness = stats.readiness
    target = bank.blueprint.exam.target_percent / 100
    rows = []
    for dom in bank.blueprint.domains:
        value = readiness.domains.get(dom.id, 0.0)
        rows.append(BarRow(f"{dom.id} {dom.name} ({dom.weight}%)", value, percent(value), marker=target))
    data["readiness_rows"] = rows
    low, high = readiness.low, readiness.high
    data["countdown"] += f"\nReadiness [b]{percent(readiness.expected)}[/] (likely {percent(low)}–{percent(high)})"
    activity = list(stats.activity)
    today_count = activity[-1][1] if activity else 0
    goal = stats.settings.get("daily_goal") or 20
    data["today"] = "\n".join(
        [
            f"Due reviews  [b]{stats.due_today}[/]",
            f"Never seen   {stats.new_items}",
            f"Today        {today_count}/{goal}",
            f"Streak       {stats.streak} day{'s' if stats.streak != 1 else ''}",
        ]
    )
    nxt = list(readiness.study_next)[:5]
    if nxt:
        data["next"] = "\n".join(
            f"{n.objective} {_short(n.title, 56):<56}  [dim]+{n.gain * 100:.1f} pts/h[/]" for n in nxt
        )
    else:
        data["next"] = "Nothing stands out: take a practice exam (e)."
    data["heatmap"] = dict(activity)
    data["forecast"] = [n for _d, n in stats.forecast]
    exams = []
    for e in stats.exam_history[-5:]:
        rep = e.get("report") or {}
        if isinstance(rep.get("score"), (int, float)):
            exams.append(f"{(e.get('finished_at') or '')[:10]}  {rep['score']:5.1f}%  ({rep.get('correct')}/{rep.get('total')})")
    data["exams"] = "\n".join(exams) or "No exams yet: press e for one."
    return data
