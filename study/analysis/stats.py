"""Moodle's quiz statistics, computed with numpy over a learner x question matrix of marks.

The input is ``marks[learner, question]``: the mark of the learner's first answer to that question as a
fraction of the question's maximum (1 right, 0 wrong, in between for partial credit), NaN where the learner
never answered it. Every question is worth the same (our exams score one mark per question).

With complete data (everyone answered everything) each figure is exactly Moodle's
(``question/classes/statistics/questions/calculator.php`` and ``mod/quiz/report/statistics/classes/
calculator.php``). Random exams leave holes, and Moodle's sums stop being comparable between learners who
sat different questions, so with missing answers:

- facility, SD and the covariance with the overall score of a question use the learners who answered it;
- the *rest of the test* of learner l for question i is the proportion right on l's other answered
  questions, ``(T_l - x_li) / (n_l - 1)``; discrimination index and efficiency use the learners who answered
  i and at least one other question. With complete data ``n_l`` is the same for everyone, so this is
  Moodle's ``T - x`` divided by a constant, and Pearson r and Cov/Cov_max do not change under scaling;
- the overall score of a learner is their percentage right over the questions they answered (Moodle reports
  its test figures as percentages of the maximum too);
- Cronbach's alpha (CIC) is ``p c / (v + (p - 1) c)`` with v the mean item variance, c the mean covariance
  over question pairs answered by at least two learners (each pair over the learners who answered both) and
  p the average number of questions a learner answered. With complete data that is algebraically Moodle's
  ``p / (p - 1) (1 - sum Var(x_i) / k2)``, because Var(T) is the sum of all item variances and covariances;
  with complete data Moodle's own formula is used (no question x question matrix needed).

A figure that is undefined (a question everyone got right has no discrimination) is NaN here and ``None``
in reports, never an error.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ItemArrays:
    """Per-question figures, one array element per question column. Percentages as Moodle shows them."""

    responses: np.ndarray  # learners who answered (int)
    facility: np.ndarray  # mean mark, % of the maximum
    sd: np.ndarray  # sample standard deviation of the mark, % of the maximum
    discrimination: np.ndarray  # 100 x Pearson r(item, rest of test)
    efficiency: np.ndarray  # 100 x Cov(item, rest) / Cov_max
    intended_weight: np.ndarray  # share of a learner's total the question carries, %
    effective_weight: np.ndarray  # 100 sqrt Cov(x_i, T) / sum_j sqrt Cov(x_j, T); NaN when Cov < 0
    rest_responses: np.ndarray  # learners with a rest score (answered this and another question)


@dataclass(frozen=True)
class QuizFigures:
    """Whole-test figures over learners' percentage scores."""

    attempts: int
    questions: int
    test_length: float  # p: questions per learner (average); equals ``questions`` with complete data
    complete: bool  # every learner answered every question
    mean: float
    median: float
    sd: float
    skewness: float
    kurtosis: float
    cic: float
    error_ratio: float
    standard_error: float


def _column_constant(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Whether the masked values of each column are all equal (exactly: a variance of 1e-34 from rounding
    the mean must not turn an undefined discrimination into a huge one)."""
    lo = np.where(mask, values, np.inf).min(axis=0)
    hi = np.where(mask, values, -np.inf).max(axis=0)
    return lo == hi


def item_statistics(marks: np.ndarray) -> ItemArrays:
    marks = np.asarray(marks, dtype=float)
    n_learners, _ = marks.shape
    answered = ~np.isnan(marks)
    x = np.where(answered, marks, 0.0)
    s = answered.sum(axis=0)
    per_learner = answered.sum(axis=1)
    total = x.sum(axis=1)

    with np.errstate(invalid="ignore", divide="ignore"):
        mean = x.sum(axis=0) / s
        dev = np.where(answered, x - mean, 0.0)
        var = np.where(s > 1, (dev * dev).sum(axis=0) / (s - 1), np.nan)

        # Rest of the test as a proportion, for learners who answered something else too.
        has_rest = answered & (per_learner >= 2)[:, None]
        rest = np.where(has_rest, (total[:, None] - x) / np.maximum(per_learner - 1, 1)[:, None], 0.0)
        r = has_rest.sum(axis=0)
        xm = np.where(has_rest, x, 0.0).sum(axis=0) / r
        rm = rest.sum(axis=0) / r
        dx = np.where(has_rest, x - xm, 0.0)
        dr = np.where(has_rest, rest - rm, 0.0)
        cov = (dx * dr).sum(axis=0) / (r - 1)
        vx = (dx * dx).sum(axis=0) / (r - 1)
        vr = (dr * dr).sum(axis=0) / (r - 1)
        # Cov_max: the item marks and the rest scores each sorted, then paired (Moodle's covariancemax).
        sx = np.sort(np.where(has_rest, x, np.inf), axis=0)
        sr = np.sort(np.where(has_rest, rest, np.inf), axis=0)
        ranked = np.arange(n_learners)[:, None] < r[None, :]
        cov_max = np.where(ranked, (sx - xm) * (sr - rm), 0.0).sum(axis=0) / (r - 1)
        # r > 1 and neither side constant is exactly when Var(x) Var(X) > 0, and then Cov_max > 0 too
        # (Chebyshev's sum inequality), so both figures are defined together.
        defined = (r > 1) & ~_column_constant(x, has_rest) & ~_column_constant(rest, has_rest)
        discrimination = np.where(defined, 100 * cov / np.sqrt(vx * vr), np.nan)
        # Moodle divides by Cov_max whatever the sign, which leaves a negative efficiency unbounded (-103% was
        # seen on real data). A negative covariance is scaled by the most negative one possible instead, the
        # two sides paired in opposite orders: the figure stays in [-100, 100] and a positive one is Moodle's.
        sr_down = -np.sort(np.where(has_rest, -rest, np.inf), axis=0)
        cov_min = np.where(ranked, (sx - xm) * (sr_down - rm), 0.0).sum(axis=0) / (r - 1)
        efficiency = np.where(defined, 100 * np.where(cov >= 0, cov / cov_max, cov / np.abs(cov_min)), np.nan)

        overall = (total / np.maximum(per_learner, 1))[:, None]
        om = np.where(answered, overall, 0.0).sum(axis=0) / s
        cov_total = np.where(s > 1, (dev * np.where(answered, overall - om, 0.0)).sum(axis=0) / (s - 1), np.nan)
        root = np.sqrt(np.where(cov_total >= 0, cov_total, 0.0))
        root_sum = root[s > 1].sum()
        effective = np.where((s > 1) & (cov_total >= 0) & (root_sum > 0), 100 * root / root_sum, np.nan)

        intended = 100 * np.where(answered, 1.0 / np.maximum(per_learner, 1)[:, None], 0.0).sum(axis=0) / s

    return ItemArrays(
        responses=s,
        facility=100 * mean,
        sd=100 * np.sqrt(var),
        discrimination=discrimination,
        efficiency=efficiency,
        intended_weight=intended,
        effective_weight=effective,
        rest_responses=r,
    )


def learner_scores(marks: np.ndarray) -> np.ndarray:
    """Each learner's percentage right over the questions they answered (learners with none left out)."""
    marks = np.asarray(marks, dtype=float)
    answered = ~np.isnan(marks)
    n = answered.sum(axis=1)
    total = np.where(answered, marks, 0.0).sum(axis=1)
    took = n > 0
    # 100 * total first: equal proportions (2/3, 4/6) then give bit-identical scores.
    return (100 * total[took]) / n[took]


def cronbach_alpha(marks: np.ndarray, test_length: float) -> float:
    """CIC as a fraction (not %). Complete data: Moodle's ``p / (p - 1) (1 - sum Var(x_i) / Var(T))``.
    With missing answers: ``p c / (v + (p - 1) c)`` from pairwise item covariances (see module doc)."""
    marks = np.asarray(marks, dtype=float)
    answered = ~np.isnan(marks)
    if answered.all():
        p = marks.shape[1]
        if p < 2 or marks.shape[0] < 2:
            return float("nan")
        var_total = float(marks.sum(axis=1).var(ddof=1))
        if var_total <= 0:
            return float("nan")
        return p / (p - 1) * (1 - float(marks.var(axis=0, ddof=1).sum()) / var_total)
    return pairwise_alpha(marks, test_length)


def pairwise_alpha(marks: np.ndarray, test_length: float) -> float:
    """``p c / (v + (p - 1) c)``: v the mean item variance, c the mean covariance over question pairs, each
    pair over the learners who answered both. Equals Moodle's CIC on complete data (tested)."""
    marks = np.asarray(marks, dtype=float)
    answered = ~np.isnan(marks)
    a = answered.astype(float)
    x = np.where(answered, marks, 0.0)
    s = answered.sum(axis=0)
    if test_length <= 1 or not (s > 1).any():
        return float("nan")
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = x.sum(axis=0) / s
        var = (np.where(answered, x - mean, 0.0) ** 2).sum(axis=0) / (s - 1)
        v = float(var[s > 1].mean())
        n = a.T @ a
        sx = x.T @ a  # [i, j]: sum of x_i over the learners who answered j (and i)
        cov = ((x.T @ x) - sx * sx.T / n) / (n - 1)
    pair = (n >= 2) & ~np.eye(len(s), dtype=bool)
    if not pair.any():
        return float("nan")
    c = float(cov[pair].mean())
    denominator = v + (test_length - 1) * c
    if denominator <= 0:
        return float("nan")
    return test_length * c / denominator


def quiz_statistics(marks: np.ndarray) -> QuizFigures:
    marks = np.asarray(marks, dtype=float)
    answered = ~np.isnan(marks)
    per_learner = answered.sum(axis=1)
    scores = learner_scores(marks)
    s = len(scores)
    nan = float("nan")
    mean = median = sd = skewness = kurtosis = cic = error_ratio = standard_error = nan
    p = float(per_learner[per_learner > 0].mean()) if s else 0.0
    if s:
        mean = float(scores.mean())
        median = float(np.median(scores))  # the middle one, or the mean of the middle two, as Moodle
    if s > 1:
        d = scores - mean
        m2, m3, m4 = (float((d**k).sum()) / s for k in (2, 3, 4))
        # Equal scores: k2 is 0 exactly, not the 1e-30 rounding of the mean would leave.
        spread = scores.min() != scores.max()
        k2 = s * m2 / (s - 1) if spread else 0.0
        sd = float(np.sqrt(k2))
        if s > 2 and spread:
            k3 = s * s * m3 / ((s - 1) * (s - 2))
            skewness = k3 / k2**1.5
            if s > 3:
                k4 = s * s * ((s + 1) * m4 - 3 * (s - 1) * m2 * m2) / ((s - 1) * (s - 2) * (s - 3))
                kurtosis = k4 / (k2 * k2)
            alpha = cronbach_alpha(marks, p)
            if not np.isnan(alpha):
                cic = 100 * alpha
                if cic <= 100:
                    error_ratio = 100 * float(np.sqrt(1 - cic / 100))
                    standard_error = error_ratio * sd / 100
    return QuizFigures(
        attempts=s,
        questions=int(marks.shape[1]),
        test_length=p,
        complete=bool(answered.all()) and marks.size > 0,
        mean=mean,
        median=median,
        sd=sd,
        skewness=skewness,
        kurtosis=kurtosis,
        cic=cic,
        error_ratio=error_ratio,
        standard_error=standard_error,
    )
