"""The footer every screen uses: compact, with the palette hint on every width (screens keep their own keys
short enough that 80 columns hold both; tests/tui/test_keys.py checks it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer

if TYPE_CHECKING:
    from textual.screen import Screen


class StudyFooter(Footer):
    def __init__(self, **kwargs) -> None:
        super().__init__(compact=True, **kwargs)
        self._rebuild_queued = False

    def bindings_changed(self, screen: Screen) -> None:
        # Textual's footer queues a full rebuild of its keys for every change of bindings, and a screen's
        # start sends about eight (each focus, mount and enabled check). One rebuild after the last change
        # shows the same keys, as the rebuild reads the bindings of that moment: the rest only cost time.
        self._bindings_ready = True
        if not screen.app.app_focus or self._rebuild_queued:
            return
        if self.is_attached and screen is self.screen:
            self._rebuild_queued = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_queued = False
        await self.recompose()
