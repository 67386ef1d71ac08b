"""The keys that pick a choice, as the hint names them and as they behave: the hint said 'a-e, 1-9' on a
four-choice question, a key past the last choice did nothing at all, and in Review the letters the hint names
picked nothing."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from tests.tui.conftest import answered, settle
from tests.tui.test_question_flow import open_exam


def status(app: Any, selector: str = "#quiz-status") -> str:
    return str(app.screen.query_one(selector, Static).render())


@pytest.mark.parametrize("key", ["e", "5", "E"])
async def test_practice_names_the_real_keys_and_says_when_a_key_is_past_the_last_choice(make_app, store, key):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="1.1", count=1)  # NCCL: four choices, A to D
        await settle(pilot, app)
        screen = app.screen
        assert len(screen.session.current.options) == 4
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Nothing picked yet: a-d, 1-4 or space" in status(app)
        await pilot.press(key)
        await settle(pilot, app)
        assert app.is_running and screen.view.choices.picked == set()
        assert "There is no choice E: this question has A to D (a-d, 1-4)." in status(app)
        await pilot.press("b")  # a real pick takes the message away
        await settle(pilot, app)
        assert screen.view.choices.picked == {1} and status(app) == ""
    assert store.history() == []


async def test_a_multi_choice_question_names_its_keys_when_too_few_are_picked(make_app):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="3.3", count=1)  # a choose-two question
        await settle(pilot, app)
        n = len(app.screen.session.current.options)
        await pilot.press("a", "enter")
        await settle(pilot, app)
        last = "abcde"[min(n, 5) - 1]
        assert f"Toggle choices with a-{last}, 1-{min(n, 9)}, then press enter." in status(app)


async def test_a_pick_takes_away_what_enter_said_about_the_picks(make_app):
    """'Nothing picked yet' stayed under the choices the learner went on to pick, and 'Choose 2: 1 picked'
    under two picks."""
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="3.3", count=1)  # a choose-two question
        await settle(pilot, app)
        screen = app.screen
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Nothing picked yet" in status(app)
        await pilot.press("a")
        await settle(pilot, app)
        assert status(app) == ""
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Choose 2: 1 picked." in status(app)
        screen.view.choices.highlighted = 1
        await pilot.press("space")  # a pick other than a pick key says the same
        await settle(pilot, app)
        assert screen.view.choices.picked == {0, 1} and status(app) == ""


async def test_an_exam_pick_takes_away_the_nothing_picked_hint(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exam(pilot, app, 2)
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Nothing picked yet" in status(app)
        await pilot.press("a")
        await settle(pilot, app)
        assert status(app) == ""


async def test_the_exam_keeps_its_last_question_line_after_a_key_past_the_last_choice(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exam(pilot, app, 1)
        n = len(screen.session.current.options)
        assert "Last question" in status(app)
        if n < 9:
            await pilot.press(str(n + 1))
            await settle(pilot, app)
            assert "There is no choice" in status(app)
        await pilot.press("1")
        await settle(pilot, app)
        assert "Last question: r reviews and submits." in status(app)


async def test_review_letters_pick_as_the_hint_says(make_app, store, bank, clock):
    qid = "fx-d1-nccl"  # four choices, answered wrong three days ago: due
    answered(store, bank, clock, qid)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        assert screen.phase == "question" and screen.session.current.qid == qid
        await pilot.press("enter")
        await settle(pilot, app)
        assert "Nothing picked yet: a-d, 1-4 or space" in status(app, "#review-status")
        await pilot.press("e")
        await settle(pilot, app)
        assert "There is no choice E" in status(app, "#review-status")
        await pilot.press("c")
        await settle(pilot, app)
        assert screen.query_one("#q-choices").picked == {2}
        assert status(app, "#review-status") == ""


@pytest.mark.parametrize("keys", [("a",), ("a", "b", "c")])
async def test_enter_on_an_exam_choose_two_with_another_count_of_picks_stays_and_says_so(make_app, keys):
    """Enter with one or three picks on a choose-two went on to the next question as if answered; three picks
    even showed as answered in the navigator, and were graded wrong only at the results."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        exam = await open_exam(pilot, app, 10)
        session = exam.session
        multi = next(i for i, q in enumerate(session.instances[:-1]) if q.is_multi and q.choose == 2)
        exam.goto(multi)
        await settle(pilot, app)
        await pilot.press(*keys, "enter")
        await settle(pilot, app)
        assert session.index == multi
        assert f"Choose 2: {len(keys)} picked, which counts as wrong." in status(app)
        await pilot.press("c" if len(keys) == 1 else "a", "enter")  # two picks: enter goes on
        await settle(pilot, app)
        assert session.index == multi + 1
