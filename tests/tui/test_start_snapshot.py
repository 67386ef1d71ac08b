"""Start-up paints the home figures from the last run's snapshot when nothing they depend on changed, and
only then: any recorded answer, edited bank file, new day or an hour's age means computing them afresh."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.tui.conftest import DATA, FrozenClock, settle


@pytest.fixture
def bank_dir(tmp_path: Path) -> Path:
    target = tmp_path / "bank"
    shutil.copytree(DATA / "questions", target / "questions")
    shutil.copytree(DATA / "content", target / "content")
    return target


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("STUDY_WATCH", "0")
    return tmp_path / "cache"


def services(bank_dir: Path, db: Path, clock: Any) -> Any:
    from study.tui.services import Services

    s = Services(db=str(db), questions=[str(bank_dir / "questions")], content=str(bank_dir / "content"),
                 watch=False)
    s.clock = clock
    return s


def computed(bank_dir: Path, db: Path, clock: Any) -> tuple[Any, dict[str, Any]]:
    from study.tui import summary

    s = services(bank_dir, db, clock)
    s.load()
    return s, summary.home(s)


def test_a_snapshot_comes_back_only_while_nothing_changed(bank_dir, cache_home, tmp_path):
    from study.progress import Attempt
    from study.tui import snapshot

    clock = FrozenClock()
    db = tmp_path / "progress.db"
    s, data = computed(bank_dir, db, clock)
    snapshot.save(s, data)
    fresh = services(bank_dir, db, clock)
    again = snapshot.load(fresh)
    assert again is not None
    assert again["countdown"] == data["countdown"] and again["readiness_rows"] == data["readiness_rows"]
    assert again["next_rows"] == [tuple(r) for r in data["next_rows"]] and again["today_date"] == data["today_date"]

    clock.advance(minutes=59)
    assert snapshot.load(fresh) is not None
    clock.advance(minutes=2)  # an hour old: recall has moved on
    assert snapshot.load(fresh) is None
    clock.advance(minutes=-61)

    qid = s.bank.questions[0].id
    s.store.record_attempt(Attempt(qid, s.bank.content_hash(qid), {}, "A", True, 30.0, "practice", at=clock.now))
    assert snapshot.load(fresh) is None  # the store changed
    snapshot.save(s, summary_of(s))
    assert snapshot.load(fresh) is not None
    s.store.set_setting("daily_goal", 30)
    assert snapshot.load(fresh) is None  # so did a setting
    snapshot.save(s, summary_of(s))

    question_file = next((bank_dir / "questions").rglob("*.yaml"))
    question_file.write_text(question_file.read_text() + "\n")
    assert snapshot.load(fresh) is None  # an edited bank file
    s.store.close()


def summary_of(s: Any) -> dict[str, Any]:
    from study.tui import summary

    return summary.home(s)


async def test_the_second_start_paints_the_figures_before_the_bank_loads(bank_dir, cache_home, tmp_path):
    from study.tui.app import StudyApp

    clock = FrozenClock()
    db = tmp_path / "progress.db"
    first = StudyApp(services(bank_dir, db, clock))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot, first)
        figures = str(first.screen.query_one("#home-countdown").render())
        assert "Readiness" in figures
    first.services.store.close()
    assert list(cache_home.rglob("home-snapshot.json"))

    second = StudyApp(services(bank_dir, db, clock))
    second._start_loading = lambda: None  # the bank and store never load: what shows is the snapshot
    async with second.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not second.ready
        assert str(second.screen.query_one("#home-countdown").render()) == figures


async def test_injected_services_never_use_a_snapshot(make_app, cache_home):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
    assert not app.use_snapshot and not list(cache_home.rglob("home-snapshot.json"))


async def test_a_chosen_light_theme_shows_from_the_first_paint_of_the_next_start(bank_dir, cache_home, tmp_path):
    from study.progress import open_store
    from study.tui.app import StudyApp

    clock = FrozenClock()
    db = tmp_path / "progress.db"
    with open_store(db) as store:
        store.set_setting("theme", "light")
    first = StudyApp(services(bank_dir, db, clock))
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot, first)
        assert first.theme == "textual-light"
    first.services.store.close()

    second = StudyApp(services(bank_dir, db, clock))
    second._start_loading = lambda: None  # before the store loads, the theme is already the chosen one
    async with second.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not second.ready and second.theme == "textual-light"

    with open_store(db) as store:
        store.set_setting("theme", None)  # back to the default, say from `study settings`: the store decides
    third = StudyApp(services(bank_dir, db, clock))
    async with third.run_test(size=(80, 24)) as pilot:
        await settle(pilot, third)
        assert third.theme == "textual-dark"
    third.services.store.close()
    fourth = StudyApp(services(bank_dir, db, clock))
    fourth._start_loading = lambda: None
    async with fourth.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert fourth.theme == "textual-dark"


def test_a_damaged_or_odd_theme_file_is_ignored(cache_home):
    from study.tui import snapshot

    assert snapshot.remembered_theme() is None
    snapshot.remember_theme("textual-light")
    assert snapshot.remembered_theme() == "textual-light"
    path = next(cache_home.rglob("theme.txt"))
    for junk in (b"\xff\xfe", b"$(rm -rf ~)", b"x" * 10_000):
        path.write_bytes(junk)
        assert snapshot.remembered_theme() is None
