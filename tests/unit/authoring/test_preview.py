"""``study preview``: the learner's view, then the answer, the whys, the derivation and the distractors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from study.cli import main

QUESTIONS = """\
questions:
  - id: zz-pick-01
    objective: "2.9"
    difficulty: 2
    type: single
    stem: Which link carries traffic **between** two DGX systems?
    choices:
      - {text: The InfiniBand compute fabric, correct: true, why: Between nodes traffic leaves through the adapters.}
      - {text: NVLink through NVSwitch, why: NVLink stays inside the chassis here.}
      - {text: PCIe Gen5, why: PCIe connects devices inside one server.}
      - {text: The BMC port, why: The BMC port is for management only.}
    explanation: NVLink scales up inside a node; InfiniBand scales out between nodes.
    references:
      - {title: DGX H100 User Guide, url: "https://docs.nvidia.com/dgx/"}
    verified: 2026-11-30

  - id: zz-weights-02
    objective: "2.1"
    difficulty: 1
    type: numeric
    stem: How much memory do the weights of a 70-billion-parameter model take in FP16?
    answer:
      value: 140
      calc: "weights_memory(params=70e9, dtype='fp16')"
      unit: GB
      tolerance: 2%
    distractors:
      - calc: "weights_memory(params=70e9, dtype='fp32')"
        why: Four bytes is FP32.
      - value: 70
        why: One byte is FP8.
      - value: 280.4
        why: Shown as 280 GB, like the FP32 one.
    explanation: Two bytes per parameter.
    references:
      - {title: Transformer Math 101, url: "https://blog.eleuther.ai/transformer-math/"}
    verified: 2026-11-30

  - id: zz-dtype-03
    objective: "2.1"
    difficulty: 2
    type: numeric
    params:
      dt: [fp16, fp32, fp8]
    stem: How much memory do the weights of a 70-billion-parameter model take in {dt}?
    answer:
      calc: "weights_memory(params=70e9, dtype=dt)"
      unit: GB
    explanation: Bytes per parameter times parameters.
    references:
      - {title: Transformer Math 101, url: "https://blog.eleuther.ai/transformer-math/"}
    verified: 2026-11-30
"""


@pytest.fixture
def qfile(tmp_path: Path) -> Path:
    path = tmp_path / "preview.yaml"
    path.write_text(QUESTIONS, encoding="utf-8")
    return path


def _blocks(out: str) -> dict[str, str]:
    """Output split per question id (each block starts with the id line)."""
    parts = re.split(r"^(zz-[a-z]+-\d+)  \(", out, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_a_single_question_shows_the_learner_view_then_the_answer_and_every_why(
    qfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["preview", str(qfile)]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" not in out  # piped: plain text
    block = _blocks(out)["zz-pick-01"]
    learner, _, after = block.partition("Answer: one letter\n")
    # The learner sees the stem without Markdown marks and four labelled choices, but no verdict.
    assert "Which link carries traffic between two DGX systems?" in learner
    choices = re.findall(r"^  ([A-D])\) (.+)$", learner, re.M)
    assert sorted(text for _, text in choices) == sorted(
        ["The InfiniBand compute fabric", "NVLink through NVSwitch", "PCIe Gen5", "The BMC port"])
    assert "why" not in learner.lower() and "right" not in learner.lower()
    right = next(label for label, text in choices if text == "The InfiniBand compute fabric")
    assert f"Right answer: {right}) The InfiniBand compute fabric" in after
    assert f"  {right}) right: Between nodes traffic leaves through the adapters." in after
    for label, _text in choices:
        if label != right:
            assert re.search(rf"^  {label}\) wrong: ", after, re.M), label
    assert "Why: NVLink scales up inside a node" in after
    assert "Source: DGX H100 User Guide <https://docs.nvidia.com/dgx/>" in after


def test_numeric_shows_accepted_range_derivation_and_every_distractor(qfile: Path, capsys) -> None:
    assert main(["preview", str(qfile)]) == 0
    block = _blocks(capsys.readouterr().out)["zz-weights-02"]
    assert "Answer: a number with its unit (the question's unit is GB)" in block
    # 140 GB +/- 2% is 137.2 to 142.8 GB.
    assert "Right answer: 140 GB (graded right from 137.2 GB to 142.8 GB, tolerance 2%)" in block
    assert re.search(r"^  weights: .*70,000,000,000 x 2 B.*= 140 GB$", block, re.M)
    assert "  280 GB: Four bytes is FP32." in block
    assert "  70 GB: One byte is FP8." in block
    assert "  280 GB (not offered: shows the same as the answer or another distractor): Shown as" in block


def test_a_distractor_graded_right_is_flagged_not_offered_and_fails(qfile: Path, capsys) -> None:
    qfile.write_text(QUESTIONS.replace("value: 280.4", "value: 141"), encoding="utf-8")
    assert main(["preview", str(qfile)]) == 1
    captured = capsys.readouterr()
    assert "  141 GB (not offered: within the 2% tolerance of the answer): Shown as" in captured.out
    assert re.search(r"preview\.yaml:\d+:\d+: error: distractor-within-tolerance", captured.err)


def test_exam_view_asks_numeric_as_multiple_choice(qfile: Path, capsys) -> None:
    assert main(["preview", "zz-weights-02", "--exam"]) == 2  # not in the bank: only the file has it
    assert main(["preview", str(qfile), "--exam"]) == 0
    block = _blocks(capsys.readouterr().out)["zz-weights-02"]
    learner = block.partition("Answer: one letter")[0]
    # The answer and the two distractors the quiz offers; the second 280 GB is never an option.
    assert sorted(re.findall(r"^  [A-D]\) (.+)$", learner, re.M)) == ["140 GB", "280 GB", "70 GB"]


def test_templated_question_shows_k_distinct_draws_with_their_parameters(qfile: Path, capsys) -> None:
    assert main(["preview", str(qfile), "--instances", "5", "--seed", "4"]) == 0
    block = _blocks(capsys.readouterr().out)["zz-dtype-03"]
    draws = re.findall(r"^instance (\d) of (\d) \(seed (\d+)\): dt=(\w+)$", block, re.M)
    # Only three values exist, so five wanted gives three, each once.
    assert sorted(d[3] for d in draws) == ["fp16", "fp32", "fp8"]
    assert all(int(d[2]) >= 4 for d in draws)
    expected = {"fp16": "140 GB", "fp32": "280 GB", "fp8": "70 GB"}
    for part in block.split("instance ")[1:]:
        dt = re.match(r"\d of \d \(seed \d+\): dt=(\w+)", part).group(1)
        assert f"in {dt}?" in part
        assert f"Right answer: {expected[dt]} " in part


def test_the_same_seed_gives_the_same_preview(qfile: Path, capsys) -> None:
    main(["preview", str(qfile), "--seed", "7"])
    first = capsys.readouterr().out
    main(["preview", str(qfile), "--seed", "7"])
    assert capsys.readouterr().out == first


def test_a_draw_that_cannot_be_built_is_named_and_the_others_still_show(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(QUESTIONS.split("\n\n")[2].replace("[fp16, fp32, fp8]", "[fp16, fp99]").join(["questions:\n", "\n"]),
                   encoding="utf-8")
    assert main(["preview", str(bad), "--instances", "2"]) == 1
    out = capsys.readouterr().out
    assert "dt=fp16" in out and "Right answer: 140 GB" in out
    assert re.search(r"bad\.yaml:\d+:\d+: error: cannot build this question for seed \d+ \(dt=fp99\): .*fp99", out)


def test_a_file_with_problems_prints_them_with_positions(tmp_path: Path, capsys) -> None:
    skeleton = tmp_path / "new.yaml"
    assert main(["new", "question", "--type", "true_false", "--objective", "1.3", "--out", str(skeleton)]) == 0
    capsys.readouterr()
    assert main(["preview", str(skeleton)]) == 1
    err = capsys.readouterr().err
    assert re.search(rf"^{re.escape(str(skeleton))}:\d+:\d+: error: empty-text stem is empty$", err, re.M)


def test_an_unknown_id_is_a_usage_error_with_did_you_mean(capsys) -> None:
    assert main(["preview", "calc-weights-1"]) == 2
    assert "did you mean calc-weights-01" in capsys.readouterr().err
    assert main(["preview", "missing.yaml"]) == 2
    assert "no such file or folder: missing.yaml" in capsys.readouterr().err


def test_a_bank_question_by_id(capsys) -> None:
    assert main(["preview", "calc-weights-01", "--instances", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("calc-weights-01  (")
    assert len(re.findall(r"^instance \d of 2 ", out, re.M)) == 2


def test_json(qfile: Path, capsys) -> None:
    assert main(["preview", str(qfile), "--json", "--instances", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {q["id"]: q for q in data["questions"]}
    assert set(by_id) == {"zz-pick-01", "zz-weights-02", "zz-dtype-03"}
    num = by_id["zz-weights-02"]["instances"][0]
    assert num["expected"] == "140 GB" and num["accepted"] == "137.2 GB to 142.8 GB"
    assert [(d["display"], d["offered"]) for d in num["distractors"]] == [("280 GB", True), ("70 GB", True), ("280 GB", False)]
    assert len(by_id["zz-dtype-03"]["instances"]) == 2
    pick = by_id["zz-pick-01"]["instances"][0]
    assert sum(o["correct"] for o in pick["options"]) == 1
    # zz-weights-02 asks the bank's FP16-weights fact again, so possible-twin rightly names its bank twins.
    assert [f["code"] for f in data["findings"] if f["code"] != "possible-twin"] == ["distractors-coincide"]


def test_a_terminal_gets_the_learner_view_in_a_box(qfile: Path, capsys, monkeypatch) -> None:
    import sys

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["preview", str(qfile)]) == 0
    out = capsys.readouterr().out
    assert "╭" in out and "│ Question 1 of 1 (objective 2.9)" in out


def test_accepted_range_reads_relative_and_absolute_tolerances() -> None:
    from study.authoring.preview import accepted_range

    assert accepted_range(140, "GB", "2%", 3) == "137.2 GB to 142.8 GB"
    assert accepted_range(10, "GB", "0.5", 3) == "9.5 GB to 10.5 GB"
    # An absolute tolerance in another unit is converted: 500 MB is 0.5 GB.
    assert accepted_range(10, "GB", "500 MB", 3) == "9.5 GB to 10.5 GB"


def test_preview_of_an_id_whose_question_fails_validation_shows_its_findings(tmp_path, monkeypatch, capsys) -> None:
    # It said "no question ... did you mean" although the question is right there, with errors.
    from study import paths

    folder = tmp_path / "questions"
    folder.mkdir()
    (folder / "mine.yaml").write_text(QUESTIONS.replace("    difficulty: 2\n    type: single", "    difficulty: 7\n    type: single", 1))
    monkeypatch.setattr(paths, "questions_dir", lambda: folder)
    assert main(["preview", "zz-pick-01"]) == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert re.fullmatch(r".*mine\.yaml:4:17: error: invalid-value difficulty must be 1, 2 or 3, found 7", lines[0])
    assert lines[-1].startswith("study: error: question 'zz-pick-01' in ") and "does not load" in lines[-1]
    assert "did you mean" not in captured.err and captured.out == ""
    assert main(["preview", "zz-pick-01", "--json"]) == 1
    assert [f["code"] for f in json.loads(capsys.readouterr().out)["findings"]] == ["invalid-value"]
    assert main(["preview", "zz-weights-2"]) == 2  # an id no file writes is still a typo with a did-you-mean
    assert "did you mean" in capsys.readouterr().err


def test_control_and_bidi_characters_in_a_file_are_shown_escaped_not_sent_to_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # YAML escapes let a hostile or careless file put an ESC sequence or a bidi override in a stem.
    path = tmp_path / "hostile.yaml"
    path.write_text(QUESTIONS.replace("Which link carries traffic", r'"\x1b[31mWhich\u202e link carries traffic', 1)
                    .replace("between** two DGX systems?", 'between** two DGX systems?"', 1), encoding="utf-8")
    assert main(["preview", str(path)]) == 1  # lint's control-character error
    captured = capsys.readouterr()
    assert "\x1b" not in captured.out and "\u202e" not in captured.out
    assert r"\x1b[31mWhich\u202e link carries traffic" in captured.out
    assert "control-character" in captured.err


def test_instances_has_an_upper_bound_so_a_huge_k_is_refused_not_drawn_for_hours(
    qfile: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # zz-dtype-03 has three distinct draws: K beyond them costs 10 x K tries, so K = 10**9 never returned.
    assert main(["preview", str(qfile), "--instances", "1001"]) == 2
    assert capsys.readouterr().err == "study: error: --instances must be from 1 to 1000, not 1001\n"
