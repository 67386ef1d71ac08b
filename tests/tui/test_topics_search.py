"""Topics search: a search that finds nothing says so, quoting what was typed, instead of leaving the three
domains folded over nothing (which looked like a broken search)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static, Tree

from tests.tui.conftest import settle, tree_nodes


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


async def test_titles_from_the_bank_files_are_text_in_the_tree_and_the_card_frame(store, clock, tmp_path):
    """A topic or card title with '[b]' or '[/]' in its file was read as Textual markup by the tree and the
    card's frame: '[b]' vanished and '[/]' ended the app with a MarkupError."""
    import shutil

    from study.bank import load_bank
    from study.tui.app import make_app

    from tests.tui.conftest import DATA

    shutil.copytree(DATA, tmp_path / "data")
    topic = tmp_path / "data" / "content" / "topics" / "fx-nvlink-scope.md"
    text = topic.read_text().replace("title: Scale up and scale out", "title: Scale [b]up[/b] and [/] out")
    topic.write_text(text.replace("## Between nodes {#between}", "## Between [b]nodes[/b] {#between}"))
    bank = load_bank(questions=[tmp_path / "data" / "questions"], content=tmp_path / "data" / "content")
    app = make_app(bank=bank, store=store, clock=clock, seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await settle(pilot, app)
        app.screen.query_one("#topics-search").value = "between"
        await settle(pilot, app)
        labels = [str(node.label) for node in tree_nodes(app.screen.query_one(Tree))]
        assert "Scale [b]up[/b] and [/] out" in labels and "Between [b]nodes[/b]" in labels
        app.screen.show("card", "fx-nvlink-scope/between")
        await settle(pilot, app)
        assert app.is_running
        from textual.content import Content

        title = app.screen.query_one("#topics-card").border_title  # given back as markup
        assert Content.from_markup(title).plain.strip() == "Scale [b]up[/b] and [/] out"
