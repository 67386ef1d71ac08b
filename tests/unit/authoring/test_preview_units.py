"""Preview's worked derivation ends in the answer's unit, as the right answer above it is stated."""

from __future__ import annotations

from study.cli import main

QUESTION = """questions:
  - id: preview-unit-01
    objective: "2.2"
    difficulty: 2
    type: numeric
    stem: How long does training a 100M-parameter model on 1B tokens take on one H100 SXM at 40% MFU, in seconds?
    answer:
      calc: "training_time(params=1e8, tokens=1e9, mfu=0.4, gpu='h100-sxm', gpus=1)"
      unit: s
    distractors:
      - calc: "training_time(params=1e8, tokens=1e9, mfu=0.4, gpu='h100-sxm', gpus=1) / 3"
        why: Forward pass only.
      - calc: "training_time(params=1e8, tokens=1e9, mfu=0.4, gpu='h100-sxm', gpus=1) * 2"
        why: Half the MFU.
      - calc: "training_time(params=1e8, tokens=1e9, mfu=0.4, gpu='h100-sxm', gpus=1) / 2"
        why: Twice the MFU.
    explanation: Six FLOPs per parameter per token over the achieved rate.
    references:
      - title: Transformer Math 101
        url: https://blog.eleuther.ai/transformer-math/
    verified: 2026-11-30
"""


def test_the_last_worked_step_is_in_the_answers_unit(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION, encoding="utf-8")
    assert main(["preview", str(path)]) == 0
    out = capsys.readouterr().out
    right = next(line for line in out.splitlines() if line.strip().startswith("Right answer:"))
    shown = right.split("Right answer:", 1)[1].split("(")[0].strip()
    assert shown.endswith(" s")
    steps = out.split("Worked:", 1)[1].split("Distractors:", 1)[0].strip().splitlines()
    assert "min" in steps[-2]  # the calculator's own outcome reads best in minutes
    assert steps[-1].strip() == f"in the answer's unit (s): {shown}"
