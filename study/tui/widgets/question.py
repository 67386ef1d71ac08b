"""Showing one quiz ``Instance``: the stem, its choices (or a box to type a number) and the feedback.

The widget only displays and collects; the screen decides what an answer means by calling the session.
"""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalScroll, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Markdown, OptionList, Static

from study.tui.widgets.markdown import ReaderMarkdown, inline_content

LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Letters a-e and digits 1-9 pick choices (the screens' bindings); a question has as many as it has choices.
PICK_LETTERS = 5
PICK_DIGITS = 9


def pick_keys(n: int) -> str:
    """The keys that pick one of ``n`` choices, as a hint says them: "a-d, 1-4" for four."""
    letters, digits = min(n, PICK_LETTERS), min(n, PICK_DIGITS)
    if letters <= 1:
        return "a, 1"
    return f"a-{LABELS[letters - 1].lower()}, 1-{digits}"


def no_pick_hint(n: int) -> str:
    # Enter is "this is my answer", never a pick: a question left alone must not be recorded as answered.
    return f"Nothing picked yet: {pick_keys(n)} or space picks a choice, then enter."


def no_such_choice(index: int, n: int) -> str:
    """What a pick key past the last of ``n`` choices says (the key did nothing)."""
    return f"There is no choice {LABELS[index]}: this question has {LABELS[0]} to {LABELS[n - 1]} ({pick_keys(n)})."


class Choices(OptionList):
    """Choices labelled A, B, C...; single choice keeps one mark, multi toggles."""

    BINDINGS = [
        Binding("space", "toggle_highlighted", "Pick", show=False),
        Binding("enter", "submit", "Answer"),
        # Every choice is on screen, so paging belongs to the question around them (stem or feedback).
        Binding("pagedown", "page(1)", show=False),
        Binding("pageup", "page(-1)", show=False),
    ]

    class Changed(Message):
        def __init__(self, choices: Choices, picked: tuple[int, ...], submit: bool, key: object) -> None:
            super().__init__()
            self.choices = choices
            self.picked = picked
            # Enter means "this is my answer"; picking alone only marks (so exam answers can change).
            self.submit = submit
            # Which question the picks belong to: a message that arrives after the learner moved on is stale.
            self.key = key

        @property
        def control(self) -> Choices:
            return self.choices

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texts: list[str] = []
        self.multi = False
        self.picked: set[int] = set()
        # Choices the learner struck out as wrong: shown struck through, never a pick.
        self.struck: set[int] = set()
        self.locked = False
        self._outcome: dict[int, str] = {}
        self.key: object = None
        self._wrapped_at = 0  # the text width the prompts were wrapped for

    def show(self, texts: list[str], *, multi: bool, picked: set[int] | None = None, key: object = None,
             struck: set[int] | None = None) -> None:
        self.key = key
        self._texts = list(texts)
        self.multi = multi
        self.picked = set(picked or ())
        self.struck = set(struck or ()) - self.picked
        self.locked = False
        self._outcome = {}
        self._wrapped_at = self._text_width()
        self.set_options([self._prompt(i) for i in range(len(texts))])
        self.highlighted = min(self.picked) if self.picked else 0

    def mark_outcome(self, outcome: dict[int, str]) -> None:
        """After grading: ``{index: 'right'|'wrong'|'missed'}``; the list is then read-only."""
        self._outcome = dict(outcome)
        self.locked = True
        for i in range(len(self._texts)):
            self.replace_option_prompt_at_index(i, self._prompt(i))

    def _prompt(self, i: int) -> Content:
        on_ = i in self.picked
        box = ("[x]" if on_ else "[ ]") if self.multi else ("(•)" if on_ else "( )")
        verdict = {"right": ("  ✔", "bold $text-success"), "wrong": ("  ✘", "bold $text-error"),
                   "missed": ("  ← correct", "bold $text-success")}.get(self._outcome.get(i, ""), "")
        struck = i in self.struck and not self._outcome
        head = Content.styled(f"{box} {LABELS[i]}) ", "bold" if on_ else ("dim" if struck else ""))
        text = inline_content(self._texts[i])
        if struck:
            text = text.stylize("strike dim")
        body = Content.assemble(text, verdict)
        room = self._text_width() - head.cell_length
        if room >= 12:
            # A choice that wraps continues under its own text, not under its label.
            body = Content("\n" + " " * head.cell_length).join(body.wrap(room))
        return head + body

    def _text_width(self) -> int:
        padding = self.get_component_styles("option-list--option").padding.width
        return self.scrollable_content_region.width - padding

    def rewrap(self) -> bool:
        """Wrap the prompts again if the list's width changed since (a scrollbar came or went); True if so."""
        if not self._texts or self._wrapped_at == self._text_width():
            return False
        self._wrapped_at = self._text_width()
        for j in range(len(self._texts)):
            self.replace_option_prompt_at_index(j, self._prompt(j))
        self.refresh(layout=True)  # a prompt that wraps differently changes the list's height
        return True

    def toggle(self, i: int, *, submit: bool = False, notify: bool = True) -> None:
        """Pick (single) or toggle (multi) choice ``i``; ``notify=False`` when the caller acts on it at once."""
        if self.locked or not 0 <= i < len(self._texts):
            return
        if self.multi:
            self.picked ^= {i}
        else:
            self.picked = {i}
        self.struck.discard(i)  # picking a struck choice takes it back
        for j in range(len(self._texts)):
            self.replace_option_prompt_at_index(j, self._prompt(j))
        self.highlighted = i
        if notify:
            self._changed(submit)

    def strike(self, i: int) -> bool:
        """Strike choice ``i`` out, or back in; a struck choice is no longer picked. True if it is now struck."""
        if self.locked or not 0 <= i < len(self._texts):
            return False
        self.struck ^= {i}
        self.picked.discard(i)
        self.replace_option_prompt_at_index(i, self._prompt(i))
        return i in self.struck

    def _changed(self, submit: bool) -> None:
        self.post_message(self.Changed(self, tuple(sorted(self.picked)), submit, self.key))

    def action_toggle_highlighted(self) -> None:
        if self.highlighted is not None:
            self.toggle(self.highlighted)

    def action_submit(self) -> None:
        # With nothing picked the screen is told (submit, no picks) and shows NO_PICK_HINT; the highlight is
        # only where the cursor happens to be, not a choice the learner made.
        self._changed(True)

    def action_page(self, direction: int) -> None:
        view = next((a for a in self.ancestors if isinstance(a, QuestionView)), None)
        if view is not None:
            view.page(direction)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        # Mouse clicks arrive here; they mark without submitting.
        event.stop()
        self.toggle(event.option_index)


class StemBox(VerticalScroll, can_focus=False):
    """The stem, scrolling on its own when the stem and every choice do not fit together."""

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        _mark_more_around(self)


def number_hint(unit: str) -> str:
    """What the number box says before anything is typed: the unit the question asks in (the grader reads a
    bare number in it, and converts another unit of the same kind), not one example for every question."""
    unit = unit.strip()
    if unit in ("", "1"):
        return "type the number"
    if unit == "%":
        return "type the percentage"
    return f"type the number in {unit} (another unit of the same kind converts)"


class ExhibitBox(HorizontalScroll, can_focus=False):
    """A command's output under the stem (a lab exhibit), one line of the tool's a row as the tool printed it:
    wrapped at 80 columns, an 89-column nvidia-smi table or a 147-column ``topo -m`` matrix could not be read.
    Wider than the view, it scrolls sideways (shift+arrows, or the mouse)."""

    def watch_scroll_x(self, old: float, new: float) -> None:
        super().watch_scroll_x(old, new)
        _mark_more_around(self)


def _mark_more_around(widget: Any) -> None:
    """A box inside the question scrolled: the view's "more" line says what is left to see."""
    view = next((a for a in widget.ancestors if isinstance(a, QuestionView)), None)
    if view is not None:
        view.mark_more()


class QuestionView(VerticalScroll, can_focus=False):
    """Stem, choices (or a box to type a number) and the feedback.

    Before the answer every choice stays on screen: when the stem and the choices do not fit together, the
    stem gets the room the choices leave and scrolls inside it, with a line saying there is more. After the
    answer the stem is whole again and the view scrolls as one page down to the feedback, so there is only ever
    one scrollbar. Page up/down scroll whichever of the two holds the rest of the text, whatever has focus.
    """

    BINDINGS = [
        Binding("shift+right", "exhibit(1)", "Scroll a command's output right", show=False),
        Binding("shift+left", "exhibit(-1)", "Scroll a command's output left", show=False),
    ]

    DEFAULT_CSS = """
    QuestionView { height: 1fr; scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
    QuestionView > StemBox { height: auto; margin: 0 1; scrollbar-size-vertical: 1; }
    QuestionView > #q-more { height: 1; padding: 0 1; color: $text-muted; text-align: right; }
    QuestionView ExhibitBox { height: auto; display: none; margin-top: 1; scrollbar-size-horizontal: 1; }
    QuestionView ExhibitBox.-shown { display: block; }
    QuestionView #q-exhibit { width: auto; padding: 0 1; }
    QuestionView > #q-feedback { display: none; }
    QuestionView > #q-feedback.-shown { display: block; }
    QuestionView > #q-number { display: none; }
    QuestionView > #q-number.-shown { display: block; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.answered = False
        # False from show() until the stem's height is set for the new question and its "more" line drawn.
        self.settled = False

    def compose(self) -> ComposeResult:
        with StemBox(id="q-stem-box"):
            yield Static("", id="q-stem", classes="quiz-stem")
            with ExhibitBox(id="q-exhibit-box"):
                yield Static("", id="q-exhibit")
        yield Static("", id="q-more")
        yield Choices(id="q-choices")
        yield Input(id="q-number", classes="quiz-answer")  # its placeholder names the question's unit (show)
        yield ReaderMarkdown("", id="q-feedback", classes="feedback")

    @property
    def stem_box(self) -> StemBox:
        return self.query_one(StemBox)

    def show(self, instance: Any, *, picked: set[int] | None = None, typed: str = "", key: object = None,
             struck: set[int] | None = None) -> None:
        self.answered = False
        self.settled = False
        code: list[str] = []
        self.query_one("#q-stem", Static).update(inline_content(instance.stem, code))
        exhibit = self.query_one(ExhibitBox)
        # Plain Content: a tool's output is text, never markup ('[0]' in a kubectl line is no style).
        self.query_one("#q-exhibit", Static).update(Content("\n\n".join(code)))
        exhibit.set_class(bool(code), "-shown")
        exhibit.scroll_to(x=0, animate=False)
        choices = self.query_one(Choices)
        number = self.query_one("#q-number", Input)
        fb = self.query_one("#q-feedback", Markdown)
        fb.remove_class("-shown", "-right", "-wrong")
        fb.update("")
        if instance.is_numeric_typed:
            choices.display = False
            choices.show([], multi=False)
            number.set_class(True, "-shown")
            number.placeholder = number_hint(instance.numeric.unit if instance.numeric else "")
            number.value = typed
            number.disabled = False
            number.focus()
        else:
            number.set_class(False, "-shown")
            choices.display = True
            choices.show([o.text for o in instance.options], multi=instance.is_multi, picked=picked, key=key,
                         struck=struck)
            choices.focus()
        self.scroll_home(animate=False)
        self.stem_box.scroll_home(animate=False)
        self.call_after_refresh(self.fit)

    def on_resize(self, _event: events.Resize) -> None:
        self.call_after_refresh(self.fit)

    def _gone(self) -> bool:
        """The view's screen went away (an exam submitted, a set left) while a fit it queued after a resize
        was still waiting: its children are removed, and measuring them would raise NoMatches (issue 37 §1)."""
        return not self.is_attached or not self.query(StemBox)

    def fit(self) -> None:
        """Give the stem the height the choices (or the number box) leave, or all it needs once answered."""
        if self._gone():
            return
        box = self.stem_box
        if self.choices.rewrap():
            self.call_after_refresh(self.fit)  # measure the choices once they are drawn at their new width
            return
        if self.answered or not self.size.height:
            box.styles.max_height = None
        else:
            box.styles.max_height = max(2, self.size.height - self._below_stem() - 1)  # 1: the "more" line
        self.call_after_refresh(self._fitted)

    def _below_stem(self) -> int:
        """Rows the choices (or the number box) take at this width, from their text rather than from the last
        layout, which may predate the options just set."""
        rows = 0
        choices = self.choices
        if choices.display:
            gutter, margin = choices.styles.gutter, choices.styles.margin
            width = self.scrollable_content_region.width - gutter.width - margin.width
            rows += choices.get_content_height(self.size, self.size, width) + gutter.height + margin.height
        if self.number.has_class("-shown"):
            rows += self.number.outer_size.height or 3  # an Input is 3 rows; 0 only before its first layout
        return rows

    def _fitted(self) -> None:
        if self._gone():
            return
        self.mark_more()
        self.settled = True

    def mark_more(self) -> None:
        if self._gone():
            return
        box = self.stem_box
        more = self.query_one("#q-more", Static)
        hints = []
        exhibit = self.query_one(ExhibitBox)
        if not self.answered and exhibit.display and exhibit.max_scroll_x > 0:
            hints.append("▶ the output goes on: shift+→" if exhibit.scroll_x < exhibit.max_scroll_x
                         else "◀ start of the output: shift+←")
        if not self.answered and box.max_scroll_y > 0:
            hints.append("▼ more of the question: pgdn" if box.scroll_y < box.max_scroll_y
                         else "▲ start of the question: pgup")
        more.update(" · ".join(hints))

    def action_exhibit(self, direction: int) -> None:
        """Scroll the exhibit sideways by most of its width (the choices keep the arrow keys)."""
        exhibit = self.query_one(ExhibitBox)
        exhibit.scroll_relative(x=max(1, exhibit.size.width - 8) * direction, animate=False)

    def page(self, direction: int) -> None:
        if self._gone():
            return
        box = self.stem_box
        target = box if not self.answered and box.max_scroll_y > 0 else self
        if direction > 0:
            target.scroll_page_down(animate=False)
        else:
            target.scroll_page_up(animate=False)

    def show_feedback(self, instance: Any, grade: Any) -> None:
        from study.tui.format import feedback_markdown

        self.answered = True
        fb = self.query_one("#q-feedback", Markdown)
        # The verdict mark leads the grade's own sentence ("Correct." / "Incorrect ..."): said once, not twice.
        fb.update(("✔ " if grade.correct else "✘ ") + feedback_markdown(instance, grade, title=False))
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
        self.fit()
        self.call_after_refresh(self.scroll_to_widget, fb, animate=False, top=False)

    @property
    def choices(self) -> Choices:
        return self.query_one(Choices)

    @property
    def number(self) -> Input:
        return self.query_one("#q-number", Input)
