"""Showing one quiz ``Instance``: the stem, its choices (or a box to type a number) and the feedback.

The widget only displays and collects; the screen decides what an answer means by calling the session.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Input, Markdown, OptionList
from study.tui.widgets.markdown import ReaderMarkdown

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Choices(OptionList):
    """Choices labelled A, B, C...; single choice keeps one mark, multi toggles."""

    BINDINGS = [
        Binding("space", "toggle_highlighted", "Pick", show=False),
        Binding("enter", "submit", "Answer", show=False),
    ]

    class Changed(Message):
        def __init__(self, choices: "Choices", picked: tuple[int, ...], submit: bool, key: object) -> None:
            super().__init__()
            self.choices = choices
            self.picked = picked
            # Enter means "this is my answer"; picking alone only marks (so exam answers can change).
            self.submit = submit
            # Which question the picks belong to: a message that arrives after the learner moved on is stale.
            self.key = key

        @property
        def control(self) -> "Choices":
            return self.choices

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texts: list[str] = []
        self.multi = False
        self.picked: set[int] = set()
        self.locked = False
        self._outcome: dict[int, str] = {}
        self.key: object = None

    def show(self, texts: list[str], *, multi: bool, picked: set[int] | None = None, key: object = None) -> None:
        self.key = key
        self._texts = list(texts)
        self.multi = multi
        self.picked = set(picked or ())
        self.locked = False
        self._outcome = {}
        self.set_options([self._prompt(i) for i in range(len(texts))])
        self.highlighted = min(self.picked) if self.picked else 0

    def mark_outcome(self, outcome: dict[int, str]) -> None:
        """After grading: ``{index: 'right'|'wrong'|'missed'}``; the list is then read-only."""
        self._outcome = dict(outcome)
        self.locked = True
        for i in range(len(self._texts)):
            self.replace_option_prompt_at_index(i, self._prompt(i))

    def _prompt(self, i: int) -> Text:
        on_ = i in self.picked
        box = ("[x]" if on_ else "[ ]") if self.multi else ("(•)" if on_ else "( )")
        out = Text(f"{box} {LABELS[i]}) ", style="bold" if on_ else "")
        out.append(self._texts[i])
        verdict = self._outcome.get(i)
        if verdict == "right":
            out.append("  ✔", style="bold green")
        elif verdict == "wrong":
            out.append("  ✘", style="bold red")
        elif verdict == "missed":
            out.append("  ← correct", style="bold green")
        return out

    def toggle(self, i: int, *, submit: bool = False, notify: bool = True) -> None:
        """Pick (single) or toggle (multi) choice ``i``; ``notify=False`` when the caller acts on it at once."""
        if self.locked or not 0 <= i < len(self._texts):
            return
        if self.multi:
            self.picked ^= {i}
        else:
            self.picked = {i}
        for j in range(len(self._texts)):
            self.replace_option_prompt_at_index(j, self._prompt(j))
        self.highlighted = i
        if notify:
            self._changed(submit)

    def _changed(self, submit: bool) -> None:
        self.post_message(self.Changed(self, tuple(sorted(self.picked)), submit, self.key))

    def action_toggle_highlighted(self) -> None:
        if self.highlighted is not None:
            self.toggle(self.highlighted)

    def action_submit(self) -> None:
        if self.locked:
            self._changed(True)
            return
        if not self.multi and self.highlighted is not None:
            self.toggle(self.highlighted, submit=True)
        elif self.picked:
            self._changed(True)
        elif self.highlighted is not None:
            self.toggle(self.highlighted)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        # Mouse clicks arrive here; they mark without submitting.
        event.stop()
        self.toggle(event.option_index)


class QuestionView(VerticalScroll):
    """Stem + choices or number input + feedback, scrolling together so long explanations fit 80x24."""

    DEFAULT_CSS = """
    QuestionView { height: 1fr; }
    QuestionView > #q-stem { margin: 0 1; }
    QuestionView > #q-feedback { display: none; }
    QuestionView > #q-feedback.-shown { display: block; }
    QuestionView > #q-number { display: none; }
    QuestionView > #q-number.-shown { display: block; }
    """

    def compose(self) -> ComposeResult:
        yield ReaderMarkdown("", id="q-stem", classes="quiz-stem")
        yield Choices(id="q-choices")
        yield Input(placeholder="type the number with its unit, e.g. 140 GB", id="q-number", classes="quiz-answer")
        yield ReaderMarkdown("", id="q-feedback", classes="feedback")

    def show(self, instance: Any, *, picked: set[int] | None = None, typed: str = "", key: object = None) -> None:
        self.query_one("#q-stem", Markdown).update(instance.stem)
        choices = self.query_one(Choices)
        number = self.query_one("#q-number", Input)
        fb = self.query_one("#q-feedback", Markdown)
        fb.remove_class("-shown", "-right", "-wrong")
        fb.update("")
        if instance.is_numeric_typed:
            choices.display = False
            choices.show([], multi=False)
            number.set_class(True, "-shown")
            number.value = typed
            number.disabled = False
            number.focus()
        else:
            number.set_class(False, "-shown")
            choices.display = True
            choices.show([o.text for o in instance.options], multi=instance.is_multi, picked=picked, key=key)
            choices.focus()
        self.scroll_home(animate=False)

    def show_feedback(self, instance: Any, grade: Any) -> None:
        from study.tui.format import feedback_markdown

        fb = self.query_one("#q-feedback", Markdown)
        fb.update(feedback_markdown(instance, grade))
        fb.add_class("-shown")
        fb.set_class(bool(grade.correct), "-right")
        fb.set_class(not grade.correct, "-wrong")
        choices = self.query_one(Choices)
        if instance.options:
            outcome: dict[int, str] = {}
            for i, opt in enumerate(instance.options):
                if i in choices.picked:
                    outcome[i] = "right" if opt.correct else "wrong"
                elif opt.correct:
                    outcome[i] = "missed"
            choices.mark_outcome(outcome)
        else:
            self.query_one("#q-number", Input).disabled = True
        self.call_after_refresh(self.scroll_to_widget, fb, animate=False, top=False)

    @property
    def choices(self) -> Choices:
        return self.query_one(Choices)

    @property
    def number(self) -> Input:
        return self.query_one("#q-number", Input)
