"""Problems found while loading the bank and opening the store: listed, never swallowed."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from study.tui.widgets.footer import StudyFooter


class ProblemsScreen(Screen):
    SUB_TITLE = "Bank problems"
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="problems-summary")
        yield DataTable(id="problems-table", cursor_type="row", zebra_stripes=True)
        yield StudyFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "ready", self._fill, init=True)

    def _fill(self, ready: bool) -> None:
        if not ready:
            return
        services = self.app.services
        diags = list(getattr(services.bank, "diagnostics", ()) or ())
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns("severity", "where", "code", "message")
        for err in services.errors:
            table.add_row("error", "start-up", "-", err)
        notice = getattr(services.store, "notice", None)
        if notice:
            table.add_row("warning", "store", "-", str(notice))
        for d in diags:
            table.add_row(d.severity, f"{d.path}:{d.line}:{d.column}", d.code, d.message)
        n_err = sum(1 for d in diags if d.severity == "error") + len(services.errors)
        n_warn = len(diags) - (n_err - len(services.errors))
        summary = (
            "No problems: every file loaded cleanly."
            if not diags and not services.errors and not notice
            else f"{n_err} error(s), {n_warn} warning(s). Items with errors are left out of quizzes; "
            "run `study lint` for the same list."
        )
        self.query_one("#problems-summary", Static).update(summary)
