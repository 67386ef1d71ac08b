"""A learner's reports of problems with questions: kept, listed, carried in backups, refused when malformed."""

from __future__ import annotations

import json

import pytest

from study.progress import open_store
from study.progress.reports import ReportError, add_report, list_reports
from study.progress.transfer import ImportFormatError

from .conftest import NOW


def test_a_report_is_kept_and_listed_newest_first(store):
    add_report(store, "q1", "wrong-key", "B is right, not C", content_hash="h1", context="results",
               session_id="s1", at=NOW)
    later = NOW.replace(hour=NOW.hour + 1)
    add_report(store, "q2", "unclear", at=later)
    reports = list_reports(store)
    assert [(r.item_id, r.kind) for r in reports] == [("q2", "unclear"), ("q1", "wrong-key")]
    first = reports[1]
    assert (first.text, first.content_hash, first.context, first.session_id) == ("B is right, not C", "h1",
                                                                                 "results", "s1")
    assert [r.item_id for r in list_reports(store, "q1")] == ["q1"]


@pytest.mark.parametrize("kind, text, item, why", [
    ("typo", "", "q1", "not one of"),
    ("other", "   ", "q1", "needs a few words"),
    ("unclear", "", "", "needs the question"),
])
def test_a_report_that_says_nothing_usable_is_refused(store, kind, text, item, why):
    with pytest.raises(ReportError, match=why):
        add_report(store, item, kind, text)
    assert list_reports(store) == []


def test_reports_travel_in_the_backup_and_merge_once(store, tmp_path):
    add_report(store, "q1", "outdated", "H100 is no longer the newest", content_hash="h", at=NOW)
    exported = json.loads(json.dumps(store.export_data()))
    assert [r["item_id"] for r in exported["reports"]] == ["q1"]
    with open_store(tmp_path / "other.db", fuzz=False) as other:
        assert other.import_data(exported)["reports"] == 1
        assert other.import_data(exported)["reports"] == 0
        [kept] = list_reports(other)
        assert (kept.kind, kept.text, kept.at) == ("outdated", "H100 is no longer the newest",
                                                    exported["reports"][0]["at"])


def test_an_older_backup_without_reports_still_imports(store, tmp_path):
    exported = store.export_data()
    del exported["reports"]
    with open_store(tmp_path / "other.db", fuzz=False) as other:
        assert other.import_data(exported)["reports"] == 0


def test_a_backup_with_a_malformed_report_changes_nothing(store, tmp_path):
    exported = store.export_data()
    exported["reports"] = [{"uid": "u", "item_id": "q1", "kind": "typo", "at": "2026-01-01T00:00:00+00:00"}]
    with open_store(tmp_path / "other.db", fuzz=False) as other:
        with pytest.raises(ImportFormatError, match="kind 'typo'"):
            other.import_data(exported)
        assert list_reports(other) == []
