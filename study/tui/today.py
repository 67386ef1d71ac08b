"""Today's plan on Home: the core's plan (``study.progress.plan.compute_plan``, the same as ``study plan``),
so Home and the command agree by construction; this module only keeps Home standing if it fails."""

from __future__ import annotations

import datetime as dt
from typing import Any


def todays_plan(store: Any, bank: Any, now: dt.datetime, stats: Any) -> Any:
    """The core's ``Plan`` for ``now`` (None when it cannot be computed: Home shows without its plan line)."""
    from study.progress.plan import compute_plan

    try:
        return compute_plan(store, bank, now, stats=stats)
    except Exception:  # a hint: Home shows without it
        return None
