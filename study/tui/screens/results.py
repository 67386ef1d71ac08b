"""Results: score, per-domain bars against the blueprint, per objective, the trend against earlier exams,
and every question with its outcome and time. One key each opens the full review of the answers, retakes the
missed questions or practises the weakest objective. Everything shown comes from the quiz ``Report``.

The screen paints from the report alone; the earlier exams are read from the store after the first paint, and
the per-question review is a screen of its own, drawn one question at a time (a Markdown document of every
missed question took over a second to mount after the confirming key)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from study.tui.screens.base import StudyScreen
from study.tui.format import clock as fmt_clock
from study.tui.screens.answer_review import AnswerReviewScreen, outcome
from study.tui.screens.report_problem import REPORT_KEY, report_problem
from study.tui.widgets.bars import BarChart, BarRow, bar
from study.tui.widgets.footer import StudyFooter

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

UNOFFICIAL = "NVIDIA does not publish the passing score; the target is ours."
SPARKS = "▁▂▃▄▅▆▇█"
TREND_EXAMS = 8  # the latest exams the trend shows, this one included
PRACTICE_COUNT = 10


def spark(values: Sequence[float | None]) -> str:
    """Percentages (0-100) as one block character each on a fixed 0-100 scale; a gap where a value is None."""
    out = []
    for v in values:
        if v is None:
            out.append(" ")
        else:
            out.append(SPARKS[min(len(SPARKS) - 1, max(0, int(round(v / 100 * (len(SPARKS) - 1)))))])
    return "".join(out)


def domain_trend(reports: Sequence[dict[str, Any]]) -> dict[str, list[float | None]]:
    """Per domain (and ``"all"`` for the score), its percent in each report, oldest first; None where an
    exam had no question of that domain."""
    domains = sorted({d for r in reports for d in (r.get("by_domain") or {})}, key=lambda d: (len(d), d))
    trend: dict[str, list[float | None]] = {"all": [_number(r.get("score")) for r in reports]}
    for d in domains:
        trend[d] = [_number(((r.get("by_domain") or {}).get(d) or {}).get("percent")) for r in reports]
    return trend


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def weakest_objective(report: Any) -> str | None:
    """The objective with the lowest share right in this report (more questions first on a tie); None when
    every objective was all right."""
    tallies = [(t.correct / t.total, -t.total, oid) for oid, t in report.by_objective.items() if t.total]
    worst = min(tallies) if tallies else None
    return worst[2] if worst is not None and worst[0] < 1 else None


class ResultsScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Results"
    BINDINGS = [
        Binding("escape,q", "close", "Done"),
        # Each of these keys means the same on every footer: p is Practice everywhere, and m, t, v and x are
        # taken (Mark read, Topics, the calculator's plot, Clear).
        Binding("a", "review", "Answers"),
        Binding("w", "retake", "Retake wrong"),
        Binding("p", "practice_weak", "Practice"),
        Binding(REPORT_KEY, "report", "Report"),
        Binding("i", "jump('results-times')", "Timing", show=False),
    ]

    def __init__(self, report: Any, *, past: Any = None, of: int = 0) -> None:
        """``past`` (a ``study.quiz.past.PastExam``) reopens an exam taken earlier, one of ``of``."""
        super().__init__()
        self.report = report
        self.past = past
        self.of = of

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="results-body"):
            yield Static(self._headline(), id="results-score", classes="panel")
            yield BarChart(self._domain_rows(), id="results-domains", classes="panel")
            yield Static("", id="results-objectives", classes="panel")
            yield Static("", id="results-history", classes="panel")
            yield DataTable(id="results-times", zebra_stripes=True, cursor_type="row")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#results-domains").border_title = "By domain (│ = target)"
        self.query_one("#results-objectives").border_title = "By objective"
        self.query_one("#results-history").border_title = "Trend: score per domain, oldest → this exam"
        title = self.title_of_mode
        if self.past is not None:
            from study.tui.screens.past_exams import local_minute

            title = f"Exam {self.past.number} of {self.of} · {local_minute(self.past.finished_at)}"
            if self.past.regraded:
                title += " · regraded"
        if self.past is None and self.report.mode == "practice" and self.report.skipped:
            title = f"Practice · left after {len(self.report.questions) - self.report.skipped} of " \
                    f"{len(self.report.questions)}"
        self.query_one("#results-score").border_title = title
        self.query_one("#results-times").border_title = "Questions (enter: review one)"
        self.query_one("#results-history").display = self.report.mode == "exam"
        self.call_after_refresh(self._fill)

    def _fill(self) -> None:
        """What the first paint can do without: the objective rows, the question table, the earlier exams."""
        self.query_one("#results-objectives", Static).update(self._objectives_table())
        table = self.query_one("#results-times", DataTable)
        table.add_columns("#", "result", "objective", "time", "flag")
        for q in self.report.questions:
            table.add_row(str(q.position), outcome(q), q.objective, fmt_clock(q.seconds), "⚑" if q.flagged else "",
                          key=str(q.position))
        if self.report.mode == "exam":
            self.query_one("#results-history", Static).update(self._history_text())
        elif self.report.mode == "practice" and self.past is None:
            # Practice records each answer as it is given, so the schedule already holds them (an exam's and a
            # timed quiz's are still being written by the submit's worker).
            due = self._due_next_text()
            if due:
                score = self.query_one("#results-score", Static)
                score.update(self._headline() + "\n" + due)

    @property
    def title_of_mode(self) -> str:
        return {"exam": "Exam", "quiz": "Timed quiz"}.get(self.report.mode, "Practice")

    def _headline(self) -> str:
        r = self.report
        verdict = "[b green]at or above target[/]" if r.passed else "[b red]below target[/]"
        noun = "exam" if r.mode == "exam" else "quiz"
        timed = f"  · time ran out: the {noun} was submitted" if r.timed_out else ""
        per_q = r.seconds / r.total if r.total else 0
        wrong, unanswered = len(r.incorrect), len(r.unanswered)
        missed = f"{wrong} wrong, {unanswered} unanswered" if unanswered else f"{wrong} wrong"
        if r.mode == "practice" and r.skipped:
            # A set left early (escape) or questions passed over: not graded, so not "unanswered" as an
            # exam's blanks are, which count wrong.
            missed = f"{wrong} wrong; {r.skipped} of {len(r.questions)} not reached, not graded"
        return (
            f"Score [b]{r.score:.1f}%[/] ({r.correct}/{r.total}; {missed}) · target {r.target_percent}%: "
            f"{verdict}{timed}\n"
            f"Time {fmt_clock(r.seconds)} · {per_q:.0f} s per question (exam pace 72 s)\n"
            f"[dim]{UNOFFICIAL}[/]\n"
            + self._keys_line()
        )

    def _keys_line(self) -> str:
        """The keys that act on this report: retake and practice only when something was missed."""
        keys = ["[b]a[/] review answers"]
        if bool(self._missed()):
            keys.append("[b]w[/] retake wrong")
        if weakest_objective(self.report) is not None:
            keys.append("[b]p[/] practise the weakest objective")
        return " · ".join(keys)

    def _missed(self) -> list[str]:
        """The ids to retake: the wrong answers, and an exam's blanks (graded wrong); a practice set's
        questions not reached were never graded, so they are not "wrong"."""
        blanks_count = self.report.mode != "practice"
        return [q.id for q in self.report.questions if not q.correct and (q.answered or blanks_count)]

    def _due_next_text(self) -> str:
        """When this set's questions come back: "Due next: 1 missed in 10 min (09:10); 3 right, the first on Thu
        03 Dec", from the scheduler's own dates."""
        from study.tui.due import when_text

        services = self.app.services
        store = getattr(services, "store", None)
        if store is None:
            return ""
        now = services.now()
        soonest: dict[bool, Any] = {}
        counts: dict[bool, int] = {}
        try:
            for q in self.report.questions:
                if not q.answered:
                    continue
                state = store.item_state(q.id)
                due = getattr(state, "due", None)
                if due is None:
                    continue
                counts[q.correct] = counts.get(q.correct, 0) + 1
                if q.correct not in soonest or due < soonest[q.correct]:
                    soonest[q.correct] = due
        except Exception:  # a hint only: never in the way of the results
            return ""
        parts = []
        for right, word in ((False, "missed"), (True, "right")):
            if right in soonest:
                n = counts[right]
                when = "now" if soonest[right] <= now else when_text(soonest[right], now)
                parts.append(f"{n} {word} {when}" if n == 1 else f"{n} {word}, the first {when}")
        return "Due next: " + "; ".join(parts) if parts else ""

    def _domain_rows(self) -> list[BarRow]:
        r = self.report
        target = r.target_percent / 100
        rows = []
        for did, tally in sorted(r.by_domain.items()):
            name = tally.name or did
            frac = tally.correct / tally.total if tally.total else 0.0
            rows.append(BarRow(f"{did} {name} ({tally.total} q)", frac, f"{tally.correct}/{tally.total}", marker=target))
        return rows

    def _objectives_table(self) -> Table:
        """One row per objective; a long title wraps in its own column rather than being cut."""
        r = self.report
        weakest = weakest_objective(r)
        target = r.target_percent / 100
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column(no_wrap=True, justify="right")
        table.add_column(ratio=1)
        for oid, t in r.by_objective.items():
            frac = t.correct / t.total if t.total else 0.0
            name = Text(t.name or "")
            if oid == weakest:
                name.append("  ← weakest: p practises it")
                name.stylize("b")
            table.add_row(Text(oid, style="b" if oid == weakest else ""), bar(frac, 10, marker=target),
                          f"{t.correct}/{t.total}", name)
        return table

    def _history_text(self) -> str:
        store = getattr(self.app.services, "store", None)
        if store is None:
            return ""
        try:
            history = store.exam_history()
        except Exception as exc:  # a damaged row must not hide this exam's results
            return f"could not read earlier exams: {exc}"
        ids = [s.id for s in history]
        # A past exam reopened: its trend ends with it, as it did the day it was taken.
        upto = ids.index(self.report.session_id) if self.report.session_id in ids else len(history)
        earlier = [s.report for s in history[:upto] if s.id != self.report.session_id]
        reports = [rep for rep in earlier if isinstance(rep, dict)][-(TREND_EXAMS - 1):]
        if not reports:
            if self.past is not None:
                return "This was your first exam: the trend starts with it."
            return "This is your first exam: the trend starts with the next one."
        reports.append(self.report.to_dict())
        trend = domain_trend(reports)
        names = {did: t.name for did, t in self.report.by_domain.items()}
        lines = []
        for key, values in trend.items():
            label = "Score" if key == "all" else f"{key} {names.get(key, '')}"
            label = label if len(label) <= 30 else label[:29] + "…"
            known = [v for v in values if v is not None]
            change = ""
            if len(known) >= 2:
                diff = known[-1] - known[-2]
                change = f"  {known[-2]:.0f}% → {known[-1]:.0f}% ({'+' if diff >= 0 else ''}{diff:.0f})"
            elif known:
                change = f"  {known[-1]:.0f}%"
            lines.append(f"{label:<30} {spark(values):<{TREND_EXAMS}}{change}")
        return "\n".join(lines) + f"\n[dim]{len(reports)} exams; each block is one exam, higher is better.[/]"

    # -- actions ----------------------------------------------------------------------------------------

    def action_review(self, position: int | None = None) -> None:
        r = self.report
        show = "wrong" if r.incorrect else ("unanswered" if r.unanswered else "all")
        self.app.push_screen(AnswerReviewScreen(r, show="all" if position else show, position=position))

    @on(DataTable.RowSelected, "#results-times")
    def _row(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:  # every row is added with its position as key
            self.action_review(int(event.row_key.value))

    def action_retake(self) -> None:
        from study.quiz import SelectionError
        from study.quiz.retake import build_retake

        missed = self._missed()
        if not missed:
            self.notify("Nothing was missed: every question right.")
            return
        services = self.app.services
        if services.bank is None:
            self.notify("The question bank is still loading.", severity="warning")
            return
        try:
            session = build_retake(services.bank, missed, services.next_seed(), store=services.store,
                                   clock=services.clock)
        except SelectionError as exc:
            self.notify(f"No retake: {exc}.", severity="warning")
            return
        self.app.show("practice-session", session)

    def action_practice_weak(self) -> None:
        from study.tui.flows import start_practice

        weakest = weakest_objective(self.report)
        if weakest is None:
            self.notify("Every objective right: nothing weak to practise here.")
            return
        start_practice(self.app, objective=weakest, count=PRACTICE_COUNT)

    def action_report(self) -> None:
        table = self.query_one("#results-times", DataTable)
        questions = self.report.questions
        if not questions:
            return
        row = table.cursor_row if 0 <= table.cursor_row < len(questions) else 0
        q = questions[row]
        report_problem(self, q.id, context="results", session_id=self.report.session_id, position=q.position)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The section keys only earn a place in the footer when the page scrolls.
        if action == "jump":
            return self.query_one("#results-body").max_scroll_y > 0
        # A perfect score has nothing to retake, and an all-right set no weak objective (issue 37 §8): the
        # footer offers neither rather than a key that answers "nothing to do".
        if action == "retake":
            return bool(self._missed())
        if action == "practice_weak":
            return weakest_objective(self.report) is not None
        return True

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)

    def action_jump(self, widget_id: str) -> None:
        widget = self.query_one(f"#{widget_id}")
        widget.scroll_visible(top=True, animate=False)
        widget.focus()

    def action_close(self) -> None:
        self.app.pop_screen()
