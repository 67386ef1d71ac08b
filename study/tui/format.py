"""Display formatting shared by screens (no domain logic)."""

from __future__ import annotations

from datetime import timedelta


def percent(fraction: float | None, digits: int = 0) -> str:
    if fraction is None:
        return "–"
    return f"{fraction * 100:.{digits}f}%"


def clock(remaining: timedelta | float | None) -> str:
    """``mm:ss`` (or ``h:mm:ss``) for a countdown; negative values show as 00:00."""
    if remaining is None:
        return "--:--"
    seconds = remaining.total_seconds() if isinstance(remaining, timedelta) else float(remaining)
    seconds = max(0, int(seconds + 0.999))  # round up: "00:01" until it really is zero
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"
