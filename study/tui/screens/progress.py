"""Progress: mastery per domain and objective, exam scores over time, and the forecast of due reviews.
Figures come from ``study.progress.stats.compute_stats``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Sparkline, Static

from study.tui.screens.base import StudyScreen
from study.tui.format import percent
from study.tui.widgets.bars import BarChart, BarRow
from study.tui.widgets.footer import StudyFooter

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp


class ProgressScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Progress"
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back"), Binding("p", "practice_weak", "Practice"),
                # h for history: e is Exam (a new one) on Home, and a past one is reopened here.
                Binding("h", "past_exams", "Past exams")]

    def __init__(self) -> None:
        super().__init__()
        self.stats: Any = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="progress-body"):
            yield Static("", id="progress-summary", classes="panel")
            yield BarChart(id="progress-domains", classes="panel")
            yield DataTable(id="progress-objectives", zebra_stripes=True, cursor_type="row")
            yield Static("", id="progress-forecast-label")
            yield Sparkline([], id="progress-forecast")
            yield BarChart(id="progress-accuracy", classes="panel")
            yield BarChart(id="progress-exams", classes="panel")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#progress-summary").border_title = "Progress"
        self.query_one("#progress-domains").border_title = "Known by domain (recall x share seen; │ = target)"
        self.query_one("#progress-exams").border_title = "Exam scores over time (h: reopen one)"
        self.query_one("#progress-accuracy").border_title = "Accuracy per week (answers in practice, review and exams)"
        self.watch(self.app, "ready", self._fill, init=True)

    def _fill(self, ready: bool) -> None:
        services = self.app.services
        if not ready or services.store is None or services.bank is None:
            return
        from study.progress.stats import compute_stats

        stats = compute_stats(services.store, services.bank, services.now())
        self.stats = stats
        self.refresh_bindings()
        bank = services.bank
        target = bank.blueprint.exam.target_percent / 100
        r = stats.readiness
        self.query_one("#progress-summary", Static).update(
            f"Answers {stats.attempts} · card reviews {stats.reviews} · streak {stats.streak} "
            f"(longest {stats.longest_streak}) · never seen {stats.new_items}\n"
            f"Readiness {percent(r.expected)} (likely {percent(r.low)}–{percent(r.high)}) "
            f"{'on ' + str(r.exam_date) if r.exam_date else 'if the exam were today'}"
        )
        # The bar is the share of the domain known now (recall over the items seen, times the share seen): 100%
        # recall on 12 of 140 items is a short bar, not a full one. The text gives both parts.
        self.query_one("#progress-domains", BarChart).set_rows(
            [
                BarRow(
                    f"{g.id} {g.title}",
                    (g.mastery or 0.0) * (g.seen / g.total if g.total else 0.0),
                    f"{g.seen}/{g.total} seen · {percent(g.mastery)} recall",
                    marker=target,
                )
                for g in stats.domains
            ]
        )
        table = self.query_one("#progress-objectives", DataTable)
        table.clear(columns=True)
        cells = [(g.id, percent(g.mastery), percent(g.accuracy), str(g.attempts), f"{g.seen}/{g.total}")
                 for g in stats.objectives]
        headers = ("obj", "recall", "accuracy", "answers", "seen")
        widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]
        title_w = self._title_width(sum(widths))
        longest = max((len(g.title) for g in stats.objectives), default=5)
        # Explicit widths: an auto width kept the header's, and cut "13/56" to "13/5".
        table.add_column("obj", width=widths[0])
        table.add_column("title", width=min(title_w, longest))
        for header, width in zip(headers[1:], widths[1:]):
            table.add_column(header, width=width)
        for g, row in zip(stats.objectives, cells):
            title = g.title if len(g.title) <= title_w else g.title[: title_w - 1] + "…"
            table.add_row(row[0], title, *row[1:], key=g.id)
        forecast = [n for _d, n in stats.forecast]
        self.query_one("#progress-forecast", Sparkline).data = forecast or [0]
        first_week = sum(forecast[:7])
        self.query_one("#progress-forecast-label", Static).update(
            f" Due reviews, next {len(forecast)} days: today {forecast[0] if forecast else 0}, "
            f"this week {first_week}, peak {max(forecast, default=0)}"
        )
        rows = []
        for e in stats.exam_history[-10:]:
            rep = e.get("report") or {}
            score = rep.get("score")
            if not isinstance(score, (int, float)):
                continue
            when = (e.get("finished_at") or "")[:10]
            rows.append(BarRow(when, score / 100, f"{score:.1f}% ({rep.get('correct')}/{rep.get('total')})",
                               marker=target))
        from study.progress.stats import weekly_accuracy

        now = services.now()
        weeks = weekly_accuracy(services.store, now.date(), tz=now.tzinfo)
        # From the first week with answers on: a new learner sees one line, not a column of empty weeks.
        weeks = list(weeks)
        first = next((i for i, (_m, n, _r) in enumerate(weeks) if n), len(weeks))
        acc_rows = [
            BarRow(f"week of {monday:%d %b}", right / n if n else 0.0,
                   f"{percent(right / n)} of {n}" if n else "no answers", marker=target)
            for monday, n, right in weeks[first:]
        ] or [BarRow("no answers yet", 0.0, "practise to see it")]
        self.query_one("#progress-accuracy", BarChart).set_rows(acc_rows)
        exams = self.query_one("#progress-exams", BarChart)
        exams.set_rows(rows or [BarRow("no exams yet", 0.0, "press e on home")])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "practice_weak":  # the weakest objectives are known once something was answered
            return self.stats is not None and self.stats.attempts > 0
        if action == "past_exams":
            return self.stats is not None and bool(self.stats.exam_history)
        return True

    def _title_width(self, others: int) -> int:
        """What the title column may take once the other columns (``others`` cells of text) have theirs:
        six columns' cell padding (2 each), the scrollbar (2) and the body's margins (2)."""
        return max(12, (self.size.width or 80) - others - 6 * 2 - 2 - 2)

    def on_resize(self) -> None:
        if self.stats is not None:
            self._fill(True)

    def action_past_exams(self) -> None:
        from study.tui.screens.past_exams import PastExamsScreen

        self.app.push_screen(PastExamsScreen())

    def action_practice_weak(self) -> None:
        from study.tui.flows import start_practice

        start_practice(self.app, pick="weak")
