"""An answer given is kept, whatever ends the app right after: a browser tab closed in the instant of enter
makes `study serve` send the app "quit" (or SIGTERM) right behind the key, and the key waited in the
screen's queue while the app shut down (0 ms: 0 stored). The app now lets the screens handle what they
were sent before it exits."""

from __future__ import annotations

import asyncio

from textual import events, messages

from tests.tui.test_question_flow import open_practice


async def test_a_quit_right_behind_enter_still_records_the_answer(make_app, store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="1.1", count=1)
        assert screen.session.current.type in ("single", "true_false")
        for key, char in (("1", "1"), ("enter", "\r")):
            app.post_message(events.Key(key, char))
        app.post_message(messages.ExitApp())  # what the web driver posts for the server's "quit"
        for _ in range(3000):  # a hang guard (30 s), not a speed assertion: the app ends by itself
            if not app.is_running:
                break
            await asyncio.sleep(0.01)
        assert not app.is_running
    assert len(store.history()) == 1


async def test_quit_while_a_widget_is_busy_still_exits(make_app, monkeypatch):
    # App.exit() (the q key) stops Textual's timers, so an exit put back behind a timer never came: q at Home
    # while a toast was still being placed left the app running.
    import study.tui.app as app_module

    busy = iter([True, True, True])
    monkeypatch.setattr(app_module, "messages_waiting", lambda app: next(busy, False))
    app = make_app()
    async with app.run_test(size=(80, 24)):
        app.exit(7)
        for _ in range(3000):  # a hang guard (30 s), not a speed assertion
            if not app.is_running:
                break
            await asyncio.sleep(0.01)
        assert not app.is_running
    assert app.return_value == 7
    assert next(busy, None) is None  # each deferral asked again before the exit went through
