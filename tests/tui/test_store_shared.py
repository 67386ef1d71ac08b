"""The real app (through the Pilot, in this process) and `study` commands in other processes on one store:
a learner finishes a set in the app, runs `study plan` and a plain quiz in a second terminal, goes on in
the app and quits. Every answer of both must be in the store.

This is how 8 answers went missing: after a finished set the app opened the store a second time to read
the sync setting, and that raw check's close dropped the app's SQLite locks (``study.held_files``)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from tests.soak.drivers import WAIT_S, env_for, plain_quiz, study
from tests.tui.conftest import settle
from tests.tui.test_results_review import finish_exam

pytestmark = pytest.mark.slow


async def test_the_app_and_commands_beside_it_keep_every_answer(make_app, store, tmp_path):
    db = store.path
    env = env_for(tmp_path)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await finish_exam(pilot, app, "rwrwr")
        await app.workers.wait_for_complete()  # the results are saved, the sync check ran
        assert await asyncio.to_thread(lambda: study(db, env, "plan").wait(WAIT_S)) == 0
        beside = await asyncio.to_thread(plain_quiz, db, env, 2, 11)
        await pilot.press("escape")
        await settle(pilot, app)
        await finish_exam(pilot, app, "wwrrw")
        await app.workers.wait_for_complete()
        assert await asyncio.to_thread(lambda: study(db, env, "stats").wait(WAIT_S)) == 0
    store.close()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    modes = dict(conn.execute("SELECT mode, count(*) FROM attempts GROUP BY mode").fetchall())
    assert modes == {"exam": 10, "practice": beside}
    assert [p.name for p in db.parent.iterdir() if ".corrupt-" in p.name] == []


async def test_with_sync_off_a_finished_set_opens_no_second_connection(make_app, store, monkeypatch):
    from study.progress.store_handle import StoreHandle

    opened: list[object] = []
    real = StoreHandle.__init__

    def counting(self, *args, **kwargs):
        opened.append(args[0] if args else kwargs.get("path"))
        real(self, *args, **kwargs)

    monkeypatch.setattr(StoreHandle, "__init__", counting)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await finish_exam(pilot, app, "rw-r-")
        await app.workers.wait_for_complete()
        assert getattr(app, "auto_sync_job", None) is None
    assert opened == []  # the app asked its own connection for the setting
