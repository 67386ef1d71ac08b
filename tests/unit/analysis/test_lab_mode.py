"""Lab answers (mode ``lab``) in the results: ``--mode lab`` keeps only them, in progress exports and xAPI,
and ``study analyze --mode lab`` reports them; practice still takes them (everything but exams)."""

from __future__ import annotations

import json

from study.analysis.results import load_results
from study.cli import main

from .conftest import attempt, export_learner, write_json

LAB = "lab.thermal-slowdown.reason"


def test_mode_lab_keeps_only_lab_answers(tmp_path, progress_doc):
    path = write_json(tmp_path / "a.json", progress_doc([
        attempt("q1", True, "2026-11-02T09:00:00+00:00", mode="exam"),
        attempt(LAB, False, "2026-11-02T09:10:00+00:00", mode="lab"),
        attempt("q2", True, "2026-11-02T09:20:00+00:00", mode="practice"),
    ]))
    assert load_results([path], "lab").questions == (LAB,)
    assert sorted(load_results([path], "practice").questions) == sorted((LAB, "q2"))
    assert load_results([path], "exam").questions == ("q1",)


def test_xapi_lab_answers_are_told_apart_by_their_parent_activity(tmp_path):
    out = export_learner(tmp_path, "ann", [("q1", True, "exam", 0), (LAB, True, "lab", 5)], fmt="xapi")
    assert load_results([out], "lab").questions == (LAB,)
    assert load_results([out], "exam").questions == ("q1",)


def test_analyze_accepts_mode_lab(tmp_path, capsys):
    d = tmp_path / "class"
    d.mkdir()
    for n, right in enumerate((True, False, True)):
        export_learner(d, f"learner{n}", [(LAB, right, "lab", 1), ("q1", True, "exam", 2)])
    capsys.readouterr()
    assert main(["analyze", str(d), "--mode", "lab", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["mode"] == "lab" and [q["id"] for q in got["questions"]] == [LAB]
    assert main(["analyze", str(d), "--mode", "lab"]) == 0
    assert "(lab answers only)" in capsys.readouterr().out
