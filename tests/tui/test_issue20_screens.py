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
