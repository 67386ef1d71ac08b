"""Nothing is cut that has room, and a new learner's screens are not padded with empty rows: Home, Topics,
Progress at 80x24 and 120x40; Settings say things once and refuse a past exam date; Help and the exam's
review dialog tell how to jump to a question by keyboard."""

from __future__ import annotations

import datetime as dt
from typing import Any

from textual.widgets import Input

from tests.tui.conftest import answered, settle


def screen_lines(app: Any) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


async def test_home_keeps_every_domain_weight_at_80x24(make_app, bank):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        text = "\n".join(screen_lines(app))
        for domain in bank.blueprint.domains:
            assert f"({domain.weight}%)" in text, domain.id


async def test_home_at_120x40_shows_whole_titles_and_no_blank_rows(make_app, store, bank, clock):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        lines = screen_lines(app)
        titles = [o.title for d in bank.blueprint.domains for o in d.objectives]
        listed = [t for t in titles if any(t in line for line in lines)]
        assert listed, "Study next lists no whole objective title"
        assert not any("…" in line for line in lines if "pts/h" in line)
        # Every row between the header and the footer belongs to a panel: no run of empty rows at the end.
        assert all(line.strip() for line in lines[1:-1]), [i for i, line in enumerate(lines) if not line.strip()]
        # A new learner gets a way to start where the exam history will be.
        assert "One way to start" in "\n".join(lines)


async def test_topics_tree_shares_the_width_until_a_card_is_open(make_app, bank):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await settle(pilot, app)
        screen = app.screen
        side, card = screen.query_one("#topics-side").size.width, screen.query_one("#topics-card").size.width
        assert abs(side - card) <= 3  # even, give or take borders and the scrollbar
        longest = max((o for d in bank.blueprint.domains for o in d.objectives), key=lambda o: len(o.title))
        assert sum(1 for line in screen_lines(app) if longest.title[:50] in line) == 1
        screen.show("card", "fx-nvlink-scope/between")
        await settle(pilot, app)
        assert screen.query_one("#topics-card").outer_size.width >= 83  # a card keeps its 78 columns of text


async def test_progress_titles_use_the_width_and_a_new_learner_sees_one_accuracy_line(make_app, bank):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        lines = screen_lines(app)
        longest = max((o for d in bank.blueprint.domains for o in d.objectives), key=lambda o: len(o.title))
        assert any(longest.title[:60] in line for line in lines)
        header = next(line for line in lines if line.lstrip().startswith("obj"))
        assert header.rstrip().endswith("seen")  # the last column is not cut
        rows = app.screen.query_one("#progress-accuracy").rows
        assert [r.label for r in rows] == ["no answers yet"]


async def test_progress_lists_weeks_from_the_first_answer(make_app, store, bank, clock):
    qid = bank.questions[0].id
    answered(store, bank, clock, qid, "A", correct=True, days=15)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        rows = app.screen.query_one("#progress-accuracy").rows
        assert len(rows) == 4 and rows[0].label == "week of 09 Nov" and rows[0].value.endswith("of 1") and rows[-1].value == "no answers"
        header = next(line for line in screen_lines(app) if line.lstrip().startswith("obj"))
        assert header.rstrip().endswith("seen")


async def test_settings_refuse_a_past_exam_date_and_say_saved_once(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        date_input = app.screen.query_one("#set-exam-date", Input)
        date_input.value = (clock.now.date() - dt.timedelta(days=1)).isoformat()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        message = str(app.screen.query_one("#settings-message").render())
        assert "has passed" in message and store.get_setting("exam_date") is None
        date_input.value = clock.now.date().isoformat()  # today is still ahead of the exam
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert str(app.screen.query_one("#settings-message").render()) == "Saved."
        assert store.get_setting("exam_date") == clock.now.date().isoformat()
        assert not app._notifications  # no toast repeating it


async def test_help_and_the_exam_review_tell_how_to_jump_to_a_question(make_app):
    from study.tui.screens.exam import start_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot, app)
        assert "to jump to a question: `r`, type its number, `enter`" in app.screen.query_one("#help-markdown").source
        await pilot.press("escape")
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        session = app.screen.session
        await pilot.press("r")
        await settle(pilot, app)
        assert "type its number" in "\n".join(screen_lines(app))
        await pilot.press("9", "enter")  # there is no question 9: the dialog says so and stays
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ReviewBeforeSubmit"
        await pilot.press("4", "enter")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ExamScreen" and session.index == 3 and not session.finished
