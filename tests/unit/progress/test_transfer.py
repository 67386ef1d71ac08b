from __future__ import annotations

import datetime as dt
import json

import pytest

from study.progress import Attempt, Rating, open_store
from study.progress.transfer import ImportFormatError

from .conftest import NOW

T = dt.timedelta


def fill(store, offset=0, tag="x"):
    store.set_setting("exam_date", "2027-01-15")
    store.save_session(f"e-{tag}", "exam", '{"i": 2}', NOW + T(hours=1))
    for k in range(6):
        store.record_attempt(Attempt(f"q{k % 3}", "h", {"k": k}, tag, k % 2 == 0, 40 + 20 * k, "exam", f"e-{tag}",
                                     NOW + T(days=offset + k)))
    store.review_card("t/a", "hc", Rating.Hard, 9, NOW + T(days=offset, hours=2))
    store.finish_session(f"e-{tag}", '{"score": 0.5}')


def strip(data):
    return {k: v for k, v in data.items() if k != "exported_at"}


def test_export_is_json_and_complete(store):
    fill(store)
    data = json.loads(json.dumps(store.export_data()))
    assert data["format"] == "study-progress" and data["version"] == 1
    assert len(data["attempts"]) == 6 and len(data["reviews"]) == 1 and len(data["sessions"]) == 1
    assert {i["item_id"] for i in data["items"]} == {"q0", "q1", "q2", "t/a"}
    assert data["settings"]["exam_date"] == "2027-01-15"
    assert data["attempts"][0]["params"] == {"k": 0} and data["attempts"][0]["correct"] is True


def test_replace_round_trip_is_exact(store, tmp_path):
    fill(store)
    exported = store.export_data()
    with open_store(tmp_path / "other.db", fuzz=False) as other:
        other.record_attempt(Attempt("local", "h", {}, "A", True, 1, "quiz", None, NOW))
        other.import_data(json.loads(json.dumps(exported)), replace=True)
        assert strip(other.export_data()) == strip(exported)
        assert other.exam_history()[0].report == {"score": 0.5}


def test_picked_choices_survive_export_and_import_and_older_exports_still_load(store, tmp_path):
    store.record_attempt(Attempt("q9", "h", {}, "B,A", True, 30, "quiz", None, NOW, picked=("NVLink", "PCIe <5>")))
    store.record_attempt(Attempt("q8", "h", {}, "141.2", False, 30, "quiz", None, NOW))
    exported = json.loads(json.dumps(store.export_data()))
    assert [a["picked"] for a in exported["attempts"]] == [["NVLink", "PCIe <5>"], []]
    with open_store(tmp_path / "other.db", fuzz=False) as other:
        other.import_data(exported, replace=True)
        assert {a.item_id: a.picked for a in other.history()} == {"q9": ("NVLink", "PCIe <5>"), "q8": ()}
    for a in exported["attempts"]:  # an export from before schema 5 has no "picked"
        del a["picked"]
        a["uid"] += "-old"
    with open_store(tmp_path / "third.db", fuzz=False) as third:
        assert third.import_data(exported)["attempts"] == 2
        assert all(a.picked == () for a in third.history())


def test_merge_twice_adds_nothing_the_second_time(store, tmp_path):
    fill(store)
    data = store.export_data()
    with open_store(tmp_path / "b.db", fuzz=False) as other:
        first = other.import_data(data)
        second = other.import_data(data)
        assert first["attempts"] == 6 and first["reviews"] == 1
        assert second == {"attempts": 0, "reviews": 0, "sessions": 0, "items": 0, "settings": 0, "reports": 0,
                              "item_control": 0, "attempt_regrades": 0}
        assert other.counts()["attempts"] == 6


def test_merge_combines_histories_and_replays_the_schedule(tmp_path):
    """Two devices each studied; merging both exports gives the schedule of the combined history."""
    a, b, both = (open_store(tmp_path / f"{n}.db", fuzz=False) for n in ("a", "b", "both"))
    with a, b, both:
        fill(a, offset=0, tag="a")
        fill(b, offset=3, tag="b")
        # the reference: one store that saw every event in time order
        events = sorted(a.history() + b.history(), key=lambda x: x.at)
        for ev in events:
            both.record_attempt(ev)
        for r in sorted(a.reviews() + b.reviews(), key=lambda x: x.at):
            both.review_card(r.card_id, r.content_hash, r.rating, r.seconds, r.at)
        a.import_data(b.export_data())
        assert a.counts()["attempts"] == 12 and a.counts()["sessions"] == 2
        for item in ("q0", "q1", "q2", "t/a"):
            merged, ref = a.item_state(item), both.item_state(item)
            assert merged.card.stability == pytest.approx(ref.card.stability)
            assert merged.due == ref.due and merged.last_review == ref.last_review


def test_merge_keeps_local_settings(store, tmp_path):
    store.set_setting("exam_date", "2027-02-01")
    with open_store(tmp_path / "b.db") as other:
        other.set_setting("exam_date", "2030-01-01")
        other.set_setting("daily_goal", 50)
        store.import_data(other.export_data())
    assert store.get_setting("exam_date") == "2027-02-01" and store.get_setting("daily_goal") == 50


@pytest.mark.parametrize(
    "data, message",
    [
        ({"format": "other"}, "not a study progress export"),
        ({"format": "study-progress", "version": 99}, "newer"),
        ({"format": "study-progress", "version": 1, "attempts": {}}, "must be a list"),
        ({"format": "study-progress", "version": 1, "attempts": [{"uid": "u"}]}, "missing"),
        ({"format": "study-progress", "version": 1, "attempts": [
            {"uid": "u", "item_id": "q", "content_hash": "h", "given": "A", "correct": True, "seconds": 1,
             "mode": "quiz", "at": "2026-11-30T10:00:00+00:00", "picked": "A"}]}, "picked"),
    ],
)
def test_bad_files_are_refused_and_change_nothing(store, data, message):
    fill(store)
    before = strip(store.export_data())
    with pytest.raises(ImportFormatError, match=message):
        store.import_data(data)
    assert strip(store.export_data()) == before


def test_a_bad_row_midway_rolls_back_the_whole_import(store, tmp_path):
    fill(store)
    data = store.export_data()
    data["attempts"][3]["at"] = "not a time"
    with open_store(tmp_path / "b.db") as other:
        with pytest.raises(ValueError):
            other.import_data(data)
        assert other.counts()["attempts"] == 0 and other.counts()["sessions"] == 0


def test_export_of_a_closed_store_is_a_store_error(tmp_path):
    # Store.export_data checks first and transfer.export_data checks again itself; either way no None.execute.
    from study.progress.store_open import StoreError

    s = open_store(tmp_path / "p.db")
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.export_data()
