"""Fixtures for the TUI tests: a small fixed bank, a fresh store per test, a clock the test moves by hand."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any
from collections.abc import Callable

import pytest

DATA = Path(__file__).parent / "data"
START = dt.datetime(2026, 11, 30, 9, 0, tzinfo=dt.timezone.utc)


class FrozenClock:
    """Time stands still until the test advances it; the app and the quiz engine read it."""

    def __init__(self, start: dt.datetime = START) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += dt.timedelta(**kwargs)


@pytest.fixture
def bank() -> Any:
    from study.bank import load_bank

    return load_bank(questions=[DATA / "questions"], content=DATA / "content")


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock()


@pytest.fixture
def store_path(tmp_path: Path) -> Path:
    return tmp_path / "progress.db"


@pytest.fixture
def store(store_path: Path) -> Any:
    from study.progress import open_store

    # No interval fuzz: due dates (and so the figures on screen) must not vary between runs.
    s = open_store(store_path, fuzz=False)
    yield s
    s.close()


@pytest.fixture
def make_app(bank: Any, store: Any, clock: FrozenClock) -> Callable[..., Any]:
    from study.tui.app import make_app as factory

    def build(**overrides: Any) -> Any:
        kwargs = {"bank": bank, "store": store, "clock": clock, "seed": 7, **overrides}
        return factory(**kwargs)

    return build


async def settle(pilot: Any, app: Any) -> None:
    """Let queued messages, screen switches and workers finish."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def no_blink(app: Any) -> None:
    from textual.widgets import Input

    for screen in app.screen_stack:
        for widget in screen.query(Input):
            widget.cursor_blink = False


def answered(store: Any, bank: Any, clock: FrozenClock, qid: str, given: str = "B", correct: bool = False,
             days: float = 3) -> None:
    """``qid`` answered in practice ``days`` ago (wrong by default, so it is due for review now)."""
    from study.progress import Attempt

    store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, given, correct, 30.0, "practice",
                                 at=clock.now - dt.timedelta(days=days)))


def tree_nodes(tree: Any) -> list[Any]:
    """Every node below the root of a Textual ``Tree``, expanded or not, in display order."""
    nodes: list[Any] = []

    def walk(node: Any) -> None:
        for child in node.children:
            nodes.append(child)
            walk(child)

    walk(tree.root)
    return nodes
