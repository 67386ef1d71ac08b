"""Progress: mastery per domain and objective, exam scores over time, and the forecast of due reviews.
Figures come from ``study.progress.stats.compute_stats``."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Sparkline, Static

from study.tui.format import percent
from study.tui.widgets.bars import BarChart, BarRow
from study.tui.widgets.footer import StudyFooter


class ProgressScreen(Screen):
    SUB_TITLE = "Progress"
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back"), Binding("p", "practice_weak", "Practice")]

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
        self.query_one("#progress-domains").border_title = "Mastery by domain (recall now; │ = target)"
        self.query_one("#progress-exams").border_title = "Exam scores over time"
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
        self.query_one("#progress-domains", BarChart).set_rows(
            [
                BarRow(
                    f"{g.id} {g.title}",
                    g.mastery or 0.0,
                    f"{percent(g.mastery)} · acc {percent(g.accuracy)} · seen {g.seen}/{g.total}",
                    marker=target,
                )
                for g in stats.domains
            ]
        )
        table = self.query_one("#progress-objectives", DataTable)
        table.clear(columns=True)
        title_w = self._title_width()
        table.add_column("obj")
        longest = max((len(g.title) for g in stats.objectives), default=5)
        table.add_column("title", width=min(title_w, longest))
        table.add_columns("mastery", "accuracy", "answers", "seen")
        for g in stats.objectives:
            title = g.title if len(g.title) <= title_w else g.title[: title_w - 1] + "…"
            table.add_row(
                g.id, title, percent(g.mastery), percent(g.accuracy), str(g.attempts), f"{g.seen}/{g.total}",
                key=g.id,
            )
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
        return True

    def _title_width(self) -> int:
        # The other columns take about 46 cells (ids, percentages, counts, cell padding, the scrollbar).
        return max(24, (self.size.width or 80) - 46)

    def on_resize(self) -> None:
        if self.stats is not None:
            self._fill(True)

    def action_practice_weak(self) -> None:
        from study.tui.screens.practice import start_practice

        start_practice(self.app, pick="weak")
