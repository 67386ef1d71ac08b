"""On an exam question answered by typing a number, the status line says how to move on: the box has the
focus, so n (Next in the footer) is a letter there ("ns" is a unit), and enter is what records and moves on."""

from __future__ import annotations

from typing import Any

from tests.tui.conftest import settle
from tests.tui.test_question_flow import open_exam, status


async def test_a_number_question_in_an_exam_says_that_enter_moves_on(make_app: Any) -> None:
    app = make_app(seed=16)  # its 5-question exam has a number question third
    async with app.run_test(size=(100, 30)) as pilot:
        session = (await open_exam(pilot, app)).session
        kinds = [i for i, q in enumerate(session.instances) if q.is_numeric_typed and i + 1 < session.count]
        assert kinds, "the fixture exam draws a number question before its last"
        while session.index < kinds[0]:
            assert "enter records" not in status(app)
            await pilot.press("n")
            await settle(pilot, app)
        assert "enter records it and moves on" in status(app)
        await pilot.press("n")  # a letter in the box, not Next
        await settle(pilot, app)
        assert session.index == kinds[0]
        await pilot.press("backspace", "enter")
        await settle(pilot, app)
        assert session.index == kinds[0] + 1 and session.answers[kinds[0]] is None
