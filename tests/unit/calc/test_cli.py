from __future__ import annotations

import json
import subprocess
import sys

import pytest

from study.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["calc", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_listing_names_every_function(capsys) -> None:
    from study.calc import FUNCTIONS

    code, out, _ = run(capsys)
    assert code == 0
    for name in FUNCTIONS:
        assert name in out


def test_function_help_shows_options_units_and_formula(capsys) -> None:
    code, out, _ = run(capsys, "kv-cache", "--help")
    assert code == 0
    assert "--seq-len" in out and "--kv-heads" in out and "2 x layers x kv_heads" in out
    code, out, _ = run(capsys, "training-time", "--help")
    assert "--tflops-per-gpu" in out and "TFLOP/s" in out


def test_json_output_has_the_promised_keys_and_base_units(capsys) -> None:
    code, out, _ = run(capsys, "kv-cache", "--model", "llama-2-70b", "--seq-len", "4096", "--dtype", "fp16", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"name", "inputs", "value", "unit", "display", "steps"}
    assert data["unit"] == "B" and data["value"] == 2 * 80 * 8 * 128 * 2 * 4096
    assert data["inputs"]["kv_heads"] == 8


def test_units_and_scientific_notation_on_the_command_line(capsys) -> None:
    code, out, _ = run(capsys, "transfer-time", "--bytes", "80GB", "--bandwidth", "400Gb/s", "--json")
    assert json.loads(out)["value"] == pytest.approx(80e9 / 50e9)
    code, out, _ = run(capsys, "training-flops", "--params", "175e9", "--tokens", "300e9", "--recompute", "--json")
    assert json.loads(out)["value"] == 8 * 175e9 * 300e9


def test_human_output_shows_result_and_steps(capsys) -> None:
    code, out, _ = run(capsys, "weights-memory", "--params", "70e9", "--dtype", "fp16")
    assert code == 0 and "140 GB" in out and "params x bytes per parameter" in out


@pytest.mark.parametrize("argv, fragment", [
    (["kv-cach"], "did you mean kv-cache"),
    (["kv-cache", "--seq-lne", "3"], "did you mean --seq-len"),
    (["kv-cache", "--model", "llama-2-71b", "--seq-len", "3"], "did you mean"),
    (["kv-cache", "--model", "llama-2-7b"], "seq-len"),
    (["kv-cache", "--model", "llama-2-7b", "--seq-len", "3 parsecs"], "unknown unit"),
    (["training-time", "--params", "1e9", "--tokens", "1e9", "--mfu", "40", "--gpu", "h100"], "40%"),
])
def test_usage_errors_are_one_line_exit_2(capsys, argv: list[str], fragment: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [
    ["gpu-hours", "--gpus", "8", "--days", "1", "--hours", "2"],
    ["training-memory", "--params", "7e9", "--zero", "1.5"],
])
def test_a_formula_is_named_once_in_its_error(capsys, argv: list[str]) -> None:
    # It said "calc gpu-hours: gpu-hours: give one of ...".
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith(f"study: error: calc {argv[0]}: ") and err.count(argv[0]) == 1


@pytest.mark.parametrize("table, expected", [("gpus", "h100-sxm"), ("models", "llama-3-405b"), ("links", "ib-ndr")])
def test_catalog_tables(capsys, table: str, expected: str) -> None:
    code, out, _ = run(capsys, table)
    assert code == 0 and expected in out
    code, out, _ = run(capsys, table, "--json")
    assert expected in json.loads(out)


@pytest.mark.parametrize("table", ["gpus", "models", "links"])
def test_catalog_tables_fit_an_80_column_terminal_without_truncating(capsys, monkeypatch, table: str) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, table)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "\u2026" not in out  # Rich's ellipsis: a cell was cut
    ids = json.loads(run(capsys, table, "--json")[1])
    assert all(i in out for i in ids)
    # Figures a learner looks up stay legible at this width, e.g. the H100 SXM's 3.35 TB/s and 989.4 TFLOP/s.
    if table == "gpus":
        h100 = next(line for line in out.splitlines() if line.startswith("h100-sxm "))
        assert "3.35" in h100.split() and "989.4" in h100.split()


def test_scalar_import_needs_neither_numpy_nor_textual() -> None:
    code = (
        "import sys\n"
        "from study.calc import call\n"
        "call('kv-cache', model='llama-2-70b', seq_len=4096)\n"
        "print('numpy' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("argv, name, bad", [
    (["allreduce-time", "--bytes", "1GB", "--gpus", "2.5", "--link", "nvlink-4"], "gpus", "2.5"),
    (["kv-cache", "--model", "llama-3-8b", "--seq-len", "4096", "--batch", "1.5"], "batch", "1.5"),
    (["kv-cache", "--model", "llama-3-8b", "--seq-len", "4096", "--layers", "31.5"], "layers", "31.5"),
])
def test_a_count_of_things_must_be_whole(capsys, argv: list[str], name: str, bad: str) -> None:
    # 2.5 GPUs in a ring gave an all-reduce factor of 2(n-1)/n = 1.2 and a time, as if it meant something.
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err == f"study: error: calc {argv[0]}: {name} must be a whole number; got {bad}\n"


def test_whole_counts_still_take_multipliers_and_arrays_of_whole_numbers() -> None:
    import numpy as np

    from study.calc import FUNCTIONS, CalcError

    assert FUNCTIONS["kv-cache"](model="llama-3-8b", seq_len="8k", batch=2.0).value > 0
    assert FUNCTIONS["allreduce-time"](bytes=1e9, gpus=np.array([2.0, 8.0]), bandwidth=1e11).value.shape == (2,)
    with pytest.raises(CalcError, match="gpus must be a whole number; got 7.5"):
        FUNCTIONS["allreduce-time"](bytes=1e9, gpus=np.array([2.0, 7.5]), bandwidth=1e11)
