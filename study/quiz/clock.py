"""The one place the quiz engine reads the wall clock.

Everything else takes ``now`` (a UTC ``datetime``) or a ``clock`` callable, so tests and the TUI can freeze
or drive time. Drivers (``study quiz --plain``, the app) pass :func:`system_clock` or their own.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

Clock = Callable[[], dt.datetime]


def system_clock() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def as_utc(value: dt.datetime) -> dt.datetime:
    """Naive datetimes are taken as UTC; aware ones are converted, so comparisons never mix the two."""
    if value.tzinfo is None:
        return value.replace(tzinfo=dt.timezone.utc)
    return value.astimezone(dt.timezone.utc)


def iso(value: dt.datetime | None) -> str | None:
    return None if value is None else as_utc(value).isoformat()


def from_iso(text: str | None) -> dt.datetime | None:
    return None if text is None else as_utc(dt.datetime.fromisoformat(text))
