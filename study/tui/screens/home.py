"""Home: exam countdown and readiness per domain, due reviews, streak, heatmap, and one key per activity."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, Sparkline, Static

from study.tui.widgets.bars import BarChart
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.heatmap import Heatmap


FOOTER_ROOM_FOR_PROBLEMS = 90  # columns the home footer needs to list "! Problems" beside the other keys


class HomeScreen(Screen):
    SUB_TITLE = "NCA-AIIO"
    BINDINGS = [
        Binding("r", "app.open('review')", "Review"),
        Binding("p", "app.open('practice')", "Practice"),
        Binding("e", "app.open('exam')", "Exam"),
        Binding("c", "app.open('calc')", "Calc"),
        Binding("t", "app.open('topics')", "Topics"),
        # Not in the footer (80 columns are full); Help and the palette list it.
        Binding("o", "app.open('lab')", "Labs", show=False),
        # "%" and "," rather than letters: g, s and the like are verbs on other screens (Navigator, Start), and a
        # key means one thing wherever the footer shows it (tests/tui/test_keys.py).
        Binding("percent_sign", "app.open('progress')", "Progress", key_display="%"),
        Binding("comma", "app.open('settings')", "Settings", key_display=","),
        Binding("exclamation_mark", "problems", "Problems", key_display="!"),
        # The same key without a footer entry, for terminals too narrow to list it (the home line says "!").
        Binding("exclamation_mark", "problems_narrow", "Problems", key_display="!", show=False),
        Binding("q", "quit", "Quit"),
        # The same key unlisted on narrow terminals, so 80 columns keep room for "^p palette" (Help lists q).
        Binding("q", "quit_narrow", "Quit", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="home-top"):
            with Vertical(id="home-exam", classes="panel"):
                yield Static("Loading the question bank…", id="home-countdown")
                yield BarChart(id="home-readiness")
            with Vertical(id="home-today", classes="panel"):
                yield Static("", id="home-due")
        yield Static("", id="home-next", classes="panel")
        yield Heatmap(id="home-heatmap", classes="panel")
        with Horizontal(id="home-more"):
            with Vertical(id="home-forecast-box", classes="panel"):
                yield Sparkline([], id="home-forecast")
                yield Static("", id="home-forecast-label")
            yield Static("", id="home-exams", classes="panel")
        yield Static("", id="home-problems")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#home-exam").border_title = "Exam"
        self.query_one("#home-today").border_title = "Today"
        self.query_one("#home-next").border_title = "Study next"
        self.query_one("#home-heatmap").border_title = "Activity"
        self.query_one("#home-forecast-box").border_title = "Reviews due, next 30 days"
        self.query_one("#home-exams").border_title = "Last exams"
        self.watch(self.app, "ready", self._on_ready, init=True)
        self.watch(self.app, "bank_version", self._on_reload, init=False)
        if getattr(self.app, "use_snapshot", False) and not self.app.ready:
            from study.tui import snapshot

            data = snapshot.load(self.app.services)
            if data is not None:
                self._show(data, from_snapshot=True)

    def on_resize(self, event: events.Resize) -> None:
        # Extra panels only where they fit without pushing the essentials off an 80x24 screen.
        self.set_class(event.size.height >= 34, "-tall")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # "!" only earns its place in the footer when there is something to see.
        if action == "problems":
            return self._has_problems() and self.size.width >= FOOTER_ROOM_FOR_PROBLEMS
        if action == "problems_narrow":
            return self._has_problems()
        if action == "quit":
            return self.size.width >= FOOTER_ROOM_FOR_PROBLEMS
        return True

    def _has_problems(self) -> bool:
        services = self.app.services
        bank = services.bank
        return bool(services.errors or services.reload_error or getattr(services.store, "notice", None)
                    or (bank is not None and bank.diagnostics))

    def action_problems(self) -> None:
        self.app.action_open("problems")

    action_problems_narrow = action_problems

    def action_quit(self) -> None:
        self.app.exit()

    action_quit_narrow = action_quit

    def on_screen_resume(self) -> None:
        # Coming back from a quiz: the figures changed.
        if getattr(self.app, "ready", False):
            self.refresh_data()

    def _on_ready(self, ready: bool) -> None:
        if ready:
            self.refresh_data()

    def _on_reload(self, _version: int) -> None:
        # Counts and the problems line follow the edited bank; the footer's "!" may come or go.
        if getattr(self.app, "ready", False):
            self.refresh_data()

    def refresh_data(self) -> None:
        # Statistics over a large bank take a while: compute them off the UI thread.
        self.run_worker(self._compute, thread=True, exclusive=True, group="home-data")

    def _compute(self) -> None:
        from study.tui import summary

        data = summary.home(self.app.services)
        if getattr(self.app, "use_snapshot", False):
            from study.tui import snapshot

            snapshot.save(self.app.services, data)  # first: the app may exit as soon as the figures show
        self.app.call_from_thread(self._show, data)

    def _show(self, data: dict[str, Any], from_snapshot: bool = False) -> None:
        self.query_one("#home-countdown", Static).update(data["countdown"])
        self.query_one("#home-readiness", BarChart).set_rows(data["readiness_rows"])
        self.query_one("#home-due", Static).update(data["today"])
        if data.get("next_rows"):
            from study.tui.summary import next_table

            self.query_one("#home-next", Static).update(next_table(data["next_rows"]))
        else:
            self.query_one("#home-next", Static).update(data["next"])
        heat = self.query_one("#home-heatmap", Heatmap)
        heat.set_counts(data["heatmap"], data["today_date"])
        forecast = data["forecast"] or [0]
        self.query_one("#home-forecast", Sparkline).data = forecast
        self.query_one("#home-forecast-label", Static).update(
            f"today {forecast[0]} · this week {sum(forecast[:7])} · peak {max(forecast)}" if any(forecast)
            else "Nothing due yet: what you answer or rate comes back here."
        )
        self.query_one("#home-exams", Static).update(data["exams"])
        problems = self.query_one("#home-problems", Static)
        problems.update(data["problems"])
        problems.display = bool(data["problems"])
        self.refresh_bindings()
        if from_snapshot:
            self.app.snapshot_shown()
        else:
            self.app.home_shown()
