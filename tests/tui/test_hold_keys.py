"""Suspend, bury and unsuspend from the app (issue 37 §3): @, = and + in Practice, Review, the answer review and
Topics change the store as `study suspend`, `bury` and `unsuspend` do (study.progress.control), u takes the
newest back, each key is offered only while it acts, and the item's id is on screen."""

from __future__ import annotations

import datetime as dt
from typing import Any

from textual.widgets import Static

from tests.tui.conftest import answered, settle

CARD = "fx-ai-ml-dl/nested"


def footer(app: Any) -> set[str]:
    return {k for k, a in app.screen.active_bindings.items() if a.binding.show and a.enabled}


def enabled(app: Any) -> set[str]:
    return {k for k, a in app.screen.active_bindings.items() if a.enabled}


def held(store: Any, clock: Any) -> set[str]:
    from study.progress.control import held_back

    return held_back(store, clock.now)


def suspended(store: Any) -> set[str]:
    from study.progress.control import suspended_ids

    return suspended_ids(store)


async def test_practice_suspends_buries_unsuspends_and_undoes_the_question_on_screen(make_app, store, clock):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="1.1", count=1)  # a choice question: no number box has the keys
        await settle(pilot, app)
        qid = app.screen.session.current.qid
        assert qid == "fx-d1-nccl"
        assert qid in str(app.screen.query_one("#quiz-meta", Static).render())  # the id, for a report or the CLI
        assert {"at", "u", "plus"} & footer(app) == {"at"}  # suspend offered; nothing to undo, nothing held
        assert "equals_sign" in enabled(app)  # bury works, off the footer (full at 80 columns)
        await pilot.press("at")
        await settle(pilot, app)
        assert suspended(store) == {qid}
        assert {"at", "u", "plus"} & footer(app) == {"u", "plus"}
        assert any(f"Suspended question {qid}" in n.message for n in app._notifications)
        await pilot.press("u")
        await settle(pilot, app)
        assert held(store, clock) == set()
        assert "u" not in footer(app)
        await pilot.press("equals_sign")
        await settle(pilot, app)
        assert held(store, clock) == {qid} and suspended(store) == set()
        await pilot.press("plus")
        await settle(pilot, app)
        assert held(store, clock) == set()
        await pilot.press("u")  # back to buried: the undo restores what + found
        await settle(pilot, app)
        assert held(store, clock) == {qid}
        await pilot.press("u")
        await settle(pilot, app)
        assert held(store, clock) == set() and "u" not in footer(app)


async def test_on_a_typed_number_the_box_keeps_the_signs_it_may_need(make_app, store, clock):
    # '=', '+' and 'u' can be part of what is typed (1e+9, us), so the number box takes them and the footer does
    # not offer them; '@' never is, and suspends from the box too.
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="2.1", count=1)
        await settle(pilot, app)
        screen = app.screen
        assert screen.session.current.is_numeric_typed and app.focused is screen.view.number
        assert not {"equals_sign", "plus", "u"} & enabled(app)
        await pilot.press("equals_sign")
        await settle(pilot, app)
        assert screen.view.number.value == "=" and held(store, clock) == set()
        await pilot.press("at")
        await settle(pilot, app)
        assert suspended(store) == {screen.session.current.qid} and screen.view.number.value == "="


async def test_review_suspend_moves_on_and_undo_brings_the_card_back(make_app, store, bank, clock):
    from study.progress import Rating

    store.review_card(CARD, bank.content_hash(CARD), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    answered(store, bank, clock, "fx-d1-nccl")  # a due question after the card
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        assert screen.phase == "card" and CARD in str(screen.query_one("#review-status", Static).render())
        assert {"at", "equals_sign"} <= footer(app)
        await pilot.press("at")
        await settle(pilot, app)
        # As in Anki, the suspended card leaves the review: the question comes up.
        assert suspended(store) == {CARD} and screen.phase == "question"
        assert "fx-d1-nccl" in str(screen.query_one("#review-status", Static).render())
        await pilot.press("equals_sign")
        await settle(pilot, app)
        assert held(store, clock) == {CARD, "fx-d1-nccl"} and screen.phase == "done"
        await pilot.press("u")
        await settle(pilot, app)
        assert held(store, clock) == {CARD} and screen.phase == "question"
        await pilot.press("u")
        await settle(pilot, app)
        assert held(store, clock) == set() and screen.phase == "card" and screen.position == 0
        # Rated after the undo, it is recorded as any card is.
        await pilot.press("space", "3")
        await settle(pilot, app)
        assert len(store.reviews(CARD)) == 2


async def test_review_undo_takes_back_ratings_and_holds_in_order(make_app, store, bank, clock):
    from study.progress import Rating

    other = next(c.id for c in bank.cards if c.id != CARD)
    for card in (CARD, other):
        store.review_card(card, bank.content_hash(card), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        first = screen.cards[0]
        await pilot.press("space", "3")  # rate the first
        await settle(pilot, app)
        await pilot.press("at")  # suspend the second
        await settle(pilot, app)
        assert screen.phase == "done" and suspended(store) == {screen.cards[1]}
        await pilot.press("u")  # the suspension first
        await settle(pilot, app)
        assert suspended(store) == set() and screen.position == 1 and len(store.reviews(first)) == 2
        await pilot.press("u")  # then the rating
        await settle(pilot, app)
        assert len(store.reviews(first)) == 1 and screen.position == 0


async def test_answer_review_suspends_the_question_shown_and_names_its_id(make_app, store, bank, clock):
    from study.quiz import build_exam

    session = build_exam(bank, 1, 3, store=store, clock=clock)
    session.submit()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.show("results", session.report)
        await settle(pilot, app)
        await pilot.press("a")
        await settle(pilot, app)
        q = app.screen.current
        line = lambda: str(app.screen.query_one("#ar-position", Static).render())  # noqa: E731
        assert q.id in line() and "suspended" not in line()
        assert {"at", "equals_sign"} <= footer(app)
        await pilot.press("at")
        await settle(pilot, app)
        assert suspended(store) == {q.id} and "suspended" in line() and "plus" in footer(app)
        await pilot.press("n")
        await settle(pilot, app)
        assert "suspended" not in line() and "at" in footer(app)  # the next question is not held
        await pilot.press("left_square_bracket", "plus")
        await settle(pilot, app)
        assert suspended(store) == set() and "suspended" not in line()


async def test_topics_suspends_the_card_open_and_says_so_on_the_card(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await settle(pilot, app)
        app.screen.show("card", CARD)
        await settle(pilot, app)
        source = lambda: app.screen.query_one("#topics-markdown").source  # noqa: E731
        assert f"id `{CARD}`" in source() and "**@** suspend" in source()
        await pilot.press("at")
        await settle(pilot, app)
        assert suspended(store) == {CARD} and "**suspended**" in source()
        await pilot.press("u")
        await settle(pilot, app)
        assert suspended(store) == set() and "**suspended**" not in source()
        await pilot.press("equals_sign")
        await settle(pilot, app)
        assert held(store, clock) == {CARD} and "buried until tomorrow" in source()
        app.screen.show("topic", "fx-ai-ml-dl")
        await settle(pilot, app)
        assert not {"at", "equals_sign", "plus"} & enabled(app)  # a topic is not an item to suspend


def test_the_cli_sees_what_the_app_suspended(store, bank, clock, tmp_path, capsys):
    # The app writes through study.progress.control, which `study suspend --list` reads.
    from study.cli import main
    from study.progress.control import suspend

    suspend(store, CARD, clock.now)
    assert main(["--db", str(store.path), "suspend", "--list"]) == 0
    assert f"{CARD}  suspended" in capsys.readouterr().out
