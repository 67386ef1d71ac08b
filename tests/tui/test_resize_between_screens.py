"""A terminal resized while one screen gives way to the next (issue 37 §1): the question view queued a fit for
after the next refresh, the exam was submitted, and the fit ran on a view whose children were gone
(``NoMatches: StemBox``). Every change of screen in the exam's flow is tried with a resize in between."""

from __future__ import annotations

from typing import Any

from tests.tui.conftest import settle
from tests.tui.test_flows import _exam_then_killed, _restarted

SIZES = [(80, 24), (120, 40), (60, 20), (100, 30)]


async def press_and_resize(pilot: Any, app: Any, *keys: str) -> None:
    """Each key, with a resize just before it and just after it, the next key pressed before the app has
    settled, as a learner dragging the window's edge while typing would."""
    for n, key in enumerate(keys):
        await pilot.resize_terminal(*SIZES[n % len(SIZES)])
        await pilot.press(key)
        await pilot.resize_terminal(*SIZES[(n + 1) % len(SIZES)])
    await settle(pilot, app)


async def test_resizing_through_submit_results_and_answer_review_does_not_crash(make_app):
    from study.tui.screens.answer_review import AnswerReviewScreen
    from study.tui.screens.exam import start_exam
    from study.tui.screens.results import ResultsScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        # answer one, open the review (a dialog), submit, confirm: every step with a resize right after it
        await press_and_resize(pilot, app, "2", "n", "r", "s", "y")
        assert isinstance(app.screen, ResultsScreen)
        await press_and_resize(pilot, app, "a")
        assert isinstance(app.screen, AnswerReviewScreen)
        await press_and_resize(pilot, app, "n", "n", "escape")
        assert isinstance(app.screen, ResultsScreen)
        await press_and_resize(pilot, app, "escape")
        assert not isinstance(app.screen, ResultsScreen)
    assert app.return_code in (None, 0)


async def test_resizing_through_the_resume_offer_and_back_into_the_exam_does_not_crash(bank, store_path, clock):
    from study.tui.screens.exam import ExamScreen

    async def answer_one(pilot):
        await pilot.press("2", "n")

    await _exam_then_killed(bank, store_path, clock, answer_one)
    store2, app2 = _restarted(bank, store_path, clock)
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app2)
        await press_and_resize(pilot, app2, "y")
        assert isinstance(app2.screen, ExamScreen)
        # the quit dialog, refused, then the exam left for Home
        await press_and_resize(pilot, app2, "escape", "n", "escape", "y")
    store2.close()
    assert app2.return_code in (None, 0)


async def test_a_fit_queued_before_submit_that_runs_after_it_is_harmless(make_app):
    """The race itself, made certain: the learner resized (the view queued ``fit`` and ``_fitted`` for after the
    next refresh), then submitted; the callbacks run on a view the exam screen took away with it."""
    from study.tui.screens.exam import start_exam
    from study.tui.screens.results import ResultsScreen
    from study.tui.widgets.question import QuestionView

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        view = app.screen.query_one(QuestionView)
        await press_and_resize(pilot, app, "2", "r", "s", "y")
        assert isinstance(app.screen, ResultsScreen)
        view.fit()
        view._fitted()
        view.mark_more()
        view.page(1)
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
