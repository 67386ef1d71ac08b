"""Issue 14 §1.5: the exam clock belongs to the questions drawn, and an abandoned exam is resumed or counted."""

from __future__ import annotations

import datetime as dt

import pytest

from quiz_fixtures import T0, make_bank
from study.quiz import build_exam, unfinished

progress = pytest.importorskip("study.progress")


def test_asking_for_more_questions_than_the_bank_holds_does_not_buy_time():
    bank = make_bank(per_objective=2)
    held = len(bank.questions)
    s = build_exam(bank, seed=1, count=100_000, now=T0)
    assert s.count == held < 100_000
    per_question = bank.blueprint.exam.minutes / bank.blueprint.exam.questions
    assert s.minutes == pytest.approx(per_question * held)
    assert s.deadline == T0 + dt.timedelta(minutes=per_question * held)


def test_an_explicit_time_is_kept():
    s = build_exam(make_bank(per_objective=2), seed=1, count=100_000, minutes=7, now=T0)
    assert s.minutes == 7


@pytest.fixture
def store(tmp_path):
    with progress.open_store(tmp_path / "p.db", fuzz=False) as s:
        yield s


def test_an_abandoned_exam_with_time_left_comes_back_to_resume(store):
    bank = make_bank()
    s = build_exam(bank, seed=9, count=5, minutes=10, now=T0, store=store)
    s.answer(s.current.expected, now=T0 + dt.timedelta(seconds=30))
    back = unfinished(store, "exam", bank, now=T0 + dt.timedelta(minutes=4))
    assert back is not None and not back.finished and back.id == s.id
    assert back.answers == s.answers and back.deadline == s.deadline  # the same clock, not a fresh one
    assert back.mark == T0 + dt.timedelta(minutes=4)  # time away is not charged to a question


def test_an_abandoned_exam_past_its_deadline_is_counted(store):
    bank = make_bank()
    s = build_exam(bank, seed=9, count=5, minutes=10, now=T0, store=store)
    s.answer(s.current.expected, now=T0 + dt.timedelta(seconds=30))
    counted = unfinished(store, "exam", bank, now=T0 + dt.timedelta(hours=3))
    assert counted is not None and counted.finished and counted.timed_out
    assert counted.finished_at == s.deadline
    assert store.active_session("exam") is None
    [done] = store.exam_history()
    assert (done.report["correct"], done.report["total"]) == (1, 5)
    assert len(store.history()) == 1  # the one answer; the four blanks are only in the report
    # A new exam with the same seed now steers clear of the counted exam's questions (the bank allows it).
    fresh = build_exam(bank, seed=9, count=5, now=T0 + dt.timedelta(hours=3), store=store)
    assert not {i.qid for i in fresh.instances} & {i.qid for i in s.instances}


def test_nothing_unfinished():
    assert unfinished(None, "exam") is None


def test_a_resumed_session_still_shows_the_alerts_it_has_not_shown(store):
    bank = make_bank()
    build_exam(bank, seed=9, count=5, minutes=10, now=T0, store=store)
    back = unfinished(store, "exam", bank, now=T0 + dt.timedelta(minutes=8))
    assert back is not None and not back.finished
    assert back.tick(T0 + dt.timedelta(minutes=8)) == ["2 min 30 s"]  # 5 and 2.5 crossed: the latest is named
