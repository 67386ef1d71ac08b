"""The command palette survives PageDown/PageUp while its results change (issue 19, defect 11): ctrl+p, type,
PageDown, type, PageDown, PageUp was ``KeyError: 0`` in Textual's ``OptionList._move_page`` (or ``NoMatches:
'CommandList'``) and took the app down. Textual's bug; our palette drops such a key instead."""

from __future__ import annotations

from textual.command import CommandList, CommandPalette

from tests.tui.conftest import settle


async def _hits(pilot, app) -> CommandList:
    for _ in range(100):  # the palette searches asynchronously: wait for the results, not a fixed time
        await pilot.pause(0.02)
        lists = app.screen.query(CommandList)
        if lists and lists.first().option_count:
            return lists.first()
    raise AssertionError("the palette found nothing")


async def test_the_key_sequence_of_the_report_leaves_the_palette_working(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        for pause in (0, 0.01, 0.05):
            await pilot.press("ctrl+p")
            await pilot.pause(pause)
            await pilot.press("c", "pagedown")
            await pilot.pause(pause)
            await pilot.press("a", "pagedown", "pageup")
            await pilot.pause(pause)
            assert isinstance(app.screen, CommandPalette)
            await pilot.press("escape")
            await settle(pilot, app)
        assert not isinstance(app.screen, CommandPalette)


async def test_page_keys_on_a_list_with_no_lines_laid_out_are_dropped(make_app):
    """The state the crash needs, made on purpose: a highlighted option in a list of no height, as while a
    new search is gathered; Textual's OptionList then has no line for the highlight."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+p", *"card")
        commands = await _hits(pilot, app)
        await pilot.press("down")
        commands.styles.height = 0
        commands._clear_caches()
        await pilot.pause()
        assert commands.highlighted is not None
        await pilot.press("pagedown", "pageup")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)  # still open, still usable
        commands.styles.height = None
        await pilot.press("escape")
        await settle(pilot, app)
