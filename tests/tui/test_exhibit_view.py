"""A lab exhibit under a question is shown as the tool printed it: never wrapped, scrolled sideways when it
is wider than the screen (an nvidia-smi table wrapped at 80 columns cannot be read)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from tests.tui.conftest import settle
from tests.tui.test_question_flow import laid_out, open_practice


def _text(widget: Static) -> str:
    return str(widget.render())


async def test_an_exhibit_keeps_the_tools_lines_and_scrolls_sideways_at_80x24(make_app: Any) -> None:
    from study.bank import load_bank
    from study.quiz.instance import instantiate

    inst = instantiate(load_bank().question("lab-ex-power-capped"), 7)
    block = inst.stem.split("```text\n", 1)[1].rsplit("\n```", 1)[0]
    lines = block.split("\n")
    assert max(map(len, lines)) > 80  # the default nvidia-smi table is 89 columns wide
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, count=1)
        view = screen.view
        view.show(inst, key=("check", inst.qid))
        await laid_out(pilot, view)
        stem, exhibit = view.query_one("#q-stem", Static), view.query_one("#q-exhibit", Static)
        box = view.query_one("#q-exhibit-box")
        # The question above, the output apart and whole: one row a line, as wide as its widest line.
        assert "lower power limit" in _text(stem) and "NVIDIA-SMI" not in _text(stem)
        assert exhibit.size.height == len(lines)
        assert exhibit.content_size.width == max(map(len, lines))
        assert _text(exhibit).split("\n") == lines
        more = view.query_one("#q-more", Static)
        assert "the output goes on: shift+→" in _text(more)
        assert box.scroll_x == 0 and box.max_scroll_x > 0
        await pilot.press("shift+right")
        await settle(pilot, app)
        assert box.scroll_x == box.max_scroll_x  # 89 columns in 76: one step shows the rest
        assert "start of the output: shift+←" in _text(more)
        await pilot.press("shift+left")
        await settle(pilot, app)
        assert box.scroll_x == 0
        # A question without an exhibit shows no empty box.
        plain = instantiate(load_bank().question("d3-dc-management-01"), 7)
        view.show(plain, key=("check", plain.qid))
        await laid_out(pilot, view)
        assert not box.display and "output" not in _text(more)


def test_help_lists_the_keys_that_scroll_an_exhibit_where_questions_are_answered() -> None:
    from study.tui.screens.help import _key_table

    rows = {line.split("**")[1]: line for line in _key_table().splitlines() if line.startswith("**")}
    for place in ("Practice (questions)", "Exam (questions)"):
        assert "`shift+right` Scroll a command's output right" in rows[place]
        assert "`shift+left` Scroll a command's output left" in rows[place]
