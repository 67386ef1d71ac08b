"""A screen is laid out for each new size and each change inside it, not for every resize notice Textual sends
(study/tui/screens/base.py): fewer layouts as a screen starts, and a resized screen still fills the new size."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from study.tui.screens.base import StudyScreen


def _content() -> ComposeResult:
    yield Header()
    yield Static("Exam in 12 days", id="line")
    yield Static("Reviews due: 4")
    yield Footer()


class PlainScreen(Screen):
    compose = staticmethod(_content)  # type: ignore[assignment]


class SteadyScreen(StudyScreen):
    compose = staticmethod(_content)  # type: ignore[assignment]


def _app_with(screen_class: type[Screen]) -> App[Any]:
    class One(App[Any]):
        def get_default_screen(self) -> Screen:
            return screen_class()

    return One()


async def _layouts(screen_class: type[Screen], monkeypatch: Any) -> tuple[list[Size], int]:
    """The sizes of the whole-screen layouts as the screen starts, then after a resize to 100x30 (and the
    width the line got there)."""
    sizes: list[Size] = []
    original = Screen._refresh_layout

    def counted(self: Screen, size: Size | None = None, scroll: bool = False) -> None:
        if isinstance(self, screen_class) and not scroll:
            sizes.append(size or self.outer_size)
        original(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    app = _app_with(screen_class)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        at_start = list(sizes)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        width = app.screen.query_one("#line").region.width
    return at_start + [Size(-1, -1)] + sizes[len(at_start):], width


async def test_textual_still_has_the_hook_the_screens_override() -> None:
    assert callable(getattr(Screen, "_screen_resized", None)), "Textual renamed Screen._screen_resized"
    assert StudyScreen._screen_resized is not Screen._screen_resized


async def test_a_starting_screen_is_laid_out_fewer_times_and_a_resize_still_lays_it_out(monkeypatch) -> None:
    plain, plain_width = await _layouts(PlainScreen, monkeypatch)
    monkeypatch.undo()
    steady, steady_width = await _layouts(SteadyScreen, monkeypatch)
    plain_start, steady_start = plain[:plain.index(Size(-1, -1))], steady[:steady.index(Size(-1, -1))]
    assert len(steady_start) < len(plain_start), (plain_start, steady_start)
    # Laid out at the start size, and again at the new one: the line fills the new width as it did before.
    assert Size(80, 24) in steady_start
    assert Size(100, 30) in steady[steady.index(Size(-1, -1)):]
    assert steady_width == plain_width == 100
