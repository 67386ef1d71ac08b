"""How exam, timed-quiz and practice answers feed FSRS (issue 20: an exam must not flood the review queue)."""

from __future__ import annotations

import datetime as dt

import pytest

from study.progress import Attempt
from study.progress.schedule import EXAM_WRONG_DELAY

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def answer(store, qid: str, correct: bool, mode: str, at: dt.datetime, seconds: float = 30.0) -> None:
    store.record_attempt(Attempt(qid, "h", {}, "A", correct, seconds, mode, at=at))


@pytest.mark.parametrize("mode", ["exam", "quiz"])
@pytest.mark.parametrize("seconds", [20.0, 200.0])  # Good and Hard
def test_a_right_exam_answer_is_not_due_within_12_hours(store, mode, seconds):
    answer(store, "q1", True, mode, T0, seconds)
    due = store.item_state("q1").due
    assert due >= T0 + dt.timedelta(hours=12)
    assert store.due(T0 + dt.timedelta(hours=12)) == []


def test_a_right_exam_answer_after_practice_today_is_not_due_within_12_hours(store):
    answer(store, "q1", True, "practice", T0)  # practice: in FSRS's learning steps, due minutes later
    assert store.item_state("q1").due < T0 + dt.timedelta(hours=1)
    later = T0 + dt.timedelta(minutes=30)
    answer(store, "q1", True, "exam", later)
    assert store.item_state("q1").due >= later + dt.timedelta(hours=12)


def test_a_wrong_exam_answer_comes_back_hours_later_not_minutes(store):
    answer(store, "q2", False, "exam", T0)
    due = store.item_state("q2").due
    assert due == T0 + EXAM_WRONG_DELAY
    assert store.due(T0 + dt.timedelta(minutes=59)) == []
    assert store.due(T0 + EXAM_WRONG_DELAY) == ["q2"]


def test_practice_keeps_the_short_learning_steps(store):
    answer(store, "q3", True, "practice", T0)
    answer(store, "q4", False, "practice", T0)
    assert store.item_state("q3").due - T0 <= dt.timedelta(minutes=10)
    assert store.item_state("q4").due - T0 <= dt.timedelta(minutes=1)


def test_a_replayed_history_schedules_exam_answers_the_same_way(store):
    answer(store, "q5", True, "exam", T0)
    before = store.item_state("q5").due
    with store._tx() as conn:
        conn.execute("DELETE FROM items WHERE item_id = 'q5'")
        store._replay(conn, "q5")
    assert store.item_state("q5").due == before


def test_fifty_exam_answers_leave_nothing_due_the_same_day(store):
    for k in range(50):
        answer(store, f"e{k}", k % 3 != 0, "exam", T0 + dt.timedelta(seconds=k))
    assert store.due(T0 + dt.timedelta(hours=1)) == []
