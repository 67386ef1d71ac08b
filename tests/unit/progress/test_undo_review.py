"""Undoing a card's last rating puts back exactly what was there before it: the review rows, the activity
count and the FSRS state (due date, stability, difficulty, step)."""

from __future__ import annotations

import datetime as dt

import pytest

from study.progress import Rating, open_store

from .conftest import NOW


def _activity(store) -> int:
    return store._query("SELECT coalesce(sum(reviews), 0) FROM activity")[0][0]


def _same(a, b) -> None:
    assert (a.due, a.last_review, a.kind, a.content_hash) == (b.due, b.last_review, b.kind, b.content_hash)
    assert a.card.to_json() == b.card.to_json()


def test_undo_replays_the_earlier_history_exactly(store):
    store.review_card("c1", "h1", Rating.Good, 20, NOW - dt.timedelta(days=9))
    store.review_card("c1", "h1", Rating.Hard, 25, NOW - dt.timedelta(days=3))
    before = store.item_state("c1")
    store.review_card("c1", "h1", Rating.Again, 40, NOW)
    assert store.item_state("c1").due != before.due

    restored = store.undo_review("c1")

    _same(restored, before)
    _same(store.item_state("c1"), before)
    assert [r.rating for r in store.reviews("c1")] == [Rating.Hard, Rating.Good]
    assert _activity(store) == 2


def test_undoing_the_only_rating_makes_the_card_new_again(store):
    store.review_card("c1", "h1", Rating.Easy, 10, NOW)
    assert store.undo_review("c1") is None
    assert store.item_state("c1") is None and store.reviews("c1") == [] and "c1" not in store.seen_ids("card")
    assert _activity(store) == 0


def test_with_fuzz_the_state_read_before_is_restored_exactly(tmp_path):
    # Fuzzed intervals are drawn afresh on a replay; the state read before the rating is what comes back.
    with open_store(tmp_path / "fuzz.db", fuzz=True) as store:
        for days, rating in ((30, Rating.Good), (12, Rating.Good), (2, Rating.Easy)):
            store.review_card("c1", "h1", rating, 20, NOW - dt.timedelta(days=days))
        before = store.item_state("c1")
        store.review_card("c1", "h1", Rating.Again, 40, NOW)
        _same(store.undo_review("c1", before), before)
        _same(store.item_state("c1"), before)


def test_undo_takes_back_only_that_card(store):
    store.review_card("c1", "h1", Rating.Good, 20, NOW - dt.timedelta(days=1))
    store.review_card("c2", "h2", Rating.Good, 20, NOW)
    other = store.item_state("c2")
    store.undo_review("c1")
    _same(store.item_state("c2"), other)
    with pytest.raises(ValueError):
        store.undo_review("c1")
