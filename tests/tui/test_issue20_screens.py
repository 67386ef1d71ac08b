"""Issue 20, section 2: what a screen shows is what it does (Settings, the exam navigator, the resume dialog,
Home at 80x24, time alerts, eliminating choices, the calculator, Progress and the smaller items)."""

from __future__ import annotations

import datetime as dt

from textual.widgets import Input, Static

from tests.tui.conftest import settle


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


# -- 1. Settings do not discard edits silently ----------------------------------------------------------


async def test_enter_in_a_settings_field_saves_the_form(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-exam-date", Input).focus()
        await pilot.press(*"2026-12-31", "enter")
        await settle(pilot, app)
        assert store.get_setting("exam_date") == "2026-12-31"
        await pilot.press("escape")  # nothing unsaved: straight back
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"


async def test_leaving_settings_with_an_unsaved_edit_asks(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        goal = app.screen.query_one("#set-daily-goal", Input)
        goal.value = "35"
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ChoiceDialog"
        await pilot.press("escape")  # stay
        await settle(pilot, app)
        assert type(app.screen).__name__ == "SettingsScreen" and goal.value == "35"
        await pilot.press("escape", "s")  # save and leave
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
        assert store.get_setting("daily_goal") == 35
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-daily-goal", Input).value = "50"
        await pilot.press("escape", "d")  # discard
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
        assert store.get_setting("daily_goal") == 35


# -- 2. The exam navigator tells a half-answered choose-two and a flagged answer apart -------------------


async def test_a_half_answered_choose_two_is_partial_and_the_submit_dialog_says_so(make_app):
    from study.tui.screens.exam import ExamScreen, ReviewBeforeSubmit, start_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        exam = app.screen
        assert isinstance(exam, ExamScreen)
        session = exam.session
        multi = next(i for i, q in enumerate(session.instances) if q.is_multi and q.choose == 2)
        single = next(i for i, q in enumerate(session.instances) if not q.is_multi and i != multi)
        exam.goto(single)
        await pilot.press("1", "f")  # answered, then flagged
        exam.goto(multi)
        await pilot.press("1")  # one of two
        await settle(pilot, app)
        assert session.answers[multi] is not None
        await pilot.press("g")
        await settle(pilot, app)
        cells = str(exam.query_one("#exam-nav").render())
        assert f"{multi + 1}◐" in cells and f"{single + 1}✓⚑" in cells
        assert "✓ answered 1  ◐ partly 1  · blank 3" in cells
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewBeforeSubmit)
        assert f"Partly answered (1, graded wrong): {multi + 1}" in str(app.screen.query_one(Static).render())
        await pilot.press("s")
        await settle(pilot, app)
        body = str(app.screen.query_one("#dialog-body", Static).render())
        assert "1 answered, 1 partly answered, 3 blank" in body
