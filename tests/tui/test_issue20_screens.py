"""Issue 20, section 2: what a screen shows is what it does (Settings, the exam navigator, the resume dialog,
Home at 80x24, time alerts, eliminating choices, the calculator, Progress and the smaller items)."""

from __future__ import annotations

import datetime as dt

from textual.widgets import Input, Static

from tests.tui.conftest import settle


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


# -- 1. Settings do not discard edits silently ----------------------------------------------------------


async def test_enter_in_a_settings_field_saves_the_form(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-exam-date", Input).focus()
        await pilot.press(*"2026-12-31", "enter")
        await settle(pilot, app)
        assert store.get_setting("exam_date") == "2026-12-31"
        await pilot.press("escape")  # nothing unsaved: straight back
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"


async def test_leaving_settings_with_an_unsaved_edit_asks(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        goal = app.screen.query_one("#set-daily-goal", Input)
        goal.value = "35"
        await pilot.press("escape")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ChoiceDialog"
        await pilot.press("escape")  # stay
        await settle(pilot, app)
        assert type(app.screen).__name__ == "SettingsScreen" and goal.value == "35"
        await pilot.press("escape", "s")  # save and leave
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
        assert store.get_setting("daily_goal") == 35
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-daily-goal", Input).value = "50"
        await pilot.press("escape", "d")  # discard
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
        assert store.get_setting("daily_goal") == 35


# -- 2. The exam navigator tells a half-answered choose-two and a flagged answer apart -------------------


async def test_a_half_answered_choose_two_is_partial_and_the_submit_dialog_says_so(make_app):
    from study.tui.screens.exam import ExamScreen, ReviewBeforeSubmit, start_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        exam = app.screen
        assert isinstance(exam, ExamScreen)
        session = exam.session
        multi = next(i for i, q in enumerate(session.instances) if q.is_multi and q.choose == 2)
        single = next(i for i, q in enumerate(session.instances) if not q.is_multi and i != multi)
        exam.goto(single)
        await pilot.press("1", "f")  # answered, then flagged
        exam.goto(multi)
        await pilot.press("1")  # one of two
        await settle(pilot, app)
        assert session.answers[multi] is not None
        await pilot.press("g")
        await settle(pilot, app)
        cells = str(exam.query_one("#exam-nav").render())
        assert f"{multi + 1}◐" in cells and f"{single + 1}✓⚑" in cells
        assert "✓ answered 1  ◐ partly 1  · blank 3" in cells
        await pilot.press("r")
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewBeforeSubmit)
        assert f"Partly answered (1, graded wrong): {multi + 1}" in str(app.screen.query_one(Static).render())
        await pilot.press("s")
        await settle(pilot, app)
        body = str(app.screen.query_one("#dialog-body", Static).render())
        assert "1 answered, 1 partly answered, 3 blank" in body


# -- 3. The resume dialog's submit asks first; Home shows a paused exam's running clock ------------------


def _interrupted_exam(bank, store, clock):
    from study.quiz import build_exam

    session = build_exam(bank, 5, 5, store=store, clock=clock)
    session.answer(session.current.correct_labels[0])
    clock.advance(minutes=2)
    assert store.active_session("exam") is not None
    return session


async def test_submit_as_it_is_from_the_resume_offer_asks_before_recording(make_app, bank, store, clock):
    from study.tui.screens.results import ResultsScreen

    session = _interrupted_exam(bank, store, clock)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.screen.query_one(Static).render() is not None and type(app.screen).__name__ == "ChoiceDialog"
        await pilot.press("c")
        await settle(pilot, app)
        body = str(app.screen.query_one("#dialog-body", Static).render())
        assert "1 answered, 4 blank" in body and "cannot be undone" in body
        await pilot.press("n")  # no: back to the offer, nothing recorded
        await settle(pilot, app)
        assert "Resume it?" in str(app.screen.query_one("#dialog-body", Static).render())
        assert store.active_session("exam") is not None
        await pilot.press("c", "y")
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert store.active_session("exam") is None and app.screen.report.session_id == session.id


async def test_home_shows_a_paused_exam_with_its_clock_running(make_app, bank, store, clock):
    _interrupted_exam(bank, store, clock)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("n")  # not now
        await settle(pilot, app)
        assert type(app.screen).__name__ == "HomeScreen"
        line = text_of(app, "#home-paused")
        assert "Exam paused: 1/5 answered, 04:00 left, its clock running: e resumes." in line
        assert app.screen.query_one("#home-paused").region.height == 1  # one line at 80 columns
        clock.advance(seconds=30)
        app.screen._show_paused()
        assert "03:30 left" in text_of(app, "#home-paused")
        clock.advance(minutes=4)
        app.screen._show_paused()
        assert "its time ran out" in text_of(app, "#home-paused")


# -- 4. Home at 80x24: first steps in sight, the page scrolls, a Study next row starts practice ----------


async def test_home_at_80x24_shows_first_steps_scrolls_and_practises_a_study_next_row(make_app):
    from textual.widgets import OptionList

    from study.tui.screens.practice import PracticeScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        home = app.screen
        first = home.query_one("#home-first", Static)
        assert first.display and first.region.bottom <= 23 and first.region.height > 3  # on screen, whole
        assert "set your exam date" in str(first.render())
        body = home.query_one("#home-body")
        assert body.max_scroll_y > 0 and body.scroll_y == 0
        await pilot.press("end")
        await settle(pilot, app)
        assert body.scroll_y == body.max_scroll_y
        assert home.query_one("#home-forecast-box").region.height > 0  # the forecast is on the page
        await pilot.press("home", "pagedown")
        await settle(pilot, app)
        assert body.scroll_y > 0
        listing = home.query_one("#home-next", OptionList)
        assert listing.has_focus
        await pilot.press("down")
        objective = listing.get_option_at_index(1).id
        await pilot.press("enter")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        assert {q.objective for q in app.screen.session.instances} == {objective}


# -- 5. Time alerts stay, the timer is coloured near the end, a timed quiz is called a quiz --------------


async def test_time_alerts_stay_until_hidden_and_the_timer_turns_red_at_the_end(make_app, clock):
    from study.tui.screens.exam import start_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)  # 6 minutes: alerts at 3 min, 1 min 30 s and 30 s left
        await settle(pilot, app)
        exam = app.screen
        timer = exam.query_one("#exam-timer", Static)
        assert not timer.has_class("-alert") and "left" in str(timer.render())
        clock.advance(minutes=3, seconds=15)
        exam.tick()
        banner = exam.query_one("#exam-alert", Static)
        assert banner.display and "3 min left in the exam" in str(banner.render())
        assert timer.has_class("-alert") and not timer.has_class("-critical")
        clock.advance(seconds=20)  # long after a toast would have gone
        exam.tick()
        await settle(pilot, app)
        assert banner.display and banner.region.height == 1  # on screen, one row
        await pilot.press("z")
        assert not banner.display
        clock.advance(minutes=2)  # 25 s left
        exam.tick()
        assert timer.has_class("-critical") and banner.display and "30 s left" in str(banner.render())


async def test_a_timed_quiz_says_quiz_when_its_time_is_up(make_app, clock):
    from study.tui.screens.practice import start_practice
    from study.tui.screens.results import ResultsScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert start_practice(app, count=2, minutes=2)
        await settle(pilot, app)
        quiz = app.screen
        assert quiz.sub_title == "Timed quiz"
        clock.advance(minutes=3)
        quiz.tick()
        await settle(pilot, app)
        toast = app._notifications.last if hasattr(app._notifications, "last") else list(app._notifications)[-1]
        assert toast.title == "Timed quiz" and "the quiz was submitted" in toast.message
        assert isinstance(app.screen, ResultsScreen)
        score = app.screen.query_one("#results-score", Static)
        assert score.border_title == "Timed quiz" and "the quiz was submitted" in str(score.render())
        assert "exam" not in str(score.render()).split("(exam pace")[0].lower()


# -- 6. Eliminating choices: struck through, never a pick, kept while moving about an exam --------------


def _struck_style(choices, i: int) -> bool:
    prompt = choices.get_option_at_index(i).prompt
    return any("strike" in str(span.style) for span in prompt.spans)


async def test_a_struck_choice_is_not_a_pick_in_practice(make_app, store):
    from tests.tui.test_question_flow import open_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="1.1", count=1)
        choices = screen.view.choices
        await pilot.press("minus", "a", "minus", "b")
        await settle(pilot, app)
        assert choices.struck == {0, 1} and not choices.picked
        assert _struck_style(choices, 0) and not _struck_style(choices, 2)
        await pilot.press("enter")  # only struck choices: nothing is answered
        await settle(pilot, app)
        assert screen.session.answers[0] is None and "Nothing picked" in text_of(app, "#quiz-status")
        await pilot.press("a")  # picking a struck choice takes it back
        assert choices.picked == {0} and choices.struck == {1}


async def test_strikes_survive_moving_about_an_exam_and_striking_a_pick_unpicks_it(make_app):
    from tests.tui.test_question_flow import open_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        exam = await open_exam(pilot, app)
        await pilot.press("c", "minus", "c")  # pick C, then strike it: the answer goes
        await settle(pilot, app)
        assert exam.session.answers[0] is None and exam.view.choices.struck == {2}
        await pilot.press("minus", "b", "n", "left_square_bracket")
        await settle(pilot, app)
        assert exam.session.index == 0 and exam.view.choices.struck == {1, 2}
        assert _struck_style(exam.view.choices, 1)


# -- 7. The calculator: whole memory panel, figures on Tab, d shows derivations, GPU's own placeholders --


def screen_lines(app) -> list[str]:
    return ["".join(seg.text for seg in strip).rstrip() for strip in app.screen._compositor.render_strips()]


async def _calc(pilot, app):
    await settle(pilot, app)
    await pilot.press("c")
    await settle(pilot, app)
    return app.screen


async def test_the_memory_panel_keeps_its_total_row_with_a_wide_figure(make_app):
    from textual.widgets import Select

    for size in ((80, 24), (120, 40)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            calc = await _calc(pilot, app)
            calc.query_one("#c-gpu", Select).value = "h200-sxm"
            await settle(pilot, app)
            chart = calc.query_one("#calc-memory")
            assert chart.region.height == 6, size  # four rows and the border, no wrapped line
            text = "\n".join(screen_lines(app))
            assert "+20% extra" in text and "167 GB / 141 GB" in text, size


async def test_tab_reaches_the_figures_and_d_shows_the_derivation_from_a_field(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        calc = await _calc(pilot, app)
        fields = len([w for w in calc.focus_chain if w.id and w.id.startswith("c-")])
        await pilot.press(*["tab"] * fields)
        assert app.focused.id == "calc-figures"
        calc.query_one("#c-batch", Input).focus()
        await pilot.press("d")
        await settle(pilot, app)
        assert calc.query_one("#c-batch", Input).value == "1"  # not typed into the field
        assert app.focused.id == "calc-figures"
        derivation = calc.query_one("#calc-derivation")
        out = calc.query_one("#calc-out")
        assert derivation.region.y < out.region.bottom  # scrolled into sight
        assert "Derivation: Weights" in "\n".join(screen_lines(app))


async def test_the_memory_placeholder_is_the_selected_gpus(make_app):
    from textual.widgets import Select

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        calc = await _calc(pilot, app)
        assert calc.query_one("#c-mem", Input).placeholder == "e.g. 80 GB"  # H100 SXM
        calc.query_one("#c-gpu", Select).value = "h200-sxm"
        await settle(pilot, app)
        assert calc.query_one("#c-mem", Input).placeholder == "e.g. 141 GB"


def test_a_gpu_named_with_a_parenthesis_is_not_put_in_a_second_one():
    from study.calc import call

    steps = " ".join(s.substituted or "" for s in call("decode-time", model="llama-2-70b", gpu="b200").steps)
    assert "(NVIDIA B200, HGX B200" in steps and "(HGX B200))" not in steps and "B200 (HGX" not in steps


# -- 8. Progress: the seen column whole, mastery bars that count coverage ---------------------------------


async def test_progress_shows_seen_whole_and_coverage_beside_recall(store, clock):
    from study.bank import load_bank
    from study.progress import Attempt
    from study.tui.app import make_app

    bank = load_bank()  # the shipped bank: objectives of 40 to 60 questions make "13/56" wide enough to cut
    picked = [q for q in bank.questions if q.objective == "2.1"][:13]
    for q in picked:
        store.record_attempt(Attempt(q.id, bank.content_hash(q.id), {}, "A", True, 30.0, "practice",
                                     at=clock.now - dt.timedelta(hours=1)))
    for size in ((80, 24), (120, 40)):
        app = make_app(bank=bank, store=store, clock=clock, seed=7)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            await pilot.press("percent_sign")
            await settle(pilot, app)
            total = next(g.total for g in app.screen.stats.objectives if g.id == "2.1")
            row = next(line for line in screen_lines(app) if line.lstrip().startswith("2.1 "))
            table = app.screen.query_one("#progress-objectives")
            assert row.rstrip().endswith(f"13/{total}"), (size, row, table.size, table.virtual_size, [(str(c.label), c.width, c.content_width, c.auto_width) for c in table.columns.values()])
            domains = app.screen.query_one("#progress-domains").rows
            infra = next(r for r in domains if r.label.startswith("2 "))
            assert "seen · " in infra.value and "recall" in infra.value
            assert infra.fraction < 0.2  # 13 of some 240 items: a short bar whatever the recall


# -- 9. Smaller: undo is a stack, t/f pick True/False, the palette ranks screens first, ... -------------


async def test_undo_in_card_review_goes_back_rating_by_rating(make_app, store, bank, clock):
    from study.progress import Rating

    cards = ["fx-ai-ml-dl/nested", "fx-ai-ml-dl/deep"]
    for card_id in cards:
        store.review_card(card_id, bank.content_hash(card_id), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        order = list(screen.cards)
        assert sorted(order) == sorted(cards)
        await pilot.press("space", "3", "space", "4")
        await settle(pilot, app)
        assert screen.phase == "done"
        await pilot.press("u")
        await settle(pilot, app)
        assert screen.position == 1 and len(store.reviews(order[1])) == 1
        await pilot.press("u")  # the one before it, too
        await settle(pilot, app)
        assert screen.position == 0 and len(store.reviews(order[0])) == 1
        assert not screen.undo_stack


async def test_t_and_f_pick_true_and_false_in_practice(make_app):
    from tests.tui.test_question_flow import open_practice

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_practice(pilot, app, objective="1.3", count=1)
        assert screen.session.current.type == "true_false"
        await pilot.press("t")
        assert screen.view.choices.picked == {0}
        await pilot.press("f", "enter")
        await settle(pilot, app)
        assert screen.session.answers[0] == "F"


async def test_the_palette_ranks_the_exam_screen_above_cards_that_say_example(store, clock):
    from textual.command import CommandList

    from study.bank import load_bank
    from study.tui.app import make_app

    bank = load_bank()  # the shipped bank: many of its cards contain "example"
    app = make_app(bank=bank, store=store, clock=clock, seed=7)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        await pilot.press(*"exa")  # before issue 20: a card "A concrete example" came first
        counts = []
        for _ in range(200):  # the palette searches asynchronously: wait until its list stops growing
            await pilot.pause(0.05)
            hits = app.screen.query(CommandList)
            counts.append(hits.first().option_count if hits else 0)
            if len(counts) > 10 and counts[-1] and len(set(counts[-10:])) == 1:
                break
        listing = app.screen.query_one(CommandList)
        assert listing.option_count > 1
        first = str(listing.get_option_at_index(0).prompt)
        assert "Go to Exam" in first, first


def test_the_report_toast_has_no_raw_backticks_and_help_says_what_digits_do():
    import inspect

    from study.tui.screens import help as help_screen
    from study.tui.screens import report_problem

    assert "`" not in inspect.getsource(report_problem).split('app.notify("Report kept.')[1].split(")")[0]
    table = help_screen._key_table()
    assert "a key means the same on every screen" not in table
    assert "digits are per kind of screen" in table and "strikes it out" in table


async def test_practice_lists_cut_at_words_and_topics_follow_the_blueprint(store, clock):
    from textual.widgets import Select

    from study.bank import load_bank
    from study.tui.app import make_app

    bank = load_bank()
    order = [o.id for d in bank.blueprint.domains for o in d.objectives]
    app = make_app(bank=bank, store=store, clock=clock, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        objectives = app.screen.query_one("#pf-objective", Select)._options
        titles = {o.id: o.title for d in bank.blueprint.domains for o in d.objectives}
        for label, value in objectives:
            if value is Select.NULL:
                continue
            shown = str(label).removeprefix(f"{value} ")
            if shown.endswith("…"):  # a cut ends at a word of the title
                assert titles[value].startswith(shown[:-1]) and titles[value][len(shown) - 1] in " ,;:-", shown
        topics = [value for _label, value in app.screen.query_one("#pf-topic", Select)._options
                  if value is not Select.NULL]
        first = [min(order.index(o) for o in bank.topic(t).meta.objectives) for t in topics]
        assert first == sorted(first)


async def test_home_and_review_agree_on_what_is_due_now_and_say_when_the_next_comes(make_app, store, bank, clock):
    from study.progress import Rating

    for card_id in ("fx-ai-ml-dl/nested", "fx-ai-ml-dl/deep"):
        store.review_card(card_id, bank.content_hash(card_id), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert "Due now      2" in text_of(app, "#home-due")
        await pilot.press("r")
        await settle(pilot, app)
        assert app.screen.total == 2
        await pilot.press("space", "3", "space", "3")
        await settle(pilot, app)
        done = app.screen.query_one("#review-card-md").source
        assert "Review done: 2 items" in done and "the next comes due " in done
        await pilot.press("escape")
        await settle(pilot, app)
        assert "Due now      0" in text_of(app, "#home-due")


async def test_home_shows_todays_plan_in_minutes_at_the_learners_own_pace(make_app, store, bank, clock):
    import math

    from study.progress import Attempt
    from study.progress.plan import DEFAULT_SECONDS_PER_ANSWER, PACE_MIN_SAMPLES, compute_plan

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        title = str(app.screen.query_one("#home-next").border_title)
        plan = compute_plan(store, bank, clock.now)
        first = app.screen.query_one("#home-next").get_option_at_index(0).id
        assert plan.new_by_objective[0].objective == first  # the plan starts where Study next does
        assert plan.minutes == math.ceil(plan.new_questions * DEFAULT_SECONDS_PER_ANSWER / 60)
        assert title == f"Study next · {plan.summary()}"
    for k in range(PACE_MIN_SAMPLES):  # answers today at 30 s each: the learner's own pace
        q = bank.questions[k % len(bank.questions)]
        store.record_attempt(Attempt(q.id, bank.content_hash(q.id), {}, "A", True, 30.0, "practice",
                                     at=clock.now - dt.timedelta(minutes=5)))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        title = str(app.screen.query_one("#home-next").border_title)
        plan = compute_plan(store, bank, clock.now)
        assert plan.pace.seconds_per_answer == 30.0
        seconds = (plan.review_questions + plan.new_questions) * 30.0 + plan.review_cards * plan.pace.seconds_per_rating
        assert f"about {math.ceil(seconds / 60)} min" in title and title == f"Study next · {plan.summary()}"


async def test_the_exam_footer_keeps_help_at_80_columns_with_every_key_shown(make_app):
    from tests.tui.test_question_flow import open_exam

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_exam(pilot, app)
        await pilot.press("b", "n", "b")  # Prev and Clear both offered now
        await settle(pilot, app)
        footer = screen_lines(app)[-1]
        assert "[ Prev" in footer and "x Clear" in footer and "? Help" in footer, footer
