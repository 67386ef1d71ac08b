"""Past exams: every exam taken, oldest first, numbered as ``study stats --exam`` numbers them; enter reopens
one's results screen (and from there, ``a``, its answer review), both built from the report the store kept
(``study.quiz.past``), so an exam is reviewable at any later time, not only right after it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, Static

from study.tui.format import clock as fmt_clock
from study.tui.screens.base import StudyScreen
from study.tui.widgets.footer import StudyFooter

if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp


def local_minute(iso: str) -> str:
    """A stored UTC time as the learner's local ``YYYY-MM-DD HH:MM``."""
    import datetime as dt

    try:
        return dt.datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16]


class PastExamsScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Past exams"
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back"), Binding("enter", "open", "Open results")]

    def __init__(self) -> None:
        super().__init__()
        self.exams: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="past-summary")
        yield DataTable(id="past-table", zebra_stripes=True, cursor_type="row")
        yield StudyFooter()

    def on_mount(self) -> None:
        self._fill()

    def _fill(self) -> None:
        from study.quiz.past import past_exams

        store = self.app.services.store
        try:
            self.exams = past_exams(store) if store is not None else []
        except Exception as exc:  # a store that cannot be read says so here rather than closing the app
            self.query_one("#past-summary", Static).update(f"Could not read the exams: {exc}")
            return
        table = self.query_one("#past-table", DataTable)
        table.clear(columns=True)
        table.add_columns("#", "finished", "score", "right", "time", "verdict")
        for e in reversed(self.exams):  # the latest first: the one a learner most often wants again
            r = e.report
            if r is None:
                table.add_row(str(e.number), local_minute(e.finished_at), "—", "—", "—", "damaged report",
                              key=str(e.number))
                continue
            verdict = "at/above target" if r.passed else "below target"
            notes = "".join((", timed out" if r.timed_out else "", ", regraded" if e.regraded else ""))
            table.add_row(str(e.number), local_minute(e.finished_at), f"{r.score:.1f}%", f"{r.correct}/{r.total}",
                          fmt_clock(r.seconds), verdict + notes, key=str(e.number))
        n = len(self.exams)
        self.query_one("#past-summary", Static).update(
            f" {n} exam{'s' if n != 1 else ''} taken" + (", the latest first" if n > 1 else "")
            + " · enter reopens its results, then a its answers" if n else " No exam taken yet: e on Home starts one.")
        self.refresh_bindings()
        table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open":
            return bool(self.exams)
        return True

    @on(DataTable.RowSelected, "#past-table")
    def _row(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            self.open_exam(int(event.row_key.value))

    def action_open(self) -> None:
        table = self.query_one("#past-table", DataTable)
        if not self.exams:
            return
        row = table.cursor_row if 0 <= table.cursor_row < len(self.exams) else 0
        self.open_exam(list(reversed(self.exams))[row].number)

    def open_exam(self, number: int) -> None:
        exam = next((e for e in self.exams if e.number == number), None)
        if exam is None:
            return
        if exam.report is None:
            self.notify(f"{exam.label}: its saved report is damaged ({exam.error}).", severity="warning")
            return
        self.app.show("results", exam.report, past=exam, of=len(self.exams))
