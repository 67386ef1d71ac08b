"""Settings: exam date, daily goal, desired retention, theme and exam realism, kept in the progress store."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal
from textual.widgets import Button, Header, Input, Label, Select, Static

from study.tui.screens.base import StudyScreen
from study.tui.screens.dialogs import ChoiceDialog
from study.tui.screens.exam import EXAM_OBJECTIVE_SETTING
from study.tui.widgets.footer import StudyFooter

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

THEMES = [("dark", "textual-dark"), ("light", "textual-light")]
EXAM_OBJECTIVE = [("hidden, as on the real exam", "hidden"), ("shown", "shown")]


class SettingsScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Settings"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+s", "save", "Save"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Grid(id="settings-grid", classes="panel form"):
            yield Label("Exam date (YYYY-MM-DD)")
            yield Input(id="set-exam-date", placeholder="2027-01-15", compact=True)
            yield Label("Daily goal (answers)")
            yield Input(id="set-daily-goal", type="integer", placeholder="20", compact=True)
            yield Label("Desired retention (0.70-0.97)")
            yield Input(id="set-retention", type="number", placeholder="0.9", compact=True)
            yield Label("Theme")
            yield Select(THEMES, id="set-theme", allow_blank=False, value="textual-dark", compact=True)
            yield Label("Objective during an exam")
            yield Select(EXAM_OBJECTIVE, id="set-exam-objective", allow_blank=False, value="hidden", compact=True)
        with Horizontal(id="settings-buttons"):
            yield Button("Save (ctrl+s)", id="settings-save", variant="primary", compact=True)
        yield Static("", id="settings-message")
        yield Static("", id="settings-lrs")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#settings-grid").border_title = "Settings"
        self.watch(self.app, "ready", self._load, init=True)

    def _load(self, ready: bool) -> None:
        if not ready:
            return
        s = self.app.services
        self.query_one("#set-exam-date", Input).value = str(s.setting("exam_date", "") or "")
        self.query_one("#set-daily-goal", Input).value = str(s.setting("daily_goal", 20) or "")
        self.query_one("#set-retention", Input).value = str(s.setting("desired_retention", 0.9) or "")
        theme = s.setting("theme", None) or self.app.theme
        if theme in ("dark", "light"):
            theme = f"textual-{theme}"
        if theme in dict((v, k) for k, v in THEMES):
            self.query_one("#set-theme", Select).value = theme
        shown = bool(s.setting(EXAM_OBJECTIVE_SETTING, False))
        self.query_one("#set-exam-objective", Select).value = "shown" if shown else "hidden"
        from study.interop.sync import status_line

        keys = ("lrs_endpoint", "lrs_last_sync", "lrs_auto_sync", "lrs_last_error")
        lrs = status_line({k: s.setting(k, None) for k in keys})
        # Set with `study settings lrs_endpoint URL`; shown here so the learner sees whether syncing works.
        self.query_one("#settings-lrs", Static).update(Text(lrs or "", style="dim"))
        self._saved = self._form_values()

    # What the form holds, to tell whether leaving would lose an edit.
    _saved: tuple = ()

    def _form_values(self) -> tuple:
        inputs = tuple(self.query_one(f"#{name}", Input).value.strip()
                       for name in ("set-exam-date", "set-daily-goal", "set-retention"))
        selects = tuple(self.query_one(f"#{name}", Select).value for name in ("set-theme", "set-exam-objective"))
        return inputs + selects

    @property
    def dirty(self) -> bool:
        return bool(self._saved) and self._form_values() != self._saved

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        # Enter is where a learner expects a typed value to take: it saves the whole form, as ctrl+s does.
        event.stop()
        self.action_save()

    def action_back(self) -> None:
        if not self.dirty:
            self.app.pop_screen()
            return
        dialog = ChoiceDialog(
            "Unsaved settings",
            "You changed settings without saving them.",
            [("save", "Save", "s"), ("discard", "Discard", "d"), ("stay", "Stay", "escape")],
            cancel="stay",
        )
        self.app.push_screen(dialog, self._leave)

    def _leave(self, answer: str | None) -> None:
        if answer == "save":
            if self.action_save():
                self.app.pop_screen()
        elif answer == "discard":
            # The theme select previews as it changes: put the saved one back.
            self.app.apply_theme()
            self.app.pop_screen()

    @on(Select.Changed, "#set-theme")
    def _preview_theme(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.app.theme = event.value

    @on(Button.Pressed, "#settings-save")
    def _pressed(self) -> None:
        self.action_save()

    def action_save(self) -> bool:
        """Save the form; False (with the reason on the form) when a value is refused."""
        store = self.app.services.store
        msg = self.query_one("#settings-message", Static)
        raw_date = self.query_one("#set-exam-date", Input).value.strip()
        raw_goal = self.query_one("#set-daily-goal", Input).value.strip()
        raw_ret = self.query_one("#set-retention", Input).value.strip()
        # The rules `study settings KEY VALUE` and a backup's import apply: a value they refuse would be saved
        # here and then left out of every backup as damaged.
        from study.progress.settings import exam_date_setting, parse_setting

        try:
            exam_date = exam_date_setting(raw_date, self.app.services.now().date()) if raw_date else None
        except ValueError as exc:
            # It quotes what was typed: not markup.
            msg.update(Text(f"Exam date {exc}. Leave it empty if you have no date yet."))
            return False

        try:
            goal = parse_setting("daily_goal", raw_goal) if raw_goal else 20
        except ValueError as exc:
            msg.update(Text(f"The daily goal {exc}."))
            return False
        try:
            retention = parse_setting("desired_retention", raw_ret) if raw_ret else 0.9
        except ValueError as exc:
            msg.update(Text(f"Desired retention {exc}."))
            return False
        if store is None:
            msg.update("The progress store is not open; settings cannot be saved.")
            return False
        theme = self.query_one("#set-theme", Select).value
        store.set_setting("exam_date", exam_date)
        store.set_setting("daily_goal", goal)
        store.set_setting("desired_retention", retention)
        store.set_setting("theme", "light" if theme == "textual-light" else "dark")
        store.set_setting(EXAM_OBJECTIVE_SETTING, self.query_one("#set-exam-objective", Select).value == "shown")
        # Said once, on the form; a toast as well would repeat it.
        msg.update("Saved.")
        self._saved = self._form_values()
        return True
