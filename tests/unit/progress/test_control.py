"""Card control (suspend, bury, new a day, no repeats in a session) and the one meaning of "due"."""

from __future__ import annotations

import datetime as dt

import pytest

from study.progress import Attempt, Rating
from study.progress import control
from study.progress.due import due_now, next_due
from study.progress.stats import compute_stats

from .conftest import NOW

T = dt.timedelta
LOCAL = dt.timezone(dt.timedelta(hours=2))


def answer(store, item, correct=True, at=NOW, mode="practice"):
    store.record_attempt(Attempt(item, "h", {}, "A", correct, 30.0, mode, None, at))


def test_a_suspended_item_is_never_due_until_unsuspended(store):
    answer(store, "a1", False)
    later = NOW + T(hours=1)
    assert store.due(later) == ["a1"]
    control.suspend(store, "a1", NOW)
    assert store.due(later) == [] and control.held_back(store, later) == {"a1"}
    assert next_due(store, later) is None
    assert control.unsuspend(store, "a1", later) is True
    assert store.due(later) == ["a1"]
    assert control.unsuspend(store, "a1", later) is False
    assert control.controls(store) == []


def test_a_buried_item_comes_back_at_the_start_of_the_next_local_day(store):
    answer(store, "a1", False)
    now = (NOW + T(hours=1)).astimezone(LOCAL)  # 15:00 local
    until = control.bury(store, "a1", now)
    assert until == dt.datetime(2026, 11, 30, 0, 0, tzinfo=LOCAL) + T(days=1)
    assert store.due(now) == [] and store.due(until - T(seconds=1)) == []
    assert store.due(until) == ["a1"]
    assert next_due(store, now) == until


def test_due_now_and_next_due_agree_with_stats(store, bank):
    answer(store, "a1", False, NOW - T(hours=1))  # due a minute after: due now
    answer(store, "b1", True, NOW, mode="exam")  # due in a day at least
    s = compute_stats(store, bank, NOW)
    assert s.due_now == 1 == len(due_now(store, NOW))
    assert s.next_due is None  # something is due now
    s2 = compute_stats(store, bank, NOW)
    control.suspend(store, "a1", NOW)
    s2 = compute_stats(store, bank, NOW)
    assert s2.due_now == 0 and s2.next_due == store.item_state("b1").due
    assert s2.to_dict()["next_due"] == s2.next_due.isoformat()


def test_the_review_queue_never_hands_out_an_item_twice_in_a_session(store):
    answer(store, "a1", False, NOW - T(hours=1))
    queue = control.ReviewQueue(store)
    assert queue.take(NOW) == ["a1"]
    answer(store, "a1", False, NOW)  # Again: due a minute later (FSRS learning step)
    assert store.due(NOW + T(minutes=5)) == ["a1"]
    assert queue.take(NOW + T(minutes=5)) == []
    assert control.ReviewQueue(store).take(NOW + T(minutes=5)) == ["a1"]  # a new session takes it


def test_new_items_a_day_are_capped_by_the_setting(store):
    store.set_setting("new_per_day", 3)
    now = NOW.astimezone(LOCAL)
    answer(store, "old", True, NOW - T(days=3))
    answer(store, "old", True, NOW - T(minutes=5))  # seen before today: not new today
    answer(store, "n1", True, NOW - T(minutes=4))
    store.review_card("t1/intro", "h", Rating.Good, 10.0, NOW - T(minutes=3))
    assert control.new_seen_today(store, now) == 2
    assert control.new_allowance(store, now) == 1
    answer(store, "n2", True, NOW - T(minutes=2))
    answer(store, "n3", True, NOW - T(minutes=1))
    assert control.new_allowance(store, now) == 0


def test_the_new_per_day_setting_is_parsed_and_defaults():
    from study.progress.settings import parse_setting

    assert parse_setting("new_per_day", " 15 ") == 15
    with pytest.raises(ValueError):
        parse_setting("new_per_day", "-1")


def test_unknown_ids_are_named(bank):
    assert control.check_item(bank, "a1") == "question"
    assert control.check_item(bank, "t1/intro") == "card"
    with pytest.raises(control.UnknownItem, match="no card or question with id 'nope'"):
        control.check_item(bank, "nope")


def test_answers_today_count_answers_not_card_ratings(store, bank):
    answer(store, "a1", True, NOW - T(minutes=5))
    store.review_card("t1/intro", "h", Rating.Good, 10.0, NOW - T(minutes=3))
    s = compute_stats(store, bank, NOW)
    assert s.answers_today == 1
    assert s.activity[-1][1] == 2  # the heatmap still shows all study


def test_reset_lifts_suspensions_and_burials(store):
    control.suspend(store, "a1", NOW)
    control.bury(store, "b1", NOW)
    store.reset()
    assert control.controls(store) == []


def test_a_practice_report_says_how_many_were_new(store, bank):
    from study.quiz import build_practice

    answer(store, "a1", True, NOW - T(days=1))
    s = build_practice(bank, seed=1, count=4, store=store, now=NOW)
    assert s.new_to_you == [i.qid != "a1" for i in s.instances]


def test_the_forecast_leaves_suspended_items_out_and_places_buried_ones_after_their_burial(store, bank):
    answer(store, "a1", False, NOW - T(days=3))
    answer(store, "b1", False, NOW - T(days=3))
    control.suspend(store, "a1", NOW)
    control.bury(store, "b1", NOW)
    s = compute_stats(store, bank, NOW)
    assert s.forecast[0][1] == 0 and s.forecast[1][1] == 1
    assert s.due_today == s.due_now == 0


@pytest.mark.parametrize("change", ["suspend", "bury", "unsuspend"])
@pytest.mark.parametrize("start", ["never", "suspended", "buried"])
def test_restore_hold_puts_back_exactly_what_a_change_found(store, change, start):
    # The app's u (issue 37 §3): the state read before a suspend, bury or unsuspend, restored, is that state.
    answer(store, "a1", False)
    if start == "suspended":
        control.suspend(store, "a1", NOW)
    elif start == "buried":
        control.bury(store, "a1", NOW)
    before = control.hold_state(store, "a1")
    later = NOW + T(minutes=5)
    getattr(control, change)(store, "a1", later)
    control.restore_hold(store, before, later + T(minutes=1))
    assert control.hold_state(store, "a1") == before
    assert ("a1" in control.held_back(store, later)) is (start != "never")
    assert before.held(later) is (start != "never")
