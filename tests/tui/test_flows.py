"""Pilot tests: drive each flow with keys and assert on the session, the store and what the screens hold."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Markdown, Static, Tree

from tests.tui.conftest import DATA, answered, settle, tree_nodes


def text_of(app, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def markdown_of(app, selector: str) -> str:
    return app.screen.query_one(selector, Markdown).source


# -- home, settings, problems ---------------------------------------------------------------------------


async def test_home_counts_down_to_the_exam_date_set_in_settings(make_app, store, clock):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert "No exam date set" in text_of(app, "#home-countdown")
        await pilot.press("comma")
        await settle(pilot, app)
        date_input = app.screen.query_one("#set-exam-date", Input)
        date_input.value = (clock.now.date() + dt.timedelta(days=31)).isoformat()
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert store.get_setting("exam_date") == "2026-12-31"
        await pilot.press("escape")
        await settle(pilot, app)
        assert "Exam in 31 days" in text_of(app, "#home-countdown")
        assert "Readiness" in text_of(app, "#home-countdown")


async def test_settings_refuse_a_retention_out_of_range(make_app, store):
    before = store.get_setting("desired_retention", None)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-retention", Input).value = "0.99"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert "from 0.70 to 0.97" in text_of(app, "#settings-message")
        assert store.get_setting("desired_retention", None) == before != 0.99


async def test_settings_say_what_is_wrong_with_an_exam_date(make_app, store):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-exam-date", Input).value = "2027-13-45"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
        assert "month 13 is not 1 to 12" in text_of(app, "#settings-message")
        assert store.get_setting("exam_date", None) is None


async def test_bank_problems_are_shown_not_swallowed(tmp_path, store, clock):
    from study.bank import load_bank
    from study.tui.app import make_app

    broken = tmp_path / "broken.yaml"
    broken.write_text("questions:\n  - id: bad-one\n    objective: '9.9'\n    type: single\n")
    bank = load_bank(questions=[DATA / "questions", broken], content=DATA / "content")
    assert bank.errors, "the fixture must produce a load error"
    app = make_app(bank=bank, store=store, clock=clock, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        n_err = len(bank.errors)
        assert f"{n_err} problem{'s' if n_err > 1 else ''} in the bank" in text_of(app, "#home-problems")
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        problems = app.screen.problems
        assert any("broken.yaml" in p.where for p in problems)
        assert len(problems) == len(bank.diagnostics)
        assert app.screen.query_one("#problems-list").option_count == len(problems)


# -- topics -------------------------------------------------------------------------------------------


async def test_topics_tree_search_card_and_rating(make_app, store, bank):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("t")
        await settle(pilot, app)
        tree = app.screen.query_one(Tree)
        assert [str(n.label) for n in tree.root.children][0].startswith("1 Essential AI Knowledge")
        await pilot.press("slash", *"between")
        await settle(pilot, app)
        leaves = [node.data for node in tree_nodes(tree)]
        assert ("card", "fx-nvlink-scope/between") in leaves
        assert ("card", "fx-ai-ml-dl/nested") not in leaves
        app.screen.show("card", "fx-nvlink-scope/between")
        await settle(pilot, app)
        assert "InfiniBand" in markdown_of(app, "#topics-markdown")
        assert store.item_state("fx-nvlink-scope/between") is None
        app.screen.query_one(Tree).focus()
        await pilot.press("3")
        await settle(pilot, app)
        state = store.item_state("fx-nvlink-scope/between")
        assert state is not None and state.kind == "card"


async def test_command_palette_reaches_a_topic(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        await pilot.press(*"Scale up and")
        from textual.command import CommandList

        for _ in range(100):  # the palette searches asynchronously; wait for the hit rather than a fixed time
            await pilot.pause(0.05)
            hits = app.screen.query(CommandList)
            if hits and hits.first().option_count:
                break
        await pilot.press("enter")
        await settle(pilot, app)
        from study.tui.screens.topics import TopicsScreen

        assert isinstance(app.screen, TopicsScreen)
        assert app.screen.selected == ("topic", "fx-nvlink-scope")


async def test_command_palette_reaches_every_screen(make_app):
    from study.tui.app import SCREENS

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for _module, _cls, title, _help in SCREENS.values():
            assert f"Go to {title}" in titles


# -- practice -----------------------------------------------------------------------------------------


async def test_practice_numeric_typed_with_units_shows_the_derivation(make_app, store):
    from study.tui.screens.practice import PracticeScreen, start_practice

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert start_practice(app, objective="2.1", count=2)
        await settle(pilot, app)
        screen = app.screen
        assert isinstance(screen, PracticeScreen)
        seen = {}
        for _ in range(2):
            inst = screen.session.current
            assert inst.is_numeric_typed
            # Binary units on purpose: the engine converts before applying the tolerance.
            answer = "130.4 GiB" if inst.qid == "fx-d2-fp16-weights" else "1.34 GB"
            await pilot.press(*answer, "enter")
            await settle(pilot, app)
            grade = screen.grades[screen.session.index]
            seen[inst.qid] = grade
            feedback = markdown_of(app, "#q-feedback")
            assert grade.correct, grade.message
            assert feedback.startswith("✔ Correct") and "Right" not in feedback  # the verdict said once
            if inst.qid == "fx-d2-kv-cache":
                assert "**Derivation**" in feedback
                assert "layers" in feedback  # the formula's terms are spelled out
            await pilot.press("enter")
            await settle(pilot, app)
        assert set(seen) == {"fx-d2-fp16-weights", "fx-d2-kv-cache"}
        from study.tui.screens.results import ResultsScreen

        assert isinstance(app.screen, ResultsScreen)
        assert app.screen.report.correct == 2
    assert {a.item_id for a in store.history()} == {"fx-d2-fp16-weights", "fx-d2-kv-cache"}


async def test_practice_wrong_dimension_is_refused_with_what_is_asked(make_app):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="2.1", count=1)
        await settle(pilot, app)
        await pilot.press(*"2 s", "enter")
        await settle(pilot, app)
        # A time where a size is asked is not an answer: the screen says what is asked and waits.
        assert app.screen.grades == {} and app.screen.session.answers == [None]
        status = str(app.screen.query_one("#quiz-status").render())
        assert "that is a time; the question asks for" in status


async def test_practice_multi_choice_needs_both_picks(make_app):
    from study.tui.screens.practice import start_practice

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        start_practice(app, objective="3.3", count=1)
        await settle(pilot, app)
        inst = app.screen.session.current
        right = [i for i, o in enumerate(inst.options) if o.correct]
        await pilot.press(str(right[0] + 1))
        await pilot.press("enter")  # one pick of two: a slip, not an answer
        await settle(pilot, app)
        assert app.screen.grades == {}
        await pilot.press(str(right[1] + 1))
        await pilot.press("enter")
        await settle(pilot, app)
        assert app.screen.grades[0].correct


async def test_practice_setup_form_starts_a_filtered_set(make_app):
    from study.tui.screens.practice import PracticeScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("p")
        await settle(pilot, app)
        from textual.widgets import Select

        app.screen.query_one("#pf-domain", Select).value = "3"
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        assert {i.domain for i in app.screen.session.instances} == {"3"}


# -- exam ---------------------------------------------------------------------------------------------


async def test_full_exam_answer_flag_review_submit_results(make_app, store, clock):
    from study.tui.screens.exam import ExamScreen, ReviewBeforeSubmit, start_exam
    from study.tui.screens.results import ResultsScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("e")
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        exam = app.screen
        assert isinstance(exam, ExamScreen)
        session = exam.session
        assert session.count == 5 and session.deadline == clock.now + dt.timedelta(minutes=6)
        # Answer question 1 with its right choice, flag question 2 unanswered, answer 3 wrong.
        right = [i for i, o in enumerate(session.current.options) if o.correct]
        for i in right:
            await pilot.press(str(i + 1))
        await pilot.press("n", "f")
        await settle(pilot, app)
        assert session.flags[1] and session.answers[1] is None
        assert "flagged" in text_of(app, "#quiz-position")
        await pilot.press("n")
        wrong = next(i for i, o in enumerate(session.current.options) if not o.correct)
        await pilot.press(str(wrong + 1))
        clock.advance(seconds=90)
        await pilot.press("g")
        await settle(pilot, app)
        assert session.answers[0] is not None and session.answers[2] is not None
        # The store holds the running exam after every action.
        active = store.active_session("exam")
        assert active is not None and active[0] == session.id
        await pilot.press("r")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, ReviewBeforeSubmit)
        assert session.review().unanswered == (1, 3, 4) and session.review().flagged == (1,)
        await pilot.press("s")
        await settle(pilot, app)
        await pilot.press("n")  # the confirmation refuses: still reviewing
        await settle(pilot, app)
        assert isinstance(app.screen, ReviewBeforeSubmit) and not session.finished
        await pilot.press("s")
        await settle(pilot, app)
        await pilot.press("y")
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        report = app.screen.report
        assert report.total == 5 and report.correct == 1
        assert len(report.unanswered) == 3 and len(report.incorrect) == 1
        assert "1 wrong, 3 unanswered" in text_of(app, "#results-score")
    assert store.active_session("exam") is None
    history = store.exam_history()
    assert [s.id for s in history] == [session.id]
    # Two answered, three blank: the blanks count in the score only, never as attempts (issue 14 §1.2).
    assert len({a.item_id for a in store.history() if a.session_id == session.id}) == 2


async def test_exam_alerts_then_auto_submit_at_zero(make_app, clock):
    from study.tui.screens.exam import ExamScreen, start_exam
    from study.tui.screens.results import ResultsScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        # 5 questions, 6 minutes (the time follows the questions drawn): alerts at 3 min, 1 min 30 s, 30 s left
        start_exam(app, 5)
        await settle(pilot, app)
        exam = app.screen
        assert isinstance(exam, ExamScreen)
        assert exam.session.minutes == 6
        clock.advance(minutes=3, seconds=15)
        exam.tick()
        await settle(pilot, app)
        # The alert is a banner that stays (issue 20), not a toast that goes.
        assert "3 min left" in text_of(app, "#exam-alert") and exam.query_one("#exam-alert").display
        assert "-alert" in exam.query_one("#exam-timer").classes
        clock.advance(minutes=3)
        exam.tick()
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert app.screen.report.timed_out


async def _exam_then_killed(bank, store_path, clock, act) -> Any:
    """An app starts a 5-question exam (6 minutes), ``act(pilot)`` answers some of it, and the process dies:
    no submit, the store keeps what was saved after each action. The exam's session."""
    from study.progress import open_store
    from study.tui.app import make_app
    from study.tui.screens.exam import start_exam

    store = open_store(store_path)
    app = make_app(bank=bank, store=store, clock=clock, seed=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)  # 6 minutes: the time follows the 5 questions drawn
        await settle(pilot, app)
        session = app.screen.session
        await act(pilot)
        await settle(pilot, app)
    store.close()
    return session


def _restarted(bank, store_path, clock) -> tuple[Any, Any]:
    from study.progress import open_store
    from study.tui.app import make_app

    store = open_store(store_path)
    return store, make_app(bank=bank, store=store, clock=clock, seed=3)


async def test_exam_killed_and_resumed_with_the_remaining_time(bank, store_path, clock):
    from study.tui.screens.dialogs import ChoiceDialog
    from study.tui.screens.exam import ExamScreen

    async def answer_then_flag(pilot):
        await pilot.press("2", "n")
        clock.advance(minutes=2)
        await pilot.press("f")

    first = await _exam_then_killed(bank, store_path, clock, answer_then_flag)
    clock.advance(minutes=1)  # time passes while the app is closed: the exam clock keeps running

    store2, app2 = _restarted(bank, store_path, clock)
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app2)
        dialog = app2.screen
        assert isinstance(dialog, ChoiceDialog)
        body = str(dialog.query_one("#dialog-body", Static).render())
        assert "03:00" in body  # 6 minutes - 2 - 1
        # The offer's figure runs with the exam's clock while it is open, as Home's paused line does.
        clock.advance(seconds=20)
        dialog._refresh_body()
        await settle(pilot, app2)
        assert "02:40" in str(dialog.query_one("#dialog-body", Static).render())
        clock.advance(seconds=-20)
        dialog._refresh_body()
        await pilot.press("y")
        await settle(pilot, app2)
        exam = app2.screen
        assert isinstance(exam, ExamScreen)
        assert exam.session.id == first.id
        assert exam.session.remaining() == dt.timedelta(minutes=3)
        assert exam.session.answers[0] is not None and exam.session.flags[1]
        assert exam.session.index == 1
        assert "03:00" in text_of(app2, "#exam-timer")
    store2.close()


async def test_the_resume_offer_says_when_the_time_runs_out_while_it_is_open(bank, store_path, clock):
    from study.tui.screens.dialogs import ChoiceDialog

    async def answer_one(pilot):
        await pilot.press("2")

    await _exam_then_killed(bank, store_path, clock, answer_one)
    store2, app2 = _restarted(bank, store_path, clock)
    async with app2.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app2)
        dialog = app2.screen
        assert isinstance(dialog, ChoiceDialog)
        clock.advance(minutes=7)
        await pilot.pause(1.2)  # the dialog's own once-a-second refresh
        body = str(dialog.query_one("#dialog-body", Static).render())
        assert "time ran out" in body and "left on its clock" not in body
    store2.close()


# -- review -------------------------------------------------------------------------------------------


async def test_review_session_rates_due_cards_and_moves_their_schedule(make_app, store, bank, clock):
    from study.progress import Rating

    card_id = "fx-ai-ml-dl/nested"
    store.review_card(card_id, bank.content_hash(card_id), Rating.Again, 20, clock.now - dt.timedelta(days=5))
    before = store.item_state(card_id).due
    assert before <= clock.now
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        assert screen.phase == "card" and screen.cards == [card_id]
        # The front asks the card's recall prompt; the card itself is the answer.
        assert "How are AI, machine learning and deep learning nested?" in markdown_of(app, "#review-card-md")
        assert "Deep learning is the subset" not in markdown_of(app, "#review-card-md")
        await pilot.press("space")
        await settle(pilot, app)
        assert "Deep learning is the subset" in markdown_of(app, "#review-card-md")
        await pilot.press("4")
        await settle(pilot, app)
        assert screen.phase == "done"
        assert screen.query_one("#review-progress").progress == 1
    after = store.item_state(card_id).due
    assert after > clock.now
    assert len(store.reviews(card_id)) == 2


async def test_review_due_question_is_answered_and_recorded(make_app, store, bank, clock):
    qid = "fx-d1-nccl"
    answered(store, bank, clock, qid)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        screen = app.screen
        assert screen.phase == "question" and screen.session.current.qid == qid
        right = next(i for i, o in enumerate(screen.session.current.options) if o.correct)
        await pilot.press(str(right + 1), "enter")
        await settle(pilot, app)
        assert screen.graded
    attempts = store.history(qid)
    assert len(attempts) == 2 and attempts[0].correct and attempts[0].mode == "practice"
    assert store.item_state(qid).due > clock.now


# -- calculator ---------------------------------------------------------------------------------------


async def test_calculator_inputs_change_the_figures(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        calc = app.screen
        kv1 = calc.figures["kv"].result.value
        needed = int(calc.figures["needed"].result.value)
        assert "not on 1" in calc.figures["needed"].note
        calc.query_one("#c-batch", Input).value = "8"
        await settle(pilot, app)
        assert calc.figures["kv"].result.value == pytest.approx(8 * kv1)
        calc.query_one("#c-gpus", Input).value = str(needed + 1)
        await settle(pilot, app)
        assert calc.figures["needed"].note == f"✔ fits on {needed + 1}"
        tps_before = calc.figures["tps"].result.value
        calc.query_one("#c-batch", Input).value = "64"
        await settle(pilot, app)
        assert calc.figures["tps"].result.value > tps_before
        assert calc.figures["tps"].note in ("memory-bound", "compute-bound")
        # The derivation panel follows the highlighted figure.
        table = calc.query_one("#calc-figures", DataTable)
        table.focus()
        table.move_cursor(row=1)
        await settle(pilot, app)
        derivation = str(calc.query_one("#calc-derivation", Static).render())
        assert "KV cache" in derivation and "kv_heads" in derivation


async def test_calculator_typed_gpu_figures_with_units_override_the_catalog(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        calc = app.screen
        tps = calc.figures["tps"].result.value
        calc.query_one("#c-bw", Input).value = "6.7 TB/s"  # twice the H100 SXM's 3.35 TB/s
        await settle(pilot, app)
        assert calc.figures["tps"].result.value == pytest.approx(2 * tps, rel=0.01)
        calc.query_one("#c-mem", Input).value = "200 GB"
        await settle(pilot, app)
        assert int(calc.figures["needed"].result.value) == 1
        calc.query_one("#c-bw", Input).value = "6.7 GB"
        await settle(pilot, app)
        assert calc.figures["tps"].result is None
        assert "bandwidth" in calc.figures["tps"].error


async def test_calculator_rejects_text_in_number_fields(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("c")
        await settle(pilot, app)
        app.screen.query_one("#c-tokens", Input).value = "lots"
        await settle(pilot, app)
        assert "Numbers only" in str(app.screen.query_one("#calc-status", Static).render())


# -- progress and help --------------------------------------------------------------------------------


async def test_progress_screen_shows_objectives_and_exam_history(make_app, store, bank, clock):
    from study.quiz import build_exam

    session = build_exam(bank, 1, 5, store=store, clock=clock)
    session.answer(session.current.correct_labels[0] if session.current.options else "1 GB")
    session.submit()
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        table = app.screen.query_one("#progress-objectives", DataTable)
        assert table.row_count == len(bank.blueprint.objective_ids())
        exams = app.screen.query_one("#progress-exams")
        assert len(exams.rows) == 1 and exams.rows[0].fraction == pytest.approx(session.report.score / 100)


async def test_help_lists_the_keys_of_every_screen(make_app):
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await settle(pilot, app)
        text = markdown_of(app, "#help-markdown")
        for needle in ("`f` Flag", "**Home**: `r` Review", "What readiness means", "30 items"):
            assert needle in text


async def test_theme_setting_switches_dark_and_light(make_app, store):
    from textual.widgets import Select

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert app.theme == "textual-dark"
        await pilot.press("comma")
        await settle(pilot, app)
        app.screen.query_one("#set-theme", Select).value = "textual-light"
        await settle(pilot, app)
        assert app.theme == "textual-light"
        await pilot.press("ctrl+s")
        await settle(pilot, app)
    assert store.get_setting("theme") == "light"


async def test_no_color_is_honoured(make_app, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert app.no_color
        # Meaning never rides on colour alone: marks and words carry it.
        assert "Readiness" in str(app.screen.query_one("#home-countdown").render())


async def test_mouse_picks_a_choice_and_jumps_with_the_navigator(make_app):
    from study.tui.screens.exam import start_exam
    from study.tui.widgets.navigator import CELL

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        start_exam(app, 5)
        await settle(pilot, app)
        session = app.screen.session
        await pilot.click("#q-choices", offset=(6, 0))
        await settle(pilot, app)
        assert session.answers[0] == "A"
        await pilot.press("g")
        await settle(pilot, app)
        await pilot.click("#exam-nav", offset=(3 * CELL + 1, 0))
        await settle(pilot, app)
        assert session.index == 3
        assert app.screen.view.choices.picked == set()


async def test_a_store_that_cannot_open_is_reported_and_practice_still_works(bank, clock, tmp_path):
    from study.tui.app import make_app
    from study.tui.screens.practice import PracticeScreen, start_practice

    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the store's folder should be")
    app = make_app(bank=bank, clock=clock, db=str(blocker / "progress.db"), seed=2)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert app.services.store is None
        assert any("progress store" in e for e in app.services.errors)
        assert "progress store" in text_of(app, "#home-problems")
        assert start_practice(app, count=1)
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)


async def test_app_can_open_on_a_named_screen(make_app):
    from study.tui.screens.calc import CalcScreen

    app = make_app(start="calc")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, CalcScreen)
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen.__class__.__name__ == "HomeScreen"



async def test_a_statistics_failure_is_shown_on_home(make_app, monkeypatch):
    import study.progress.stats as stats_module

    def broken(*a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(stats_module, "compute_stats", broken)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert "statistics failed: disk on fire" in text_of(app, "#home-problems")


async def test_bank_problems_key_works_at_80_columns_without_crowding_the_footer(tmp_path, store, clock):
    from study.bank import load_bank
    from study.tui.app import make_app
    from study.tui.screens.problems import ProblemsScreen

    broken = tmp_path / "broken.yaml"
    broken.write_text("questions:\n  - id: bad-two\n    objective: '9.9'\n")
    bank = load_bank(questions=[DATA / "questions", broken], content=DATA / "content")
    app = make_app(bank=bank, store=store, clock=clock, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        shown = [b.binding.description for b in app.active_bindings.values() if b.binding.show and b.enabled]
        assert "Problems" not in shown and "Help" in shown
        await pilot.press("exclamation_mark")
        await settle(pilot, app)
        assert isinstance(app.screen, ProblemsScreen)
