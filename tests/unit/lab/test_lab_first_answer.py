"""A task's first answer is its grade; later answers are retries (issue 34: ``answer 1 C`` after seeing the
right answer turned ``[wrong]`` into ``[right]`` and the score into "2 of 2 right")."""

from __future__ import annotations

import datetime as dt

from study.lab.case import build_case
from study.lab.load import load_lab
from study.lab.review import lab_report
from study.lab.session import LabSession


def _session(store=None) -> LabSession:
    now = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.timezone.utc)
    return LabSession(build_case(load_lab("power-cap"), 3), store=store, clock=lambda: now)


def _labels(inst) -> tuple[str, str]:
    right = next(lb for lb, o in zip(inst.labels, inst.options) if o.correct)
    wrong = next(lb for lb, o in zip(inst.labels, inst.options) if not o.correct)
    return right, wrong


def test_a_right_answer_after_a_wrong_one_is_a_retry_and_the_grade_stays_wrong():
    s = _session()
    right, wrong = _labels(s.instances[0])
    assert not s.answer(0, wrong).correct
    retry = s.answer(0, right)
    assert retry.correct  # the retry is graded, so the learner sees it is right now
    assert s.grades[0] is not None and not s.grades[0].correct
    assert s.given[0] == wrong and s.retries[0] == [(right, True)] and s.is_retry(0)
    numeric = s.instances[1].numeric
    assert numeric is not None
    s.answer(1, f"{numeric.value:g} W")
    assert s.score() == (1, 2)
    report = lab_report(s)
    assert (report.correct, report.total) == (1, 2) and report.questions[0].given == wrong


def test_a_wrong_retry_does_not_take_a_right_grade_away():
    s = _session()
    right, wrong = _labels(s.instances[0])
    s.answer(0, right)
    s.answer(0, wrong)
    assert s.grades[0].correct and s.retries[0] == [(wrong, False)]
    assert not s.is_retry(1)


def test_only_the_first_answer_reaches_the_progress_store(tmp_path):
    from study.lab.session import last_results
    from study.progress import open_store

    with open_store(tmp_path / "p.db", fuzz=False) as store:
        s = _session(store)
        right, wrong = _labels(s.instances[0])
        s.answer(0, wrong)
        s.answer(0, right)
        history = store.history(s.instances[0].qid, limit=10)
        assert [(a.given, a.correct) for a in history] == [(wrong, False)]
        assert last_results(["power-cap"], store.history()) == {"power-cap": 0}
