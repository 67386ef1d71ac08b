"""The lab exhibit questions give nothing away by option length: `study lint` finds no warning in them
(longest-key flagged eight of their keys as twice the length of every distractor)."""

from __future__ import annotations

from pathlib import Path

from study.bank.lint import lint

ROOT = Path(__file__).resolve().parents[3]
FILES = [ROOT / "questions" / "d2-infrastructure" / "lab-exhibits.yaml",
         ROOT / "questions" / "d3-operations" / "lab-exhibits.yaml"]


def test_lab_exhibit_questions_lint_without_warnings():
    result = lint(FILES)
    assert result.questions >= 20
    assert [str(d) for d in result.diagnostics] == []
