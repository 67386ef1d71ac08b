"""``Store.reset`` erases everything the learner recorded: every table the migrations create, read from the
schema, so a table a later migration adds cannot be forgotten (``attempt_regrades`` was, after V8)."""

from __future__ import annotations

import datetime as dt

import pytest

from study.progress import Attempt
from study.progress.control import suspend
from study.progress.regrades import RegradeChange, apply_regrades
from study.progress.reports import add_report

from .conftest import NOW


def _tables(store) -> list[str]:
    return [r[0] for r in store._query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]


def _rows(store) -> dict[str, int]:
    return {t: store._query(f'SELECT count(*) FROM "{t}"')[0][0] for t in _tables(store)}


def _record_one_of_everything(store) -> None:
    store.set_setting("exam_date", "2027-01-15")
    store.record_attempt(Attempt("q1", "h1", {}, "A", False, 30.0, "practice", "s1", NOW))
    store.review_card("c1", "h", 3, 12.0, NOW)
    store.save_session("s1", "exam", "{}")
    add_report(store, "q1", "unclear", "the second sentence", at=NOW)
    store.record_lrs_acks("https://lrs.example/xapi/", ["00000000-0000-4000-8000-000000000001"], at=NOW)
    suspend(store, "q2", now=NOW)
    (uid,) = store._query("SELECT uid FROM attempts")[0]
    apply_regrades(store, [RegradeChange(uid, "q1", NOW, 30.0, False, True, "h2")], NOW + dt.timedelta(hours=1))


@pytest.mark.parametrize("keep_settings", [True, False])
def test_reset_empties_every_table_the_migrations_create(store, keep_settings):
    _record_one_of_everything(store)
    before = _rows(store)
    empty_before = [t for t, n in before.items() if n == 0]
    assert not empty_before, f"the test must fill every table first; still empty: {empty_before}"
    assert "attempt_regrades" in before and "reports" in before and "lrs_acks" in before

    store.reset(keep_settings=keep_settings)

    after = _rows(store)
    expected = {t: 0 for t in after}
    if keep_settings:
        expected["settings"] = before["settings"]
    assert after == expected
    assert store.get_setting("exam_date") == ("2027-01-15" if keep_settings else None)
