"""Text from a learner's file reaches the instructor's terminal escaped (issue 19, defect 8): an ESC or OSC
sequence in a report, in a question id or an xAPI object IRI was printed raw by ``study analyze`` and
``study reports``, and could retitle the window or hide what follows."""

from __future__ import annotations

import json

from study.cli import main
from study.progress import open_store
from study.progress.reports import add_report

from .conftest import export_learner

HOSTILE = "see \x1b]0;owned\x07 \x1b[2J here\u202e"


def _no_raw_controls(text: str) -> None:
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text


def test_study_reports_shows_a_hostile_report_escaped(tmp_path, capsys):
    db = tmp_path / "p.db"
    with open_store(db) as store:
        add_report(store, "q-\x1b[31mred", "unclear", HOSTILE, context="results \x1b[1m")
    assert main(["--db", str(db), "reports"]) == 0
    out = capsys.readouterr().out
    _no_raw_controls(out)
    assert r"\x1b]0;owned\x07" in out and r"\u202e" in out and r"q-\x1b[31mred" in out


def test_analyze_shows_a_learners_hostile_report_escaped(tmp_path, capsys):
    for n in range(3):
        export_learner(tmp_path, f"l{n}", [("q1", n % 2 == 0, "exam", 1), ("q2", True, "exam", 2)])
    data = json.loads((tmp_path / "l1.json").read_text())
    data["reports"] = [{"uid": "r1", "item_id": "q1", "content_hash": "h", "kind": "unclear", "text": HOSTILE,
                        "context": "results", "session_id": None, "at": "2026-11-02T10:00:00+00:00"}]
    (tmp_path / "l1.json").write_text(json.dumps(data))
    capsys.readouterr()
    main(["analyze", str(tmp_path), "--min-responses", "1"])
    out = capsys.readouterr().out
    assert "Reported by learners" in out
    _no_raw_controls(out)
    assert r"\x1b]0;owned\x07" in out


def test_analyze_shows_a_question_id_with_controls_escaped(tmp_path, capsys):
    for n in range(3):
        export_learner(tmp_path, f"l{n}", [("q\x1b]0;x\x07", n % 2 == 0, "exam", 1), ("q2", True, "exam", 2)])
    capsys.readouterr()
    main(["analyze", str(tmp_path), "--min-responses", "1"])
    out = capsys.readouterr().out
    _no_raw_controls(out)
    assert r"q\x1b]0;x\x07" in out
