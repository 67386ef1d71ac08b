"""What "due" means on the screens: due *now* (what Review serves), the one definition Home and Review share.

An adapter over today's store so Home and Review agree; when the core gains its own single definition of
"due" (issue 20, learner-core), ``due_now`` and ``next_due`` are the two functions to point at it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any


def due_now(store: Any, bank: Any, now: dt.datetime) -> tuple[list[str], list[str]]:
    """Card ids and question ids due at ``now`` that the bank still holds, most overdue first."""
    cards = [c for c in store.due(now, kind="card") if bank.has_item(c)]
    questions = [q for q in store.due(now, kind="question") if bank.has_item(q)]
    return cards, questions


def next_due(store: Any, bank: Any, now: dt.datetime) -> dt.datetime | None:
    """When the next item of the bank comes due after ``now`` (None: nothing scheduled)."""
    from study.progress.store import parse_iso, utc_iso

    rows = store._query("SELECT item_id, due FROM items WHERE due > ? ORDER BY due LIMIT 200", (utc_iso(now),))
    return next((parse_iso(due) for item_id, due in rows if bank.has_item(item_id)), None)


def when_text(moment: dt.datetime, now: dt.datetime) -> str:
    """ "in 8 min (09:08)", "in 3 h (12:00)", "on Tue 01 Dec" for the next due time."""
    delta = moment - now
    local = moment.astimezone()
    if delta < dt.timedelta(hours=1):
        return f"in {max(1, round(delta.total_seconds() / 60))} min ({local:%H:%M})"
    if delta < dt.timedelta(hours=24):
        return f"in {round(delta.total_seconds() / 3600)} h ({local:%H:%M})"
    return f"on {local:%a %d %b}"
