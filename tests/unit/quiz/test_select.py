from __future__ import annotations

import datetime as dt
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz_fixtures import FakeStore, T0, blueprint, make_bank, single
from study.quiz import (
    History,
    SelectionError,
    build_exam,
    build_practice,
    domain_quota,
    filter_questions,
    largest_remainder,
    select_exam,
    select_practice,
)


def test_exam_of_50_is_19_20_11():
    assert largest_remainder({"1": 38, "2": 40, "3": 22}, 50) == {"1": 19, "2": 20, "3": 11}


@pytest.mark.parametrize(
    "count, expected",
    # Hand-computed from 38/40/22: e.g. 25 -> exact 9.5/10/5.5, floors 9/10/5, the one left over goes to the
    # largest remainder, a tie between 1 and 3 that the first-listed domain wins.
    [(10, {"1": 4, "2": 4, "3": 2}), (20, {"1": 8, "2": 8, "3": 4}), (25, {"1": 10, "2": 10, "3": 5}),
     (1, {"1": 0, "2": 1, "3": 0}), (60, {"1": 23, "2": 24, "3": 13})],
)
def test_largest_remainder_other_lengths(count, expected):
    assert largest_remainder({"1": 38, "2": 40, "3": 22}, count) == expected


@given(st.lists(st.integers(1, 100), min_size=1, max_size=6), st.integers(0, 500))
def test_largest_remainder_properties(weights, total):
    w = {str(i): x for i, x in enumerate(weights)}
    out = largest_remainder(w, total)
    assert sum(out.values()) == total
    s = sum(weights)
    for k, n in out.items():
        exact = total * w[k] / s
        assert int(exact) <= n <= int(exact) + 1


def test_quota_redistributes_when_a_domain_is_short():
    bp = blueprint()
    quota = domain_quota(bp, 50, {"1": 40, "2": 40, "3": 5})
    assert quota["3"] == 5
    assert sum(quota.values()) == 50
    # The 6 missing domain-3 questions go to 1 and 2 in proportion 38:40 (largest remainder: 3 and 3).
    assert quota == {"1": 22, "2": 23, "3": 5}


def test_quota_is_capped_by_the_whole_bank():
    quota = domain_quota(blueprint(), 50, {"1": 3, "2": 4, "3": 2})
    assert quota == {"1": 3, "2": 4, "3": 2}


def test_exam_proportions_no_repeats_and_spread(bank):
    qs = select_exam(bank.questions, bank.blueprint, 50, seed=7)
    assert len(qs) == 50
    assert len({q.id for q in qs}) == 50
    assert Counter(q.domain for q in qs) == {"1": 19, "2": 20, "3": 11}
    for d in bank.blueprint.domains:
        per_obj = Counter(q.objective for q in qs if q.domain == d.id)
        counts = [per_obj.get(o.id, 0) for o in d.objectives]
        assert max(counts) - min(counts) <= 1, (d.id, counts)
    diffs = Counter(q.difficulty for q in qs)
    assert set(diffs) == {1, 2, 3}
    assert max(diffs.values()) - min(diffs.values()) <= 3


def test_exam_is_reproducible_by_seed(bank):
    a = [q.id for q in select_exam(bank.questions, bank.blueprint, 50, seed=7)]
    b = [q.id for q in select_exam(bank.questions, bank.blueprint, 50, seed=7)]
    c = [q.id for q in select_exam(bank.questions, bank.blueprint, 50, seed=8)]
    assert a == b
    assert a != c
    # Independent of the order the bank lists its questions in.
    shuffled = list(reversed(bank.questions))
    assert [q.id for q in select_exam(shuffled, bank.blueprint, 50, seed=7)] == a


def test_exam_mixes_domains_rather_than_grouping_them(bank):
    qs = select_exam(bank.questions, bank.blueprint, 50, seed=1)
    runs = sum(1 for a, b in zip(qs, qs[1:]) if a.domain != b.domain)
    assert runs > 10


def test_exam_avoids_recent_questions_when_it_can(bank):
    first = {q.id for q in select_exam(bank.questions, bank.blueprint, 50, seed=1)}
    second = select_exam(bank.questions, bank.blueprint, 50, seed=2, avoid=first)
    assert not first & {q.id for q in second}
    assert Counter(q.domain for q in second) == {"1": 19, "2": 20, "3": 11}


def test_exam_reuses_recent_questions_when_the_bank_is_small():
    small = make_bank(per_objective=2)  # domain 3 has 8 questions only
    first = {q.id for q in select_exam(small.questions, small.blueprint, 30, seed=1)}
    second = select_exam(small.questions, small.blueprint, 30, seed=2, avoid=first)
    assert len(second) == 30
    assert first & {q.id for q in second}


def test_exam_from_a_short_bank_takes_everything_it_has():
    small = make_bank(per_objective=1)  # 22 questions
    qs = select_exam(small.questions, small.blueprint, 50, seed=3)
    assert len(qs) == 22


def test_build_exam_avoids_the_learners_last_exams(bank):
    import json

    first = build_exam(bank, seed=1, now=T0)
    asked = [{"id": i.qid} for i in first.instances]
    # The shape the progress store's exam_history() returns: sessions with the report as JSON.
    store = FakeStore(exams=[SimpleNamespace(finished_at=T0, report_json=json.dumps({"questions": asked}))])
    second = build_exam(bank, seed=2, now=T0, store=store)
    assert not {i.qid for i in first.instances} & {i.qid for i in second.instances}


def test_filters():
    bank = make_bank(per_objective=3, extra=[single("topic-q", objective="2.7", topic="networking")])
    assert {q.domain for q in filter_questions(bank.questions, domain="3")} == {"3"}
    assert {q.objective for q in filter_questions(bank.questions, objective="2.10")} == {"2.10"}
    assert [q.id for q in filter_questions(bank.questions, topic="networking")] == ["topic-q"]
    assert {q.difficulty for q in filter_questions(bank.questions, difficulty=(1, 3))} == {1, 3}


def test_practice_any_spreads_and_is_reproducible(bank):
    pool = filter_questions(bank.questions, domain="2")
    a = select_practice(pool, 10, seed=5, objective_order=bank.blueprint.objective_ids())
    b = select_practice(pool, 10, seed=5, objective_order=bank.blueprint.objective_ids())
    assert [q.id for q in a] == [q.id for q in b]
    assert len({q.objective for q in a}) == 10  # ten objectives in domain 2, one each


def _attempt(qid: str, correct: bool, minutes: int) -> SimpleNamespace:
    return SimpleNamespace(item_id=qid, correct=correct, at=T0 + dt.timedelta(minutes=minutes))


def test_practice_missed_unseen_weak_due(bank):
    attempts = [
        _attempt("q-2.1-0", False, 1), _attempt("q-2.1-0", True, 2),  # missed, then right: not "missed"
        _attempt("q-2.1-1", True, 1), _attempt("q-2.1-1", False, 2),  # right, then missed: "missed"
        _attempt("q-2.1-2", True, 1), _attempt("q-2.1-2", True, 2),
    ]
    store = FakeStore(attempts=attempts, due=["q-2.1-2", "q-9.9-9", "q-2.1-0"])
    hist = History(store, T0)
    pool = filter_questions(bank.questions, objective="2.1")
    assert [q.id for q in select_practice(pool, 10, 1, pick="missed", history=hist)] == ["q-2.1-1"]
    unseen = {q.id for q in select_practice(pool, 10, 1, pick="unseen", history=hist)}
    assert unseen == {"q-2.1-3", "q-2.1-4", "q-2.1-5"}
    # Without retrievability on the store, mastery is the share right: 1-1 and 2-0 at 0.5, 2-2 at 1.0.
    assert [q.id for q in select_practice(pool, 10, 1, pick="weak", history=hist)] == ["q-2.1-0", "q-2.1-1", "q-2.1-2"]
    assert [q.id for q in select_practice(pool, 10, 1, pick="due", history=hist)] == ["q-2.1-2", "q-2.1-0"]


def test_history_picks_select_nothing_without_a_store(bank):
    assert select_practice(bank.questions, 5, 1, pick="due") == []
    with pytest.raises(SelectionError):
        build_practice(bank, seed=1, pick="missed", now=T0)


def test_build_practice_rejects_unknown_objective_and_empty_filters(bank):
    with pytest.raises(SelectionError, match="unknown objective"):
        build_practice(bank, objective="4.1", now=T0)
    with pytest.raises(SelectionError):
        build_practice(bank, topic="nothing-here", now=T0)
    with pytest.raises(SelectionError, match="unknown pick"):
        build_practice(bank, pick="random", now=T0)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 60))
def test_any_exam_length_follows_largest_remainder(seed, count):
    bank = make_bank(per_objective=4)
    qs = select_exam(bank.questions, bank.blueprint, count, seed=seed)
    assert len(qs) == count
    assert len({q.id for q in qs}) == count
    assert dict(Counter(q.domain for q in qs)) == {k: v for k, v in largest_remainder({"1": 38, "2": 40, "3": 22}, count).items() if v}


def test_history_picks_from_a_real_store_use_its_running_totals(bank, tmp_path):
    from study.progress import Attempt, open_store

    store = open_store(tmp_path / "p.db")
    for qid, correct, minutes in [
        ("q-2.1-0", False, 1), ("q-2.1-0", True, 2),
        ("q-2.1-1", True, 1), ("q-2.1-1", False, 2),
        ("q-2.1-2", True, 1), ("q-2.1-2", True, 2),
    ]:
        store.record_attempt(Attempt(qid, "h", {}, "A", correct, 10.0, "practice", at=T0 + dt.timedelta(minutes=minutes)))
    hist = History(store, T0 + dt.timedelta(minutes=3))
    pool = filter_questions(bank.questions, objective="2.1")
    assert [q.id for q in select_practice(pool, 10, 1, pick="missed", history=hist)] == ["q-2.1-1"]
    assert {q.id for q in select_practice(pool, 10, 1, pick="unseen", history=hist)} == {"q-2.1-3", "q-2.1-4", "q-2.1-5"}
    weak = [q.id for q in select_practice(pool, 10, 1, pick="weak", history=hist)]
    assert sorted(weak) == ["q-2.1-0", "q-2.1-1", "q-2.1-2"]
    assert weak[0] == "q-2.1-1"  # last answered wrong: weakest, whatever FSRS says of a fresh review
    assert weak[-1] == "q-2.1-2"  # twice right: strongest
    store.close()
