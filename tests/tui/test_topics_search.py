"""Topics search: a search that finds nothing says so, quoting what was typed, instead of leaving the three
domains folded over nothing (which looked like a broken search)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static, Tree

from tests.tui.conftest import settle


def nothing_line(app: Any) -> Static:
    return app.screen.query_one("#topics-nothing", Static)


@pytest.mark.parametrize("typed", ["zzqx", "[/]", "a\x1b[2Jb"])
async def test_a_search_without_matches_says_nothing_matched(make_app, typed):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await settle(pilot, app)
        assert not nothing_line(app).display
        await pilot.press("slash")
        app.screen.query_one("#topics-search").value = typed
        await settle(pilot, app)
        assert app.is_running
        assert not app.screen.query_one(Tree).root.children  # no domain folded over nothing
        line = nothing_line(app)
        assert line.display and line.region.area  # on screen, under the search box
        text = str(line.render())
        assert "No topic or card mentions" in text
        assert ("a\\x1b[2Jb" if "\x1b" in typed else typed) in text

        app.screen.query_one("#topics-search").value = "between"
        await settle(pilot, app)
        assert not nothing_line(app).display
        assert [n.data for n in app.screen.query_one(Tree).root.children] == [("domain", "2")]  # only the domain with a hit
