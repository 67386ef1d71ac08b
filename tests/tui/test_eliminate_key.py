"""Eliminating a choice takes two keys, `-` and the choice (issue 37 §5): a capital letter (shift, or caps lock on)
picks as the small one does, as plain mode tells the learner to type `B`; the footer and Help say `-`."""

from __future__ import annotations

from tests.tui.conftest import settle
from tests.tui.test_issue20_screens import text_of


async def test_a_capital_letter_picks_and_minus_then_a_letter_strikes_out(make_app):
    from tests.tui.test_question_flow import open_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="1.1", count=1)
        choices = screen.view.choices
        await pilot.press("B")  # caps lock or shift: still a pick
        await settle(pilot, app)
        assert choices.picked == {1} and not choices.struck
        await pilot.press("minus")
        await settle(pilot, app)
        assert "Strike out which choice" in text_of(app, "#quiz-status")
        await pilot.press("c")  # the armed key strikes C out, and only this once
        await settle(pilot, app)
        assert choices.struck == {2} and choices.picked == {1}
        assert "Choice C struck out (- c again puts it back)" in text_of(app, "#quiz-status")
        await pilot.press("d")
        assert choices.picked == {1, 3} or choices.picked == {3}  # a pick again (single-answer replaces)
        assert choices.struck == {2}
        await pilot.press("minus", "minus", "a")  # - twice cancels: a picks
        await settle(pilot, app)
        assert 0 in choices.picked and choices.struck == {2}
        await pilot.press("minus", "3")  # a digit names a choice as well: C comes back
        await settle(pilot, app)
        assert not choices.struck


async def test_the_strike_key_is_in_the_practice_footer_and_in_help(make_app):
    from study.tui.screens.help import _key_table
    from tests.tui.test_question_flow import open_exam, open_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_practice(pilot, app, objective="1.1", count=1)
        shown = {k for k, a in app.screen.active_bindings.items() if a.binding.show}
        assert "minus" in shown and "B" not in shown
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exam(pilot, app)
        # Not in the exam's footer (full at 80 columns) but bound there, and the intro says it.
        assert "minus" in app.screen.active_bindings
        assert "minus" not in {k for k, a in app.screen.active_bindings.items() if a.binding.show}
    rows = {line.split("**")[1]: line for line in _key_table().splitlines() if line.startswith("**")}
    for place in ("Practice (questions)", "Exam (questions)"):
        assert "`-` then a choice's letter or digit strikes it out" in rows[place]
        assert "shift+letter" not in rows[place]
