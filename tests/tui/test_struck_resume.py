"""Struck-out choices are kept with the exam's session (issue 37 §4): after kill -9 and a resume they are
struck still, and a saved state that names a choice its question lacks is refused as damaged."""

from __future__ import annotations

import json

import pytest

from tests.tui.conftest import settle
from tests.tui.test_flows import _exam_then_killed, _restarted

STRIKE = "B"  # shift+b strikes choice B out


async def test_struck_choices_come_back_when_an_exam_is_resumed(bank, store_path, clock):
    from study.tui.screens.exam import ExamScreen

    async def strike_then_move(pilot):
        await pilot.press(STRIKE, "n")
        await pilot.press("A", "C", "A")  # A struck, C struck, A back: only C stays struck on question 2

    first = await _exam_then_killed(bank, store_path, clock, strike_then_move)
    assert first.struck[:2] == [[1], [2]]
    store2, app2 = _restarted(bank, store_path, clock)
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app2)
        await pilot.press("y")
        await settle(pilot, app2)
        exam = app2.screen
        assert isinstance(exam, ExamScreen) and exam.session.id == first.id
        assert exam.session.index == 1 and exam.view.choices.struck == {2}
        await pilot.press("left_square_bracket")
        await settle(pilot, app2)
        assert exam.view.choices.struck == {1} and not exam.view.choices.picked
    store2.close()


def _saved(session, **change):
    data = json.loads(session.to_json())
    data.update(change)
    return json.dumps(data)


async def test_a_saved_state_without_struck_choices_still_resumes_and_a_wrong_one_is_damaged(
        bank, store_path, clock):
    from study.quiz import QuizSession, SessionError

    async def strike(pilot):
        await pilot.press(STRIKE)

    session = await _exam_then_killed(bank, store_path, clock, strike)
    assert QuizSession.from_json(session.to_json()).struck[0] == [1]
    old = json.loads(session.to_json())
    del old["struck"]  # a state saved before struck choices were kept
    assert QuizSession.from_json(json.dumps(old)).struck == [[] for _ in session.instances]
    rest = [[]] * (session.count - 1)
    for bad in ([[9]] + rest, [[1, 1]] + rest, [["1"]] + rest, [[]], "x"):
        with pytest.raises(SessionError, match="struck"):
            QuizSession.from_json(_saved(session, struck=bad))
