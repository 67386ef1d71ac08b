"""Hypothesis: monotonicity and unit consistency over wide input ranges."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from study.calc import FUNCTIONS, call, convert, format_quantity, parse_quantity, parse_unit
from study.calc.registry import DTYPES

MODELS = ["llama-2-7b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3-405b", "mistral-7b", "mixtral-8x7b"]
GPUS = ["h100-sxm", "h200-sxm", "a100-sxm-80gb", "l40s", "l4", "b200"]
pos = st.floats(min_value=1, max_value=1e7, allow_nan=False)
settings.register_profile("calc", max_examples=60, deadline=None)
settings.load_profile("calc")


@given(m=st.sampled_from(MODELS), s=st.integers(1, 200_000), extra=st.integers(1, 10_000), b=st.integers(1, 256))
def test_kv_cache_grows_linearly_with_context_and_batch(m: str, s: int, extra: int, b: int) -> None:
    a = call("kv-cache", model=m, seq_len=s, batch=b).value
    assert call("kv-cache", model=m, seq_len=s + extra, batch=b).value > a
    assert call("kv-cache", model=m, seq_len=s, batch=2 * b).value == pytest.approx(2 * a)


@given(p=pos, d1=st.sampled_from(DTYPES), d2=st.sampled_from(DTYPES))
def test_weights_order_follows_bytes_per_dtype(p: float, d1: str, d2: str) -> None:
    from study.calc import BYTES_PER

    w1 = call("weights-memory", params=p, dtype=d1).value
    w2 = call("weights-memory", params=p, dtype=d2).value
    assert (w1 < w2) == (BYTES_PER[d1] < BYTES_PER[d2])


@given(p=st.floats(1e6, 1e12), n=st.integers(2, 4096), stage=st.integers(1, 3))
def test_zero_never_uses_more_memory_than_no_zero(p: float, n: int, stage: int) -> None:
    base = call("training-memory", params=p).value
    z = call("training-memory", params=p, zero=stage, dp=n).value
    assert z < base
    assert call("training-memory", params=p, zero=stage, dp=n + 1).value <= z


@given(m=st.sampled_from(MODELS), g=st.sampled_from(GPUS), b=st.integers(1, 2048))
def test_decode_throughput_rises_with_batch_but_step_time_never_falls(m: str, g: str, b: int) -> None:
    t1 = call("decode-time", model=m, gpu=g, batch=b, seq_len=1024).value
    t2 = call("decode-time", model=m, gpu=g, batch=b + 1, seq_len=1024).value
    assert t2 >= t1
    r1 = call("tokens-per-second", model=m, gpu=g, batch=b, seq_len=1024).value
    r2 = call("tokens-per-second", model=m, gpu=g, batch=b + 1, seq_len=1024).value
    assert r2 >= r1 * (1 - 1e-12)


@given(n=st.integers(2, 100_000))
def test_ring_allreduce_is_twice_allgather_and_bounded(n: int) -> None:
    ar = call("allreduce-time", bytes=1e9, gpus=n, bandwidth=1e11).value
    ag = call("allgather-time", bytes=1e9, gpus=n, bandwidth=1e11).value
    assert ar == pytest.approx(2 * ag)
    assert ar < 2 * 1e9 / 1e11


@given(gpus=st.integers(1, 100_000), tps=pos)
def test_more_gpus_train_faster(gpus: int, tps: float) -> None:
    t1 = call("training-time", params=1e9, tokens=1e12, gpus=gpus, tflops_per_gpu=100).value
    t2 = call("training-time", params=1e9, tokens=1e12, gpus=gpus + 1, tflops_per_gpu=100).value
    assert t2 < t1


@given(v=st.floats(1e-3, 1e18), unit=st.sampled_from(["B", "GB", "GiB", "Gb", "s", "ms", "h", "GB/s", "Gb/s",
                                                       "TFLOP/s", "kWh", "W", "tCO2e", "GPU-h"]))
def test_parse_convert_round_trip(v: float, unit: str) -> None:
    q = parse_quantity(f"{v!r} {unit}")
    assert convert(q.value, unit) == pytest.approx(v, rel=1e-9)
    assert q.dim == parse_unit(unit).dim
    text = format_quantity(q.value, q.dim, digits=6)
    assert parse_quantity(text).value == pytest.approx(q.value, rel=1e-5)


def test_every_formula_unit_is_parseable_and_results_match_it() -> None:
    for f in FUNCTIONS.values():
        u = parse_unit(f.unit)
        assert u.factor > 0, f.name
    r = call("energy", gpu_hours=10, watts=100)
    assert r.quantity.to("kWh") == pytest.approx(1.0)
    r = call("gpu-hours", gpus=2, hours=3)
    assert r.quantity.to("GPU-h") == 6
    assert math.isclose(call("mfu", params=1e9, tokens_per_sec=1, peak_tflops=1).quantity.to("%"), 0.6)
