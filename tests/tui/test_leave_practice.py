"""Leaving practice with escape (issue 37 §6): after an answer, the set's summary comes up as it does after the
last question (right, wrong, time, when its questions are due again); the questions not reached are left out
of the score and of "retake wrong". With nothing answered, escape only goes back."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from tests.tui.conftest import settle


async def start(pilot: Any, app: Any, count: int) -> Any:
    from study.tui.screens.practice import start_practice

    # 1.1, 1.3 and 2.9 hold the fixture's choice questions: each answered with a key.
    start_practice(app, domain="1", count=count)
    await settle(pilot, app)
    return app.screen


async def test_escape_after_an_answer_shows_the_sets_summary(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        screen = await start(pilot, app, 2)
        inst = screen.session.current
        wrong = next(label for label in inst.labels if label not in inst.correct_labels)
        await pilot.press(wrong.lower(), "enter")
        await settle(pilot, app)
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ResultsScreen"
        report = app.screen.report
        assert report.mode == "practice" and (report.correct, report.total, report.skipped) == (0, 1, 1)
        assert app.screen.query_one("#results-score").border_title == "Practice · left after 1 of 2"
        text = str(app.screen.query_one("#results-score", Static).render())
        assert "1 wrong; 1 of 2 not reached, not graded" in text
        # When the missed one comes back, from the scheduler's own date (FSRS's first step: minutes).
        due = store.item_state(inst.qid).due
        assert "Due next: 1 missed in " in text and f"({due.astimezone():%H:%M})" in text
        # Retake wrong is the one answered wrong, not the question never reached.
        assert app.screen._missed() == [inst.qid]
        await settle(pilot, app)
        assert store.session(report.session_id).finished_at is not None  # the set's report is kept
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"


async def test_escape_with_nothing_answered_only_goes_back(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await start(pilot, app, 2)
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
