"""Pre-Ampere GPUs have no bf16 tensor cores: 16-bit formulas use their fp16 rate, and say so."""

from __future__ import annotations

import pytest

from study.calc import call


@pytest.mark.parametrize(("gpu", "tflops", "gb_s"), [("t4", 65, 320), ("v100-sxm2-32gb", 125, 900)])
def test_ridge_point_falls_back_to_fp16_on_pre_ampere(gpu: str, tflops: float, gb_s: float) -> None:
    result = call("ridge-point", gpu=gpu)
    assert result.value == pytest.approx(tflops * 1e12 / (gb_s * 1e9), rel=1e-6)
    assert any("bf16" in str(step) for step in result.steps)


def test_gpu_with_bf16_uses_it() -> None:
    result = call("ridge-point", gpu="h100-sxm")
    assert result.value == pytest.approx(989.4e12 / 3.35e12, rel=1e-6)
    assert not any("has no bf16" in str(step) for step in result.steps)


def test_moe_decode_reads_active_weights_at_batch_one_and_nearly_all_at_large_batch() -> None:
    from study.calc import model

    m = model("mixtral-8x7b")
    one = call("decode-time", model="mixtral-8x7b", gpu="h100-sxm", batch=1)
    # Memory-bound at batch 1: the active parameters in fp16 over 3.35 TB/s (Mixtral: ~12.9B active).
    assert one.value == pytest.approx(m.active_params * 2 / 3.35e12, rel=1e-9)
    big = call("decode-time", model="mixtral-8x7b", gpu="h100-sxm", batch=256)
    assert big.value > 0.99 * m.params * 2 / 3.35e12
    # A dense model reads all its weights whatever the batch.
    dense = call("decode-time", model="llama-2-70b", gpu="h100-sxm", batch=1)
    assert dense.value == pytest.approx(model("llama-2-70b").params * 2 / 3.35e12, rel=1e-9)


def test_roofline_bound_is_reported_as_data() -> None:
    import numpy as np

    assert call("decode-time", model="llama-3-8b", gpu="h100-sxm", batch=1).inputs["bound"] == "memory"
    # Decode at batch b does ~b FLOP per weight byte in fp16; past the ridge (~295 on H100) it is compute-bound.
    assert call("decode-time", model="llama-3-8b", gpu="h100-sxm", batch=1024).inputs["bound"] == "compute"
    assert call("prefill-time", model="llama-3-8b", gpu="h100-sxm", prompt_len=2048).inputs["bound"] == "compute"
    sweep = call("tokens-per-second", model="llama-3-8b", gpu="h100-sxm", batch=np.array([1, 1024]))
    assert list(sweep.inputs["bound"]) == ["memory", "compute"]
