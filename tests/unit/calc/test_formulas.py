"""Formula behaviour, with expected values worked by hand from the cited formulas and the catalog's inputs."""

from __future__ import annotations

import pytest

from study.calc import FUNCTIONS, CalcError, Result, call, model
from study.calc import (
    activation_memory, allgather_time, allreduce_time, checkpoint_size, checkpoint_write_time, co2, cost,
    decode_time, energy, forward_flops, gpu_hours, gpus_needed, kv_cache, max_batch, megatron_flops, mfu,
    prefill_time, ridge_point, storage_read_time, tokens_per_second, training_flops, training_memory,
    training_time, transfer_time, ttft, weights_memory,
)

REQUIRED = ["weights-memory", "kv-cache", "training-memory", "activation-memory", "training-flops", "megatron-flops", "forward-flops", "training-time", "mfu", "gpu-hours", "energy", "co2", "cost", "prefill-time", "decode-time", "ttft", "tokens-per-second", "max-batch", "gpus-needed", "allreduce-time", "allgather-time", "transfer-time", "storage-read-time", "checkpoint-size", "checkpoint-write-time"]


def test_registry_has_every_required_function_with_metadata() -> None:
    for name in REQUIRED:
        f = FUNCTIONS[name]
        assert f.pyname == name.replace("-", "_")
        assert f.summary and f.formula and f.source and f.unit
        assert f.doc, f"{name} has no docstring naming its source"
        for p in f.params:
            assert p.help


@pytest.mark.parametrize("dtype, nbytes", [("fp32", 4), ("tf32", 4), ("bf16", 2), ("fp16", 2), ("fp8", 1),
                                           ("int8", 1), ("int4", 0.5), ("fp4", 0.5)])
def test_bytes_per_dtype(dtype: str, nbytes: float) -> None:
    assert weights_memory(params=1e9, dtype=dtype).value == 1e9 * nbytes


def test_dtype_aliases_and_bad_dtype() -> None:
    assert weights_memory(params=1e9, dtype="bfloat16").value == 2e9
    with pytest.raises(CalcError, match="fp16"):
        weights_memory(params=1e9, dtype="fp61")


def test_kv_cache_uses_kv_heads_for_gqa() -> None:
    # Llama 2 70B: 80 layers, 8 KV heads of dim 128 (not 64 heads): 2*80*8*128*2 B = 327,680 B per token.
    r = kv_cache(model="llama-2-70b", seq_len=4096, batch=1, dtype="fp16")
    assert r.value == 2 * 80 * 8 * 128 * 2 * 4096
    mha = kv_cache(model="llama-2-70b", seq_len=4096, kv_heads=64)
    assert mha.value == 8 * r.value  # the LLM-Viewer #12 / gpu_poor mistake is 8x too large


def test_kv_cache_explicit_numbers_override_the_catalog() -> None:
    r = kv_cache(model="llama-2-7b", seq_len=1000, layers=1)
    assert r.value == 2 * 1 * 32 * 128 * 2 * 1000
    assert r.inputs["layers"] == 1


def test_kv_cache_without_kv_heads_assumes_mha_and_says_so() -> None:
    r = kv_cache(layers=2, heads=4, hidden=512, seq_len=10)
    assert r.value == 2 * 2 * 4 * 128 * 2 * 10
    assert any("multi-head" in s.formula for s in r.steps)


def test_kv_cache_tensor_parallel_keeps_at_least_one_head_per_gpu() -> None:
    full = kv_cache(model="llama-2-70b", seq_len=100).value
    assert kv_cache(model="llama-2-70b", seq_len=100, tp=4).value == full / 4
    # 8 KV heads over 16 GPUs: heads are replicated, each GPU still holds one.
    assert kv_cache(model="llama-2-70b", seq_len=100, tp=16).value == full / 8


def test_missing_inputs_name_the_option() -> None:
    with pytest.raises(CalcError, match="seq-len"):
        kv_cache(model="llama-2-7b")
    with pytest.raises(CalcError, match="--params or --model"):
        weights_memory()
    with pytest.raises(CalcError, match="no parameter 'seq'"):
        kv_cache(model="llama-2-7b", seq=1)


def test_moe_uses_active_params_for_flops_and_total_for_memory() -> None:
    m = model("mixtral-8x7b")
    assert training_flops(model="mixtral-8x7b", tokens=1e12).value == 6 * m.active_params * 1e12
    assert weights_memory(model="mixtral-8x7b", dtype="fp16").value == 2 * m.params
    assert forward_flops(model="mixtral-8x7b", tokens=10).value == 2 * m.active_params * 10


def test_training_memory_zero_stages() -> None:
    P, N = 1e9, 8
    assert training_memory(params=P).value == 16 * P
    assert training_memory(params=P, zero=1, dp=N).value == 4 * P + 12 * P / N
    assert training_memory(params=P, zero=2, dp=N).value == 2 * P + 14 * P / N
    assert training_memory(params=P, zero=3, dp=N).value == 16 * P / N
    with pytest.raises(CalcError, match="zero"):
        training_memory(params=P, zero=4)


def test_activation_memory_matches_korthikanti_table_2() -> None:
    s, b, h, a, L = 2048, 1, 12288, 96, 96
    none = activation_memory(seq_len=s, batch=b, hidden=h, heads=a, layers=L).value
    assert none == pytest.approx(L * s * b * h * (34 + 5 * a * s / h))
    t = 8
    tp = activation_memory(seq_len=s, hidden=h, heads=a, layers=L, tp=t).value
    assert tp == pytest.approx(L * s * b * h * (10 + 24 / t + 5 * a * s / (h * t)))
    sp = activation_memory(seq_len=s, hidden=h, heads=a, layers=L, tp=t, sp=True).value
    assert sp == pytest.approx(L * s * b * h * (34 / t + 5 * a * s / (h * t)))
    sel = activation_memory(seq_len=s, hidden=h, heads=a, layers=L, tp=t, sp=True, recompute="selective").value
    assert sel == pytest.approx(L * 34 * s * b * h / t)
    full = activation_memory(seq_len=s, hidden=h, heads=a, layers=L, recompute="full").value
    assert full == 2 * s * b * h * L
    assert full < sel < sp < tp < none


def test_training_flops_recompute_factor() -> None:
    assert training_flops(params=1e9, tokens=1e9, recompute=True).value == 8e18
    assert training_flops(params=1e9, tokens=1e9).value == 6e18


def test_megatron_flops_without_recompute_is_three_quarters_of_the_layers() -> None:
    kw = dict(batch=1, seq_len=2048, layers=96, hidden=12288, vocab=51200)
    with_rc = megatron_flops(**kw).value
    no_rc = megatron_flops(**kw, recompute="none").value
    B, s, l, h, V = 1, 2048, 96, 12288, 51200
    assert no_rc == pytest.approx(72 * B * s * l * h**2 * (1 + s / (6 * h) + V / (12 * l * h)))
    assert no_rc < with_rc


def test_megatron_table2_84_days() -> None:
    # Narayanan et al. Table 2: 175B, 384 GPUs at 153 TFLOP/s, 300B tokens, batch 1536 -> about 84 days.
    per_iter = megatron_flops(batch=1536, seq_len=2048, layers=96, hidden=12288, vocab=51200).value
    iterations = 300e9 / (1536 * 2048)
    t = training_time(flops=per_iter * iterations, gpus=384, tflops_per_gpu=153).value
    assert t / 86400 == pytest.approx(84, rel=0.02)


def test_training_time_from_mfu_and_gpu() -> None:
    t = training_time(params=7e9, tokens=1e12, gpus=64, mfu="40%", gpu="h100-sxm").value
    assert t == pytest.approx(6 * 7e9 * 1e12 / (64 * 0.4 * 989.4e12))
    t2 = training_time(tokens=1e12, gpus=100, tokens_per_sec_per_gpu=1000).value
    assert t2 == 1e12 / (100 * 1000)


def test_mfu_uses_dense_peak_in_powers_of_ten() -> None:
    # nanoGPT PR #464 hit 104 % MFU by mixing peaks; vidur divides by 2**40. Dense 1e12 peak is the convention.
    dense = mfu(params=1e9, tokens_per_sec=1e4, gpu="h100-sxm").value
    assert dense == pytest.approx(6e9 * 1e4 / 989.4e12)
    sparse = mfu(params=1e9, tokens_per_sec=1e4, gpu="h100-sxm", sparse=True).value
    assert sparse == pytest.approx(dense / 2, rel=0.01)
    assert mfu(params=1e9, tokens_per_sec=1e4, peak_tflops=989.4).value == pytest.approx(dense)


def test_mfu_with_attention_term_is_higher_palm() -> None:
    # PaLM 540B: 45.7 % without attention, 46.2 % with it (118 layers, 48 heads, head dim 256, seq 2048).
    kw = dict(params=540e9, tokens_per_sec=238300, gpus=6144, peak_tflops=275)
    without = mfu(**kw).value
    with_attn = mfu(**kw, attention=True, layers=118, heads=48, head_dim=256, seq_len=2048).value
    assert without == pytest.approx(0.457, abs=0.001)
    assert with_attn == pytest.approx(0.462, abs=0.002)


def test_mfu_rejects_fraction_above_one_in_inputs() -> None:
    with pytest.raises(CalcError, match="40%"):
        training_time(params=1e9, tokens=1e9, mfu=40, gpu="h100-sxm")


def test_gpu_hours_two_ways() -> None:
    assert gpu_hours(gpus=1024, days=21).value == 1024 * 21 * 24
    assert gpu_hours(gpus=8, duration="36 h").value == 8 * 36
    gh = gpu_hours(flops=3.6e21, tflops_per_gpu=100).value
    assert gh == pytest.approx(3.6e21 / 100e12 / 3600)
    with pytest.raises(CalcError, match="one of"):
        gpu_hours(gpus=1, days=1, hours=1)


def test_energy_co2_cost_chain() -> None:
    e = energy(gpus=8, hours=10, gpu="h100-sxm", pue=1.2)
    assert e.value == 8 * 10 * 700 * 1.2  # Wh, TDP from the catalog
    assert e.to("kWh") == pytest.approx(67.2)
    c = co2(energy=e.value, intensity=0.4)
    assert c.value == pytest.approx(67.2 * 0.4)
    assert co2(gpus=8, hours=10, gpu="h100-sxm", pue=1.2, intensity=0.4).value == pytest.approx(c.value)
    assert cost(gpu_hours=100, price=2.5).value == 250
    with pytest.raises(CalcError, match="pue must be at least 1"):
        energy(gpu_hours=1, watts=1, pue=0.5)


def test_decode_at_batch_1_is_memory_bound() -> None:
    r = decode_time(model="llama-2-7b", gpu="h100-sxm", dtype="fp16")
    m = model("llama-2-7b")
    assert r.value == pytest.approx(2 * m.params / 3.35e12)
    assert any("memory-bound" in s.formula for s in r.steps)
    # Large batches cross the ridge point and turn compute-bound.
    big = decode_time(model="llama-2-7b", gpu="h100-sxm", batch=4096)
    assert any("compute-bound" in s.formula for s in big.steps)


def test_decode_counts_kv_cache_reads() -> None:
    short = decode_time(model="llama-2-70b", gpu="h100-sxm", seq_len=0, tp=2).value
    long = decode_time(model="llama-2-70b", gpu="h100-sxm", seq_len=4096, batch=1, tp=2).value
    # By hand: 2 (K and V) x 80 layers x 8 KV heads x 128 head dim x 2 bytes x 4,096 tokens = 1,342,177,280 B,
    # half of it on each of the 2 tensor-parallel GPUs, each reading at 3.35 TB/s.
    assert long - short == pytest.approx(1_342_177_280 / 2 / 3.35e12, rel=1e-12)


def test_tokens_per_second_is_batch_over_step_time() -> None:
    t = decode_time(model="llama-3-8b", gpu="l40s", batch=8, seq_len=1024).value
    tps = tokens_per_second(model="llama-3-8b", gpu="l40s", batch=8, seq_len=1024)
    assert tps.value == pytest.approx(8 / t)
    assert tps.unit == "tokens/s"


def test_prefill_is_compute_bound_for_long_prompts_and_ttft_matches() -> None:
    p = prefill_time(model="llama-2-7b", gpu="a100-sxm-80gb", prompt_len=2048)
    assert p.value == pytest.approx(2 * model("llama-2-7b").params * 2048 / 312e12)
    assert ttft(model="llama-2-7b", gpu="a100-sxm-80gb", prompt_len=2048).value == p.value


def test_int4_weights_on_a_gpu_without_int4_fall_back_to_fp16_math() -> None:
    r = decode_time(model="llama-2-7b", gpu="h100-sxm", dtype="int4")
    assert r.value == pytest.approx(0.5 * model("llama-2-7b").params / 3.35e12)
    assert any("dequantised" in s.substituted for s in r.steps)


def test_ridge_points_from_the_reference_notes() -> None:
    assert ridge_point(gpu="a100-sxm-80gb").value == pytest.approx(153, abs=1)
    assert ridge_point(gpu="h100-sxm").value == pytest.approx(295, abs=1)
    assert ridge_point(gpu="h200-sxm").value == pytest.approx(206, abs=1)


def test_max_batch_and_gpus_needed() -> None:
    m = model("llama-2-7b")
    per_seq = 2 * 32 * 32 * 128 * 2 * 4096
    free = 80e9 * 0.9 - 2 * m.params
    assert max_batch(model="llama-2-7b", gpu="a100-sxm-80gb", seq_len=4096).value == free // per_seq
    assert max_batch(model="llama-2-70b", gpu="l4", seq_len=4096).value == 0
    # 70B fp16: 140 GB x 1.2 = 165.5 GB -> 3 x 80 GB, or 4 as a tensor-parallel size.
    assert gpus_needed(model="llama-2-70b", gpu="h100-sxm").value == 3
    assert gpus_needed(model="llama-2-70b", gpu="h100-sxm", power_of_two=True).value == 4
    assert gpus_needed(params=70e9, memory="80GB", overhead=0).value == 2


def test_collectives_follow_nccl_tests() -> None:
    S, n = 10e9, 8
    assert allreduce_time(bytes=S, gpus=n, link="nvlink-4").value == pytest.approx(2 * (n - 1) / n * S / 450e9)
    assert allgather_time(bytes=S, gpus=n, bandwidth="100 GB/s").value == pytest.approx((n - 1) / n * S / 100e9)


def test_transfer_uses_per_direction_and_converts_bits() -> None:
    # 140 GB over one 400 Gb/s NDR port: 50 GB/s each way -> 2.8 s (not 0.35 s from reading Gb as GB).
    assert transfer_time(bytes="140 GB", link="ib-ndr").value == pytest.approx(2.8)
    assert transfer_time(bytes="450 GB", link="nvlink-4").value == pytest.approx(1.0)
    assert transfer_time(bytes="900 GB", link="nvlink-4", direction="both").value == pytest.approx(1.0)
    assert transfer_time(bytes=1e9, bandwidth="400Gb/s").value == pytest.approx(1e9 / 50e9)
    w = transfer_time(model="llama-2-7b", dtype="fp16", link="pcie-gen5-x16").value
    assert w == pytest.approx(2 * model("llama-2-7b").params / 63e9)


def test_checkpoints_and_storage() -> None:
    assert checkpoint_size(params=175e9).value == pytest.approx(175e9 * 14)  # 2.45 TB with Adam state
    assert checkpoint_size(params=175e9, optimizer=False).value == 350e9
    assert checkpoint_write_time(params=1e9, bandwidth="14 GB/s").value == pytest.approx(1.0)
    assert storage_read_time(bytes="100 GB", bandwidth="10 GB/s", gpus=4).value == pytest.approx(40)


def test_result_json_shape() -> None:
    r = call("kv-cache", model="llama-2-70b", seq_len=4096)
    d = r.to_dict()
    assert set(d) == {"name", "inputs", "value", "unit", "display", "steps"}
    assert set(d["steps"][0]) == {"label", "formula", "substituted", "outcome"}
    assert isinstance(r, Result) and r.quantity.value == r.value


def test_wh_result_converts_to_joules_in_its_quantity() -> None:
    r = energy(gpu_hours=1, watts=1000)
    assert r.value == 1000 and r.unit == "Wh"
    assert r.quantity.value == 3.6e6


def test_call_accepts_snake_case_and_suggests_on_a_miss() -> None:
    assert call("kv_cache", model="llama-2-7b", seq_len=1).value == call("kv-cache", model="llama-2-7b", seq_len=1).value
    with pytest.raises(CalcError, match="did you mean kv-cache"):
        call("kv-cach")


@pytest.mark.parametrize("name, kwargs", [
    ("kv-cache", dict(model="llama-2-70b", seq_len=4096, tp=2)),
    ("max-batch", dict(model="llama-2-7b", gpu="a100-sxm-80gb", seq_len=4096)),
    ("gpus-needed", dict(model="llama-2-70b", gpu="h100-sxm", seq_len=4096, power_of_two=True)),
    ("tokens-per-second", dict(model="mixtral-8x7b", gpu="h100-sxm", batch=8, seq_len=1024)),
    ("co2", dict(gpus=8, hours=10, gpu="h100-sxm", intensity=0.4)),
    ("checkpoint-write-time", dict(model="llama-3-70b", bandwidth="20 GB/s")),
])
def test_worked_steps_are_complete_even_through_nested_formulas(name: str, kwargs: dict) -> None:
    # Step text is produced on demand; a formula that reuses another must still explain every line.
    r = call(name, **kwargs)
    assert r.steps and all(s.label and s.outcome for s in r.steps)
    assert r.steps[-1].outcome.split()[0].replace(",", "").replace(".", "").isdigit()
    assert r.display in r.steps[-1].outcome or r.unit in ("1", "GPUs", "tokens/s")
