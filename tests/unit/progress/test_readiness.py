"""Readiness math against numbers worked out by hand (see each docstring)."""

from __future__ import annotations

import datetime as dt

import fsrs
import pytest

from study.progress.readiness import (
    ReadinessItem,
    compute_readiness,
    guess_prior,
    score_distribution,
    split_questions,
)

from .conftest import question

UTC = dt.timezone.utc
EXAM = dt.datetime(2027, 1, 15, 9, 0, tzinfo=UTC)
DOMAINS = [("1", 60, [("1.1", "One one"), ("1.2", "One two")]), ("2", 40, [("2.1", "Two one"), ("2.2", "Two two")])]


def card(stability: float, last_review: dt.datetime) -> fsrs.Card:
    return fsrs.Card(card_id=1, state=fsrs.State.Review, stability=stability, difficulty=5.0,
                     due=last_review, last_review=last_review)


def test_guess_priors():
    assert guess_prior(question("s", "1.1", "single", n_choices=4)) == 0.25
    assert guess_prior(question("s5", "1.1", "single", n_choices=5)) == 0.2
    assert guess_prior(question("m", "1.1", "multi", n_choices=5, choose=2)) == pytest.approx(1 / 10)
    assert guess_prior(question("t", "1.1", "true_false")) == 0.5
    assert guess_prior(question("n", "1.1", "numeric", distractors=3)) == 0.25
    assert guess_prior(question("n0", "1.1", "numeric")) == 0.0  # typed answer: no guessing


def test_split_questions_by_weight():
    assert split_questions(50, {"1": 38, "2": 40, "3": 22}) == {"1": 19, "2": 20, "3": 11}
    assert split_questions(5, {"1": 60, "2": 40}) == {"1": 3, "2": 2}
    assert sum(split_questions(7, {"a": 1, "b": 1, "c": 1}).values()) == 7


def test_score_distribution_is_a_sum_of_binomials():
    assert score_distribution({"a": 1, "b": 1}, {"a": 0.5, "b": 0.5}) == pytest.approx([0.25, 0.5, 0.25])
    # Bin(3, .6) + Bin(2, .625), convolved by hand
    dist = score_distribution({"1": 3, "2": 2}, {"1": 0.6, "2": 0.625})
    assert dist == pytest.approx([0.009, 0.0705, 0.22075, 0.345375, 0.27, 0.084375])


def test_expected_score_and_range_by_hand():
    """Stability S is by definition the delay at which FSRS recall is 0.9, so R(exam) = 0.9 for a card
    last reviewed S days before the exam. Chance p = R + (1 - R) * guess.

    domain 1 (60%): a1 unseen, guess 1/4 -> 0.25; a2 R = .9, guess 1/2 -> .95.     mean 0.6
    domain 2 (40%): b1 R = .9, guess 1/4 -> .925; b2 unseen, guess 1/4 -> .25.     mean 0.5875
    expected = .6 * .6 + .4 * .5875 = 0.595
    5 questions -> 3 + 2; P(right = k) for Bin(3,.6) + Bin(2,.5875):
      k=0 .064 * .17015625 = .01089   (cdf .0109 < .05)
      k=1 .064 * .4846875 + .288 * .17015625 = .08003   (cdf .0909 >= .05 -> low = 1/5)
      cdf(4) = .9254 < .95 -> high = 5/5
    """
    now = EXAM - dt.timedelta(days=5)
    items = [
        ReadinessItem("a1", "1.1", 0.25),
        ReadinessItem("a2", "1.2", 0.5, card(10, EXAM - dt.timedelta(days=10))),
        ReadinessItem("b1", "2.1", 0.25, card(5, now)),
        ReadinessItem("b2", "2.1", 0.25),
    ]
    r = compute_readiness(items, DOMAINS, EXAM, now, questions=5)
    assert r.domains == pytest.approx({"1": 0.6, "2": 0.5875})
    assert r.expected == pytest.approx(0.595)
    assert r.domain_questions == {"1": 3, "2": 2}
    assert (r.low, r.high) == (0.2, 1.0)


def test_study_next_by_hand():
    """Exam now: a review now makes R = 1 on exam day, so an item's gain is weight / n_domain * (1 - p).

    1.1: a1 unseen p .25      -> .6/2 * .75 = .225
    1.2: a2 R .9, p .95       -> .6/2 * .05 = .015
    2.1: b1 just reviewed p 1 -> 0 (not listed)
    2.2: b2 unseen p .25      -> .4/2 * .75 = .15
    """
    now = EXAM
    items = [
        ReadinessItem("a1", "1.1", 0.25),
        ReadinessItem("a2", "1.2", 0.5, card(10, EXAM - dt.timedelta(days=10))),
        ReadinessItem("b1", "2.1", 0.25, card(5, now)),
        ReadinessItem("b2", "2.2", 0.25),
    ]
    r = compute_readiness(items, DOMAINS, EXAM, now, questions=5)
    assert [s.objective for s in r.study_next] == ["1.1", "2.2", "1.2"]
    assert [s.gain for s in r.study_next] == pytest.approx([0.225, 0.15, 0.015])
    assert [s.unseen for s in r.study_next] == [1, 1, 0]


def test_an_hour_is_thirty_items():
    items = [ReadinessItem(f"q{k}", "1.1", 0.25) for k in range(40)]
    r = compute_readiness(items, DOMAINS, EXAM, EXAM, questions=5)
    (top,) = r.study_next
    assert top.items == 30
    assert top.gain == pytest.approx(30 * 0.6 / 40 * 0.75)


def test_knowing_nothing_scores_the_guess_rate_and_everything_fresh_scores_full():
    items = [ReadinessItem("a", "1.1", 0.25), ReadinessItem("b", "2.1", 0.25)]
    assert compute_readiness(items, DOMAINS, EXAM, EXAM).expected == pytest.approx(0.25)
    fresh = [ReadinessItem(i.item_id, i.objective, i.prior, card(3, EXAM)) for i in items]
    r = compute_readiness(fresh, DOMAINS, EXAM, EXAM)
    assert r.expected == pytest.approx(1.0) and r.low == 1.0 and r.study_next == []


def test_forgetting_lowers_the_forecast():
    now = EXAM - dt.timedelta(days=60)
    items = [ReadinessItem("a", "1.1", 0.25, card(5, now)), ReadinessItem("b", "2.1", 0.25, card(5, now))]
    soon = compute_readiness(items, DOMAINS, now + dt.timedelta(days=5), now).expected
    late = compute_readiness(items, DOMAINS, EXAM, now).expected
    assert 0.25 < late < soon


from hypothesis import given, settings, strategies as st  # noqa: E402

_item = st.tuples(
    st.sampled_from(["1.1", "1.2", "2.1", "2.2"]),
    st.sampled_from([0.0, 0.1, 0.25, 0.5]),
    st.one_of(st.none(), st.tuples(st.floats(0.1, 400), st.integers(0, 300))),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(_item, min_size=1, max_size=30), st.integers(0, 120))
def test_readiness_invariants(raw, days_to_exam):
    now = EXAM - dt.timedelta(days=days_to_exam)
    items = [
        ReadinessItem(f"i{k}", o, prior, None if c is None else card(c[0], now - dt.timedelta(days=c[1])))
        for k, (o, prior, c) in enumerate(raw)
    ]
    r = compute_readiness(items, DOMAINS, EXAM, now, questions=50)
    assert 0.0 <= r.low <= r.high <= 1.0
    assert min(r.domains.values()) - 1e-9 <= r.expected <= max(r.domains.values()) + 1e-9
    for d, mean in r.domains.items():
        own = [i for i in items if i.objective.startswith(d + ".")]
        assert (mean >= min(i.prior for i in own) - 1e-9) if own else mean == 0.25
    gains = [s.gain for s in r.study_next]
    assert all(g > 0 for g in gains) and gains == sorted(gains, reverse=True)
    # the best hour can never add more than the whole gap to a perfect score
    assert sum(gains) <= 1.0 - r.expected + 1e-9


def test_an_exam_of_fresh_questions_weighs_above_one_of_repeats():
    from study.progress.readiness import exam_weight, measured_score

    fresh = {"correct": 30, "total": 50, "new_to_you": 45}  # 60% on questions never seen
    repeats = {"correct": 47, "total": 50, "new_to_you": 5}  # 94% on what was just practised
    assert exam_weight(fresh) == 0.9 and exam_weight(repeats) == 0.1
    score = measured_score([fresh, repeats])
    assert score == pytest.approx((0.9 * 0.6 + 0.1 * 0.94) / 1.0)
    assert abs(score - 0.6) < abs(score - 0.94)
    assert measured_score([repeats, fresh]) == pytest.approx(score)  # order does not matter, freshness does
    assert measured_score([]) is None
    assert exam_weight({"correct": 3, "total": 5}) == 0.5  # recorded before the count was kept


def test_stats_readiness_reads_the_exam_reports(store, bank):
    import json

    from study.progress.stats import compute_stats

    from .conftest import NOW

    store.save_session("e1", "exam", "{}")
    store.finish_session("e1", json.dumps({"correct": 2, "total": 4, "new_to_you": 4}), at=NOW)
    r = compute_stats(store, bank, NOW).readiness
    assert r.measured == pytest.approx(0.5) and r.measured_exams == 1
    assert r.to_dict()["measured"] == pytest.approx(0.5)
