"""Results: score, per-domain bars against the blueprint, time per question, what was missed and why,
and how this exam compares with earlier ones. Everything shown comes from the quiz ``Report``."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from study.tui.format import clock as fmt_clock
from study.tui.widgets.bars import BarChart, BarRow
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.markdown import ReaderMarkdown

UNOFFICIAL = "NVIDIA does not publish the passing score; the target is ours."


class ResultsScreen(Screen):
    SUB_TITLE = "Results"
    BINDINGS = [
        Binding("escape,q", "close", "Done"),
        # Not m and t: those are Mark read (Topics) and Topics (Home); a key means one thing app-wide.
        Binding("w", "jump('results-missed')", "Wrong"),
        Binding("i", "jump('results-times')", "Timing"),
    ]

    def __init__(self, report: Any) -> None:
        super().__init__()
        self.report = report

    def compose(self) -> ComposeResult:
        r = self.report
        yield Header()
        with VerticalScroll(id="results-body"):
            yield Static(self._headline(), id="results-score", classes="panel")
            yield BarChart(self._domain_rows(), id="results-domains", classes="panel")
            yield Static(self._history_text(), id="results-history", classes="panel")
            yield ReaderMarkdown(self._missed_markdown(), id="results-missed")
            table: DataTable = DataTable(id="results-times", zebra_stripes=True, cursor_type="row")
            yield table
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#results-domains").border_title = "By domain (│ = target)"
        self.query_one("#results-history").border_title = "Earlier exams"
        self.query_one("#results-score").border_title = "Exam" if self.report.mode == "exam" else "Practice"
        table = self.query_one("#results-times", DataTable)
        table.add_columns("#", "objective", "result", "time", "flag")
        for q in self.report.questions:
            result = "right" if q.correct else ("—" if not q.answered else "wrong")
            table.add_row(str(q.position), q.objective, result, fmt_clock(q.seconds), "⚑" if q.flagged else "")
        self.query_one("#results-history").display = self.report.mode == "exam"

    def _headline(self) -> str:
        r = self.report
        verdict = "[b green]at or above target[/]" if r.passed else "[b red]below target[/]"
        timed = "  · time ran out" if r.timed_out else ""
        per_q = r.seconds / r.total if r.total else 0
        return (
            f"Score [b]{r.score:.1f}%[/] ({r.correct}/{r.total}) · target {r.target_percent}%: {verdict}{timed}\n"
            f"Time {fmt_clock(r.seconds)} · {per_q:.0f} s per question (exam pace 72 s)\n"
            f"[dim]{UNOFFICIAL}[/]"
        )

    def _domain_rows(self) -> list[BarRow]:
        r = self.report
        target = r.target_percent / 100
        rows = []
        for did, tally in sorted(r.by_domain.items()):
            name = tally.name or did
            frac = tally.correct / tally.total if tally.total else 0.0
            rows.append(BarRow(f"{did} {name} ({tally.total} q)", frac, f"{tally.correct}/{tally.total}", marker=target))
        return rows

    def _history_text(self) -> str:
        try:
            store = self.app.services.store
        except Exception:
            return ""
        if store is None or self.report.mode != "exam":
            return ""
        try:
            earlier = [s for s in store.exam_history() if s.id != self.report.session_id]
        except Exception as exc:
            return f"could not read earlier exams: {exc}"
        if not earlier:
            return "This is your first exam."
        lines = []
        for s in earlier[-5:]:
            rep = s.report or {}
            when = s.finished_at.strftime("%Y-%m-%d") if s.finished_at else "?"
            score = rep.get("score")
            delta = ""
            if isinstance(score, (int, float)):
                diff = self.report.score - score
                delta = f"  ({'+' if diff >= 0 else ''}{diff:.1f} now)"
                lines.append(f"{when}  {score:.1f}%{delta}")
        return "\n".join(lines) or "No comparable earlier exams."

    def _missed_markdown(self) -> str:
        r = self.report
        missed = [q for q in r.questions if not q.correct]
        if not missed:
            return "## Nothing missed\n\nEvery question right."
        out = [f"## Missed and unanswered ({len(r.incorrect)} wrong, {len(r.unanswered)} unanswered)"]
        for q in missed:
            status = "unanswered" if not q.answered else f"you answered {q.given_display or q.given}"
            out.append(f"\n### {q.position}. {q.objective} · {status}\n")
            out.append(q.stem)
            out.append(f"\n**Answer:** {q.expected_display}\n")
            if q.matched_distractor_why:
                out.append(f"*The mistake behind your pick:* {q.matched_distractor_why}\n")
            if q.derivation:
                out.append("**Derivation**\n")
                out.extend(f"{i}. `{step}`" for i, step in enumerate(q.derivation, start=1))
                out.append("")
            if q.explanation:
                out.append(f"**Why:** {q.explanation}")
            if q.references:
                out.append("")
                out.extend(f"- [{t}]({u})" for t, u in q.references)
        return "\n".join(out)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The section keys only earn a place in the footer when the page scrolls.
        if action == "jump":
            return self.query_one("#results-body").max_scroll_y > 0
        return True

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_bindings)

    def action_jump(self, widget_id: str) -> None:
        self.query_one(f"#{widget_id}").scroll_visible(top=True, animate=False)

    def action_close(self) -> None:
        self.app.pop_screen()
