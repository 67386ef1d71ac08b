"""A lab task is graded like a bank question, so the bank's item-writing checks apply to it: a key three
times longer than its distractors is found without reading any tool output."""

from __future__ import annotations

from pathlib import Path

from study.lab.lint import lint_file

LAB = Path(__file__).resolve().parents[3] / "content" / "labs"


def _with_task(tmp_path: Path, choices: str) -> Path:
    source = sorted(LAB.glob("*.yaml"))[0].read_text(encoding="utf-8")
    head, _, _ = source.partition("\ntasks:")
    target = tmp_path / "labs" / "flawed-lab.yaml"
    target.parent.mkdir()
    target.write_text(head + "\ntasks:\n  - id: which\n    type: single\n    stem: What is wrong on this node?\n"
                      "    explanation: Because the output says so.\n    choices:\n" + choices, encoding="utf-8")
    return target


def test_a_key_that_gives_itself_away_is_a_warning_at_the_task(tmp_path: Path) -> None:
    path = _with_task(tmp_path, '      - {text: "Nothing", correct: false, why: "no"}\n'
                                '      - {text: "The fan", correct: false, why: "no"}\n'
                                '      - {text: "Its NVIDIA device plugin pod is crash-looping, so no GPUs are advertised",'
                                ' correct: true, why: "yes"}\n')
    found = [d for d in lint_file(path) if d.code == "longest-key"]
    assert len(found) == 1 and found[0].severity == "warning"


def test_options_of_a_like_length_pass(tmp_path: Path) -> None:
    path = _with_task(tmp_path, '      - {text: "The GPU driver is not loaded", correct: false, why: "no"}\n'
                                '      - {text: "The node is cordoned for drain", correct: false, why: "no"}\n'
                                '      - {text: "The device plugin pod crash-loops", correct: true, why: "yes"}\n')
    assert [d for d in lint_file(path) if d.code == "longest-key"] == []
