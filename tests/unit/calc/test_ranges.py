"""Every calculator input has a declared range and every result is finite (issue 15, defect 9)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from study.calc import SHARED, CalcError, ExprError, FUNCTIONS, compile_expr
from study.calc.formulas.memory import gpus_needed, kv_cache
from study.calc.formulas.network import transfer_time
from study.calc.registry import _check_finite
from study.cli import main

NUMERIC = [p for p in SHARED.values() if p.kind in ("num", "qty", "frac")]


@pytest.mark.parametrize("param", NUMERIC, ids=lambda p: p.name)
def test_every_numeric_input_declares_a_finite_range_that_excludes_nan(param) -> None:
    assert math.isfinite(param.high) and param.low < param.high
    for bad in (math.nan, math.inf, -math.inf, param.high * 10, param.low - 1):
        with pytest.raises(CalcError, match=f"{param.name} must be"):
            param.check_range(bad)
    edge = param.high * (1 - 1e-9) if param.high_open else param.high
    assert param.check_range(edge) == edge


def test_every_formula_parameter_inherits_its_shared_range() -> None:
    for f in FUNCTIONS.values():
        for p in f.params:
            base = SHARED[p.name]
            assert (p.high, p.high_open) == (base.high, base.high_open), (f.name, p.name)
            assert p.low >= base.low, (f.name, p.name)


@pytest.mark.parametrize("seq_len", [-4096, 0, 1e308, float("nan"), "-4096"])
def test_kv_cache_rejects_impossible_context_lengths(seq_len) -> None:
    with pytest.raises(CalcError, match="seq_len must be at least 1"):
        kv_cache(model="llama-2-70b", seq_len=seq_len)


def test_zero_context_is_still_a_decode_without_kv_cache() -> None:
    # The shared range allows 0 (tokens-per-second at "short context"); kv-cache alone narrows it to >= 1.
    from study.calc.formulas.latency import tokens_per_second

    assert tokens_per_second(model="llama-2-7b", gpu="h100-sxm", seq_len=0).value > 0


def test_an_array_with_one_bad_value_is_rejected_and_names_it() -> None:
    with pytest.raises(CalcError, match="got -1"):
        kv_cache(model="llama-2-70b", seq_len=np.array([1024.0, -1.0, 4096.0]))
    assert kv_cache(model="llama-2-70b", seq_len=np.array([1024.0, 4096.0])).value.shape == (2,)


def test_zero_bandwidth_and_tiny_memory_are_errors_not_crashes() -> None:
    with pytest.raises(CalcError, match="bandwidth must be at least 1 B/s"):
        transfer_time(bytes="5GB", bandwidth=0)
    with pytest.raises(CalcError, match="memory must be at least 1 B"):
        gpus_needed(model="llama-2-70b", memory=1e-300)


def test_a_result_that_is_not_finite_is_an_error() -> None:
    for bad in (math.inf, math.nan, np.array([1.0, np.inf])):
        with pytest.raises(CalcError, match="no finite result"):
            _check_finite("x", bad)
    _check_finite("x", 3)
    _check_finite("x", np.array([1.0, 2.0]))


def test_question_expressions_get_the_same_ranges() -> None:
    with pytest.raises(ExprError, match="seq_len must be at least 1"):
        compile_expr("kv_cache(model='llama-2-70b', seq_len=-4096)").evaluate({})
    with pytest.raises(ExprError, match="params must be above 0"):
        compile_expr("weights_memory(params=-70e9)").evaluate({})


@pytest.mark.parametrize("argv, message", [
    (["kv-cache", "--model", "llama-2-70b", "--seq-len", "-4096"], "seq_len must be at least 1"),
    (["kv-cache", "--model", "llama-2-70b", "--seq-len", "1e308", "--batch", "1e308"], "must be at least 1 and at most"),
    (["transfer-time", "--bytes", "5GB", "--bandwidth", "0"], "bandwidth must be at least 1 B/s"),
    (["gpus-needed", "--model", "llama-2-70b", "--memory", "1e-300"], "memory must be at least 1 B"),
])
def test_cli_prints_one_error_line_with_exit_2(capsys, argv, message) -> None:
    assert main(["calc", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("study: error: calc ") and err.count("\n") == 1 and message in err


def test_an_mfu_above_the_peak_is_an_error_not_a_result() -> None:
    from study.calc.formulas.compute import mfu

    # 1e15 tokens/s on one H100 would need about 4e12 % of its peak.
    with pytest.raises(CalcError, match=r"mfu would be [\d,]+% of the GPUs' peak; more than 100% cannot happen"):
        mfu(model="llama-2-7b", gpu="h100-sxm", tokens_per_sec=1e15, gpus=1)
    with pytest.raises(CalcError, match="more than 100%"):
        mfu(model="llama-2-7b", gpu="h100-sxm", tokens_per_sec=np.array([1e3, 1e15]), gpus=1)
    assert 0 < mfu(model="llama-2-7b", gpu="h100-sxm", tokens_per_sec=3000, gpus=1).value < 1


def test_function_help_shows_each_range(capsys) -> None:
    assert main(["calc", "kv-cache", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "sequence length / context in tokens (1 to 1e9)" in out
    assert main(["calc", "max-batch", "--help"]) == 0
    assert "(0 to <1)" in " ".join(capsys.readouterr().out.split())  # reserve: a fraction kept free
