"""What "due" means on the screens is the core's one definition (``study.progress.due``: due *now*, what
Review serves); this module splits it by kind for Review and words the next due time."""

from __future__ import annotations

import datetime as dt
from typing import Any


def next_due(store: Any, bank: Any, now: dt.datetime) -> dt.datetime | None:
    """When the next item of the bank comes due after ``now`` (None: nothing scheduled), as ``study stats``
    computes it."""
    from study.progress.due import next_due as core_next_due

    known = {q.id for q in bank.questions} | {c.id for c in bank.cards}
    return core_next_due(store, now, known=known)


def when_text(moment: dt.datetime, now: dt.datetime) -> str:
    """ "in 8 min (09:08)", "in 3 h (12:00)", "on Tue 01 Dec" for the next due time."""
    delta = moment - now
    local = moment.astimezone()
    if delta < dt.timedelta(hours=1):
        return f"in {max(1, round(delta.total_seconds() / 60))} min ({local:%H:%M})"
    if delta < dt.timedelta(hours=24):
        return f"in {round(delta.total_seconds() / 3600)} h ({local:%H:%M})"
    return f"on {local:%a %d %b}"
