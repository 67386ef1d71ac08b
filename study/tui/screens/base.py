"""What every full screen of the app shares: it is laid out again for a new size, not for each resize notice,
and its toasts are plain text (PlainToasts; dialogs share that through StudyDialog).

Textual lays a whole screen out (every widget placed, then every line painted) for each resize notice the
screen gets. As a screen starts it gets three of one size: the app's first size, the same size again once the
app is idle, and its own size from its first layout. On Home each such layout cost 15-20 ms before the first
paint, five layouts in all; skipping the ones for a size already laid out leaves two. A screen that is really
resized, or a widget that changes (it asks for a layout of its own), is laid out as before.

``_screen_resized`` is Textual's private hook (textual 8); tests/tui/test_layout_passes.py fails if a Textual
release renames it or lays out a resized screen no more, and the SVG snapshots show every screen unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual.screen import ModalScreen, Screen, ScreenResultType

if TYPE_CHECKING:
    from textual.geometry import Size
    from textual.notifications import SeverityLevel


class PlainToasts:
    """``notify`` whose message is plain text unless the caller passes ``markup=True``, as the app's is.

    Textual's Widget.notify hands the app ``markup=True`` when the caller says nothing, so a toast quoting a
    store or export error ('/tmp/[x]/progress.db', '[/]') would be read as markup by StudyApp.notify too."""

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        cast(Any, self).app.notify(message, title=title, severity=severity, timeout=timeout, markup=markup)


class StudyDialog(PlainToasts, ModalScreen[ScreenResultType]):
    """A dialog of the app: its toasts are plain text (PlainToasts)."""


class StudyScreen(PlainToasts, Screen):
    def _screen_resized(self, size: Size) -> None:
        # The compositor holds the size of the screen's last layout.
        if size == self._compositor.size:
            return
        super()._screen_resized(size)
