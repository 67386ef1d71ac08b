"""The app's automatic sync against a hostile LRS (tests/lrs/hostile.py): a failure is a toast and the
last error Settings shows; quitting while the LRS hangs ends the app and abandons the sync."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from textual.worker import WorkerState

from study.interop import lrs_http
from study.interop.lrs import statements_url
from tests.lrs.hostile import ESCAPES, TOKEN, Server
from tests.tui.conftest import settle
from tests.tui.test_after_a_set import messages
from tests.tui.test_results_review import finish_exam

FAST = lrs_http.Limits(request=0.4, total=2.0, connect=0.5, backoff=0.0)
# Long enough that only quitting can end the sync while the test runs.
PATIENT = lrs_http.Limits(request=3600.0, total=3600.0, connect=5.0, backoff=0.0)


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STUDY_LRS_TOKEN", TOKEN)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def turn_on(store: Any, url: str) -> None:
    store.set_setting("lrs_endpoint", statements_url(url))
    store.set_setting("lrs_auto_sync", True)


@pytest.mark.parametrize("mode", ["captive-portal", "escapes-in-error", "bad-status-line", "token-echo"])
async def test_a_failed_automatic_sync_is_a_toast_and_the_last_error(make_app, store, monkeypatch, mode):
    monkeypatch.setattr(lrs_http, "DEFAULT_LIMITS", FAST)
    with Server(mode) as lrs:
        turn_on(store, lrs.url)
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot, app)
            await finish_exam(pilot, app, "rw---")
            assert app.auto_sync_job.db == store.path
            await app.workers.wait_for_complete()
            await settle(pilot, app)
            [toast] = [m for m in messages(app) if "LRS" in m]
            assert toast.startswith("Sync to the LRS failed: the LRS at " + statements_url(lrs.url))
            assert TOKEN not in toast and ESCAPES not in toast and "\x1b" not in toast
            last = store.get_setting("lrs_last_error")
            assert last and TOKEN not in last and "\x1b" not in last
            assert toast.removeprefix("Sync to the LRS failed: ") in last
            from study.tui.screens.settings import SettingsScreen

            app.push_screen(SettingsScreen())
            await settle(pilot, app)
            shown = str(app.screen.query_one("#settings-lrs", Static).render())
            assert "last sync never" in " ".join(shown.split()) and "last failure" in shown
        assert lrs.seen  # it did try, after the finished set
        assert store.lrs_acked(statements_url(lrs.url)) == set()


async def test_quitting_while_the_lrs_hangs_ends_the_app_and_abandons_the_sync(make_app, store, bank, clock,
                                                                               monkeypatch):
    from study.progress import Attempt
    from study.tui.auto_sync import GROUP, start_auto_sync

    qid = bank.questions[0].id
    store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "A", True, 20.0, "practice", at=clock()))
    monkeypatch.setattr(lrs_http, "DEFAULT_LIMITS", PATIENT)
    # A hang guard for a broken test, not a speed figure: the sync itself would wait an hour.
    with Server("silence", lifetime=60) as lrs:
        turn_on(store, lrs.url)
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            job = start_auto_sync(app, store.path)
            await pilot.pause()
            worker = job.worker
            assert worker.group == GROUP, job.outcome
            for _ in range(400):
                if lrs.seen:
                    break
                await pilot.pause(0.05)
            assert lrs.seen and worker.state == WorkerState.RUNNING, (job.outcome, worker.state, worker.error)
            await pilot.press("ctrl+q")
        assert not app.is_running
        assert worker.state == WorkerState.CANCELLED and job.cancel.is_set()
        job.thread.join(30)
        assert not job.thread.is_alive()  # the cancel event shut the socket: the thread ended, not the hour
        assert job.outcome is not None and not job.outcome[0] and "stopped" in job.outcome[1]
        assert job.thread.daemon  # had it hung anyway, the interpreter would not wait for it at exit
    assert store.lrs_acked(statements_url(lrs.url)) == set()
