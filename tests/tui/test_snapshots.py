"""SVG snapshots of every screen at 80x24 and 120x40, frozen clock, fixed seed, no cursor blink.

Update after an intended change with ``pytest tests/tui/test_snapshots.py --snapshot-update`` and look at the
SVGs in ``tests/tui/__snapshots__/`` before committing them.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any
from collections.abc import Awaitable, Callable

import pytest

from tests.tui.conftest import DATA, no_blink, settle

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def seed_history(store: Any, bank: Any, clock: Any) -> None:
    """A few weeks of activity, some cards reviewed and an exam date, so home and progress have shapes."""
    from study.progress import Attempt, Rating

    store.set_setting("exam_date", (clock.now.date() + dt.timedelta(days=24)).isoformat())
    qids = [q.id for q in bank.questions]
    for day in range(1, 40, 3):
        at = clock.now - dt.timedelta(days=day, hours=2)
        for k, qid in enumerate(qids[: 1 + day % 4]):
            store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "A", (day + k) % 3 != 0, 40.0,
                                         "practice", at=at))
    for card in bank.cards[:2]:
        store.review_card(card.id, bank.content_hash(card.id), Rating.Good, 30.0,
                          clock.now - dt.timedelta(days=6))


async def _finish(pilot: Any) -> None:
    await settle(pilot, pilot.app)
    pilot.app.clear_notifications()
    no_blink(pilot.app)
    await settle(pilot, pilot.app)


def scenario(fn: Callable[[Any], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
    @functools.wraps(fn)
    async def run(pilot: Any) -> None:
        await settle(pilot, pilot.app)
        await fn(pilot)
        await _finish(pilot)

    return run


@scenario
async def home(pilot: Any) -> None:
    pass


@scenario
async def topics(pilot: Any) -> None:
    await pilot.press("t")
    await settle(pilot, pilot.app)
    pilot.app.screen.show("card", "fx-nvlink-scope/between")


@scenario
async def review(pilot: Any) -> None:
    await pilot.press("r")
    await settle(pilot, pilot.app)
    await pilot.press("space")


@scenario
async def practice(pilot: Any) -> None:
    from study.tui.screens.practice import start_practice

    start_practice(pilot.app, objective="2.1", count=2)
    await settle(pilot, pilot.app)
    screen = pilot.app.screen
    answer = "140 GB" if screen.session.current.qid == "fx-d2-fp16-weights" else "0.67 GB"
    await pilot.press(*answer, "enter")


async def _exam_keys(pilot: Any, *keys: str) -> None:
    """Exam keys pressed as commands: a typed question's number box has the focus and would take "f" or
    "r" as text, and which questions an exam draws depends on the history (fresh ones first)."""
    from textual.widgets import Input

    for key in keys:
        if isinstance(pilot.app.focused, Input):
            pilot.app.screen.set_focus(None)
        await pilot.press(key)
        await settle(pilot, pilot.app)


@scenario
async def exam(pilot: Any) -> None:
    from study.tui.screens.exam import start_exam

    start_exam(pilot.app, 5)
    await settle(pilot, pilot.app)
    await _exam_keys(pilot, "1", "n", "f", "g")


@scenario
async def exam_review(pilot: Any) -> None:
    from study.tui.screens.exam import start_exam

    start_exam(pilot.app, 5)
    await settle(pilot, pilot.app)
    await _exam_keys(pilot, "1", "n", "f", "n", "2", "r")


@scenario
async def results(pilot: Any) -> None:
    from study.tui.screens.exam import start_exam

    start_exam(pilot.app, 5)
    await settle(pilot, pilot.app)
    await _exam_keys(pilot, "1", "n", "2", "n", "f", "r", "s", "y")


@scenario
async def answer_review(pilot: Any) -> None:
    await results.__wrapped__(pilot)
    await settle(pilot, pilot.app)
    await pilot.press("a")


@scenario
async def report_dialog(pilot: Any) -> None:
    await results.__wrapped__(pilot)
    await settle(pilot, pilot.app)
    await pilot.press("R", "1")


@scenario
async def calculator(pilot: Any) -> None:
    await pilot.press("c")
    await settle(pilot, pilot.app)
    pilot.app.screen.query_one("#c-batch").value = "8"


@scenario
async def progress(pilot: Any) -> None:
    await pilot.press("percent_sign")


@scenario
async def settings(pilot: Any) -> None:
    await pilot.press("comma")


@scenario
async def help_screen(pilot: Any) -> None:
    await pilot.press("question_mark")


@scenario
async def problems(pilot: Any) -> None:
    pilot.app.action_open("problems")


@scenario
async def practice_setup(pilot: Any) -> None:
    await pilot.press("p")


@scenario
async def exam_start(pilot: Any) -> None:
    await pilot.press("e")


SCENARIOS = [home, topics, review, practice_setup, practice, exam_start, exam, exam_review, results, answer_review,
             report_dialog, calculator,
             progress, settings, help_screen, problems]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("run_before", SCENARIOS, ids=[s.__name__ for s in SCENARIOS])
def test_screen(snap_compare, make_app, store, bank, clock, size, run_before) -> None:
    seed_history(store, bank, clock)
    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24")])
def test_light_theme_from_settings(snap_compare, make_app, store, bank, clock, size) -> None:
    seed_history(store, bank, clock)
    store.set_setting("theme", "light")
    app = make_app()
    assert snap_compare(app, terminal_size=size, run_before=home)
    assert app.theme == "textual-light"


@pytest.mark.parametrize("size", SIZES)
def test_resume_offer(snap_compare, make_app, store, bank, clock, size) -> None:
    """An exam interrupted two minutes in: the app opens with the offer and the time left."""
    from study.quiz import build_exam

    session = build_exam(bank, 5, 5, store=store, clock=clock)
    session.answer(session.current.correct_labels[0])
    clock.advance(minutes=2)
    session.flag()
    assert store.active_session("exam") is not None
    assert snap_compare(make_app(), terminal_size=size, run_before=home)


@scenario
async def table_card(pilot: Any) -> None:
    await pilot.press("t")
    await settle(pilot, pilot.app)
    pilot.app.screen._move_cursor_to(("card", "fx-fabrics/glance"))
    await settle(pilot, pilot.app)
    await pilot.press("enter")  # at 80 columns the card takes the whole width; at 120 it sits beside the tree


@scenario
async def table_review(pilot: Any) -> None:
    await pilot.press("r")
    await settle(pilot, pilot.app)
    await pilot.press("n", "space")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("run_before", [table_card, table_review], ids=["topics", "review"])
def test_card_with_a_wide_table(snap_compare, make_app, size, run_before) -> None:
    """A table wider than 80 columns in its source: compact, wrapped at word boundaries, nothing cut."""
    from study.bank import load_bank

    bank = load_bank(questions=[DATA / "questions"], content=DATA / "tables")
    assert snap_compare(make_app(bank=bank), terminal_size=size, run_before=run_before)


@scenario
async def problems_list(pilot: Any) -> None:
    await pilot.press("exclamation_mark")


@scenario
async def problems_source(pilot: Any) -> None:
    await pilot.press("exclamation_mark")
    await settle(pilot, pilot.app)
    await pilot.press("down", "down", "enter")  # the YAML tab error: its line, with a caret under column 1


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("run_before", [problems_list, problems_source], ids=["list", "source"])
def test_problems_with_long_messages(snap_compare, make_app, monkeypatch, size, run_before) -> None:
    """Every message whole at 80 columns, wrapped under its file:line:col; Enter shows the source line."""
    from study.bank import load_bank

    # Relative paths in the diagnostics, whatever folder the tests run from.
    monkeypatch.chdir(DATA)
    bank = load_bank(questions=["questions", "broken"], content="content")
    assert len(bank.errors) == 3
    assert snap_compare(make_app(bank=bank), terminal_size=size, run_before=run_before)
