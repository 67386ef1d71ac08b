"""Moodle's figures on a 6 learner x 4 question fixture, computed by hand and by an independent exact
(Fraction) transcription of Moodle's definitions; then the edge cases and the missing-answer rules."""

from __future__ import annotations

import math
import statistics
from fractions import Fraction as Fr

import numpy as np
import pytest

from study.analysis.stats import item_statistics, pairwise_alpha, quiz_statistics

NAN = float("nan")

# Learners A..F (rows) x questions q1..q4 (columns); totals T = 4, 3, 2, 2, 1, 2.
FIXTURE = [
    [1, 1, 1, 1],
    [1, 1, 1, 0],
    [1, 1, 0, 0],
    [1, 0, 1, 0],
    [0, 1, 0, 0],
    [1, 0, 0, 1],
]


def approx(x):
    return pytest.approx(float(x), rel=1e-9, abs=1e-9)


def moodle_items(rows):
    """Moodle's question calculator, summing over attempts with exact fractions: X = T - x as the rest."""
    s, p = len(rows), len(rows[0])
    totals = [sum(map(Fr, r)) for r in rows]
    out = []
    for i in range(p):
        x = [Fr(r[i]) for r in rows]
        rest = [t - xi for t, xi in zip(totals, x)]
        xm, rm, tm = sum(x) / s, sum(rest) / s, sum(totals) / s
        var = sum((a - xm) ** 2 for a in x) / (s - 1)
        vrest = sum((a - rm) ** 2 for a in rest) / (s - 1)
        cov = sum((a - xm) * (b - rm) for a, b in zip(x, rest)) / (s - 1)
        cov_max = sum((a - xm) * (b - rm) for a, b in zip(sorted(x), sorted(rest))) / (s - 1)
        cov_min = sum((a - xm) * (b - rm) for a, b in zip(sorted(x), sorted(rest, reverse=True))) / (s - 1)
        cov_t = sum((a - xm) * (b - tm) for a, b in zip(x, totals)) / (s - 1)
        out.append({"facility": 100 * xm, "var": var, "cov": cov, "vrest": vrest, "cov_max": cov_max,
                    "cov_min": cov_min, "cov_t": cov_t})
    roots = sum(math.sqrt(o["cov_t"]) for o in out if o["cov_t"] >= 0)
    for o in out:
        o["sd"] = 100 * math.sqrt(o["var"])
        o["discrimination"] = 100 * o["cov"] / math.sqrt(o["var"] * o["vrest"]) if o["var"] * o["vrest"] else None
        # Moodle's Cov/Cov_max for a positive covariance; a negative one against the most negative possible.
        bound = o["cov_max"] if o["cov"] >= 0 else abs(o["cov_min"])
        o["efficiency"] = 100 * o["cov"] / bound if bound else None
        o["effective_weight"] = 100 * math.sqrt(o["cov_t"]) / roots if o["cov_t"] >= 0 else None
    return out


def test_question_one_by_hand():
    items = item_statistics(np.array(FIXTURE, float))
    # q1: x = 1 1 1 1 0 1, mean 5/6 -> facility 83.33%.
    assert items.facility[0] == approx(100 * 5 / 6)
    # sum (x - 5/6)^2 = 5 (1/6)^2 + (5/6)^2 = 5/6; / (s - 1) = 1/6 -> SD sqrt(1/6) = 40.82% of the mark.
    assert items.sd[0] == approx(100 * math.sqrt(1 / 6))
    # rest X = T - x = 3 2 1 1 1 1, mean 3/2; sum (X - 3/2)^2 = 9/4 + 1/4 + 4 (1/4) = 7/2 -> Var 7/10.
    # sum (x - 5/6)(X - 3/2) = 1/4 + 1/12 - 1/12 - 1/12 + 5/12 - 1/12 = 1/2 -> Cov 1/10.
    # DI = 100 (1/10) / sqrt(1/6 * 7/10) = 29.28.
    assert items.discrimination[0] == approx(100 * (1 / 10) / math.sqrt(1 / 6 * 7 / 10))
    assert items.discrimination[0] == pytest.approx(29.277, abs=1e-3)
    # sorted x 0 1 1 1 1 1 against sorted X 1 1 1 1 2 3:
    # (-5/6)(-1/2) + 3 (1/6)(-1/2) + (1/6)(1/2) + (1/6)(3/2) = 5/12 - 3/12 + 1/12 + 3/12 = 1/2 -> Cov_max 1/10:
    # the one learner who missed q1 has the lowest rest, so the pairing is already the best: DE = 100%.
    assert items.efficiency[0] == approx(100)
    # Cov(x, T): T - 7/3 = 5/3 2/3 -1/3 -1/3 -4/3 -1/3; sum (x - 5/6)(T - 7/3) = (5+2-1-1+20-1)/18 = 4/3 -> 4/15.
    assert moodle_items(FIXTURE)[0]["cov_t"] == Fr(4, 15)
    assert list(items.intended_weight) == [approx(25)] * 4


def test_every_question_matches_moodle_exactly():
    items = item_statistics(np.array(FIXTURE, float))
    for i, ref in enumerate(moodle_items(FIXTURE)):
        assert items.responses[i] == 6 and items.rest_responses[i] == 6
        assert items.facility[i] == approx(ref["facility"])
        assert items.sd[i] == approx(ref["sd"])
        assert items.discrimination[i] == approx(ref["discrimination"])
        assert items.efficiency[i] == approx(ref["efficiency"])
        assert items.effective_weight[i] == approx(ref["effective_weight"])
    assert float(np.nansum(items.effective_weight)) == approx(100)


def test_test_figures_by_hand():
    t = quiz_statistics(np.array(FIXTURE, float))
    assert (t.attempts, t.questions, t.test_length, t.complete) == (6, 4, 4.0, True)
    # T = 4 3 2 2 1 2 out of 4: mean 7/3 -> 58.33%; sorted 1 2 2 2 3 4, median (2 + 2)/2 = 2 -> 50%.
    assert t.mean == approx(100 * 7 / 3 / 4)
    assert t.median == approx(50)
    # d = T - 7/3 = 5/3 2/3 -1/3 -1/3 -4/3 -1/3: sum d^2 = 48/9, m2 = 8/9, k2 = 6/5 m2 = 16/15.
    # SD = sqrt(16/15) marks = 25.82% of 4.
    assert t.sd == approx(100 * math.sqrt(16 / 15) / 4)
    # sum d^3 = (125 + 8 - 1 - 1 - 64 - 1)/27 = 22/9, m3 = 11/27, k3 = 36 m3 / 20 = 11/15.
    assert t.skewness == approx((11 / 15) / (16 / 15) ** 1.5)
    # sum d^4 = (625 + 16 + 1 + 1 + 256 + 1)/81 = 100/9, m4 = 50/27,
    # k4 = 36 (7 m4 - 15 m2^2) / 60 = 36 (1050/81 - 960/81) / 60 = 2/3; kurtosis = (2/3) / (16/15)^2 = 450/768.
    assert t.kurtosis == approx(450 / 768)
    # Item variances 1/6 + 4/15 + 3/10 + 4/15 = 1; CIC = 100 (4/3)(1 - 1 / (16/15)) = 100 (4/3)(1/16) = 8.33%.
    assert t.cic == approx(100 / 12)
    assert t.error_ratio == approx(100 * math.sqrt(11 / 12))
    assert t.standard_error == approx(math.sqrt(11 / 12) * 100 * math.sqrt(16 / 15) / 4)


def test_everyone_right_has_no_discrimination_and_no_crash():
    marks = np.array(FIXTURE, float)
    marks[:, 1] = 1
    with np.errstate(all="raise"):
        items = item_statistics(marks)
    assert items.facility[1] == 100 and items.sd[1] == 0
    assert math.isnan(items.discrimination[1]) and math.isnan(items.efficiency[1])
    assert items.effective_weight[1] == 0  # Cov(x, T) = 0, not negative: Moodle's weight is 0
    assert not math.isnan(items.discrimination[0])


def test_all_wrong_and_all_equal_totals():
    # Every learner has the same total (2 of 3) but the questions differ: the rest of q3 is constant.
    marks = np.array([[1, 0, 1], [0, 1, 1], [1, 0, 1], [0, 1, 1]], float)
    items = item_statistics(marks)
    assert math.isnan(items.discrimination[2]) and math.isnan(items.efficiency[2])
    # q1: x = 1 0 1 0 against rest (2 - x)/2 = 1/2 1 1/2 1 -> r = -1.
    assert items.discrimination[0] == approx(-100)
    t = quiz_statistics(marks)
    assert t.sd == 0 and math.isnan(t.skewness) and math.isnan(t.cic) and math.isnan(t.kurtosis)


def test_one_learner():
    items = item_statistics(np.array([[1.0, 0.0, 1.0]]))
    assert list(items.facility) == [100, 0, 100]
    assert all(math.isnan(v) for v in (*items.sd, *items.discrimination, *items.efficiency))
    t = quiz_statistics(np.array([[1.0, 0.0, 1.0]]))
    assert t.attempts == 1 and t.mean == approx(200 / 3) and t.median == approx(200 / 3)
    assert all(math.isnan(v) for v in (t.sd, t.skewness, t.kurtosis, t.cic, t.error_ratio, t.standard_error))


def test_three_learners_have_skewness_but_no_kurtosis():
    t = quiz_statistics(np.array([[1, 1], [1, 0], [0, 0]], float))
    assert not math.isnan(t.skewness) and math.isnan(t.kurtosis)


def test_one_question_has_no_rest_of_test():
    items = item_statistics(np.array([[1.0], [0.0], [1.0]]))
    assert items.facility[0] == approx(200 / 3) and math.isnan(items.discrimination[0])
    assert items.rest_responses[0] == 0
    assert math.isnan(quiz_statistics(np.array([[1.0], [0.0], [1.0]])).cic)


def test_scaling_the_rest_score_changes_nothing_with_complete_data():
    # Proportions (T - x)/(p - 1) against Moodle's sums: the same r and Cov/Cov_max on random complete data.
    rng = np.random.default_rng(7)
    rows = (rng.random((25, 6)) < 0.6).astype(int).tolist()
    items = item_statistics(np.array(rows, float))
    for i, ref in enumerate(moodle_items(rows)):
        if ref["discrimination"] is None:
            assert math.isnan(items.discrimination[i])
            continue
        assert items.discrimination[i] == approx(ref["discrimination"])
        assert items.efficiency[i] == approx(ref["efficiency"])


def test_efficiency_stays_within_plus_and_minus_100_where_moodles_would_not():
    # q1's marks rise as the rest falls, and the skewed rest makes Moodle's Cov/Cov_max fall below -100%.
    rows = [[1, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 1, 1, 1], [0, 1, 1, 0], [1, 0, 0, 1]]
    ref = moodle_items(rows)[0]
    assert ref["cov"] < 0 and 100 * ref["cov"] / ref["cov_max"] < -100
    items = item_statistics(np.array(rows, float))
    assert items.efficiency[0] == approx(100 * float(ref["cov"] / abs(ref["cov_min"])))
    assert -100 <= items.efficiency[0] < 0
    # Perfectly reversed: exactly -100%.
    reversed_rows = [[1, 0, 0], [1, 0, 0], [0, 1, 1], [0, 1, 1]]
    assert item_statistics(np.array(reversed_rows, float)).efficiency[0] == approx(-100)
    rng = np.random.default_rng(11)
    for _ in range(200):
        marks = np.where(rng.random((12, 5)) < 0.15, np.nan, (rng.random((12, 5)) < 0.5).astype(float))
        eff = item_statistics(marks).efficiency
        assert np.all(np.isnan(eff) | ((eff >= -100 - 1e-9) & (eff <= 100 + 1e-9)))


# -- missing answers -----------------------------------------------------------------------------------------

# Learner E never saw q2, F never saw q3 and q4 (random exams).
HOLES = [
    [1, 1, 1, 1],
    [1, 1, 1, 0],
    [1, 1, 0, 0],
    [1, 0, 1, 0],
    [0, None, 0, 1],
    [1, 0, None, None],
]


def _marks(rows):
    return np.array([[NAN if v is None else v for v in r] for r in rows], float)


def test_missing_answers_use_the_learners_who_answered():
    items = item_statistics(_marks(HOLES))
    q2 = [r[1] for r in HOLES if r[1] is not None]  # 1 1 1 0 0
    assert items.responses[1] == 5
    assert items.facility[1] == approx(100 * statistics.mean(q2))
    assert items.sd[1] == approx(100 * statistics.stdev(q2))
    # Rest of q2 as the proportion right on each learner's other answered questions.
    pairs = [(r[1], (sum(v for v in r if v is not None) - r[1]) / (sum(v is not None for v in r) - 1))
             for r in HOLES if r[1] is not None]
    xs, rest = zip(*pairs)  # rest = 1, 2/3, 1/3, 2/3, 0
    assert items.discrimination[1] == approx(100 * statistics.correlation(xs, rest))
    cov = statistics.covariance(xs, rest)
    cov_min = statistics.covariance(sorted(xs), sorted(rest, reverse=True))
    assert cov < 0  # so against the most negative covariance these could have
    assert items.efficiency[1] == approx(100 * cov / abs(cov_min))
    # Intended weight: each answering learner's share 1/n: A..D 1/4, F 1/2 -> mean 0.3 -> 30%.
    assert items.intended_weight[1] == approx(30)


def test_missing_answers_test_figures_on_percentages_and_pairwise_alpha():
    t = quiz_statistics(_marks(HOLES))
    scores = [100 * sum(v for v in r if v is not None) / sum(v is not None for v in r) for r in HOLES]
    assert t.attempts == 6 and not t.complete
    assert t.mean == approx(statistics.mean(scores)) and t.median == approx(statistics.median(scores))
    assert t.sd == approx(statistics.stdev(scores))
    # Pairwise alpha, computed the long way: mean item variance v, mean covariance c over question pairs
    # (each over the learners who answered both), p = answers per learner on average = 21/6.
    cols = [[r[i] for r in HOLES] for i in range(4)]
    v = statistics.mean(statistics.variance([a for a in c if a is not None]) for c in cols)
    covs = []
    for i in range(4):
        for j in range(4):
            if i != j:
                both = [(a, b) for a, b in zip(cols[i], cols[j]) if a is not None and b is not None]
                covs.append(statistics.covariance(*zip(*both)))
    c = statistics.mean(covs)
    p = 21 / 6
    assert t.test_length == approx(p)
    assert t.cic == approx(100 * p * c / (v + (p - 1) * c))


def test_pairwise_alpha_equals_moodle_cic_when_complete():
    rng = np.random.default_rng(11)
    ability = rng.normal(size=40)
    rows = (rng.random((40, 8)) < 1 / (1 + np.exp(-ability[:, None]))).astype(int).tolist()
    totals = [sum(r) for r in rows]
    variances = sum(statistics.variance([r[i] for r in rows]) for i in range(8))
    moodle = 100 * 8 / 7 * (1 - variances / statistics.variance(totals))
    assert quiz_statistics(np.array(rows, float)).cic == approx(moodle)
    assert 100 * pairwise_alpha(np.array(rows, float), 8) == approx(moodle)


def test_learner_who_answered_one_question_counts_for_facility_not_discrimination():
    marks = _marks([[1, 1], [0, 0], [1, 0], [None, 1], [0, 1]])
    items = item_statistics(marks)
    # The fourth learner answered only q2: counted in its facility (3 of 5 right), not in its discrimination.
    assert items.responses[1] == 5 and items.rest_responses[1] == 4
    assert items.facility[1] == approx(60)
    xs, rest = [1, 0, 0, 1], [1, 0, 1, 0]
    assert items.discrimination[1] == approx(100 * statistics.correlation(xs, rest))
