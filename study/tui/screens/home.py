"""Home: exam countdown and readiness per domain, due reviews, streak, heatmap, and one key per activity."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from study.tui.screens.base import StudyScreen
from textual.widgets import Header, OptionList, Sparkline, Static
from textual.widgets.option_list import Option

from study.tui.widgets.bars import BarChart
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.heatmap import Heatmap


TALL = 34  # rows from which Home shows its extra panels (app.tcss: HomeScreen.-tall)
FOOTER_ROOM_FOR_PROBLEMS = 90  # columns the home footer needs to list "! Problems" beside the other keys
FOOTER_ROOM_FOR_LABS = 100  # and "o Labs" too (11 more when "! Problems" is listed as well)

# The type checker is told this screen's app is StudyApp (with its services and start-up hooks); at run time
# getters.app would check isinstance on every read, so it is declared for the checker only.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp


class HomeScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "NCA-AIIO"
    BINDINGS = [
        Binding("r", "app.open('review')", "Review"),
        Binding("p", "app.open('practice')", "Practice"),
        Binding("e", "app.open('exam')", "Exam"),
        Binding("c", "app.open('calc')", "Calc"),
        Binding("t", "app.open('topics')", "Topics"),
        # In the footer where it fits beside the others (80 columns are full); Help, the palette and the first
        # steps list it everywhere.
        Binding("o", "labs", "Labs"),
        Binding("o", "labs_narrow", "Labs", show=False),
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
        # The page scrolls whatever has focus (the Study next list would take them for its few rows).
        Binding("pagedown", "scroll_page(1)", "Scroll down", show=False, priority=True),
        Binding("pageup", "scroll_page(-1)", "Scroll up", show=False, priority=True),
        Binding("end", "scroll_end", "Bottom", show=False, priority=True),
        Binding("home", "scroll_top", "Top", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="home-body", can_focus=False):
            yield Static("", id="home-paused")
            with Horizontal(id="home-top"):
                with Vertical(id="home-exam", classes="panel"):
                    yield Static("Loading the question bank…", id="home-countdown")
                    yield BarChart(id="home-readiness")
                # The panel is the text itself: one widget fewer to style, lay out and paint than a box around it.
                yield Static("", id="home-due", classes="panel")
            # A newcomer's first steps, above the fold on a short terminal (a tall one has them in Last exams).
            yield Static("", id="home-first", classes="panel")
            yield OptionList(id="home-next", classes="panel")
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
        self.query_one("#home-due").border_title = "Today"
        self.query_one("#home-next").border_title = "Study next"
        self.query_one("#home-first").border_title = "Start here"
        self.query_one("#home-heatmap").border_title = "Activity"
        self.query_one("#home-forecast-box").border_title = "Reviews due, next 30 days"
        self.query_one("#home-exams").border_title = "Last exams"
        # Known before the first layout, not only from the first resize: a tall screen was laid out and painted
        # once without its extra panels, then again with them.
        self._set_tall(self.app.size.height)
        self.watch(self.app, "ready", self._on_ready, init=True)
        self.watch(self.app, "bank_version", self._on_reload, init=False)
        if getattr(self.app, "use_snapshot", False) and not self.app.ready:
            from study.tui import snapshot

            data = snapshot.load(self.app.services)
            if data is not None:
                self._show(data, from_snapshot=True)

    def _show_next(self, data: dict[str, Any]) -> None:
        from study.tui.summary import next_table

        listing = self.query_one("#home-next", OptionList)
        highlighted = listing.highlighted
        listing.clear_options()
        rows = data.get("next_rows") or []
        if rows:
            listing.add_options(Option(next_table([row]), id=row[0]) for row in rows)
            listing.border_subtitle = "enter: practise it"
            listing.highlighted = min(highlighted or 0, len(rows) - 1)
        else:
            listing.add_option(Option(data.get("next") or "", disabled=True))
            listing.border_subtitle = ""

    @on(OptionList.OptionSelected, "#home-next")
    def _study_next(self, event: OptionList.OptionSelected) -> None:
        # A row of Study next is an objective: practise it now, as "p" then picking it would.
        if event.option.id:
            from study.tui.flows import start_practice

            start_practice(self.app, objective=event.option.id)

    def _body(self) -> VerticalScroll:
        return self.query_one("#home-body", VerticalScroll)

    def action_scroll_page(self, direction: int) -> None:
        body = self._body()
        (body.scroll_page_down if direction > 0 else body.scroll_page_up)(animate=False)

    def action_scroll_end(self) -> None:
        self._body().scroll_end(animate=False)

    def action_scroll_top(self) -> None:
        self._body().scroll_home(animate=False)

    # What summary.home found of a paused exam; its line counts down while Home is shown.
    _paused: dict[str, Any] | None = None
    _paused_timer: Any = None

    def _show_paused(self) -> None:
        line = self.query_one("#home-paused", Static)
        paused = self._paused
        line.display = paused is not None
        if paused is None:
            if self._paused_timer is not None:
                self._paused_timer.stop()
                self._paused_timer = None
            return
        from study.tui.format import clock as fmt_clock

        done = f"{paused['answered']}/{paused['count']} answered"
        if paused["partial"]:
            done += f", {paused['partial']} partly"
        deadline = paused["deadline"]
        left = deadline - self.app.services.now() if deadline is not None else None
        if left is not None and left.total_seconds() <= 0:
            line.update(f"⏸ {paused['title']} paused ({done}): its time ran out. Press [b]e[/] to see the results.")
        else:
            # One line at 80 columns: "⏸ Exam paused: 20/50 answered, 50:41 left, its clock running: e resumes."
            when = f", [b]{fmt_clock(left)}[/] left, its clock running" if left is not None else ""
            line.update(f"⏸ {paused['title']} paused: {done}{when}: [b]e[/] resumes.")
        if self._paused_timer is None:
            self._paused_timer = self.set_interval(1.0, self._show_paused, name="home-paused")

    def on_resize(self, event: events.Resize) -> None:
        self._set_tall(event.size.height)
        self.refresh_bindings()

    def _set_tall(self, height: int) -> None:
        # Extra panels only where they fit without pushing the essentials off an 80x24 screen.
        self.set_class(height >= TALL, "-tall")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # "!" only earns its place in the footer when there is something to see.
        if action == "problems":
            return self._has_problems() and self.size.width >= FOOTER_ROOM_FOR_PROBLEMS
        if action == "problems_narrow":
            return self._has_problems()
        if action == "quit":
            return self.size.width >= FOOTER_ROOM_FOR_PROBLEMS
        if action == "labs":
            return self.size.width >= FOOTER_ROOM_FOR_LABS + (11 if self._has_problems() else 0)
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

    def action_labs(self) -> None:
        self.app.action_open("lab")

    action_labs_narrow = action_labs

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
        # One layout and paint for the dozen updates below, not one each: at start-up they came before the
        # first paint, which took five layouts of the whole screen.
        with self.app.batch_update():
            self._fill(data)
        if from_snapshot:
            self.app.snapshot_shown()
        else:
            self.app.home_shown()

    def _fill(self, data: dict[str, Any]) -> None:
        self.query_one("#home-countdown", Static).update(data["countdown"])
        self.query_one("#home-readiness", BarChart).set_rows(data["readiness_rows"])
        self.query_one("#home-due", Static).update(data["today"])
        self._show_next(data)
        plan = data.get("plan")
        self.query_one("#home-next").border_title = f"Study next · {plan}" if plan else "Study next"
        first = self.query_one("#home-first", Static)
        first.set_class(bool(data.get("first_steps")), "-shown")
        first.update(data.get("first_steps") or "")
        heat = self.query_one("#home-heatmap", Heatmap)
        heat.set_counts(data["heatmap"], data["today_date"])
        forecast = data["forecast"] or [0]
        self.query_one("#home-forecast", Sparkline).data = forecast
        self.query_one("#home-forecast-label", Static).update(
            f"today {forecast[0]} · this week {sum(forecast[:7])} · peak {max(forecast)}" if any(forecast)
            else "Nothing due yet: what you answer or rate comes back here."
        )
        self.query_one("#home-exams", Static).update(data["exams"])
        self._paused = data.get("paused")
        self._show_paused()
        problems = self.query_one("#home-problems", Static)
        problems.update(data["problems"])
        problems.display = bool(data["problems"])
        self.refresh_bindings()
