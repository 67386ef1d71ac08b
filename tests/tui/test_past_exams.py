"""A past exam can be reopened (issue 37 §2): from Progress, h lists every exam taken, enter opens one's
results screen and a its answer review, built from the report the store kept, not from a session in memory."""

from __future__ import annotations

from typing import Any

from textual.widgets import DataTable, Static

from tests.tui.conftest import settle


def take_exam(bank: Any, store: Any, clock: Any, seed: int, right: int) -> Any:
    """A 5-question exam with the first ``right`` answered right and the rest wrong (a typed answer wrong as
    '1 GB', a choice wrong as the first wrong label); returns its report."""
    from study.quiz import build_exam

    session = build_exam(bank, seed, 5, store=store, clock=clock)
    for i in range(5):
        c = session.current
        wrong = next((label for label in c.labels if label not in c.correct_labels), "1 GB")
        session.answer(c.expected if i < right else wrong)
        if i < 4:
            session.next()
        clock.advance(minutes=1)
    session.submit()
    clock.advance(days=1)
    return session.report


def text_of(app: Any, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_progress_reopens_each_past_exam_with_its_results_and_answers(make_app, store, bank, clock):
    first = take_exam(bank, store, clock, 1, right=1)
    second = take_exam(bank, store, clock, 2, right=3)
    assert first.correct != second.correct
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        await pilot.press("h")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "PastExamsScreen"
        table = app.screen.query_one("#past-table", DataTable)
        assert table.row_count == 2
        # The latest first, numbered as `study stats --exam` numbers them (1 = the first taken).
        assert [table.get_row_at(k)[0] for k in range(2)] == ["2", "1"]
        assert table.get_row_at(1)[2] == f"{first.score:.1f}%"
        await pilot.press("down", "enter")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "ResultsScreen"
        assert app.screen.report.session_id == first.session_id
        assert f"({first.correct}/5;" in text_of(app, "#results-score")
        assert app.screen.query_one("#results-score").border_title.startswith("Exam 1 of 2")
        # Its trend ends with it: the exam after it is not in it.
        assert "first exam" in text_of(app, "#results-history")
        await pilot.press("a")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "AnswerReviewScreen"
        shown = app.screen.shown
        assert [q.id for q in shown] == [q.id for q in first.questions if not q.correct]
        assert shown[0].choices == next(q for q in first.questions if q.id == shown[0].id).choices
        await pilot.press("escape", "escape")
        await settle(pilot, app)
        await pilot.press("enter")  # the cursor stayed on exam 1's row; up to exam 2
        await settle(pilot, app)
        await pilot.press("escape", "up", "enter")
        await settle(pilot, app)
        assert app.screen.report.session_id == second.session_id
        assert "1 exams" not in text_of(app, "#results-history") and "2 exams" in text_of(app, "#results-history")


async def test_progress_offers_past_exams_only_once_one_was_taken(make_app, store, bank, clock):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        assert "h" not in {k for k, b in app.screen.active_bindings.items() if b.enabled}
    take_exam(bank, store, clock, 1, right=1)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        assert app.screen.active_bindings["h"].enabled


async def test_a_damaged_report_is_named_not_raised(make_app, store, bank, clock):
    report = take_exam(bank, store, clock, 1, right=1)
    store._conn.execute("UPDATE sessions SET report_json = ? WHERE id = ?",
                        ('{"session_id": "x", "correct": "many"}', report.session_id))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("percent_sign")
        await settle(pilot, app)
        await pilot.press("h")
        await settle(pilot, app)
        table = app.screen.query_one("#past-table", DataTable)
        assert table.get_row_at(0)[-1] == "damaged report"
        await pilot.press("enter")
        await settle(pilot, app)
        assert type(app.screen).__name__ == "PastExamsScreen"
        assert any("damaged" in n.message and "'correct'" in n.message for n in app._notifications)


async def test_a_perfect_score_offers_no_retake(make_app, store, bank, clock):
    report = take_exam(bank, store, clock, 1, right=5)
    assert report.correct == 5
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        app.show("results", report)
        await settle(pilot, app)
        enabled = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert "retake" not in enabled and "practice_weak" not in enabled and "review" in enabled
        assert "retake wrong" not in text_of(app, "#results-score")
