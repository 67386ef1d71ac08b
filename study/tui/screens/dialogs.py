"""Small modal dialogs that return their answer through ``dismiss``."""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from study.tui.screens.base import StudyDialog


class ChoiceDialog(StudyDialog[str]):
    """A question with a few buttons; each button's id is the answer. Keys are the buttons' first letters.

    A body given as a function is read again every second, for a figure that changes while the dialog is
    open (the time left on an interrupted exam's running clock)."""

    def __init__(self, title: str, body: str | Callable[[], str], buttons: list[tuple[str, str, str]], *,
                 cancel: str) -> None:
        super().__init__()
        self._title = title
        self._body = body
        self._buttons = buttons  # (answer id, label, key)
        self._cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            yield Static(self._body() if callable(self._body) else self._body, id="dialog-body")
            with Horizontal():
                for i, (answer, label, key) in enumerate(self._buttons):
                    yield Button(f"{label} ({key})", id=f"dlg-{answer}", variant="primary" if i == 0 else "default")

    def on_mount(self) -> None:
        for answer, _label, key in self._buttons:
            self._bindings.bind(key, f"choose('{answer}')", show=False)
        self._bindings.bind("escape", f"choose('{self._cancel}')", show=False)
        self.query_one(Button).focus()
        if callable(self._body):
            self.set_interval(1, self._refresh_body)

    def _refresh_body(self) -> None:
        if callable(self._body):
            self.query_one("#dialog-body", Static).update(self._body())

    def action_choose(self, answer: str) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "")[len("dlg-"):])
