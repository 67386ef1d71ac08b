"""What practice, exam and review screens share: showing the session's current question and passing the
learner's picks to the session. Grading, timing and recording all happen in ``study.quiz``."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Header, Input, Static

from study.tui.screens.base import StudyScreen
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.question import LABELS, Choices, QuestionView, no_pick_hint, no_such_choice

# For the type checker only (getters.app would check isinstance on every read at run time).
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

PICK_BINDINGS = [Binding(str(n), f"pick({n - 1})", f"Choice {LABELS[n - 1]}", show=False) for n in range(1, 10)] + [
    Binding(c, f"pick({i})", f"Choice {c.upper()}", show=False) for i, c in enumerate("abcde")
]

# Shift and the letter strikes a choice out (as exam software lets one eliminate choices); again, back in.
STRIKE_BINDINGS = [Binding(c.upper(), f"strike({i})", f"Strike out choice {c.upper()}", show=False)
                   for i, c in enumerate("abcde")]

# What every question screen offers: picks, strikes, and page up/down for a long stem or long feedback whatever has
# focus (no Tab first). Listed in each screen's own BINDINGS so Help shows them there.
QUESTION_BINDINGS = [
    *PICK_BINDINGS,
    *STRIKE_BINDINGS,
    Binding("pagedown", "page(1)", "Scroll down", show=False),
    Binding("pageup", "page(-1)", "Scroll up", show=False),
]


class QuizScreen(StudyScreen):
    """Base: a header line, the question view, a status line and the footer."""

    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    # Said after NO_PICK_HINT: what else the screen offers instead of an answer.
    skip_hint = ""
    # Whether the header names the question's objective (an exam hides it, as the real exam does).
    shows_objective = True

    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session
        # The status line answers a pick key (no such choice, nothing picked, too few picks): the next pick
        # makes it stale, so the pick puts the resting status back.
        self._pick_hint_shown = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(classes="quiz-header"):
            yield Static("", id="quiz-position")
            yield Static("", id="quiz-meta")
            yield Static("", id="exam-timer")
        yield QuestionView(id="quiz-view")
        yield Static("", id="quiz-status")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.show_current()
        # Import the results screen while the learner reads the first question, not after the confirming key.
        self.run_worker(partial(self.app.warm, "results"), thread=True, group="warm-up")

    # -- display ----------------------------------------------------------------------------------------

    @property
    def view(self) -> QuestionView:
        return self.query_one(QuestionView)

    def picked_indices(self) -> set[int]:
        given = self.session.answers[self.session.index]
        inst = self.session.current
        if not given or inst.is_numeric_typed:
            return set()
        if inst.type == "true_false":
            return {0} if given == "T" else {1}
        return {LABELS.index(c) for c in given.split(",") if c in LABELS}

    def show_current(self) -> None:
        inst = self.session.current
        typed = self.session.answers[self.session.index] or "" if inst.is_numeric_typed else ""
        self.view.show(inst, picked=self.picked_indices(), typed=typed, key=self.shown_key,
                       struck=set(self.session.struck[self.session.index]))
        self.set_status("")
        self.update_header()

    @property
    def shown_key(self) -> tuple[str, int]:
        return (self.session.id, self.session.index)

    def update_header(self) -> None:
        s = self.session
        inst = s.current
        kind = {"single": "one answer", "multi": f"choose {inst.choose}", "true_false": "true or false",
                "numeric": "type a number" if inst.is_numeric_typed else "one answer"}[inst.type]
        flag = "  ⚑ flagged" if s.flags[s.index] else ""
        self.query_one("#quiz-position", Static).update(f"[b]{s.index + 1}[/]/{s.count}{flag}")
        self.query_one("#quiz-meta", Static).update(f"{inst.objective} · {kind}" if self.shows_objective else kind)

    def set_status(self, text: str | Text) -> None:
        """``text`` as markup when a str (the screen's own words); what quotes a learner's typing comes as Text."""
        self._pick_hint_shown = False
        self.query_one("#quiz-status", Static).update(text)

    def resting_status(self) -> str:
        """The status line of the question before any key: the exam says so on its last question."""
        return ""

    def say_no_such_choice(self, index: int) -> None:
        self.say_pick_hint(no_such_choice(index, len(self.session.current.options)))

    def say_pick_hint(self, text: str) -> None:
        self.set_status(text)
        self._pick_hint_shown = True

    def picks_changed(self) -> None:
        if self._pick_hint_shown:  # what an earlier key said no longer applies
            self.set_status(self.resting_status())

    # -- input ------------------------------------------------------------------------------------------

    def action_pick(self, index: int) -> None:
        inst = self.session.current
        if inst.is_numeric_typed:
            return
        choices = self.view.choices
        if choices.locked:
            return
        if index >= len(inst.options):  # a key past the last choice: said, as a strike or a pick is
            self.say_no_such_choice(index)
            return
        self.picks_changed()
        # Applied here and now, not through a message: a quick "2 n" must answer this question, not the next.
        choices.toggle(index, notify=False)
        self.on_picks(tuple(sorted(choices.picked)), False)

    def action_page(self, direction: int) -> None:
        self.view.page(direction)

    def action_strike(self, index: int) -> None:
        inst = self.session.current
        choices = self.view.choices
        if inst.is_numeric_typed or choices.locked:
            return
        if index >= len(inst.options):
            self.say_no_such_choice(index)
            return
        was_picked = index in choices.picked
        now_struck = choices.strike(index)
        self.save_struck(choices.struck)
        if was_picked:  # the strike took the pick back: the answer changes with it
            self.on_picks(tuple(sorted(choices.picked)), False)
        self.set_status(f"Choice {LABELS[index]} struck out (shift+{LABELS[index]} again puts it back)."
                        if now_struck else f"Choice {LABELS[index]} is back.")

    def save_struck(self, struck: set[int]) -> None:
        """Keep the struck choices with the session (saved with it, so a resume brings them back). A failed save
        (a full disk) keeps them on screen only; the exam's own override sends time-up to its results."""
        from study.progress import StoreError
        from study.quiz import SessionError

        try:
            self.session.strike(struck)
        except (SessionError, StoreError):
            self.session.struck[self.session.index] = sorted(struck)

    def hint_no_pick(self) -> None:
        self.say_pick_hint(no_pick_hint(len(self.session.current.options)) + self.skip_hint)

    @on(Choices.Changed)
    def _choices_changed(self, event: Choices.Changed) -> None:
        if event.key != self.shown_key:
            return
        if event.submit and not event.picked and not event.choices.locked:
            self.hint_no_pick()
            return
        if not event.submit:  # a click or space: a pick as a key's is
            self.picks_changed()
        self.on_picks(event.picked, event.submit)

    @on(Input.Submitted, "#q-number")
    def _typed(self, event: Input.Submitted) -> None:
        self.on_typed(event.value)

    def on_picks(self, picked: tuple[int, ...], submit: bool) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def on_typed(self, text: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def answer_value(self, picked: tuple[int, ...]) -> str:
        return ",".join(LABELS[i] for i in picked)

    def action_report(self) -> None:
        from study.tui.screens.report_problem import report_problem

        s = self.session
        report_problem(self, s.current.qid, context=s.mode, session_id=s.id, position=s.index + 1)
