"""The app keeps a learner's answers when the store file is deleted while it runs (issue 19, defect 12):
it says so in a toast and records into a store recreated at its path."""

from __future__ import annotations

import sqlite3

from tests.tui.conftest import settle


async def test_answers_after_the_store_is_deleted_are_kept_and_the_learner_told(make_app, store, store_path):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert start_practice(app, objective="2.1", count=2)
        await settle(pilot, app)
        for side in (store_path, store_path.with_name(store_path.name + "-wal"),
                     store_path.with_name(store_path.name + "-shm")):
            side.unlink(missing_ok=True)
        await pilot.press(*"1.34 GB", "enter")
        await settle(pilot, app)
        toasts = [str(n.message) for n in app._notifications]
        assert any("was deleted" in t and "go on being recorded" in t for t in toasts), toasts
        assert app.screen.grades  # the learner got the feedback, as before
    store.close()
    conn = sqlite3.connect(store_path)
    try:
        assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 1
    finally:
        conn.close()
