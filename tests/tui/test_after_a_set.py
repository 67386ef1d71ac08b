"""What happens around a set in the app: a full disk while answering, an abandoned exam counted rather than
dropped, and the learner's automatic sync to their LRS after a finished set (shown in Settings too)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from tests.tui.conftest import settle
from tests.tui.test_results_review import finish_exam


class FullDisk:
    """The real store whose answer writes fail as on a full disk, once ``full`` is set."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.full = False

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if name not in ("record_attempt", "save_session") or not self.full:
            return real

        def write(*args: Any, **kwargs: Any) -> Any:
            from study.progress import StoreError

            raise StoreError("database or disk is full")

        return write


def messages(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_a_full_disk_while_practising_says_so_and_shows_the_feedback(make_app, store):
    from study.tui.screens.practice import PracticeScreen, start_practice

    disk = FullDisk(store)
    app = make_app(store=disk)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="2.1", count=2)
        await settle(pilot, app)
        disk.full = True
        screen = app.screen
        assert isinstance(screen, PracticeScreen)
        typed = "140 GB" if screen.session.current.qid == "fx-d2-fp16-weights" else "0.67 GB"
        await pilot.press(*typed, "enter")
        await settle(pilot, app)
        assert any("Could not save this answer to your progress (database or disk is full)" in m
                   for m in messages(app))
        assert screen.answered and app.screen is screen  # the feedback is shown and the set goes on
    assert store.history() == []


async def test_a_full_disk_during_an_exam_says_so_and_the_exam_goes_on(make_app, store):
    from study.tui.screens.exam import ExamScreen, start_exam

    disk = FullDisk(store)
    app = make_app(store=disk)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_exam(app, 3)
        await settle(pilot, app)
        disk.full = True
        screen = app.screen
        assert isinstance(screen, ExamScreen)
        if screen.session.current.is_numeric_typed:
            await pilot.press("1", "enter")
        else:
            await pilot.press("1")
        await settle(pilot, app)
        assert any("Could not save to your progress (database or disk is full); the exam goes on" in m
                   for m in messages(app))
        assert app.screen is screen and not screen.session.finished


async def test_an_abandoned_exam_can_be_counted_as_it_stands(make_app, store, bank, clock):
    from study.quiz import build_exam
    from study.tui.screens.results import ResultsScreen

    session = build_exam(bank, 5, 5, store=store, clock=clock)
    session.answer(session.current.correct_labels[0])
    clock.advance(minutes=2)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("c", "y")  # "Submit as it is", then yes: it asks first (issue 20)
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        await app.workers.wait_for_complete()
    assert store.active_session("exam") is None
    [done] = store.exam_history()
    assert done.report["total"] == 5 and len(store.history()) == 1  # one answer; four blanks, not attempts


async def test_a_finished_set_syncs_when_the_learner_turned_it_on(make_app, store, monkeypatch):
    import study.interop.sync as sync

    calls: list[Any] = []

    def fake_auto_sync(db: Any, bank: Any = None, **_options: Any) -> tuple[bool, str]:
        calls.append(db)
        return True, "Synced 5 statements to the LRS"

    monkeypatch.setattr(sync, "auto_sync", fake_auto_sync)
    store.set_setting("lrs_endpoint", "http://127.0.0.1:9/xAPI/statements")
    store.set_setting("lrs_auto_sync", True)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await finish_exam(pilot, app, "rw---")
        await app.workers.wait_for_complete()
        await settle(pilot, app)
        assert calls == [store.path]
        assert "Synced 5 statements to the LRS" in messages(app)


async def test_settings_show_where_statements_go_and_the_last_failure(make_app, store):
    store.set_setting("lrs_endpoint", "http://127.0.0.1:8100/xAPI/statements")
    store.set_setting("lrs_last_error", "2026-12-01T09:00:00Z the LRS did not answer")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        shown = str(app.screen.query_one("#settings-lrs", Static).render())
        assert "LRS http://127.0.0.1:8100/xAPI/statements: last sync never, automatic sync off" in shown
        assert "last failure 2026-12-01T09:00:00Z the LRS did not answer" in shown
