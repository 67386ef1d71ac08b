"""What a learner types is shown as typed: a message that quotes it is text, never Textual markup. A typed
'[/]' used to end the app with a MarkupError, and '[b]' vanished from the message quoting it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.tui.conftest import answered, settle
from tests.tui.test_settings_bounds import open_settings, save

TYPED = ["[/]", "12 [b]GB"]


def shown_text(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


@pytest.mark.parametrize("typed", ["[/]", "[b]2027-01-15"])
async def test_a_settings_date_that_looks_like_markup_is_quoted_as_typed(make_app, store, typed):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_settings(pilot, app)
        message = await save(pilot, app, "set-exam-date", typed)
        assert app.is_running and type(app.screen).__name__ == "SettingsScreen"
        assert typed in message
    assert store.get_setting("exam_date") is None


@pytest.mark.parametrize("typed", TYPED)
async def test_a_typed_numeric_answer_is_quoted_as_typed_in_practice(make_app, store, typed):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="2.1", count=5)
        await settle(pilot, app)
        screen = app.screen
        for _ in range(5):  # answer the choice questions until a typed number comes up
            if screen.session.current.is_numeric_typed:
                break
            await pilot.press("a", "enter", "enter")
            await settle(pilot, app)
        assert screen.session.current.is_numeric_typed
        screen.view.number.value = typed
        screen.view.number.focus()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.is_running and app.screen is screen
        assert typed in shown_text(app, "#quiz-status")


@pytest.mark.parametrize("typed", TYPED)
async def test_a_typed_numeric_answer_is_quoted_as_typed_in_review(make_app, store, bank, clock, typed):
    qid = "fx-d2-fp16-weights"  # a numeric question without parameters, answered wrong three days ago
    answered(store, bank, clock, qid, "70")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        assert screen.phase == "question" and screen.session.current.is_numeric_typed
        box = screen.query_one("#q-number", Input)
        box.value = typed
        box.focus()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.is_running and app.screen is screen
        assert typed in shown_text(app, "#review-status")


def toast_texts(app: Any) -> str:
    from textual.widgets._toast import Toast

    return "\n".join(str(t.render()) for t in app.screen.query(Toast))


async def test_study_quiz_filters_that_cannot_be_used_are_quoted_as_given(make_app):
    # `study quiz --topic '[/]' --objective '[b]9.9'`: the toast said "objective 9.9" and "topic  is not".
    app = make_app(start="practice", practice_preset={"topic": "[/]", "objective": "[b]9.9"})
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot, app)
        text = " ".join(toast_texts(app).split())
        assert "objective [b]9.9 is not" in text and "topic [/] is not" in text, text


async def test_a_practice_set_that_cannot_be_built_quotes_its_filter_as_given(make_app):
    from study.tui.flows import start_practice

    app = make_app()
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await settle(pilot, app)
        assert not start_practice(app, objective="[b]9.9")
        await settle(pilot, app)
        assert "unknown objective '[b]9.9'" in " ".join(toast_texts(app).split())
