"""lint rejects control and bidi characters in question and card text, at file:line:col (issue 19, defect 8):
a stem holding ESC or NUL passed lint and reached the learner's terminal raw."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.bank.lint import lint

QUESTION = """questions:
- id: ctl-demo-01
  objective: "1.1"
  difficulty: 1
  type: single
  stem: "{stem}"
  choices:
  - text: "{choice}"
    correct: true
    why: w
  - text: b
    why: w
  explanation: e
  references:
  - title: t
    url: https://www.nvidia.com/
  verified: 2026-11-30
"""

TOPIC = """---
id: ctl-demo-topic
title: Control demo
objectives: ["1.1"]
references:
  - title: t
    url: https://www.nvidia.com/
verified: 2026-11-30
---
Intro.

## A card
? What is shown?
Plain line.
{line}
"""


def _controls(result):
    return [d for d in result.diagnostics if d.code == "control-character"]


@pytest.mark.parametrize("escape, shown", [(r"\e]0;owned\a", r"\x1b"), (r"\0", r"\x00"), (r"\x9b", r"\x9b"),
                                           (r"\u202e", r"\u202e"), (r"\x85", r"\x85")])
def test_a_control_in_a_stem_is_an_error_at_its_line(tmp_path: Path, escape, shown):
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION.format(stem=f"Which GPU {escape} is fastest?", choice="a"))
    (finding,) = _controls(lint([path], with_calc=False))
    assert (finding.line, finding.severity) == (6, "error") and finding.path.endswith("q.yaml")
    assert shown in finding.message and "stem" in finding.message


def test_a_bidi_override_in_a_choice_is_found_in_the_choice(tmp_path: Path):
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION.format(stem="Which GPU?", choice=r"H100\u202e001A"))
    (finding,) = _controls(lint([path], with_calc=False))
    assert finding.line == 8 and "choices.0.text" in finding.message


def test_tab_and_newline_are_text(tmp_path: Path):
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION.format(stem=r"Which\tGPU?\nPick one.", choice="a"))
    assert _controls(lint([path], with_calc=False)) == []


def test_a_control_in_a_card_is_an_error_at_its_line_and_column(tmp_path: Path):
    path = tmp_path / "ctl.md"
    path.write_text(TOPIC.format(line="Read \x1b[2Jthis."), encoding="utf-8")
    (finding,) = _controls(lint([path], with_calc=False))
    assert (finding.line, finding.column) == (15, 6) and r"\x1b" in finding.message


def test_a_crlf_card_file_is_not_flagged(tmp_path: Path):
    path = tmp_path / "ctl.md"
    path.write_bytes(TOPIC.format(line="Plain.").replace("\n", "\r\n").encode())
    assert _controls(lint([path], with_calc=False)) == []


def test_the_built_in_bank_is_clean():
    assert _controls(lint(with_calc=False)) == []
