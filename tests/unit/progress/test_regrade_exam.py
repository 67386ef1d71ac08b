"""`study regrade` after a finished exam (issue 36.6): the exam's stored report is scored again, so its score,
its verdict and the readiness measured on it follow the corrected answer; and `--dry-run --json` shows the due
date the real run then sets, not the one before the regrade."""

from __future__ import annotations

import json
from pathlib import Path

from study.cli import main
from study.progress import open_store
from study.progress.readiness import measured_score
from study.progress.regrades import rescore_report
from tests.unit.analysis.classgen import FLIP_ID, take_exam, write_bank


def _exam_report(db: Path) -> dict:
    with open_store(db, fuzz=False) as store:
        (exam,) = store.exam_history()
        return exam.report


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    flipped = write_bank(tmp_path / "flipped", flipped=True).parent
    db = tmp_path / "me.db"
    take_exam(db, flipped)
    return db, write_bank(tmp_path / "fixed", flipped=False).parent


def test_a_regrade_scores_the_finished_exam_again(tmp_path, capsys):
    db, fixed = _setup(tmp_path)
    before = _exam_report(db)
    assert (before["correct"], before["total"], before["passed"]) == (4, 6, False)
    assert FLIP_ID in before["incorrect"]
    assert main(["--db", str(db), "regrade", "--questions", str(fixed)]) == 0
    out = capsys.readouterr().out
    assert "exam " in out and "4/6 (66.7%, below the target) -> 5/6 (83.3%, at or above the target)" in out
    after = _exam_report(db)
    assert (after["correct"], after["score"], after["passed"]) == (5, 83.3, True)
    assert FLIP_ID not in after["incorrect"]
    row = next(q for q in after["questions"] if q["id"] == FLIP_ID)
    assert row["correct"] is True and "Regraded" in row["message"]
    assert after["by_domain"]["2"]["correct"] == before["by_domain"]["2"]["correct"] + 1
    assert after["by_objective"]["2.1"]["correct"] == before["by_objective"]["2.1"]["correct"] + 1
    # What it was is kept in the report: the xAPI export voids the verdict it replaces by it.
    assert [(r["correct"], r["passed"]) for r in after["regrades"]] == [(4, False)]
    # Readiness measured on exams reads the report, so it follows.
    assert measured_score([before]) < measured_score([after])
    assert main(["--db", str(db), "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert [e["report"]["correct"] for e in stats["exam_history"]] == [5]
    # A second run has nothing left to change, the report included.
    assert main(["--db", str(db), "regrade", "--questions", str(fixed)]) == 0
    assert _exam_report(db)["regrades"] == after["regrades"]


def test_dry_run_json_shows_the_due_date_and_exam_score_the_real_run_sets(tmp_path, capsys):
    db, fixed = _setup(tmp_path)
    with open_store(db, fuzz=False) as store:
        due_before = store.item_state(FLIP_ID).due
    assert main(["--db", str(db), "regrade", "--questions", str(fixed), "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    # Nothing written: the attempt, the schedule and the report are as they were.
    with open_store(db, fuzz=False) as store:
        assert store.item_state(FLIP_ID).due == due_before
        assert store.history(FLIP_ID)[0].correct is False
    assert _exam_report(db)["correct"] == 4
    assert main(["--db", str(db), "regrade", "--questions", str(fixed), "--json"]) == 0
    real = json.loads(capsys.readouterr().out)
    assert dry["due"] == real["due"] and dry["due"][FLIP_ID] != due_before.isoformat()
    assert dry["exams"] == real["exams"] == [
        {"session": _exam_id(db), "mode": "exam", "was": {"correct": 4, "total": 6, "passed": False},
         "now": {"correct": 5, "total": 6, "passed": True}}]
    with open_store(db, fuzz=False) as store:
        assert store.item_state(FLIP_ID).due.isoformat() == real["due"][FLIP_ID]


def _exam_id(db: Path) -> str:
    with open_store(db, fuzz=False) as store:
        return store.exam_history()[0].id


def test_rescore_report_leaves_a_report_without_the_question_alone():
    report = {"correct": 1, "total": 2, "target_percent": 70, "score": 50.0, "passed": False,
              "questions": [{"id": "a", "correct": True, "answered": True, "domain": "1", "objective": "1.1"},
                            {"id": "b", "correct": False, "answered": False, "domain": "1", "objective": "1.1"}],
              "by_domain": {"1": {"correct": 1, "total": 2, "percent": 50.0}},
              "by_objective": {"1.1": {"correct": 1, "total": 2, "percent": 50.0}}, "incorrect": []}
    # "b" was left blank, so no attempt of it can be regraded; "c" is not in this exam.
    assert rescore_report(report, [("b", False, True), ("c", False, True)], "2026-12-01T00:00:00+00:00") is None
    out = rescore_report(report, [("a", True, False)], "2026-12-01T00:00:00+00:00")
    assert out is not None and (out["correct"], out["score"], out["by_domain"]["1"]["percent"]) == (0, 0.0, 0.0)
    assert report["correct"] == 1  # the argument is not changed


def test_a_damaged_report_is_scored_again_where_it_can_be_and_never_raises():
    stamp = "2026-12-01T00:00:00+00:00"
    for broken in ({"questions": 5}, {"questions": "abc", "correct": "seven"}, {"questions": [1, None, "q"]},
                   {"questions": [{"id": "a", "correct": False, "domain": "1"}], "by_domain": "x",
                    "by_objective": {"1.1": 3}, "correct": True, "total": None, "target_percent": "70",
                    "regrades": {"not": "a list"}}):
        out = rescore_report(broken, [("a", False, True)], stamp)
        assert out is None or out["questions"][0]["correct"] is True


def test_a_report_whose_regrades_are_damaged_keeps_its_statement_ids():
    from study.interop.xapi import build_statements

    session = {"id": "s1", "kind": "exam", "started_at": "2026-11-02T09:00:00+00:00",
               "finished_at": "2026-11-02T09:20:00+00:00", "state_json": None}
    actor = {"objectType": "Agent", "mbox": "mailto:a@example.com"}
    report = {"total": 2, "correct": 1, "passed": False, "target_percent": 70}
    plain = build_statements({"sessions": [dict(session, report_json=json.dumps(report))]}, None, actor)[0]
    for regrades in (7, "x", [1, {"at": 5}], {"at": "2026-12-01"}):
        damaged = json.dumps(dict(report, regrades=regrades))
        assert build_statements({"sessions": [dict(session, report_json=damaged)]}, None, actor)[0] == plain
