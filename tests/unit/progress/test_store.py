from __future__ import annotations

import datetime as dt
import json

import pytest

from study.progress import Attempt, Rating, StoreError, open_store, rating_for

from .conftest import NOW

T = dt.timedelta


def att(item="q1", correct=True, seconds=30.0, mode="practice", at=NOW, session=None, given="A", chash="h1"):
    return Attempt(item, chash, {"gpus": 8}, given, correct, seconds, mode, session, at)


def test_rating_follows_outcome_and_exam_pace():
    assert rating_for(False, 5) is Rating.Again
    assert rating_for(True, 72) is Rating.Good  # exactly at pace is not slower than pace
    assert rating_for(True, 72.5) is Rating.Hard
    assert rating_for(True, 1) is Rating.Good


def test_attempt_round_trips_with_all_fields(store):
    store.record_attempt(att(session="s1", mode="exam"))
    (back,) = store.history()
    assert (back.item_id, back.content_hash, back.params, back.given, back.correct, back.seconds, back.mode,
            back.session_id, back.at) == ("q1", "h1", {"gpus": 8}, "A", True, 30.0, "exam", "s1", NOW)


def test_history_is_newest_first_and_filters(store):
    for k in range(5):
        store.record_attempt(att(item="q1" if k % 2 else "q2", at=NOW + T(minutes=k)))
    assert [a.at for a in store.history()] == [NOW + T(minutes=k) for k in (4, 3, 2, 1, 0)]
    assert {a.item_id for a in store.history(item_id="q1")} == {"q1"}
    assert len(store.history(limit=2)) == 2
    assert len(store.history(since=NOW + T(minutes=3))) == 2


def test_every_attempt_updates_fsrs_and_wrong_answers_come_back_sooner(store):
    store.record_attempt(att(item="right", correct=True))
    store.record_attempt(att(item="wrong", correct=False))
    right, wrong = store.item_state("right"), store.item_state("wrong")
    assert right.kind == "question" and right.last_review == NOW
    assert wrong.due < right.due
    assert store.item_state("never") is None and store.retrievability("never") is None


def test_exam_attempts_feed_the_scheduler(store):
    store.record_attempt(att(item="q", mode="exam", session="e1"))
    assert store.item_state("q") is not None
    # the session the attempt names exists even though save_session was never called
    assert store.session("e1").kind == "exam"


def test_due_lists_overdue_items_by_kind(store):
    store.record_attempt(att(item="q1", correct=False))
    store.review_card("topic/a", "hc", Rating.Again, 10, NOW)
    store.review_card("topic/b", "hc", Rating.Easy, 10, NOW)
    later = NOW + T(hours=1)
    assert store.due(later) == ["q1", "topic/a"]
    assert store.due(later, kind="card") == ["topic/a"]
    assert store.due(NOW - T(minutes=1)) == []
    assert "topic/b" in store.due(NOW + T(days=60))


def test_retrievability_is_one_at_review_and_falls(store):
    store.review_card("c", "h", Rating.Good, 5, NOW)
    r0 = store.retrievability("c", NOW)
    r30 = store.retrievability("c", NOW + T(days=30))
    assert r0 == pytest.approx(1.0) and 0 < r30 < r0


def test_card_reviews_are_recorded(store):
    store.review_card("t/x", "h", 4, 7.5, NOW)
    (r,) = store.reviews()
    assert (r.card_id, r.rating, r.seconds, r.at) == ("t/x", Rating.Easy, 7.5, NOW)


def test_exam_session_resume_cycle(store):
    assert store.active_session("exam") is None
    deadline = NOW + T(hours=1)
    store.save_session("e1", "exam", json.dumps({"index": 0}), deadline)
    store.save_session("e1", "exam", json.dumps({"index": 1}), deadline)
    assert store.active_session("exam") == ("e1", '{"index": 1}', deadline)
    assert store.active_session("practice") is None
    store.finish_session("e1", json.dumps({"score": 0.8}))
    assert store.active_session("exam") is None
    (done,) = store.exam_history()
    assert done.report == {"score": 0.8} and done.state_json is None
    with pytest.raises(KeyError):
        store.finish_session("nope", "{}")


def test_discarded_session_keeps_its_attempts(store):
    store.save_session("e2", "exam", "{}", None)
    store.record_attempt(att(session="e2", mode="exam"))
    store.discard_session("e2")
    assert store.active_session("exam") is None
    assert store.history()[0].session_id == "e2"
    assert store.exam_history() == []  # abandoned, no report


def test_settings_defaults_and_overrides(store):
    assert store.get_setting("desired_retention") == 0.9
    assert store.get_setting("unknown", 3) == 3
    store.set_setting("exam_date", "2027-01-15")
    store.set_setting("daily_goal", 40)
    assert store.settings()["exam_date"] == "2027-01-15" and store.get_setting("daily_goal") == 40
    store.set_setting("daily_goal", None)
    assert store.get_setting("daily_goal") == 20


def test_desired_retention_setting_changes_intervals(tmp_path):
    dues = []
    for retention in (0.8, 0.95):
        with open_store(tmp_path / f"r{retention}.db", fuzz=False) as s:
            s.set_setting("desired_retention", retention)
            for k in range(3):
                s.review_card("c", "h", Rating.Good, 5, NOW + T(days=10 * k))
            dues.append(s.item_state("c").due)
    assert dues[0] > dues[1]


def test_edited_item_keeps_history_and_schedule(store):
    store.record_attempt(att(item="q", chash="old"))
    store.record_attempt(att(item="q", chash="new", at=NOW + T(days=1)))
    assert [a.content_hash for a in store.history(item_id="q")] == ["new", "old"]
    state = store.item_state("q")
    assert state.content_hash == "new" and state.last_review == NOW + T(days=1)


def test_naive_datetimes_and_unknown_modes_are_refused(store):
    with pytest.raises(ValueError):
        store.record_attempt(att(at=dt.datetime(2026, 1, 1)))
    with pytest.raises(ValueError):
        store.record_attempt(att(mode="cram"))
    assert store.history() == []


def test_non_utc_times_are_stored_as_utc(store):
    cet = dt.timezone(dt.timedelta(hours=1))
    store.record_attempt(att(at=NOW.astimezone(cet)))
    assert store.history()[0].at == NOW
    raw = store._query("SELECT at FROM attempts")[0][0]
    assert raw.endswith("+00:00")


def test_reset_erases_progress_but_keeps_settings(store):
    store.set_setting("exam_date", "2027-01-15")
    store.record_attempt(att())
    store.review_card("c", "h", 3, 1, NOW)
    store.reset()
    assert store.counts() == {"attempts": 0, "reviews": 0, "sessions": 0, "items": 0, "settings": 1}


def test_closed_store_refuses_writes(tmp_path):
    s = open_store(tmp_path / "p.db")
    s.close()
    with pytest.raises(StoreError):
        s.set_setting("x", 1)
    with pytest.raises(StoreError, match="closed"):
        s.history()


def test_pragmas(store):
    conn = store._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 5000


def test_default_path_honours_study_db(tmp_path, monkeypatch):
    target = tmp_path / "sub" / "env.db"
    monkeypatch.setenv("STUDY_DB", str(target))
    with open_store() as s:
        assert s.path == target
    assert target.exists()


def _totals(store):
    return (sorted(store._query("SELECT item_id, attempts, correct, last_correct, last_at FROM item_totals")),
            sorted(store._query("SELECT hour, answers, reviews FROM activity")))


def _recomputed(store):
    per: dict[str, list] = {}
    for item, correct, at in store._query("SELECT item_id, correct, at FROM attempts ORDER BY at"):
        n, c, _lc, _la = per.get(item, (0, 0, None, None))
        per[item] = (n + 1, c + correct, correct, at)
    items = [(i, *v) for i, v in per.items()]
    hours: dict[str, list[int]] = {}
    for (at,) in store._query("SELECT at FROM attempts"):
        hours.setdefault(at[:13], [0, 0])[0] += 1
    for (at,) in store._query("SELECT at FROM reviews"):
        hours.setdefault(at[:13], [0, 0])[1] += 1
    return sorted(items), sorted((h, a, r) for h, (a, r) in hours.items())


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["q1", "q2", "t/c"]), st.booleans(), st.integers(0, 72 * 60)),
                max_size=25))
def test_running_totals_match_the_events(tmp_path_factory, events):
    path = tmp_path_factory.mktemp("totals") / "p.db"
    with open_store(path, fuzz=False) as s:
        for k, (item, ok, minutes) in enumerate(events):
            at = NOW + T(minutes=minutes, seconds=k)  # out of order, never tied
            if item.startswith("t/"):
                s.review_card(item, "h", Rating.Good if ok else Rating.Again, 5, at)
            else:
                s.record_attempt(att(item=item, correct=ok, at=at))
        assert _totals(s) == _recomputed(s)
        data = s.export_data()
        s.reset()
        assert _totals(s) == ([], [])
        s.import_data(data)
        assert _totals(s) == _recomputed(s) and s.counts()["attempts"] == len(data["attempts"])


def test_summaries_give_latest_outcome_even_out_of_order(store):
    store.record_attempt(att(item="q", correct=False, at=NOW + T(days=2)))
    store.record_attempt(att(item="q", correct=True, at=NOW))  # an older answer arriving late (an import)
    store.record_attempt(att(item="r", correct=True, at=NOW))
    summary = store.summaries()
    assert (summary["q"].attempts, summary["q"].correct, summary["q"].last_correct) == (2, 1, False)
    assert summary["q"].last_at == NOW + T(days=2) and summary["r"].last_correct is True
