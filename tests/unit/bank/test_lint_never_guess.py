"""Lint never guesses: a catalog id naming several parts is an error listing them, an unknown id is
reported once where it is written, and an exam form with fewer than 4 options warns."""

from __future__ import annotations

from study.bank.lint import lint
from study.cli import main

_TAIL = """    explanation: Generated for a test.
    references:
      - title: NVIDIA H100 Tensor Core GPU
        url: https://www.nvidia.com/en-us/data-center/h100/
    verified: 2026-11-30
"""


def _numeric(qid: str, params: str, calc: str, distractors: list[str]) -> str:
    ds = "".join(f"      - calc: {d}\n        why: A mistake.\n" for d in distractors)
    return (f"  - id: {qid}\n    objective: \"2.1\"\n    difficulty: 2\n    type: numeric\n"
            f"    stem: How much memory, in GB?\n{params}    answer:\n      calc: {calc}\n      unit: GB\n"
            f"    distractors:\n{ds}{_TAIL}")


def _write(tmp_path, *questions: str):
    path = tmp_path / "q.yaml"
    path.write_text("questions:\n" + "".join(questions), encoding="utf-8")
    return path


def _line_of(path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


THREE = ["gpu(g).memory * 8", "gpu(g).memory / 2", "gpu(g).memory * 2"]


def test_an_ambiguous_gpu_id_in_params_is_an_error_listing_the_parts(tmp_path):
    path = _write(tmp_path, _numeric("amb-param", "    params:\n      g: [h100, a100-pcie-40gb]\n",
                                     "gpu(g).memory", THREE))
    found = [d for d in lint([path]).diagnostics if d.code == "ambiguous-catalog-id"]
    assert len(found) == 1 and found[0].severity == "error"
    assert "'h100'" in found[0].message and "h100-sxm, h100-pcie, h100-nvl" in found[0].message
    assert found[0].line == _line_of(path, "g: [h100")


def test_an_ambiguous_id_written_in_an_expression_is_an_error_there(tmp_path):
    path = _write(tmp_path, _numeric("amb-literal", "", "gpu('a100 80gb').memory",
                                     ["gpu('a100-pcie-40gb').memory * 8", "gpu('a100-pcie-40gb').memory / 2",
                                      "gpu('a100-pcie-40gb').memory * 3"]))
    (found,) = [d for d in lint([path]).diagnostics if d.code == "ambiguous-catalog-id"]
    assert "a100-sxm-80gb, a100-pcie-80gb" in found.message
    assert found.line == _line_of(path, "calc: gpu('a100 80gb')")


def test_an_unknown_gpu_id_is_reported_once_at_the_params_line(tmp_path):
    path = _write(tmp_path, _numeric("unknown-gpu", "    params:\n      g: [h100-sxm, h900]\n", "gpu(g).memory", THREE))
    result = lint([path])
    about = [d for d in result.diagnostics if "h900" in d.message]
    assert len(about) == 1, [str(d) for d in about]
    assert about[0].code == "unknown-catalog-id" and about[0].line == _line_of(path, "g: [h100-sxm, h900]")
    assert "did you mean" in about[0].message


def test_an_exam_form_with_fewer_than_four_options_warns(tmp_path):
    path = _write(tmp_path, _numeric("two-options", "", "gpu('h100-sxm').memory", ["gpu('h100-sxm').memory * 8"]),
                  _numeric("four-options", "", "gpu('h100-sxm').memory",
                           ["gpu('h100-sxm').memory * 8", "gpu('h100-sxm').memory / 2", "gpu('h100-sxm').memory * 3"]))
    found = [d for d in lint([path]).diagnostics if d.code == "few-exam-options"]
    assert len(found) == 1 and found[0].severity == "warning"
    # At the (only) distractor, the line below `distractors:` of the two-option question.
    assert "2 options" in found[0].message and found[0].line == _line_of(path, "distractors:") + 1


def test_the_shipped_bank_names_every_part_exactly():
    codes = {d.code for d in lint().diagnostics}
    assert not codes & {"ambiguous-catalog-id", "unknown-catalog-id", "few-exam-options"}


def test_the_calculator_cli_keeps_the_short_id_but_says_which_part(capsys):
    assert main(["calc", "ridge-point", "--gpu", "h100"]) == 0
    err = capsys.readouterr().err
    assert "h100-sxm, h100-pcie, h100-nvl" in err and "using h100-sxm" in err
    assert main(["calc", "ridge-point", "--gpu", "h100-pcie"]) == 0
    assert "note" not in capsys.readouterr().err
