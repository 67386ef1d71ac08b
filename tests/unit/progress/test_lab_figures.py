"""Lab tasks (mode ``lab``, ids ``lab.<lab>.<task>``) are not bank items, yet an answered task counts for its
objective in accuracy, mastery and readiness; it is never due, since Review cannot show it."""

from __future__ import annotations

import datetime as dt

import pytest

from study.progress import Attempt
from study.progress.plan import compute_plan
from study.progress.stats import compute_stats, lab_items

from .conftest import NOW

T = dt.timedelta


def shown(objective: str, qtype: str = "single", n: int = 4, right: int = 1) -> dict:
    choices = [{"id": f"c{i}", "text": f"t{i}", "correct": i < right} for i in range(n)] if qtype != "numeric" else []
    return {"v": 1, "type": qtype, "objective": objective, "stem": "s", "choices": choices}


def lab_answer(store, item, correct, at, record=None):
    store.record_attempt(Attempt(item, "h", {}, "A", correct, 40.0, "lab", None, at,
                                 shown=record if record is not None else shown("2.1")))


def test_a_lab_task_counts_for_its_objective_and_domain(store, bank):
    lab_answer(store, "lab.thermal.t1", True, NOW - T(days=2))
    lab_answer(store, "lab.thermal.t1", False, NOW - T(days=1))
    lab_answer(store, "lab.thermal.t2", True, NOW - T(days=1))
    s = compute_stats(store, bank, NOW)
    o = {g.id: g for g in s.objectives}
    assert (o["2.1"].attempts, o["2.1"].correct) == (3, 2)
    assert o["2.1"].accuracy == pytest.approx(2 / 3)
    # t1 was last answered wrong (counts 0), t2 right: mastery is their mean.
    assert o["2.1"].mastery == pytest.approx(store.retrievability("lab.thermal.t2", NOW) / 2)
    # Coverage is of the bank's items: answering a lab task does not mark a bank question seen.
    assert (o["2.1"].seen, o["2.1"].total) == (0, 2)
    d = {g.id: g for g in s.domains}
    assert (d["2"].attempts, d["2"].correct) == (3, 2)
    assert d["1"].attempts == 0


def test_a_lab_task_moves_readiness_for_its_domain(store, bank):
    before = compute_stats(store, bank, NOW).readiness.domains["2"]
    lab_answer(store, "lab.thermal.t2", True, NOW - T(hours=1))
    after = compute_stats(store, bank, NOW).readiness
    # Domain 2 now has a known lab task beside b1, b2 and the card t2/x (each unseen, at its 1/4 guess rate).
    r = store.retrievability("lab.thermal.t2", NOW)
    assert after.domains["2"] > before
    assert after.domains["2"] == pytest.approx((3 * 0.25 + r + (1 - r) * 0.25) / 4)


def test_the_objective_and_guess_rate_come_from_the_latest_shown_record(store):
    lab_answer(store, "lab.a.t1", True, NOW - T(days=2), shown("1.1"))
    lab_answer(store, "lab.a.t1", True, NOW - T(days=1), shown("2.1", "multi", n=5, right=2))
    lab_answer(store, "lab.a.t2", True, NOW, shown("1.2", "numeric"))
    store.record_attempt(Attempt("lab.a.t3", "h", {}, "A", True, 1.0, "lab", None, NOW))  # no record: left out
    store.record_attempt(Attempt("lab.b.t1", "h", {}, "A", True, 1.0, "practice", None, NOW, shown=shown("1.1")))
    got = lab_items(store, {"a1"})
    assert got == {"lab.a.t1": ("2.1", pytest.approx(1 / 10)), "lab.a.t2": ("1.2", 0.0)}


def test_a_lab_task_is_never_due_because_review_cannot_show_it(store, bank):
    lab_answer(store, "lab.thermal.t1", False, NOW - T(days=30))
    assert "lab.thermal.t1" in store.due(NOW)  # the scheduler keeps its FSRS state...
    s = compute_stats(store, bank, NOW)
    assert s.due_now == 0 and s.next_due is None  # ...but nothing is counted due that Review cannot clear
    assert sum(n for _d, n in s.forecast) == 0
    plan = compute_plan(store, bank, NOW, stats=s)
    assert plan.review_questions == 0
