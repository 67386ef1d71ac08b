"""The footer is rebuilt once for a burst of binding changes, and shows the keys of the last one."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from study.tui.widgets.footer import StudyFooter


def _app(footer_class: type[Footer]) -> App[Any]:
    class Counter(Screen):
        BINDINGS = [Binding("a", "apples", "Apples"), Binding("c", "cherries", "Cherries")]
        cherries = False

        def compose(self) -> ComposeResult:
            yield Static("fruit")
            yield footer_class()

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            return self.cherries or action != "cherries"

        def action_apples(self) -> None:
            pass

        def action_cherries(self) -> None:
            pass

    class One(App[Any]):
        def get_default_screen(self) -> Screen:
            return Counter()

    return One()


async def _rebuilds(footer_class: type[Footer], monkeypatch: Any) -> tuple[int, int, set[str]]:
    """Rebuilds as the screen starts, rebuilds after five binding changes in a row, the keys shown then."""
    count = 0
    original = Footer.recompose

    async def counted(self: Footer) -> None:
        nonlocal count
        count += 1
        await original(self)

    monkeypatch.setattr(Footer, "recompose", counted)
    app = _app(footer_class)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        at_start = count
        screen = app.screen
        assert "c" not in {k.key for k in screen.query(FooterKey)}
        screen.cherries = True  # type: ignore[attr-defined]
        for _ in range(5):
            screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        keys = {k.key for k in screen.query(FooterKey)}
    return at_start, count - at_start, keys


async def test_a_burst_of_binding_changes_rebuilds_the_footer_once_with_the_last_keys(monkeypatch) -> None:
    plain_start, plain_burst, plain_keys = await _rebuilds(Footer, monkeypatch)
    monkeypatch.undo()
    start, burst, keys = await _rebuilds(StudyFooter, monkeypatch)
    assert start <= plain_start and burst == 1 < plain_burst, (plain_start, plain_burst, start, burst)
    assert keys == plain_keys
    assert "c" in keys
