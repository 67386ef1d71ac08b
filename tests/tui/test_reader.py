"""Cards are read on an 80x24 terminal: the Topics screen gives an open card the whole width, and Markdown
tables wrap their cells at word boundaries instead of cutting them to "…"."""

from __future__ import annotations

from typing import Any

import pytest
from rich.cells import cell_len
from textual.geometry import Region
from textual.widgets import Input, Markdown, Tree
from textual.widgets._markdown import MarkdownTableCellContents, MarkdownTableContent

from tests.tui.conftest import DATA, settle, tree_nodes

NARROW = (80, 24)
WIDE = (120, 40)


def rendered_lines(widget: Any) -> list[str]:
    """The lines a widget draws at its laid-out size, whether or not it is scrolled into view."""
    width, height = widget.outer_size  # size is only the content box, without the padding
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def table_problems(md: Markdown, card_id: str) -> list[str]:
    """Every way the tables of ``md`` fail to show their cells whole: an ellipsis the source does not have,
    a word of the source that no rendered line of its cell holds (cut or folded), or a cell drawn outside the
    Markdown widget (off the right edge)."""
    problems = []
    right = md.content_region.right
    for table in md.query(MarkdownTableContent):
        for cell in table.query_children(MarkdownTableCellContents):
            source = cell.render().plain
            lines = rendered_lines(cell)
            text = " ".join(lines)
            if "…" in text and "…" not in source:
                problems.append(f"{card_id}: {source!r} drawn as {lines!r}")
            cut = [word for word in source.split() if not any(word in line for line in lines)]
            if cut:
                problems.append(f"{card_id}: {source!r} breaks {cut} in {lines!r}")
            if cell.region.right > right:
                problems.append(f"{card_id}: {source!r} ends at column {cell.region.right}, past {right}")
    return problems


async def wait_for_tables(pilot: Any, md: Markdown) -> None:
    """A new card mounts its blocks, then each table sets its column widths once it knows its own width."""
    await pilot.pause()
    for _ in range(20):
        tables = list(md.query(MarkdownTableContent))
        if all(table.size.width and getattr(table, "_spec", None) for table in tables):
            break
        await pilot.pause()
    await pilot.pause()


async def open_topics(pilot: Any, app: Any) -> None:
    await settle(pilot, app)
    await pilot.press("t")
    await settle(pilot, app)


async def highlight(pilot: Any, app: Any, data: tuple[str, str]) -> None:
    app.screen._move_cursor_to(data)
    await settle(pilot, app)
    assert app.screen.query_one(Tree).cursor_node.data == data


# The whole bank's cards in this many parts, so xdist spreads them over the workers instead of one long test.
CARD_CHUNKS = 4


def test_the_shipped_bank_has_tables_to_check() -> None:
    from study.bank import load_bank

    # The chunked check below is only worth something if the bank has tables to check.
    assert len([card for card in load_bank().cards if "\n|" in "\n" + card.body]) > 20


@pytest.mark.parametrize("chunk", range(CARD_CHUNKS))
async def test_every_shipped_card_shows_its_tables_whole_at_80x24(store: Any, chunk: int) -> None:
    """The real bank, the real Topics screen: the first card of the chunk is opened with enter on the tree,
    the others are shown in the same opened panel (as ] does), and every table cell must be readable."""
    from study.bank import load_bank
    from study.tui.app import make_app

    bank = load_bank()
    with_tables = [card for card in bank.cards if "\n|" in "\n" + card.body][chunk::CARD_CHUNKS]
    assert with_tables
    app = make_app(bank=bank, store=store, seed=7, watch=False, poll_seconds=None)
    async with app.run_test(size=NARROW) as pilot:
        await open_topics(pilot, app)
        screen = app.screen
        first = with_tables[0]
        await highlight(pilot, app, ("card", first.id))
        await pilot.press("enter")
        md = screen.query_one("#topics-markdown", Markdown)
        panel = screen.query_one("#topics-card")
        assert panel.outer_size.width == app.size.width  # the whole width
        problems: list[str] = []
        tables_seen = 0
        for card in with_tables:
            if card is not first:
                screen.show("card", card.id)
            await wait_for_tables(pilot, md)
            assert card.body.splitlines()[0].strip() in md.source
            tables_seen += len(md.query(MarkdownTableContent))
            problems += table_problems(md, card.id)
        assert tables_seen >= len(with_tables)
        assert not problems, "\n".join(problems)


async def test_review_card_tables_are_whole_and_compact(make_app: Any, store: Any) -> None:
    """In Review the card is full width; a table takes its header, one rule and one line per row when the
    rows fit (no rule between rows), and wraps rather than cuts when they do not."""
    from study.bank import load_bank

    bank = load_bank(questions=[DATA / "questions"], content=DATA / "tables")
    app = make_app(bank=bank)
    async with app.run_test(size=NARROW) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("l")
        await settle(pilot, app)
        await pilot.press("space")
        md = app.screen.query_one("#review-card-md", Markdown)
        await wait_for_tables(pilot, md)
        assert "Fabrics at a glance" in md.source
        assert table_problems(md, "fx-fabrics/glance") == []
        table = md.query_one(MarkdownTableContent)
        # 5 rows, each wrapped to at most 3 lines at 80 columns, a 1-line header and its rule: at most 17;
        # with a rule between rows (Textual's default) it would be 5 rows + 4 rules + header + 2 rules more.
        header_lines = max(len(rendered_lines(c)) for c in table.query_children(".header"))
        assert table.size.height <= header_lines + 5 * 3
        # No row of the table is only a rule: the header's underline is the only one.
        rules = [line for line in rendered_lines(table) if line.strip() and set(line.strip()) <= set("─ ")]
        assert len(rules) <= 1

    # And on a wide terminal nothing wraps: header, rule and one line per row.
    app = make_app(bank=bank)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("l", "space")
        md = app.screen.query_one("#review-card-md", Markdown)
        await wait_for_tables(pilot, md)
        table = md.query_one(MarkdownTableContent)
        assert table.size.height == 1 + 1 + 5


async def test_enter_opens_a_card_full_width_and_escape_returns_to_the_tree(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await open_topics(pilot, app)
        screen = app.screen
        side = screen.query_one("#topics-side")
        panel = screen.query_one("#topics-card")
        tree = screen.query_one(Tree)
        card = ("card", "fx-nvlink-scope/between")
        await highlight(pilot, app, card)
        assert side.display and panel.size.width < app.size.width // 2 + 10  # browsing: side by side
        await pilot.press("enter")
        await settle(pilot, app)
        assert not side.display and panel.outer_size.width == app.size.width
        assert app.focused is panel
        assert screen.selected == card

        await pilot.press("backslash")  # the tree back, the card still open beside it
        await settle(pilot, app)
        assert side.display and app.focused is tree and tree.cursor_node.data == card
        await pilot.press("backslash")
        await settle(pilot, app)
        assert not side.display

        await pilot.press("escape")
        await settle(pilot, app)
        assert side.display and app.focused is tree
        assert tree.cursor_node.data == card and screen.selected == card
        assert "InfiniBand" in screen.query_one("#topics-markdown", Markdown).source

        await pilot.press("enter")  # and backspace works like escape
        await settle(pilot, app)
        assert not side.display
        await pilot.press("backspace")
        await settle(pilot, app)
        assert side.display and tree.cursor_node.data == card

        await pilot.press("escape")  # with the tree shown, escape leaves the screen
        await settle(pilot, app)
        assert type(app.screen).__name__ != "TopicsScreen"


async def test_next_card_and_search_from_a_full_width_card(make_app: Any, bank: Any) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await open_topics(pilot, app)
        screen = app.screen
        order = [n.data for n in tree_nodes(screen.query_one(Tree)) if n.data and n.data[0] == "card"]
        assert len(order) == len(bank.cards) >= 3
        await highlight(pilot, app, order[0])
        await pilot.press("enter")
        await settle(pilot, app)
        for expected in order[1:]:  # ] crosses topics and keeps the card full width
            await pilot.press("right_square_bracket")
            await settle(pilot, app)
            assert screen.selected == expected
            assert not screen.query_one("#topics-side").display
        await pilot.press("left_square_bracket")
        await settle(pilot, app)
        assert screen.selected == order[-2]
        assert screen.query_one(Tree).cursor_node.data == order[-2]

        await pilot.press("slash")  # search brings the tree back with the box focused
        await settle(pilot, app)
        assert screen.query_one("#topics-side").display
        assert app.focused is screen.query_one("#topics-search", Input)
        await pilot.press(*"between")
        await settle(pilot, app)
        assert screen.query_one(Tree).root.children


@pytest.mark.parametrize("size", [WIDE])
async def test_wide_terminal_keeps_tree_and_card_side_by_side(make_app: Any, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_topics(pilot, app)
        screen = app.screen
        card = ("card", "fx-nvlink-scope/between")
        await highlight(pilot, app, card)
        await pilot.press("enter")
        await settle(pilot, app)
        side, panel = screen.query_one("#topics-side"), screen.query_one("#topics-card")
        assert side.display and panel.size.width >= 78 + 2 + 1  # 78 columns of card, its margins, a scrollbar
        assert app.focused is screen.query_one(Tree)
        await pilot.press("backslash")  # the reader may still hide the tree
        await settle(pilot, app)
        assert not side.display and panel.outer_size.width == size[0]


async def test_a_card_opened_narrow_gets_the_tree_back_when_the_terminal_widens(make_app: Any) -> None:
    app = make_app()
    async with app.run_test(size=NARROW) as pilot:
        await open_topics(pilot, app)
        await highlight(pilot, app, ("card", "fx-nvlink-scope/between"))
        await pilot.press("enter")
        await settle(pilot, app)
        side = app.screen.query_one("#topics-side")
        assert not side.display
        await pilot.resize_terminal(*WIDE)
        await settle(pilot, app)
        assert side.display


def test_footer_of_the_topics_screen_names_the_tree_key() -> None:
    from study.tui.screens.topics import TopicsScreen

    keys = {b.key: b for b in TopicsScreen.BINDINGS}
    assert keys["backslash"].show and keys["backslash"].key_display == "\\"
    assert cell_len(keys["backslash"].description) <= 6


async def test_the_next_card_starts_at_its_title(store: Any) -> None:
    from study.bank import load_bank
    from study.tui.app import make_app

    bank = load_bank()
    longest = max(bank.cards, key=lambda card: len(card.body.splitlines()))  # taller than 24 rows
    app = make_app(bank=bank, store=store, seed=7, watch=False, poll_seconds=None)
    async with app.run_test(size=NARROW) as pilot:
        await open_topics(pilot, app)
        await highlight(pilot, app, ("card", longest.id))
        await pilot.press("enter")
        await settle(pilot, app)
        panel = app.screen.query_one("#topics-card")
        await pilot.press("pagedown")
        await settle(pilot, app)
        assert panel.scroll_y > 0
        await pilot.press("right_square_bracket")
        await settle(pilot, app)
        assert app.screen.selected not in (None, ("card", longest.id))
        assert panel.scroll_y == 0


def test_column_widths_shrink_the_column_that_wraps_least() -> None:
    from study.tui.widgets.markdown import column_widths

    # Fits: every column keeps its widest cell.
    assert column_widths([["GPU", "Memory"], ["H100 SXM", "80 GB HBM3"]], 40) == [8, 10]
    # 13 + 12 = 25 in 22: shrinking either column first wraps one cell, so the wider (GPU) gives; once
    # "A100 SXM 80GB" is on two lines it gives 2 more for free, while "141 GB HBM3e" would wrap.
    rows = [["GPU", "Memory"], ["A100 SXM 80GB", "80 GB HBM2e"], ["H100 SXM", "141 GB HBM3e"]]
    assert column_widths(rows, 22) == [10, 12]
    # "Name" (4) cannot give without cutting a word; the text column wraps down to "one two" (8 left).
    assert column_widths([["Name", "Text"], ["a b", "one two three"]], 12) == [4, 8]
    # Too narrow for the longest words: the total still fits (words fold), no column below 1.
    widths = column_widths([["abcdef", "ghijkl"]], 8)
    assert sum(widths) == 8 and min(widths) >= 1
