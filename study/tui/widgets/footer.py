"""The footer every screen uses: compact, with the palette hint on every width (screens keep their own keys
short enough that 80 columns hold both; tests/tui/test_keys.py checks it)."""

from __future__ import annotations

from textual.widgets import Footer


class StudyFooter(Footer):
    def __init__(self, **kwargs) -> None:
        super().__init__(compact=True, **kwargs)
