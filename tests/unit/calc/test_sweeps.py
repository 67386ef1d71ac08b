"""The same formulas accept numpy arrays and agree point by point with scalar calls."""

from __future__ import annotations

import numpy as np
import pytest

from study.calc import call

SWEEPS = [
    ("kv-cache", dict(model="llama-2-70b", dtype="fp16"), "seq_len", [128, 1024, 4096, 32768]),
    ("tokens-per-second", dict(model="llama-3-8b", gpu="h100-sxm", seq_len=2048), "batch", [1, 8, 64, 512, 4096]),
    ("decode-time", dict(model="llama-2-70b", gpu="h200-sxm", batch=4, tp=2), "seq_len", [0, 1000, 8000]),
    ("prefill-time", dict(model="mistral-7b", gpu="l40s"), "prompt_len", [1, 16, 512, 8192]),
    ("max-batch", dict(model="llama-2-7b", gpu="a100-sxm-80gb"), "seq_len", [512, 2048, 4096]),
    ("gpus-needed", dict(model="llama-2-70b", gpu="h100-sxm", power_of_two=True), "seq_len", [0, 4096, 100000]),
    ("training-time", dict(params=7e9, gpus=64, gpu="h100-sxm", mfu=0.4), "tokens", [1e9, 1e11, 1e12]),
    ("allreduce-time", dict(bytes=1e9, link="nvlink-4"), "gpus", [2, 4, 8, 16]),
    ("activation-memory", dict(model="gpt-3-175b", tp=8, sp=True), "seq_len", [1024, 2048]),
    ("energy", dict(watts=700, pue=1.1), "gpu_hours", [1, 100, 1e6]),
]


@pytest.mark.parametrize("name, fixed, axis, values", SWEEPS, ids=[s[0] for s in SWEEPS])
def test_array_inputs_match_scalar_calls(name: str, fixed: dict, axis: str, values: list) -> None:
    arr = call(name, **fixed, **{axis: np.array(values, dtype=float)})
    assert isinstance(arr.value, np.ndarray) and arr.value.shape == (len(values),)
    loop = [call(name, **fixed, **{axis: v}).value for v in values]
    np.testing.assert_allclose(arr.value, loop, rtol=1e-12)
    assert "values" in arr.display


def test_two_dimensional_grid_broadcasts() -> None:
    batch = np.array([1, 2, 4, 8], dtype=float)[:, None]
    seq = np.array([512, 1024, 2048], dtype=float)[None, :]
    r = call("kv-cache", model="llama-3-8b", batch=batch, seq_len=seq)
    assert r.value.shape == (4, 3)
    assert r.value[3, 2] == call("kv-cache", model="llama-3-8b", batch=8, seq_len=2048).value


def test_lists_are_accepted_as_arrays() -> None:
    r = call("weights-memory", params=[1e9, 2e9], dtype="fp16")
    assert list(r.value) == [2e9, 4e9]
