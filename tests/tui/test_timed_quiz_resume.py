"""A timed quiz (practice with a time limit, answered on the exam screen) pauses and resumes in the app as an
exam does: Home shows it paused, `e` offers it back, a restart offers it. It used to say to resume it with
`study quiz --plain --mode quiz --resume`, and the app never offered it again."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tests.tui.conftest import settle
from tests.tui.test_flows import text_of


async def _timed_quiz_paused(bank: Any, store_path: Any, clock: Any) -> tuple[str, int]:
    from study.progress import open_store
    from study.tui.app import make_app
    from study.tui.flows import start_practice
    from study.tui.screens.exam import ExamScreen

    store = open_store(store_path, fuzz=False)
    app = make_app(bank=bank, store=store, clock=clock, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert start_practice(app, count=3, minutes=10)
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, ExamScreen) and screen.session.mode == "quiz"
        await pilot.press("1", "n")
        await settle(pilot, app)
        session_id, index = screen.session.id, screen.session.index
        await pilot.press("escape")
        await settle(pilot, app)
        # Home says it is paused and how to go back to it, in the app.
        assert "Timed quiz paused" in text_of(app, "#home-paused") and "e resumes" in text_of(app, "#home-paused")
        assert any("Home resumes it with e" in n.message for n in app._notifications)
        # e takes the learner back to it, where it stopped.
        await pilot.press("e")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, ExamScreen)
        assert (app.screen.session.id, app.screen.session.index) == (session_id, index)
    store.close()
    return session_id, index


async def test_a_paused_timed_quiz_resumes_from_home_and_after_a_restart(bank, store_path, clock) -> None:
    from study.progress import open_store
    from study.tui.app import make_app
    from study.tui.screens.dialogs import ChoiceDialog
    from study.tui.screens.exam import ExamScreen

    session_id, index = await _timed_quiz_paused(bank, store_path, clock)
    clock.advance(minutes=2)  # the app is closed; the quiz's clock runs on
    store = open_store(store_path, fuzz=False)
    app = make_app(bank=bank, store=store, clock=clock, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog) and dialog._title == "Resume timed quiz?"
        assert "A timed quiz was interrupted: 1/3 answered" in text_of(app, "#dialog-body")
        await pilot.press("y")
        await settle(pilot, app)
        exam = app.screen
        assert isinstance(exam, ExamScreen)
        assert (exam.session.id, exam.session.index, exam.session.mode) == (session_id, index, "quiz")
        assert exam.session.remaining() <= dt.timedelta(minutes=8)
    store.close()
