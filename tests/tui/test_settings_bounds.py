"""The Settings form holds a value to the rule `study settings KEY VALUE` and a backup import apply: a daily
goal of 99999999999999999999 was saved from the form, shown on Home as "1/99999999999999999999", and then
left out of every backup as a damaged value (a learner restoring the backup lost it without a word)."""

from __future__ import annotations

import datetime as dt

import pytest
from textual.widgets import Input, Static

from tests.tui.conftest import settle


async def open_settings(pilot, app) -> None:
    await settle(pilot, app)
    await pilot.press("comma")
    await settle(pilot, app)


async def save(pilot, app, field: str, value: str) -> str:
    """``value`` typed into the Settings field ``field`` (its id), saved with ctrl+s: the form's message."""
    app.screen.query_one(f"#{field}", Input).value = value
    await pilot.press("ctrl+s")
    await settle(pilot, app)
    return str(app.screen.query_one("#settings-message", Static).render())


@pytest.mark.parametrize("goal", ["10001", "99999999999999999999", "0", "-5"])
async def test_a_daily_goal_outside_what_a_backup_keeps_is_refused(make_app, store, goal):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot, app)
        message = await save(pilot, app, "set-daily-goal", goal)
        assert "daily goal" in message and "10000" in message.replace(",", ""), message
        assert store.get_setting("daily_goal") in (None, 20)


async def test_the_largest_goal_the_form_takes_survives_a_backup(make_app, store):
    from study.progress.backup_format import usable_settings

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot, app)
        assert await save(pilot, app, "set-daily-goal", "10000") == "Saved."
    assert store.get_setting("daily_goal") == 10000
    saved = {k: store.get_setting(k) for k in ("daily_goal", "desired_retention", "theme")}
    assert usable_settings(saved) == saved


async def test_a_past_exam_date_is_refused_with_the_rule_study_settings_applies(make_app, store, clock):
    from study.progress.settings import exam_date_setting

    yesterday = (clock.now.date() - dt.timedelta(days=1)).isoformat()
    with pytest.raises(ValueError) as refused:
        exam_date_setting(yesterday, clock.now.date())
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot, app)
        message = await save(pilot, app, "set-exam-date", yesterday)
        assert message.startswith(f"Exam date {refused.value}.")  # the same words as the CLI's
        assert await save(pilot, app, "set-exam-date", clock.now.date().isoformat()) == "Saved."  # today is fine
    assert store.get_setting("exam_date") == clock.now.date().isoformat()
