"""Issue 14 §1.2: a question left blank counts against that exam's score and nowhere else.

The progress figures (attempts, accuracy, FSRS due reviews, the daily goal, readiness) read only what the
learner answered; a practice set ended early does not grade what it skipped."""

from __future__ import annotations

import datetime as dt

import pytest

from quiz_fixtures import T0
from study.quiz import build_exam, build_practice

progress = pytest.importorskip("study.progress")


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


@pytest.fixture
def store(tmp_path):
    with progress.open_store(tmp_path / "p.db", fuzz=False) as s:
        yield s


def test_an_exam_submitted_empty_records_nothing_but_its_report(bank, store):
    s = build_exam(bank, seed=3, count=10, now=T0, store=store)
    report = s.submit(now=at(120))
    assert (report.correct, report.total, len(report.unanswered)) == (0, 10, 10)
    assert store.history() == []
    assert store.counts()["attempts"] == 0 and store.counts()["items"] == 0
    assert store.due(now=at(10**7)) == []  # no due reviews, however late we look
    assert store.summaries() == {}
    finished = store.exam_history()
    assert len(finished) == 1 and finished[0].report["unanswered"] == [i.qid for i in s.instances]


def test_stats_tell_answered_from_blank(bank, store):
    s = build_exam(bank, seed=3, count=10, now=T0, store=store)
    s.answer(s.current.expected, now=at(5))
    s.submit(now=at(60))
    from study.progress.stats import compute_stats

    stats = compute_stats(store, bank, now=at(61))
    assert stats.attempts == 1
    assert stats.activity[-1][1] == 1  # the daily goal counts one answer, not ten
    assert sum(o.seen for o in stats.objectives) == 1  # coverage and readiness: nine stay unseen
    assert sum(o.attempts for o in stats.objectives) == 1
    assert stats.due_today + sum(n for _d, n in stats.forecast[1:]) == 1


def test_practice_left_early_grades_only_what_was_answered(bank, store):
    s = build_practice(bank, seed=3, count=5, now=T0, store=store)
    wrong = next(label for label in s.current.labels if label not in s.current.correct_labels)
    s.answer(wrong, now=at(5))
    report = s.submit(now=at(10))
    assert (report.correct, report.total, report.skipped) == (0, 1, 4)
    assert sum(t.total for t in report.by_domain.values()) == 1
    assert len(store.history()) == 1
    text = report.render_text()
    assert "Score: 0/1 (0%), below the 70% target" in text
    assert "against a target" not in text
    assert "Skipped, not graded: 4 of 5 questions." in text


def test_practice_with_nothing_answered_says_so(bank):
    s = build_practice(bank, seed=3, count=3, now=T0)
    report = s.submit(now=at(10))
    assert report.total == 0 and report.skipped == 3
    assert report.render_text().startswith("Nothing answered, so nothing was graded.")


def test_an_exam_still_grades_blanks_wrong_in_its_score(bank):
    s = build_exam(bank, seed=3, count=4, now=T0)
    s.answer(s.current.expected, now=at(5))
    report = s.submit(now=at(10))
    assert (report.correct, report.total, report.skipped, report.score) == (1, 4, 0, 25.0)
    assert "Unanswered (graded wrong):" in report.render_text()
