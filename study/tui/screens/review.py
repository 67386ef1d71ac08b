"""Review: the spaced-repetition session over due cards (rated 1-4) and due questions (answered, rated by
the outcome). The store's FSRS scheduler picks what is due and records every rating."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import ContentSwitcher, Header, Input, Markdown, ProgressBar, Static

from study.tui.screens.base import StudyScreen
from study.text import count
from study.tui.hold import HoldKeys, hold_bindings
from study.tui.screens.topics import RATING_KEYS
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.question import LABELS, Choices, QuestionView, no_pick_hint, no_such_choice
from study.tui.widgets.markdown import ReaderMarkdown

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

RATING_NAMES = ("Again", "Hard", "Good", "Easy")


def recall_prompt(card: Any) -> str:
    """The question on a card's front: the author's prompt, else one built from the heading."""
    return card.prompt or f"Recall: {card.title}"


class _RoundStore:
    """The store as the practice builder sees it for one review round: "due" is the round's questions
    only, so nothing the visit already showed is drawn again; everything else (recording answers) is the
    real store's."""

    def __init__(self, store: Any, question_ids: list[str]) -> None:
        self._store = store
        self._ids = list(question_ids)

    def due(self, now: Any = None, kind: Any = None, limit: Any = None) -> list[str]:
        return self._ids if kind in (None, "question") else []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


class ReviewScreen(HoldKeys, StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Review"
    # Each key is listed only while it does something (check_action): 1-4 rate a card once it is shown;
    # while a question is up the same digits pick choices, unlisted, as in practice.
    BINDINGS = [
        *[Binding(str(n), f"rate({n})", RATING_NAMES[n - 1]) for n in range(1, 5)],
        *[Binding(str(n), f"pick({n})", f"Choice {LABELS[n - 1]}", show=False) for n in range(1, 10)],
        # The letters too, as in practice and the exam (the hint names both): they did nothing here.
        *[Binding(c, f"pick({n})", f"Choice {c.upper()}", show=False) for n, c in enumerate("abcde", start=1)],
        Binding("space", "reveal", "Show answer"),
        Binding("enter", "reveal", "Show answer", show=False),
        Binding("enter", "answer", "Answer / next"),
        # u undoes the newest rating, suspend or bury of this round (hold_bindings).
        *hold_bindings(number_box=True),
        Binding("l", "learn_new", "Learn new cards"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[str] = []
        self.session: Any = None
        self.position = 0  # index into cards, then into session questions
        self.phase = "loading"  # loading | card | question | done
        self.revealed = False
        self.graded = False
        self.rated: dict[str, str] = {}
        self._no_such_choice_shown = False
        self._shown_at = time.monotonic()
        self._bank: Any = None  # the bank this review was drawn from
        # What u can still take back, newest last: ("rate", (card id, its state before)) or a suspend or
        # bury, ("hold", (the item's hold state before, where the review was)).
        self.undo_stack: list[tuple[str, Any]] = []
        self._queue: Any = None  # the visit's ReviewQueue (study.progress.control)
        self._reviewed = 0  # items of earlier rounds of this visit

    def compose(self) -> ComposeResult:
        yield Header()
        yield ProgressBar(id="review-progress", show_eta=False)
        yield Static("", id="review-status", classes="quiz-header")
        with ContentSwitcher(initial="review-card", id="review-switch"):
            with VerticalScroll(id="review-card", classes="panel"):
                yield ReaderMarkdown("", id="review-card-md")
            yield QuestionView(id="review-question")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.watch(self.app, "ready", lambda ready: self._start(ready), init=True)

    @property
    def total(self) -> int:
        return len(self.cards) + (self.session.count if self.session is not None else 0)

    def _start(self, ready: bool, new_cards: bool = False) -> None:
        if not ready or self.phase != "loading" and not new_cards:
            return
        services = self.app.services
        store, bank = services.store, services.bank
        if store is None or bank is None:
            self._finish("The progress store is not open: nothing to review.")
            return
        self._bank = bank
        self.undo_stack = []
        now = services.now()
        if new_cards:
            from study.progress.control import held_back, new_allowance

            # New cards come under the new-items-a-day cap (setting new_per_day), not the daily goal, which
            # counts questions answered.
            seen, held = store.seen_ids("card"), held_back(store, now)
            allowance = new_allowance(store, now)
            self._reviewed += self.total
            self.cards = [c.id for c in bank.cards if c.id not in seen and c.id not in held][:allowance]
            self.session = None
            self.position = 0
            if not self.cards:
                self._finish("No new card today: the new-items-a-day limit is reached (`new_per_day`, now "
                             f"{store.get_setting('new_per_day') or 'the default'}); more come tomorrow.")
                return
            self.query_one(ProgressBar).update(total=max(1, self.total), progress=0)
            self._show()
            return
        from study.progress.control import ReviewQueue

        # One queue for the whole visit: each item at most once, even one rated Again that falls due again
        # minutes later (study.progress.control.ReviewQueue).
        self._queue = ReviewQueue(store, known={q.id for q in bank.questions} | {c.id for c in bank.cards})
        if not self._next_round(now):
            unseen = len([c for c in bank.cards if c.id not in store.seen_ids("card")])
            self._finish(f"Nothing is due right now{self._next_due()}. {count(unseen, 'card')} never studied: "
                         "press **l** to learn some.")
            return
        self._show()

    def _next_round(self, now: Any) -> bool:
        """Load what fell due and this visit has not shown yet; False when there is nothing."""
        from study.quiz import SelectionError, build_practice

        services = self.app.services
        bank = services.bank or self._bank
        due = self._queue.take(now)
        if not due:
            return False
        self._reviewed += self.total
        self.undo_stack = []  # the ratings taken back are those of the round on screen
        card_ids = {c.id for c in bank.cards}
        self.cards = [i for i in due if i in card_ids]
        due_q = [i for i in due if i not in card_ids]
        self.session = None
        if due_q:
            try:
                self.session = build_practice(bank, services.next_seed(), len(due_q), pick="due",
                                              store=_RoundStore(services.store, due_q), clock=services.clock)
            except SelectionError:
                self.session = None
        self.position = 0
        self.query_one(ProgressBar).update(total=max(1, self.total), progress=0)
        return bool(self.total)

    # -- display ----------------------------------------------------------------------------------------

    def _show(self) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(progress=self.position)
        switch = self.query_one(ContentSwitcher)
        self.revealed = self.graded = False
        self._shown_at = time.monotonic()
        if self.position < len(self.cards):
            self.phase = "card"
            switch.current = "review-card"
            card = self._card(self.cards[self.position])
            self.query_one("#review-card-md", Markdown).update(
                f"## {recall_prompt(card)}\n\n*Answer in your head, then press space to see the card.*")
            # The id is what a problem report or `study suspend` takes (issue 37 §3).
            self._status(Text.assemble(f"card {self.position + 1}/{self.total} · recall, then space · ",
                                       (card.id, "dim")))
            self.refresh_bindings()
            return
        qi = self.position - len(self.cards)
        if self.session is not None and qi < self.session.count:
            self.phase = "question"
            switch.current = "review-question"
            if qi > self.session.index:
                self.session.next()
            self.query_one(QuestionView).show(self.session.current, key=(self.session.id, self.session.index))
            self._status(Text.assemble(f"question {self.position + 1}/{self.total} · "
                                       f"{self.session.current.objective} · ", (self.session.current.qid, "dim")))
            self.refresh_bindings()
            return
        if self._queue is not None and self._next_round(self.app.services.now()):
            self._show()  # items that fell due during the review, none of them shown yet
            return
        self._finish(self._done_text())

    def _done_text(self) -> str:
        """The end of a review, true to what Home will say: items shown in this visit that are due again
        (rated Again minutes ago) wait for the next review, and are named as such."""
        from study.progress.due import due_now

        services = self.app.services
        done = f"Review done: {count(self._reviewed + self.total, 'item')}. Well done."
        again = 0
        if services.store is not None and self._queue is not None:
            again = len(due_now(services.store, services.now(), known=self._queue.shown))
        if again:
            return (f"{done} {count(again, 'item')} you just missed {'is' if again == 1 else 'are'} due again: "
                    "a review shows each item once, so press **r** later to go over "
                    f"{'it' if again == 1 else 'them'} again.")
        return f"{done} Nothing else is due now{self._next_due()}."

    def _next_due(self) -> str:
        """ "; the next comes due in 8 min (09:08)", or nothing when nothing is scheduled."""
        from study.tui.due import next_due, when_text

        services = self.app.services
        now = services.now()
        try:
            moment = next_due(services.store, services.bank or self._bank, now)
        except Exception:  # a hint only: never in the way of the review's end
            return ""
        return f"; the next comes due {when_text(moment, now)}" if moment else ""

    def _card(self, card_id: str) -> Any:
        """The card as it is now (a live reload may have edited it), or as it was when the review began if
        its topic file no longer loads: a review in progress never loses a card."""
        bank = self.app.services.bank
        return bank.card(card_id) if bank is not None and bank.has_item(card_id) else self._bank.card(card_id)

    def _status(self, text: str | Text) -> None:
        self._no_such_choice_shown = False
        self.query_one("#review-status", Static).update(text)

    def _finish(self, message: str) -> None:
        self.phase = "done"
        self.query_one(ContentSwitcher).current = "review-card"
        self.query_one("#review-card-md", Markdown).update(f"## Review\n\n{message}")
        bar = self.query_one(ProgressBar)
        bar.update(total=max(1, self.total), progress=max(1, self.total) if self.total else 0)
        self._status("escape: back")
        self.refresh_bindings()

    # -- actions ----------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        card_front = self.phase == "card" and not self.revealed
        if action == "reveal":
            return card_front
        if action == "rate":
            return self.phase == "card" and self.revealed
        if action == "pick":
            return self.phase == "question" and not self.graded
        if action == "answer":
            return self.phase == "question"
        held = self.hold_check(action, parameters)
        if held is not None:
            return held
        if action == "learn_new":
            return self.phase == "done" and self._unseen_cards() > 0
        return True

    def _unseen_cards(self) -> int:
        store, bank = self.app.services.store, self.app.services.bank
        if store is None or bank is None:
            return 0
        seen = store.seen_ids("card")
        return sum(1 for c in bank.cards if c.id not in seen)

    def action_reveal(self) -> None:
        if self.phase != "card" or self.revealed:
            return
        card = self._card(self.cards[self.position])
        # An authored prompt stays above the answer; the fallback would only repeat the heading.
        asked = f"*{card.prompt}*\n\n" if card.prompt else ""
        self.query_one("#review-card-md", Markdown).update(f"## {card.title}\n\n{asked}{card.body}")
        self.revealed = True
        self._status("rate: 1 again · 2 hard · 3 good · 4 easy")
        self.refresh_bindings()

    def action_rate(self, n: int) -> None:
        if self.phase != "card" or not self.revealed:
            return
        from study.tui import actions

        card_id = self.cards[self.position]
        before = self.app.services.store.item_state(card_id)
        rating = RATING_KEYS[str(n)]
        actions.rate_card(self.app.services, card_id, rating, time.monotonic() - self._shown_at, fallback=self._bank)
        self.rated[card_id] = rating
        self.undo_stack.append(("rate", (card_id, before)))
        self.position += 1
        self._show()

    # -- suspend, bury, unsuspend (study.tui.hold) -------------------------------------------------------

    def hold_target(self) -> tuple[str, str] | None:
        if self.phase == "card":
            return self.cards[self.position], "card"
        if self.phase == "question" and self.session is not None:
            return self.session.current.qid, "question"
        return None

    def hold_context(self) -> Any:
        return self.position, self.graded

    def after_hold(self, item_id: str, what: str) -> None:
        # As in Anki, the item suspended or buried leaves the review: the next one comes up.
        if what != "unsuspend":
            self.position += 1
            self._show()

    def after_undo_hold(self, state: Any, context: Any) -> None:
        position, graded = context
        if graded or self.phase == "loading":
            return  # an answered question stays answered: its record is not undone, only the hold
        if position < len(self.cards):
            if self.cards[position] != state.item_id:
                return
        elif self.session is None or not 0 <= position - len(self.cards) < self.session.count:
            return
        else:
            self.session.goto(position - len(self.cards))
        self.position = position
        self._show()

    def action_undo(self) -> None:
        """Take back the newest rating, suspend or bury not yet undone and show that item again (a card front
        first); pressed again, the one before it, back to the start of the round."""
        if not self.undo_stack:
            return
        kind, payload = self.undo_stack.pop()
        if kind == "hold":
            self.undo_hold(payload)
            return
        card_id, before = payload
        self.app.services.store.undo_review(card_id, before)
        self.rated.pop(card_id, None)
        self.position = self.cards.index(card_id)
        self.notify(f"Rating of '{self._card(card_id).title}' undone.", timeout=2)
        self._show()

    def action_pick(self, n: int) -> None:
        if self.phase == "question" and not self.graded:
            inst = self.session.current
            if inst.is_numeric_typed:
                return
            if n - 1 < len(inst.options):
                if self._no_such_choice_shown:
                    self._status("")  # what an earlier key said no longer applies
                self.query_one(QuestionView).choices.toggle(n - 1, notify=False)
            else:
                self._status(no_such_choice(n - 1, len(inst.options)))
                self._no_such_choice_shown = True

    @on(Choices.Changed)
    def _picked(self, event: Choices.Changed) -> None:
        if self.phase != "question" or event.key != (self.session.id, self.session.index):
            return
        if self.graded:
            if event.submit:
                self._next_question()
            return
        if event.submit and event.picked:
            self._answer(",".join(LABELS[i] for i in event.picked))
        elif event.submit:  # enter with nothing picked records nothing, and says how to pick
            self._status(no_pick_hint(len(self.session.current.options)))

    @on(Input.Submitted, "#q-number")
    def _typed(self, event: Input.Submitted) -> None:
        if self.graded:
            self._next_question()
        else:
            self._answer(event.value)

    def action_answer(self) -> None:
        if self.phase != "question":
            return
        if self.graded:
            self._next_question()
        elif self.query_one(QuestionView).choices.picked:
            picked = sorted(self.query_one(QuestionView).choices.picked)
            self._answer(",".join(LABELS[i] for i in picked))
        else:
            self._status(no_pick_hint(len(self.session.current.options)))

    def _answer(self, value: str) -> None:
        from study.quiz import AnswerError, SessionError

        try:
            grade = self.session.answer(value)
        except (AnswerError, SessionError) as exc:
            self._status(Text(str(exc), style="bold"))  # it quotes the typed answer: not markup
            return
        self.graded = True
        self.undo_stack = []  # an answer came after the ratings: undo would reach back past it
        self.refresh_bindings()
        self.query_one(QuestionView).show_feedback(self.session.current, grade)
        self._status("recorded: " + ("right" if grade.correct else "wrong, it comes back soon") + " · enter: next")
        self.focus()

    def _next_question(self) -> None:
        self.position += 1
        self._show()

    def action_learn_new(self) -> None:
        if self.phase == "done":
            self.phase = "loading"
            self._start(True, new_cards=True)
