"""Answering questions in Practice and Exam: only an explicit pick is an answer, every choice is on screen,
Markdown is drawn rather than shown raw, and the exam keeps the objective to itself."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from textual.widgets import Static

from tests.tui.conftest import settle


def status(app: Any) -> str:
    return str(app.screen.query_one("#quiz-status", Static).render())


def meta(app: Any) -> str:
    return str(app.screen.query_one("#quiz-meta", Static).render())


async def open_practice(pilot: Any, app: Any, **filters: Any) -> Any:
    from study.tui.screens.practice import PracticeScreen, start_practice

    await settle(pilot, app)
    start_practice(app, **filters)
    await settle(pilot, app)
    assert isinstance(app.screen, PracticeScreen)
    return app.screen


async def open_exam(pilot: Any, app: Any, count: int = 5) -> Any:
    from study.tui.screens.exam import ExamScreen, start_exam

    await settle(pilot, app)
    start_exam(app, count)
    await settle(pilot, app)
    assert isinstance(app.screen, ExamScreen)
    return app.screen


# -- 1. Enter with nothing chosen records nothing ---------------------------------------------------------


async def test_practice_enter_without_a_pick_records_nothing(make_app, store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="3.3", count=1)  # a choose-two question
        assert screen.view.choices.has_focus
        await pilot.press("enter")
        await settle(pilot, app)
        assert screen.grades == {} and screen.view.choices.picked == set()
        assert "Nothing picked" in status(app)
        # Focus moved around with Tab and back: Enter still is no pick.
        await pilot.press("tab", "enter", "shift+tab", "enter")
        await settle(pilot, app)
        assert screen.grades == {} and screen.view.choices.picked == set()
        assert screen.session.answers == [None]
    assert store.history() == []


async def test_practice_single_choice_enter_needs_a_key_pick(make_app, store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="1.1", count=1)
        inst = screen.session.current
        assert inst.type in ("single", "true_false")
        await pilot.press("down", "enter")  # moving the highlight is not picking
        await settle(pilot, app)
        assert screen.grades == {} and store.history() == []
        await pilot.press("space", "enter")  # space on the highlighted choice is
        await settle(pilot, app)
        assert screen.grades[0].given_display.startswith("B)")
        assert len(store.history()) == 1


async def test_exam_enter_on_an_unanswered_question_records_nothing(make_app, store):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exam(pilot, app)
        session = screen.session
        await pilot.press("enter")
        await settle(pilot, app)
        assert session.answers[0] is None and session.index == 0
        assert "Nothing picked" in status(app) and "n skips" in status(app)
        await pilot.press("tab", "enter", "tab", "enter")
        await settle(pilot, app)
        assert session.answers == [None] * session.count
        # An explicit pick then Enter answers and moves on.
        await pilot.press("b", "enter")
        await settle(pilot, app)
        assert session.answers[0] is not None and session.index == 1
        await pilot.press("enter")
        await settle(pilot, app)
        assert session.answers[1] is None and session.index == 1


# -- 2. Every choice of every shipped question is on screen at 80x24 ----------------------------------------


def hidden_parts(screen: Any, inst: Any) -> list[str]:
    """What of ``inst`` a learner at this size cannot see without scrolling an unmarked pane."""
    view = screen.view
    problems = []
    if view.max_scroll_y > 0:
        problems.append(f"the question scrolls by {view.max_scroll_y} lines")
    if inst.is_numeric_typed:
        box = view.number
        if box.region.bottom > view.region.bottom:
            problems.append("the number box is below the fold")
        return problems
    choices = view.choices
    if choices.option_count != len(inst.options):
        problems.append(f"{choices.option_count} of {len(inst.options)} choices")
    if choices.max_scroll_y > 0:
        problems.append("the choices scroll inside their list")
    if choices.region.bottom > view.region.bottom:
        problems.append(f"choices end at row {choices.region.bottom}, the view at {view.region.bottom}")
    boxes = view.query("#q-stem-box")
    if not boxes:
        return problems + ["the stem cannot scroll on its own to make room for the choices"]
    stem_box = boxes.first()
    if stem_box.region.y >= choices.region.y:
        problems.append("the stem is not above the choices")
    more = str(view.query_one("#q-more", Static).render())
    if stem_box.max_scroll_y > 0 and "more" not in more:
        problems.append("the stem is cut with no 'more' mark")
    return problems


async def laid_out(pilot: Any, view: Any) -> None:
    """Wait until the view has fitted the stem to the room the choices leave (a few refreshes)."""
    for _ in range(20):
        await pilot.pause()
        if view.settled:
            return
    raise AssertionError("the question view never settled")


async def check_every_question(pilot: Any, screen: Any, instances: list[Any]) -> list[str]:
    problems = []
    for inst in instances:
        screen.view.show(inst, key=("check", inst.qid))
        await laid_out(pilot, screen.view)
        problems += [f"{inst.qid}: {p}" for p in hidden_parts(screen, inst)]
    return problems


# The whole bank in this many parts, so xdist spreads them over the workers instead of one long test.
QUESTION_CHUNKS = 6


def test_the_shipped_bank_is_big_enough_to_check() -> None:
    from study.bank import load_bank

    assert len(load_bank().questions) > 300


@pytest.mark.parametrize("chunk", range(QUESTION_CHUNKS))
async def test_every_shipped_question_shows_all_its_choices_at_80x24(store: Any, chunk: int) -> None:
    """The real bank in one app per chunk, each question swapped into the screen in turn. The exam screen
    with its navigator open is the smallest question area there is (same width as practice, fewer rows), so
    every question is checked there as an exam asks it (numbers as choices); the practice screen then checks
    the questions it alone shows differently, those answered by typing a number."""
    from study.bank import load_bank
    from study.quiz.instance import instantiate
    from study.tui.app import make_app

    bank = load_bank()
    mine = bank.questions[chunk::QUESTION_CHUNKS]
    app = make_app(bank=bank, store=store, seed=7, watch=False, poll_seconds=None)
    async with app.run_test(size=(80, 24)) as pilot:
        practice = await open_practice(pilot, app, count=1)
        typed = [inst for inst in (instantiate(q, 7) for q in mine) if inst.is_numeric_typed]
        problems = await check_every_question(pilot, practice, typed)
        practice_cols, practice_rows = practice.view.size
        app.pop_screen()
        exam = await open_exam(pilot, app, 50)
        await pilot.press("g")
        await settle(pilot, app)
        assert exam.query_one("#exam-nav").display
        assert exam.view.size.width == practice_cols and exam.view.size.height < practice_rows, exam.view.size
        problems += await check_every_question(pilot, exam, [instantiate(q, 7, as_choice=True) for q in mine])
    assert not problems, "\n".join(problems)


def test_the_bank_has_typed_numeric_questions_for_the_practice_check() -> None:
    from study.bank import load_bank
    from study.quiz.instance import instantiate

    assert any(instantiate(q, 7).is_numeric_typed for q in load_bank().questions)


async def test_a_stem_too_long_for_the_room_scrolls_with_a_more_mark(make_app):
    """On a short terminal the choices keep their lines and the stem takes what is left, marked and paged."""
    app = make_app()
    async with app.run_test(size=(30, 20)) as pilot:
        screen = await open_practice(pilot, app, objective="2.9", count=1)
        view = screen.view
        await laid_out(pilot, view)
        inst = screen.session.current
        assert hidden_parts(screen, inst) == []
        box = view.stem_box
        assert box.max_scroll_y > 0
        assert "more" in str(view.query_one("#q-more", Static).render())
        await pilot.press("pagedown")  # focus is on the choices; the page key still reaches the stem
        await settle(pilot, app)
        assert box.scroll_y > 0 and view.choices.highlighted == 0
        for _ in range(box.max_scroll_y):
            await pilot.press("pagedown")
        await settle(pilot, app)
        assert box.scroll_y == box.max_scroll_y
        assert "start of the question" in str(view.query_one("#q-more", Static).render())


# -- 3. Markdown is drawn, not shown raw -------------------------------------------------------------------


async def test_stems_choices_and_feedback_draw_their_markdown(make_app):
    """Real questions whose stem has **bold** or whose choices have `code`: no marker reaches the screen, in
    the stem, the choice list or the feedback that repeats each choice."""
    from textual.widgets._markdown import MarkdownParagraph

    from study.bank import load_bank
    from study.quiz.grade import grade_answer
    from study.quiz.instance import instantiate
    from tests.tui.test_reader import rendered_lines

    bank = load_bank()
    coded = bank.question("d3-dc-management-01")
    assert any("`" in c.text for c in coded.choices)
    bold = next(q for q in bank.questions if "**" in q.stem)  # templated numbers, asked as choices in an exam
    # And a choice with bold in it (none ships yet): the feedback must not escape it into literal stars.
    plain = instantiate(coded, 7)
    strong = dataclasses.replace(plain, options=(
        dataclasses.replace(plain.options[0], text="The **BMC** system event log"), *plain.options[1:]))
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_practice(pilot, app, count=1)
        view = screen.view
        for inst in (instantiate(coded, 7, as_choice=True), instantiate(bold, 7, as_choice=True), strong):
            view.show(inst, key=("check", inst.qid))
            await settle(pilot, app)
            stem = str(view.query_one("#q-stem", Static).render())
            choices = "\n".join(rendered_lines(view.choices))
            view.show_feedback(inst, grade_answer(inst, "A"))
            await settle(pilot, app)
            feedback = "\n".join(str(p.render()) for p in view.query_one("#q-feedback").query(MarkdownParagraph))
            for where, text in (("stem", stem), ("choices", choices), ("feedback", feedback)):
                assert "**" not in text and "`" not in text, f"{inst.qid} {where}: {text}"
            for option in inst.options:
                plain = option.text.replace("**", "").replace("`", "")
                assert plain[:30] in choices.replace("\n", " ") or plain[:20] in choices
                assert plain in feedback
            assert inst.stem.replace("**", "").replace("`", "")[:40] in stem
        assert "The BMC system event log" in feedback


# -- 4. The exam does not say which objective a question tests ----------------------------------------------


async def test_exam_hides_the_objective_unless_the_setting_asks_for_it(make_app, store):
    from study.tui.screens.exam import EXAM_OBJECTIVE_SETTING

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exam(pilot, app)
        for _ in range(screen.session.count):
            inst = screen.session.current
            assert inst.objective not in meta(app) and inst.domain + "." not in meta(app), meta(app)
            assert "answer" in meta(app) or "true or false" in meta(app) or "choose" in meta(app)
            await pilot.press("n")
            await settle(pilot, app)
        app.pop_screen()
        screen = await open_practice(pilot, app, count=3)
        assert meta(app).startswith(f"{screen.session.current.objective} · practice")

    store.set_setting(EXAM_OBJECTIVE_SETTING, True)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exam(pilot, app)
        assert meta(app).startswith(f"{screen.session.current.objective} · ")


async def test_settings_turn_the_exam_objective_back_on(make_app, store):
    from textual.widgets import Select

    from study.tui.screens.exam import EXAM_OBJECTIVE_SETTING

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        select = app.screen.query_one("#set-exam-objective", Select)
        assert select.value == "hidden"
        select.value = "shown"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
    assert store.get_setting(EXAM_OBJECTIVE_SETTING) is True


# -- 6. Small things that make the flow feel right ----------------------------------------------------------


async def test_exam_review_dialog_is_driven_by_keys(make_app):
    from study.tui.screens.exam import ExamScreen, ReviewBeforeSubmit

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exam(pilot, app)
        session = screen.session
        await pilot.press("a", "n", "f", "n", "b", "n")  # 1 answered, 2 flagged, 3 answered, now on 4
        await settle(pilot, app)
        assert session.index == 3
        await pilot.press("r")
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ReviewBeforeSubmit)
        text = " ".join(str(s.render()) for s in dialog.query(Static))
        assert "Click" not in text and "enter" in text and "u the first" in text
        await pilot.press("u")
        await settle(pilot, app)
        assert isinstance(app.screen, ExamScreen) and session.index == 1  # question 2: first unanswered
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("right", "right", "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, ExamScreen) and session.index == 3
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("left", "left", "left", "enter")
        await settle(pilot, app)
        assert session.index == 0
        await pilot.press("r")
        await settle(pilot, app)
        await pilot.press("f")
        await settle(pilot, app)
        assert session.index == 1 and session.flags[1]
        # The navigator on the exam screen answers to the same keys.
        await pilot.press("g")
        await settle(pilot, app)
        await pilot.press("right", "enter")
        await settle(pilot, app)
        assert session.index == 2
        assert session.answers[1] is None  # moving around answered nothing


async def test_long_feedback_scrolls_with_page_down_without_tab(make_app):
    from study.tui.screens.practice import PracticeScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="3.3", count=1)
        right = [i for i, o in enumerate(screen.session.current.options) if o.correct]
        await pilot.press(*(str(i + 1) for i in right), "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen) and screen.grades[0].correct
        view = screen.view
        assert view.max_scroll_y > 0  # the feedback is longer than the room left for it
        view.scroll_home(animate=False)
        await settle(pilot, app)
        await pilot.press("pagedown")
        await settle(pilot, app)
        assert view.scroll_y > 0
        # One scrollbar: the question scrolls as a whole, the choices and the stem do not scroll inside it.
        assert view.choices.max_scroll_y == 0 and view.stem_box.max_scroll_y == 0


async def test_practice_offers_next_only_once_answered(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, domain="1", count=2)
        assert screen.session.count == 2 and not screen.session.current.is_numeric_typed
        offered = {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        assert "next" not in offered
        await pilot.press("n")
        await settle(pilot, app)
        assert screen.session.index == 0
        await pilot.press("1", "enter")
        await settle(pilot, app)
        offered = {b.binding.action for b in screen.active_bindings.values() if b.enabled}
        assert "next" in offered
        await pilot.press("n")
        await settle(pilot, app)
        assert screen.session.index == 1


async def test_practice_form_lists_topics_by_title(make_app, bank):
    from textual.widgets import Select

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        select = app.screen.query_one("#pf-topic", Select)
        labels = [str(prompt) for prompt, _value in select._options if _value != Select.NULL]
        assert labels and all(not any(label.startswith(t.id) for t in bank.topics) for label in labels), labels
        assert sorted(labels) == sorted(t.meta.title for t in bank.topics)


# -- 5. A timed quiz keeps its clock in the app -------------------------------------------------------------


def test_quiz_command_hands_its_minutes_to_the_app(monkeypatch, tmp_path):
    from study import cli

    seen: dict[str, Any] = {}
    monkeypatch.setattr("study.tui.app.run_app", lambda **kwargs: seen.update(kwargs) or 0)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    db = str(tmp_path / "x.db")
    assert cli.main(["--db", db, "quiz", "--mode", "quiz", "--count", "5", "--minutes", "7"]) == 0
    assert seen["practice_preset"]["minutes"] == 7 and seen["practice_preset"]["count"] == 5
    assert cli.main(["--db", db, "quiz", "--count", "5", "--minutes", "7"]) == 0
    assert seen["practice_preset"]["minutes"] is None  # practice stays untimed, as in the plain terminal


async def test_a_timed_quiz_opens_with_its_clock_and_submits_at_zero(make_app, clock):
    import datetime as dt

    from study.tui.screens.exam import ExamScreen
    from study.tui.screens.practice import PracticeSetupScreen
    from study.tui.screens.results import ResultsScreen

    app = make_app(start="practice", practice_preset={"count": 3, "minutes": 7})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeSetupScreen)
        assert app.screen.filters()["minutes"] == 7
        await pilot.press("s")
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, ExamScreen) and screen.sub_title == "Timed quiz"
        session = screen.session
        assert session.mode == "quiz" and session.count == 3
        assert session.deadline == clock.now + dt.timedelta(minutes=7)
        assert "07:00" in str(screen.query_one("#exam-timer", Static).render())
        await pilot.press("a")  # answers are graded at the end: no feedback now
        await settle(pilot, app)
        assert not screen.view.query_one("#q-feedback").has_class("-shown")
        clock.advance(minutes=7, seconds=1)
        screen.tick()
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen) and app.screen.report.timed_out


async def test_a_time_limit_that_is_not_positive_is_refused_and_the_set_stays_untimed(make_app):
    from study.tui.screens.practice import PracticeScreen

    app = make_app(start="practice", practice_preset={"count": 3, "minutes": "0"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert any("minutes '0'" in n.message for n in app._notifications)
        assert app.screen.filters()["minutes"] is None
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen) and app.screen.session.deadline is None


async def test_exam_footer_offers_clear_once_answered_and_dims_next_at_the_end(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_exam(pilot, app, 3)
        session = screen.session

        def state(action: str) -> bool | None:
            return screen.check_action(action, ())

        footer_keys = {b.binding.action: b.enabled for b in screen.active_bindings.values()}
        # On question 1 there is no Prev: hidden, not merely dimmed.
        assert state("clear") is False and not footer_keys.get("previous") and footer_keys["next"]
        await pilot.press("b")
        await settle(pilot, app)
        assert state("clear") is True
        await pilot.press("x")  # the offered key works: the answer is gone
        await settle(pilot, app)
        assert session.answers[0] is None and state("clear") is False
        await pilot.press("n", "n")
        await settle(pilot, app)
        assert session.index == 2 and "Last question" in status(app)  # Next there says how to submit
        await pilot.press("n")
        await settle(pilot, app)
        assert session.index == 2 and not session.finished
