"""Small wording helpers shared by the commands and the app (no dependencies)."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``count(1, "file")`` is "1 file", ``count(3, "file")`` "3 files": messages read as sentences."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"
