"""Small wording helpers shared by the commands and the app (standard library only)."""

from __future__ import annotations

import datetime as dt


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``count(1, "file")`` is "1 file", ``count(3, "file")`` "3 files": messages read as sentences."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def read_date(text: str) -> dt.date:
    """An ISO date (``2027-01-15``), or a ValueError that says what is wrong: the shape, the month, or the
    day (``2027-13-45``: "month 13 is not 1 to 12"), not just what a date looks like."""
    import calendar

    raw = text.strip()
    parts = raw.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or [len(p) for p in parts] != [4, 2, 2]:
        raise ValueError(f"{text!r} is not a date written YYYY-MM-DD, like 2027-01-15")
    year, month, day = (int(p) for p in parts)
    if year < 1:
        raise ValueError(f"{text!r}: year {year} is not a calendar year")
    if not 1 <= month <= 12:
        raise ValueError(f"{text!r}: month {month} is not 1 to 12")
    last = calendar.monthrange(year, month)[1]
    if not 1 <= day <= last:
        raise ValueError(f"{text!r}: day {day} is not 1 to {last} ({calendar.month_name[month]} {year} "
                         f"has {last} days)")
    return dt.date(year, month, day)
