"""After an exam: the results screen, the review of every answer, retake and weakest-objective practice, and
reporting a problem with a question from practice, exam, review and results."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from textual.widgets import Markdown, Static

from tests.tui.conftest import settle


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def review_text(app: Any) -> str:
    return app.screen.query_one("#ar-question", Markdown).source


async def finish_exam(pilot: Any, app: Any, plan: str) -> Any:
    """Start a 5-question exam and answer it by ``plan``, one letter per question: r right, w wrong,
    f flagged and unanswered, '-' unanswered; then submit. Returns the results screen."""
    from study.tui.screens.exam import start_exam
    from study.tui.screens.results import ResultsScreen

    start_exam(app, 5)
    await settle(pilot, app)
    session = app.screen.session
    for step in plan:
        inst = session.current
        if inst.is_numeric_typed:  # a number box has the focus: type, and enter moves on
            if step in "rw":
                # Wrong: a wrong value of the asked dimension (another dimension is refused, not graded).
                from study.quiz import format_value

                wrong = format_value(inst.numeric.value * 3 + 1, inst.numeric.unit)
                await pilot.press(*(inst.expected if step == "r" else wrong), "enter")
            else:
                if step == "f":
                    session.flag()
                await pilot.press("enter")
            await settle(pilot, app)
            continue
        if step in "rw":
            want = [i for i, o in enumerate(inst.options) if o.correct == (step == "r")]
            need = inst.choose if inst.is_multi else 1
            for i in want[:need]:
                await pilot.press(str(i + 1))
        elif step == "f":
            await pilot.press("f")
        await pilot.press("n")
        await settle(pilot, app)
    # A typed last answer leaves the focus in its number box, where "r" would be typed, not pressed.
    app.screen.set_focus(None)
    await pilot.press("r")
    await settle(pilot, app)
    await pilot.press("s")
    await settle(pilot, app)
    await pilot.press("y")
    await settle(pilot, app)
    assert isinstance(app.screen, ResultsScreen)
    return app.screen


async def test_review_filters_show_full_answers_whys_and_time(make_app, clock):
    from study.tui.screens.answer_review import AnswerReviewScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        results = await finish_exam(pilot, app, "rfw--")
        report = results.report
        assert (report.correct, len(report.incorrect), len(report.unanswered)) == (1, 1, 3)
        await pilot.press("a")
        await settle(pilot, app)
        review = app.screen
        assert isinstance(review, AnswerReviewScreen)
        # Opens on what went wrong; the filter bar counts each kind.
        assert review.filter == "wrong"
        bar = text_of(app, "#ar-filters")
        for label in ("1 all 5", "2 wrong 1", "3 unanswered 3", "4 flagged 1", "5 right 1"):
            assert label in bar, bar
        wrong = report.incorrect[0]
        text = review_text(app)
        assert "✘ wrong" in text and wrong.stem in text
        picked = [c for c in wrong.choices if c.picked]
        right = [c for c in wrong.choices if c.correct]
        assert picked and right
        for c in picked + right:
            assert c.text.replace("_", "\\_").replace("*", "\\*") in text
        assert "*(your pick)*" in text
        assert all(c.why in text for c in wrong.choices if c.why)
        if wrong.explanation:
            assert wrong.explanation.split()[0] in text
        assert "time spent" in text
        await pilot.press("3")
        await settle(pilot, app)
        assert review.filter == "unanswered" and "Your answer:** none" in review_text(app)
        positions = []
        for _ in range(3):
            positions.append(review.current.position)
            await pilot.press("n")
            await settle(pilot, app)
        assert positions == [q.position for q in report.unanswered]
        assert review.current.position == positions[0]  # wraps round
        await pilot.press("4")
        await settle(pilot, app)
        assert review.filter == "flagged" and review.current.position == 2 and "⚑ flagged" in review_text(app)
        await pilot.press("5")
        await settle(pilot, app)
        assert review.filter == "right" and "✔ right" in review_text(app)
        await pilot.press("f")  # cycles back to all, keeping the question on screen
        await settle(pilot, app)
        assert review.filter == "all" and review.current.position == 1
        await pilot.press("p")
        await settle(pilot, app)
        assert review.current.position == 5
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is results


async def test_results_show_every_pick_of_a_choose_two_in_full(make_app, bank, store, clock):
    """The results once cut "you answered A) The DPU replaces the host OS with a hardened hyp" and kept only
    the first pick of a choose-two; the review names both picks with their whole text."""
    from study.quiz import build_practice
    from study.tui.screens.answer_review import AnswerReviewScreen
    from study.tui.screens.results import ResultsScreen

    session = build_practice(bank, 1, 1, objective="3.3", store=store, clock=clock)
    inst = session.current
    wrong = [i for i, o in enumerate(inst.options) if not o.correct]
    session.answer(",".join("ABCD"[i] for i in wrong))
    report = session.submit()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.push_screen(ResultsScreen(report))
        await settle(pilot, app)
        await pilot.press("a")
        await settle(pilot, app)
        assert isinstance(app.screen, AnswerReviewScreen)
        text = review_text(app)
        mine = text.split("**Your answer:**")[1].split("**Right answer:**")[0]
        assert [line for line in mine.splitlines() if line.startswith("- ")] == [
            f"- {'ABCD'[i]}) {inst.options[i].text}" for i in wrong
        ]


async def test_results_by_objective_and_trend_against_earlier_exams(make_app, clock):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        first = await finish_exam(pilot, app, "wwwww")
        assert "first exam" in text_of(app, "#results-history")
        await pilot.press("escape")
        await settle(pilot, app)
        clock.advance(days=1)
        second = await finish_exam(pilot, app, "rrrrr")
        assert second.report.score == 100.0 and first.report.score == 0.0
        console = Console(width=160, record=True, file=io.StringIO())
        console.print(second._objectives_table())
        rows = console.export_text().splitlines()
        assert len(rows) == len(second.report.by_objective)
        for row, (oid, tally) in zip(rows, second.report.by_objective.items()):
            assert row.startswith(oid) and f"{tally.correct}/{tally.total}" in row and tally.name in row
        assert "weakest" not in console.export_text()
        await pilot.press("p")  # nothing weak after a perfect exam: say so, stay
        await settle(pilot, app)
        assert app.screen is second
        trend = text_of(app, "#results-history")
        assert "Score" in trend and "▁█" in trend and "0% → 100% (+100)" in trend
        assert "2 exams" in trend


def test_trend_helpers():
    from study.tui.screens.results import domain_trend, spark

    assert spark([0, 50, 100, None]) == "▁▅█ "
    reports = [
        {"score": 40.0, "by_domain": {"1": {"percent": 50.0}, "2": {"percent": 30.0}}},
        {"score": 80.0, "by_domain": {"2": {"percent": 80.0}, "10": {"percent": 100.0}}},
    ]
    assert domain_trend(reports) == {"all": [40.0, 80.0], "1": [50.0, None], "2": [30.0, 80.0],
                                     "10": [None, 100.0]}


async def test_retake_missed_and_practise_weakest_in_one_key(make_app, clock):
    from study.tui.screens.practice import PracticeScreen
    from study.tui.screens.results import weakest_objective

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        results = await finish_exam(pilot, app, "rw-rw")
        report = results.report
        await pilot.press("w")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        assert [i.qid for i in app.screen.session.instances] == [q.id for q in report.questions if not q.correct]
        assert app.screen.session.mode == "practice"
        await pilot.press("escape")
        await settle(pilot, app)
        assert app.screen is results  # the exam's results are still there to go back to
        weakest = weakest_objective(report)
        tally = report.by_objective[weakest]
        assert all(tally.correct / tally.total <= t.correct / t.total for t in report.by_objective.values())
        await pilot.press("p")
        await settle(pilot, app)
        assert isinstance(app.screen, PracticeScreen)
        assert {i.objective for i in app.screen.session.instances} == {weakest}


async def test_report_a_problem_from_results_review_and_practice(make_app, store, clock):
    from study.progress.reports import list_reports
    from study.tui.screens.practice import start_practice
    from study.tui.screens.report_problem import ReportDialog

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        results = await finish_exam(pilot, app, "rw---")
        first = results.report.questions[0]
        await pilot.press("R")
        await settle(pilot, app)
        assert isinstance(app.screen, ReportDialog)
        await pilot.press("1", *"C is right", "enter")
        await settle(pilot, app)
        assert app.screen is results
        [kept] = list_reports(store)
        assert (kept.item_id, kept.kind, kept.text, kept.context, kept.session_id) == (
            first.id, "wrong-key", "C is right", "results", results.report.session_id)
        assert kept.content_hash == app.services.bank.content_hash(first.id)
        # From the review: "something else" needs words; escape then keeps nothing.
        await pilot.press("a")
        await settle(pilot, app)
        await pilot.press("R")
        await settle(pilot, app)
        await pilot.press("4", "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, ReportDialog)
        assert "Say in a few words" in text_of(app, "#report-hint")
        await pilot.press("escape")
        await settle(pilot, app)
        assert len(list_reports(store)) == 1
        await pilot.press("R")
        await settle(pilot, app)
        await pilot.press("3", "enter")
        await settle(pilot, app)
        assert list_reports(store)[0].context == "review" and list_reports(store)[0].kind == "outdated"
        # From practice, on the question shown.
        start_practice(app, count=1)
        await settle(pilot, app)
        shown = app.screen.session.current.qid
        await pilot.press("R")
        await settle(pilot, app)
        await pilot.press("down", "enter")  # arrows pick the kind too: "unclear"
        await settle(pilot, app)
        await pilot.press(*"which GPU?", "enter")
        await settle(pilot, app)
        newest = list_reports(store)[0]
        assert (newest.item_id, newest.kind, newest.text, newest.context) == (shown, "unclear", "which GPU?",
                                                                              "practice")


class WriteSpy:
    """The real store, noting on which thread each submit-time write ran; ``fail`` makes them raise."""

    def __init__(self, store: Any, fail: bool = False) -> None:
        self._store = store
        self.fail = fail
        self.threads: dict[str, set[int]] = {}

    def __getattr__(self, name: str) -> Any:
        real = getattr(self._store, name)
        if name not in ("record_attempt", "finish_session"):
            return real

        def write(*args: Any, **kwargs: Any) -> Any:
            import threading

            self.threads.setdefault(name, set()).add(threading.get_ident())
            if self.fail:
                from study.progress import StoreError

                raise StoreError("disk full")
            return real(*args, **kwargs)

        return write


async def test_submit_draws_the_results_and_saves_them_off_the_ui_thread(make_app, store, clock):
    """The confirming key used to wait for one fsync'd transaction per answer before the results appeared."""
    import threading

    spy = WriteSpy(store)
    app = make_app(store=spy)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        results = await finish_exam(pilot, app, "rwrw-")
        main = threading.get_ident()
        assert spy.threads["record_attempt"] and main not in spy.threads["record_attempt"]
        assert main not in spy.threads["finish_session"]
    [done] = store.exam_history()
    assert done.id == results.report.session_id and done.report["correct"] == results.report.correct
    assert store.active_session("exam") is None
    assert {a.session_id for a in store.history()} == {results.report.session_id}


async def test_results_that_cannot_be_saved_say_so_and_stay_on_screen(make_app, store, clock):
    from study.tui.screens.results import ResultsScreen

    app = make_app(store=WriteSpy(store, fail=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await finish_exam(pilot, app, "rw---")
        await settle(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert any("could not be saved: disk full" in n.message for n in app._notifications)


def test_a_blank_is_wrong_in_an_exam_and_ungraded_in_practice(bank, store, clock):
    from study.quiz import build_practice
    from study.tui.screens.answer_review import review_markdown

    session = build_practice(bank, 1, 2, store=store, clock=clock)
    blank = session.submit().questions[0]
    assert not blank.answered
    assert "counts as wrong" in review_markdown(blank)
    practice = review_markdown(blank, blank_is_wrong=False)
    assert "skipped (not graded)" in practice and "counts as wrong" not in practice
    assert "**Your answer:** none" in practice


async def test_enter_on_a_question_row_reviews_that_question(make_app, clock):
    from study.tui.screens.answer_review import AnswerReviewScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await finish_exam(pilot, app, "rw-rw")
        await pilot.press("i", "down", "down", "enter")
        await settle(pilot, app)
        assert isinstance(app.screen, AnswerReviewScreen)
        assert app.screen.filter == "all" and app.screen.current.position == 3
        assert "Question 3" in text_of(app, "#ar-position")


async def test_review_offers_next_prev_and_report_only_with_a_question_shown(make_app, clock):
    """A filter with no question ("5 right 0") left Next, Prev and Report in the footer, where they did nothing."""

    def shown(app: Any) -> set[str]:
        return {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show and b.enabled}

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await finish_exam(pilot, app, "wwwww")
        await pilot.press("a")
        await settle(pilot, app)
        assert {"move(1)", "move(-1)", "report"} <= shown(app)
        await pilot.press("5")  # right: none
        await settle(pilot, app)
        assert "No right questions." in text_of(app, "#ar-position")
        assert not {"move(1)", "move(-1)", "report"} & shown(app)
        assert "app.pop_screen" in shown(app)
        await pilot.press("1")
        await settle(pilot, app)
        assert {"move(1)", "move(-1)", "report"} <= shown(app)
