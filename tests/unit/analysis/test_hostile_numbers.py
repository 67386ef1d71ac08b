"""``study analyze`` on a file from elsewhere whose version or numbers are wrong (issue 19, defects 9 and 14):
one line that says what is wrong, never a traceback, never "newer" for a version that is not newer, never
a NaN read as a score."""

from __future__ import annotations

import json

import pytest

from study.cli import main

ATTEMPT = {"uid": "u1", "item_id": "q1", "content_hash": "h", "params": {}, "given": "A", "correct": True,
           "seconds": 10.0, "mode": "exam", "session_id": None, "at": "2026-11-02T09:00:00+00:00", "rating": 3}


def _analyze_one_line(path, capsys) -> str:
    assert main(["analyze", str(path)]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error: ")
    return line


@pytest.mark.parametrize("version, says", [
    ('"1"', "not a whole number"),
    ("1.5", "not a whole number"),
    ("true", "not a whole number"),
    ("0", "does not exist"),
    ("-3", "does not exist"),
    ("2", "newer than this study reads (1)"),
])
def test_a_version_that_is_wrong_says_how(tmp_path, capsys, version, says):
    path = tmp_path / "x.json"
    path.write_text('{"format": "study-progress", "version": %s, "attempts": %s}' % (version, json.dumps([ATTEMPT])))
    line = _analyze_one_line(path, capsys)
    assert says in line
    if says != "newer than this study reads (1)":
        assert "newer" not in line


@pytest.mark.parametrize("number", ["9" * 5000, "1e999", "NaN", "-Infinity"],
                         ids=["5000 digits", "1e999", "NaN", "-Infinity"])
def test_an_unbounded_number_is_one_line(tmp_path, capsys, number):
    path = tmp_path / "x.json"
    text = json.dumps({"format": "study-progress", "version": 1, "schema": 7, "attempts": [ATTEMPT]})
    path.write_text(text.replace('"seconds": 10.0', f'"seconds": {number}'))
    line = _analyze_one_line(path, capsys)
    assert "number" in line and "Exceeds the limit" not in line


def test_a_huge_version_number_is_one_line(tmp_path, capsys):
    path = tmp_path / "x.json"
    path.write_text('{"format": "study-progress", "version": %s, "schema": 7, "attempts": []}' % ("7" * 5000))
    _analyze_one_line(path, capsys)


def _statement(scaled: str) -> str:
    return ('{"id": "6b8a4c1e-0000-4000-8000-000000000001", "actor": {"mbox": "mailto:a@example.com"}, '
            '"verb": {"id": "http://adlnet.gov/expapi/verbs/answered"}, '
            '"object": {"id": "https://study.example/xapi/questions/q1"}, '
            '"timestamp": "2026-11-02T09:00:00+00:00", '
            '"result": {"score": {"scaled": %s}}}' % scaled)


@pytest.mark.parametrize("scaled", ["NaN", "Infinity"])
def test_a_nan_score_is_refused_not_read_as_no_learners(tmp_path, capsys, scaled):
    path = tmp_path / "x.jsonl"
    path.write_text(_statement(scaled) + "\n")
    line = _analyze_one_line(path, capsys)
    assert "Learners" not in line and scaled in line
