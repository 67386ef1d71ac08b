"""Problems found while loading the bank and opening the store: listed, never swallowed, and refreshed when
the bank is reloaded after an edit."""

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
        self.watch(self.app, "bank_version", self._reloaded, init=False)

    def _reloaded(self, _version: int) -> None:
        self._fill(self.app.ready)

    def _fill(self, ready: bool) -> None:
        if not ready:
            return
        services = self.app.services
        diags = list(getattr(services.bank, "diagnostics", ()) or ())
        table = self.query_one(DataTable)
        row = table.cursor_row  # a refill after a reload keeps the reader's place
        table.clear(columns=True)
        table.add_columns("severity", "where", "code", "message")
        for err in services.errors:
            table.add_row("error", "start-up", "-", err)
        reload_error = getattr(services, "reload_error", None)
        if reload_error:
            table.add_row("error", "reload", "-", reload_error)
        notice = getattr(services.store, "notice", None)
        if notice:
            table.add_row("warning", "store", "-", str(notice))
        for d in diags:
            table.add_row(d.severity, f"{d.path}:{d.line}:{d.column}", d.code, d.message)
        others = len(services.errors) + bool(reload_error)
        n_err = sum(1 for d in diags if d.severity == "error") + others
        n_warn = len(diags) - (n_err - others)
        summary = (
            "No problems: every file loaded cleanly."
            if not diags and not others and not notice
            else f"{n_err} error(s), {n_warn} warning(s). Items with errors are left out of quizzes; "
            "run `study lint` for the same list."
        )
        self.query_one("#problems-summary", Static).update(summary)
        if row and table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))
