from __future__ import annotations

import datetime as dt

import pytest

from study.progress import Attempt, Rating
from study.progress.stats import compute_stats, exam_moment

from .conftest import NOW

T = dt.timedelta


def answer(store, item, correct=True, at=NOW, seconds=30.0, mode="practice"):
    store.record_attempt(Attempt(item, "h", {}, "A", correct, seconds, mode, None, at))


def test_empty_store(store, bank):
    s = compute_stats(store, bank, NOW)
    assert s.attempts == 0 and s.streak == 0 and s.due_today == 0 and s.new_items == 6
    assert [g.coverage for g in s.domains] == [0.0, 0.0]
    # unseen: a1 .25, a2 .5 -> .375; b1 .25, b2 .25 (questions only: 2.2 has only the card) -> .25
    assert s.readiness.domains == pytest.approx({"1": 0.375, "2": 0.25})
    assert s.readiness.expected == pytest.approx(0.6 * 0.375 + 0.4 * 0.25)
    assert len(s.activity) == 365 and s.activity[-1][0] == NOW.date()
    assert len(s.forecast) == 30 and s.forecast[0][0] == NOW.date()
    s.to_json()


def test_accuracy_mastery_coverage_per_objective(store, bank):
    answer(store, "a1", True, NOW - T(days=2))
    answer(store, "a1", False, NOW - T(days=1))
    answer(store, "b1", True, NOW - T(days=1))
    answer(store, "gone", True, NOW - T(days=1))  # no longer in the bank: history kept, not counted
    s = compute_stats(store, bank, NOW)
    o = {g.id: g for g in s.objectives}
    assert (o["1.1"].attempts, o["1.1"].correct, o["1.1"].accuracy) == (2, 1, 0.5)
    assert (o["1.1"].seen, o["1.1"].total) == (1, 2)  # a1 and the card t1/intro
    # a1 was last answered wrong: whatever FSRS predicts, it is not known until answered right again.
    assert store.retrievability("a1", NOW) > 0.5
    assert o["1.1"].mastery == 0.0
    assert o["2.1"].mastery == pytest.approx(store.retrievability("b1", NOW))
    assert o["1.2"].accuracy is None and o["1.2"].mastery is None
    d = {g.id: g for g in s.domains}
    assert (d["2"].attempts, d["2"].seen, d["2"].total, d["2"].weight) == (1, 1, 3, 40.0)
    assert s.attempts == 4  # every recorded answer, including the deleted question's


def test_card_counts_for_an_objective_without_questions(store, bank):
    before = compute_stats(store, bank, NOW).readiness.domains["2"]
    store.review_card("t2/x", "h", Rating.Good, 10, NOW)
    after = compute_stats(store, bank, NOW).readiness
    # objective 2.2 has no questions, so its card joins domain 2: (.25 + .25 + 1.0) / 3 at R = 1
    assert before == pytest.approx(0.25)
    assert after.domains["2"] == pytest.approx(0.5)


def test_streak_and_heatmap_in_local_days(store, bank):
    tz = dt.timezone(dt.timedelta(hours=-5))
    now = dt.datetime(2026, 11, 30, 20, 0, tzinfo=tz)  # 01:00 UTC on Dec 1
    for days_ago in (0, 1, 2, 5):
        answer(store, "a1", at=now - T(days=days_ago))
    store.review_card("t1/intro", "h", Rating.Good, 5, now - T(days=5, minutes=1))
    s = compute_stats(store, bank, now)
    assert (s.streak, s.longest_streak) == (3, 3)
    counts = dict(s.activity)
    assert counts[dt.date(2026, 11, 30)] == 1 and counts[dt.date(2026, 11, 25)] == 2
    assert dt.date(2026, 12, 1) not in counts
    assert sum(counts.values()) == 5


def test_streak_survives_until_today_is_over(store, bank):
    answer(store, "a1", at=NOW - T(days=1))
    answer(store, "a2", at=NOW - T(days=2))
    assert compute_stats(store, bank, NOW).streak == 2
    assert compute_stats(store, bank, NOW + T(days=2)).streak == 0


def test_forecast_counts_due_reviews(store, bank):
    answer(store, "a1", correct=False, at=NOW - T(days=3))  # overdue: counts today
    answer(store, "a2", at=NOW)
    s = compute_stats(store, bank, NOW)
    due_days = {d: n for d, n in s.forecast if n}
    a2_due = store.item_state("a2").due.date()
    expected = {NOW.date(): 1}
    expected[a2_due] = expected.get(a2_due, 0) + 1
    assert due_days == expected
    # "Due" is due now: a1 (overdue); a2's learning step falls later today, in the forecast only.
    assert s.due_today == s.due_now == 1


def test_exam_history_and_settings(store, bank):
    store.save_session("e1", "exam", "{}", None)
    store.finish_session("e1", '{"score": 0.7}', at=NOW)
    store.set_setting("exam_date", "2027-01-15")
    s = compute_stats(store, bank, NOW)
    assert s.exam_history[0]["report"] == {"score": 0.7}
    assert s.readiness.exam_date == dt.date(2027, 1, 15) and s.readiness.at.date() == dt.date(2027, 1, 15)


def test_exam_moment():
    assert exam_moment(None, NOW) == NOW
    assert exam_moment(dt.date(2020, 1, 1), NOW) == NOW
    assert exam_moment(dt.date(2027, 1, 2), NOW) == dt.datetime(2027, 1, 2, 9, tzinfo=dt.timezone.utc)


def test_heatmap_follows_daylight_saving_zones(store, bank):
    from zoneinfo import ZoneInfo

    ny = ZoneInfo("America/New_York")
    answer(store, "a1", at=dt.datetime(2026, 7, 1, 3, 30, tzinfo=dt.timezone.utc))  # 23:30 EDT on June 30
    answer(store, "a2", at=dt.datetime(2026, 11, 30, 4, 30, tzinfo=dt.timezone.utc))  # 23:30 EST on Nov 29
    answer(store, "b1", at=dt.datetime(2026, 11, 30, 5, 30, tzinfo=dt.timezone.utc))  # 00:30 EST on Nov 30
    s = compute_stats(store, bank, dt.datetime(2026, 11, 30, 12, tzinfo=ny))
    days = {d: n for d, n in s.activity if n}
    assert days == {dt.date(2026, 6, 30): 1, dt.date(2026, 11, 29): 1, dt.date(2026, 11, 30): 1}


def test_a_failed_item_counts_at_the_guess_rate_until_answered_right(store, bank):
    before = compute_stats(store, bank, NOW).readiness.domains["1"]
    answer(store, "a1", False, NOW - T(hours=1))
    answer(store, "a2", False, NOW - T(hours=1))
    failed = compute_stats(store, bank, NOW)
    # Getting everything wrong must not raise readiness (FSRS alone would put R near 1 just after a review).
    assert failed.readiness.domains["1"] == pytest.approx(before)
    assert {g.id: g.mastery for g in failed.domains}["1"] == 0.0
    answer(store, "a1", True, NOW - T(minutes=30))
    fixed = compute_stats(store, bank, NOW)
    assert fixed.readiness.domains["1"] > before
    assert {g.id: g.mastery for g in fixed.domains}["1"] > 0.4


def test_a_card_last_rated_again_is_not_known(store, bank):
    store.review_card("t2/x", "h", Rating.Again, 10, NOW - T(minutes=5))
    assert compute_stats(store, bank, NOW).readiness.domains["2"] == pytest.approx(0.25)
    store.review_card("t2/x", "h", Rating.Good, 10, NOW)
    assert compute_stats(store, bank, NOW).readiness.domains["2"] > 0.25
