"""The footer every screen uses: compact, and without the palette hint when 80 columns need the room for
the screen's own keys (ctrl+p still works, the header icon opens the palette, and Help lists it)."""

from __future__ import annotations

from textual import events
from textual.widgets import Footer

PALETTE_HINT_MIN_WIDTH = 100


class StudyFooter(Footer):
    def __init__(self, **kwargs) -> None:
        super().__init__(compact=True, **kwargs)

    def on_resize(self, event: events.Resize) -> None:
        self.show_command_palette = event.size.width >= PALETTE_HINT_MIN_WIDTH
