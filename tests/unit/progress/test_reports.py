"""A learner's reports of problems with questions: kept, listed, carried in backups, refused when malformed."""

from __future__ import annotations

import json

import pytest

from study.progress.reports import ReportError, add_report, list_reports

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


def test_reports_travel_in_the_backup(store):
    add_report(store, "q1", "outdated", "H100 is no longer the newest", content_hash="h", context="review",
               session_id="s9", at=NOW)
    exported = json.loads(json.dumps(store.export_data()))
    [kept] = exported["reports"]
    assert {k: kept[k] for k in ("item_id", "kind", "text", "content_hash", "context", "session_id")} == {
        "item_id": "q1", "kind": "outdated", "text": "H100 is no longer the newest", "content_hash": "h",
        "context": "review", "session_id": "s9"}
    assert kept["uid"] == list_reports(store)[0].uid and kept["at"].startswith("2026-11-30T12:00:00")


def test_study_reports_lists_them_and_says_how_to_file_one(tmp_path, capsys):
    from study.cli import main
    from study.progress import open_store

    db = tmp_path / "p.db"
    assert main(["--db", str(db), "reports"]) == 0
    assert "Press R on a question" in capsys.readouterr().out
    with open_store(db) as s:
        add_report(s, "fx-q1", "wrong-key", "C is the right one", context="results", at=NOW)
        add_report(s, "fx-q2", "unclear", context="practice", at=NOW.replace(minute=5))
    assert main(["--db", str(db), "reports"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2026-11-30 12:05 UTC  fx-q2  unclear: the question is unclear in practice"
    assert out[1] == "2026-11-30 12:00 UTC  fx-q1  wrong-key: the marked answer is wrong in results"
    assert out[2] == "    C is the right one"
    assert out[-1].startswith("2 reports.")
    assert main(["--db", str(db), "reports", "--json", "--question", "fx-q1"]) == 0
    [only] = json.loads(capsys.readouterr().out)
    assert (only["item_id"], only["text"]) == ("fx-q1", "C is the right one")
