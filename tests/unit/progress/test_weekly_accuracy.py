from __future__ import annotations

import datetime as dt

from study.progress import Attempt, open_store
from study.progress.stats import weekly_accuracy

UTC = dt.timezone.utc


def _answer(store, at: dt.datetime, correct: bool) -> None:
    store.record_attempt(Attempt("q1", "h", {}, "A", correct, 30.0, "practice", at=at))


def test_weekly_accuracy_buckets_by_local_monday(tmp_path) -> None:
    store = open_store(tmp_path / "p.db")
    today = dt.date(2026, 11, 30)  # a Monday
    _answer(store, dt.datetime(2026, 11, 30, 8, tzinfo=UTC), True)
    _answer(store, dt.datetime(2026, 11, 29, 12, tzinfo=UTC), False)  # Sunday: the previous week
    _answer(store, dt.datetime(2026, 11, 24, 12, tzinfo=UTC), True)
    _answer(store, dt.datetime(2026, 8, 1, 12, tzinfo=UTC), True)  # older than three weeks
    weeks = weekly_accuracy(store, today, weeks=3, tz=UTC)
    assert [w[0] for w in weeks] == [dt.date(2026, 11, 16), dt.date(2026, 11, 23), dt.date(2026, 11, 30)]
    assert [(n, r) for _m, n, r in weeks] == [(0, 0), (2, 1), (1, 1)]
    # In UTC-3 the Monday 08:00 UTC answer falls on Monday 05:00, the Sunday noon one on Sunday 09:00: same
    # weeks; a Monday 01:00 UTC answer would be Sunday 22:00 local, the previous week.
    _answer(store, dt.datetime(2026, 11, 30, 1, tzinfo=UTC), True)
    west = weekly_accuracy(store, today, weeks=3, tz=dt.timezone(dt.timedelta(hours=-3)))
    assert [(n, r) for _m, n, r in west] == [(0, 0), (3, 2), (1, 1)]
    store.close()
