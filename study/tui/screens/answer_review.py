"""After an exam or quiz: every question again, one at a time, filtered to all, wrong, unanswered, flagged or
right. Each shows the stem, the learner's answer in full, the right answer, why each choice is right or
wrong, the derivation, the explanation, the references and the time spent. Everything comes from the quiz
``Report``; nothing is graded here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from study.tui.screens.base import StudyScreen
from study.tui.format import clock as fmt_clock
from study.tui.hold import HoldKeys, hold_bindings
from study.tui.screens.report_problem import REPORT_KEY, report_problem
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.markdown import ReaderMarkdown

# For the type checker only (getters.app would check isinstance on every read at run time).
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

FILTERS: dict[str, Callable[[Any], bool]] = {
    "all": lambda q: True,
    "wrong": lambda q: q.answered and not q.correct,
    "unanswered": lambda q: not q.answered,
    "flagged": lambda q: q.flagged,
    "right": lambda q: q.correct,
}


def outcome(q: Any) -> str:
    return "right" if q.correct else ("unanswered" if not q.answered else "wrong")


def review_markdown(q: Any, objective_title: str = "", *, blank_is_wrong: bool = True) -> str:
    """One question after grading, as Markdown: nothing cut, every pick named with its text. A blank counts
    as wrong in an exam or timed quiz; practice leaves it ungraded (``blank_is_wrong=False``)."""
    blank = "✘ not answered (counts as wrong)" if blank_is_wrong else "– skipped (not graded)"
    verdict = {"right": "✔ right", "wrong": "✘ wrong", "unanswered": blank}[outcome(q)]
    flag = " · ⚑ flagged" if q.flagged else ""
    title = f" {objective_title}" if objective_title else ""
    lines = [f"**{verdict}** · objective {q.objective}{title} · time spent {fmt_clock(q.seconds)}{flag}", "", q.stem, ""]
    picks = [c for c in q.choices if c.picked]
    if not q.answered:
        lines.append("**Your answer:** none")
    elif picks:
        lines.append("**Your answer:**")
        lines.extend(f"- {c.label}) {c.text}" for c in picks)
    else:
        lines.append(f"**Your answer:** `{q.given_display or q.given}`")
    right = [c for c in q.choices if c.correct]
    if right:
        lines.append("\n**Right answer:**")
        lines.extend(f"- {c.label}) {c.text}" for c in right)
    else:
        lines.append(f"\n**Right answer:** `{q.expected_display}`")
    if q.message and not q.choices:
        lines.append(f"\n{q.message}")
    if q.choices:
        lines.append("\n**Each choice**\n")
        for c in q.choices:
            mark = "✔" if c.correct else "✘"
            you = " *(your pick)*" if c.picked else ""
            why = f": {c.why}" if c.why else ""
            lines.append(f"- {mark} **{c.label})** {c.text}{you}{why}")
    if q.matched_distractor_why and not q.choices:
        lines.append(f"\n*The mistake behind your answer:* {q.matched_distractor_why}")
    if q.derivation:
        lines.append("\n**Derivation**\n")
        lines.extend(f"{i}. `{step}`" for i, step in enumerate(q.derivation, start=1))
    if q.explanation:
        lines.append("\n**Why**\n")
        lines.append(q.explanation)
    if q.references:
        lines.append("\n**References**\n")
        lines.extend(f"- [{t}]({u})" for t, u in q.references)
    return "\n".join(lines)


class AnswerReviewScreen(HoldKeys, StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Review answers"
    BINDINGS = [
        Binding("n,right", "move(1)", "Next"),
        # As in the exam: p still works, but the footer shows [ because p is Practice on every other footer,
        # and f (Flag in the exam) cycles the filters unlisted, since the filter bar shows 1-5.
        Binding("left_square_bracket,p,left", "move(-1)", "Prev", key_display="["),
        Binding("f", "cycle_filter", "Filter", show=False),
        *[Binding(str(n), f"filter('{name}')", name.capitalize(), show=False)
          for n, name in enumerate(FILTERS, start=1)],
        Binding(REPORT_KEY, "report", "Report"),
        Binding("escape,q", "app.pop_screen", "Back"),
        *hold_bindings(),
    ]

    def __init__(self, report: Any, *, show: str = "all", position: int | None = None) -> None:
        """``position`` is a question's 1-based number; the filter falls back to "all" if it hides it."""
        super().__init__()
        self.report = report
        self.undo_stack: list[tuple[str, Any]] = []
        self.filter = show if show in FILTERS else "all"
        self.index = 0  # within the filtered list
        if position is not None:
            if position not in [q.position for q in self.shown]:
                self.filter = "all"
            self.index = next((i for i, q in enumerate(self.shown) if q.position == position), 0)

    @property
    def shown(self) -> list[Any]:
        keep = FILTERS[self.filter]
        return [q for q in self.report.questions if keep(q)]

    @property
    def current(self) -> Any | None:
        shown = self.shown
        return shown[self.index] if shown else None

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="ar-filters")
        yield Static("", id="ar-position")
        with VerticalScroll(id="ar-body"):
            yield ReaderMarkdown("", id="ar-question")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.show_current()
        self.query_one("#ar-body").focus()

    def filters_line(self) -> str:
        bits = []
        for n, (name, keep) in enumerate(FILTERS.items(), start=1):
            label = f"{n} {name} {sum(1 for q in self.report.questions if keep(q))}"
            bits.append(f"[reverse b] {label} [/]" if name == self.filter else f" {label} ")
        return "Show:" + "·".join(bits)

    def show_current(self) -> None:
        self.query_one("#ar-filters", Static).update(self.filters_line())
        q = self.current
        shown = self.shown
        self.refresh_bindings()
        if q is None:
            self.query_one("#ar-position", Static).update(f"No {self.filter} questions.")
            self.query_one("#ar-question", ReaderMarkdown).update("Press [1] for all questions.")
            return
        where = f" · {self.index + 1} of {len(shown)} {self.filter}" if self.filter != "all" else ""
        # The id is what a problem report, `study suspend` or `study preview` takes (issue 37 §3).
        self.query_one("#ar-position", Static).update(Text.assemble(
            ("Question ", "b"), (str(q.position), "b"), f" of {self.report.total}{where} · {outcome(q)} · ",
            (q.id, "dim"), self._held_word(q.id)))
        titles = self.report.by_objective
        title = titles[q.objective].name if q.objective in titles else ""
        markdown = review_markdown(q, title, blank_is_wrong=self.report.mode != "practice")
        self.query_one("#ar-question", ReaderMarkdown).update(markdown)
        self.query_one("#ar-body", VerticalScroll).scroll_home(animate=False)

    def hold_target(self) -> tuple[str, str] | None:
        q = self.current
        bank = getattr(self.app.services, "bank", None)
        # A question no longer in the bank (an exam reopened long after) has nothing to suspend.
        if q is None or bank is None or not bank.has_item(q.id):
            return None
        return q.id, "question"

    def _held_word(self, item_id: str) -> str:
        if getattr(self.app.services, "store", None) is None:
            return ""
        suspended, buried = self._held(item_id)
        return " · suspended" if suspended else (" · buried until tomorrow" if buried else "")

    def after_hold(self, item_id: str, what: str) -> None:
        self.show_current()

    def after_undo_hold(self, state: Any, context: Any) -> None:
        self.show_current()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        held = self.hold_check(action, parameters)
        if held is not None:
            return held
        # A filter that shows no question leaves next, previous and report nothing to act on: the footer
        # offers only what acts (the filter keys are listed on the line above).
        if action in ("move", "report"):
            return self.current is not None
        return True

    def action_move(self, step: int) -> None:
        n = len(self.shown)
        if not n:
            return
        self.index = (self.index + step) % n
        self.show_current()

    def action_filter(self, name: str) -> None:
        keep_position = self.current.position if self.current is not None else None
        self.filter = name
        shown = self.shown
        # Stay on the same question when the new filter keeps it; otherwise start at its first.
        self.index = next((i for i, q in enumerate(shown) if q.position == keep_position), 0)
        self.show_current()

    def action_cycle_filter(self) -> None:
        names = list(FILTERS)
        self.action_filter(names[(names.index(self.filter) + 1) % len(names)])

    def action_report(self) -> None:
        q = self.current
        if q is not None:
            report_problem(self, q.id, context="review", session_id=self.report.session_id, position=q.position)
