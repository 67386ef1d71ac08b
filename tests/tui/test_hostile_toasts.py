"""Toasts quote text from outside (a store path, an OSError, a card title) as text, never as Textual markup
(the tests draw them: run_test(notifications=True)).

Read as markup, a store at '/tmp/[x]/progress.db' or an error text '[/]' ended the app with a MarkupError,
and '[b]' vanished from the message quoting it."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets._toast import Toast

from tests.tui.conftest import settle

HOSTILE = ["[/]", "disk [b]full", "[$text-success]x"]


def toasts(app: Any) -> list[str]:
    """What the toasts on screen show, rendered as they are painted."""
    return [toast.render().plain for toast in app.screen.query(Toast)]


@pytest.mark.parametrize("text", HOSTILE)
async def test_app_screen_and_dialog_toasts_are_plain_text(make_app, text):
    from study.tui.screens.dialogs import ChoiceDialog

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        app.notify(f"app {text}")
        app.screen.notify(f"screen {text}")
        await settle(pilot, app)
        app.push_screen(ChoiceDialog("t", "b", [("ok", "OK", "o")], cancel="ok"))
        await settle(pilot, app)
        app.screen.notify(f"dialog {text}", title=f"title {text}")
        await settle(pilot, app)
        assert app.is_running
        shown = " ".join(toasts(app))
        for where in ("app", "screen", "dialog", "title"):
            assert f"{where} {text}" in shown


async def test_a_toast_escapes_control_characters(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        app.notify("could not open \x1b]0;owned\x07 store")
        await settle(pilot, app)
        assert "\\x1b]0;owned\\x07" in " ".join(toasts(app))


async def test_the_bold_keys_of_intentional_markup_still_show_as_bold(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        app.notify("Press [b]e[/] now", markup=True)
        await pilot.press("ctrl+c")  # Textual's "press ctrl+q to quit", with the key in bold
        await settle(pilot, app)
        shown = toasts(app)
        assert "Press e now" in shown
        assert any("to quit the app" in t and "[b]" not in t for t in shown)


async def test_a_store_that_cannot_open_at_a_path_with_brackets_is_named_in_the_toast(make_app, tmp_path):
    blocker = tmp_path / "[x]"
    blocker.write_text("a file where the store's folder should be")
    app = make_app(store=None, db=str(blocker / "progress.db"))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        await settle(pilot, app)
        assert app.is_running
        assert any("could not open the progress store" in t and "[x]" in t for t in toasts(app))


@pytest.mark.parametrize("text", HOSTILE)
async def test_an_export_failure_is_quoted_as_the_system_wrote_it(make_app, store, monkeypatch, text):
    from study.tui.export_download import export_progress

    def fail(*_a: Any, **_k: Any) -> Any:
        raise OSError(f"disk error {text}")

    monkeypatch.setattr(store, "export_data", fail)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        export_progress(app)
        await settle(pilot, app)
        assert app.is_running
        assert any(f"Could not export: disk error {text}" in t for t in toasts(app))


@pytest.mark.parametrize("text", HOSTILE)
async def test_a_practice_answer_that_cannot_be_saved_says_why_as_written(make_app, store, monkeypatch, text):
    from study.progress import StoreError
    from study.tui.screens.practice import start_practice

    def fail(*_a: Any, **_k: Any) -> Any:
        raise StoreError(f"database at /tmp/{text}/progress.db is locked")

    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="2.1", count=5)
        await settle(pilot, app)
        screen = app.screen
        monkeypatch.setattr(store, "record_attempt", fail)
        assert screen.session.current.is_numeric_typed
        screen.view.number.value = "5"
        screen.view.number.focus()
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.is_running and app.screen is screen
        assert any(f"/tmp/{text}/progress.db is locked" in t for t in toasts(app))
