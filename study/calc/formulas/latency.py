"""Inference latency by roofline: time = max(FLOPs / peak, bytes moved / bandwidth). Lower bounds.

Measured serving numbers are slower (NIM's Llama 3.3 70B FP8 inter-token latency is about 1.8x its floor):
use ``efficiency`` to model that, and read the results as "at best".
"""

from __future__ import annotations

from typing import Any

from study.calc.specs import GPU, Model
from study.calc.formulas._common import gpu_source, is_array, n, params_for, peak_for, q, vmax
from study.calc.formulas.memory import kv_cache
from study.calc.registry import BYTES_PER, CalcError, Step, formula

_SOURCE = "Roofline as in LLM-Viewer (Yuan et al. 2024, arXiv:2402.16363) and cli99/llm-analysis"


def _bandwidth(gpu: GPU | None, bandwidth: Any, fname: str) -> tuple[Any, str]:
    if bandwidth is not None:
        return bandwidth, q(bandwidth, "B/s")
    if gpu is None:
        raise CalcError(f"{fname} needs --gpu or --bandwidth")
    return gpu.bandwidth_bytes_s, f"{q(gpu.bandwidth_bytes_s, 'B/s')} {gpu_source(gpu)}"


def _bound(compute: Any, memory: Any) -> str:
    if is_array(compute) or is_array(memory):
        return "compute- or memory-bound per point"
    return "compute-bound" if compute >= memory else "memory-bound"


def _bound_data(compute: Any, memory: Any) -> Any:
    """The roofline's limit as data for callers (``Result.inputs["bound"]``): "compute" or "memory", or an
    array of them for a sweep."""
    if is_array(compute) or is_array(memory):
        import numpy as np

        return np.where(np.asarray(compute) >= np.asarray(memory), "compute", "memory")
    return "compute" if compute >= memory else "memory"


def _prefill(fname: str, model: Model | None, params: Any, prompt_len: Any, batch: Any, gpu: GPU | None,
             peak_tflops: Any, bandwidth: Any, dtype: str, tp: Any, efficiency: Any, sparse: bool) -> tuple[Any, list[Step], dict[str, Any]]:
    N, steps = params_for(model, params, fname, active=True)
    P_total = params if params is not None else model.params  # type: ignore[union-attr]
    peak, ptext, psteps = peak_for(gpu, peak_tflops, dtype, sparse, fname)
    steps += psteps
    flops = 2 * N * prompt_len * batch
    compute = flops / (tp * peak * efficiency)
    steps.append(Step("prefill compute", "2 x N x prompt_len x batch", f"2 x {n(N)} x {n(prompt_len)} x {n(batch)}",
                      q(flops, "FLOP")))
    steps.append(Step("compute time", "FLOPs / (tp x peak x efficiency)",
                      f"{q(flops, 'FLOP')} / ({n(tp)} x {ptext} x {n(efficiency)})", q(compute, "s")))
    value = compute
    inputs = {"model": model and model.id, "params": N, "prompt_len": prompt_len, "batch": batch,
              "gpu": gpu and gpu.id, "peak_flops": peak, "dtype": dtype, "tp": tp, "efficiency": efficiency}
    if bandwidth is not None or gpu is not None:
        bw, btext = _bandwidth(gpu, bandwidth, fname)
        wbytes = P_total * BYTES_PER[dtype]
        memory = wbytes / (tp * bw * efficiency)
        steps.append(Step("weight read time", "weights / (tp x bandwidth x efficiency)",
                          f"{q(wbytes, 'B')} / ({n(tp)} x {btext} x {n(efficiency)})", q(memory, "s")))
        value = vmax(compute, memory)
        steps.append(Step("prefill time", f"max(compute, memory): {_bound(compute, memory)}", "", q(value, "s")))
        inputs["bandwidth"] = bw
        inputs["bound"] = _bound_data(compute, memory)
    else:
        inputs["bound"] = "compute"
    return value, steps, inputs


_PREFILL_HELP = {"efficiency": "fraction of peak FLOP/s and bandwidth achieved (default 1: the roofline floor)"}


@formula(
    "prefill-time",
    unit="s",
    summary="time to process the prompt (prefill), roofline lower bound",
    formula="max(2 N x prompt_len x batch / (tp x peak), weights / (tp x bandwidth))",
    source=_SOURCE,
    help=_PREFILL_HELP,
)
def prefill_time(*, prompt_len: Any, model: Model | None = None, params: Any = None, batch: Any = 1,
                 gpu: GPU | None = None, peak_tflops: Any = None, bandwidth: Any = None, dtype: str = "fp16",
                 tp: Any = 1, efficiency: Any = 1.0, sparse: bool = False) -> Any:
    """Prefill runs every prompt token through the model at once: 2N FLOPs per token, normally
    compute-bound. Attention-score FLOPs are left out (small unless the prompt is very long).
    Sources: LLM-Viewer roofline_model.py; llm-analysis analysis.py.
    """
    return _prefill("prefill-time", model, params, prompt_len, batch, gpu, peak_tflops, bandwidth, dtype, tp,
                    efficiency, sparse)


@formula(
    "ttft",
    unit="s",
    summary="time to first token: the prefill roofline (queueing and network excluded)",
    formula="TTFT >= prefill time = max(2 N x prompt x batch / (tp x peak), weights / (tp x bandwidth))",
    source="NVIDIA NIM LLM benchmarking guide (TTFT definition); " + _SOURCE,
    help=_PREFILL_HELP,
)
def ttft(*, prompt_len: Any, model: Model | None = None, params: Any = None, batch: Any = 1,
         gpu: GPU | None = None, peak_tflops: Any = None, bandwidth: Any = None, dtype: str = "fp16",
         tp: Any = 1, efficiency: Any = 1.0, sparse: bool = False) -> Any:
    """NIM defines TTFT from request submission to the first token, which adds queueing and network
    time to the prefill; this returns the prefill floor. Source: NVIDIA NIM LLM benchmarking, metrics.
    """
    value, steps, inputs = _prefill("ttft", model, params, prompt_len, batch, gpu, peak_tflops, bandwidth, dtype,
                                    tp, efficiency, sparse)
    steps.append(Step("TTFT", "prefill time (+ queueing and network, not modelled)", "", q(value, "s")))
    return value, steps, inputs


def _weights_read(model: Model | None, total: Any, batch: Any) -> tuple[Any, list[Step]]:
    """Parameters a decode step reads. A dense model reads them all. A mixture of experts reads its shared
    layers plus the experts its tokens are routed to: with k of E experts per token and routing taken as
    uniform, a batch of b tokens touches E x (1 - (1 - k/E)^b) experts per layer on average, so batch 1
    reads only the active parameters and a large batch reads nearly all of them.
    Source: Jiang et al. 2024 (Mixtral, arXiv:2401.04088) for total vs active parameters."""
    if model is None or not model.is_moe:
        return total, []
    E, k = model.experts, model.experts_per_token
    per_expert = (model.params - model.active_params) / (E - k)
    shared = model.params - E * per_expert
    touched = E * (1 - (1 - k / E) ** batch)
    read = shared + touched * per_expert
    return read, [Step(
        "weights read (mixture of experts)",
        "shared + E x (1 - (1 - k/E)^batch) x per-expert params",
        f"{n(shared)} + {n(E)} x (1 - (1 - {n(k)}/{n(E)})^{n(batch)}) x {n(per_expert)}",
        f"{n(read)} of {n(model.params)} parameters",
    )]


def _decode(fname: str, model: Model | None, params: Any, seq_len: Any, batch: Any, gpu: GPU | None,
            peak_tflops: Any, bandwidth: Any, dtype: str, tp: Any, efficiency: Any, sparse: bool) -> tuple[Any, list[Step], dict[str, Any]]:
    N, steps = params_for(model, params, fname, active=True)
    P_total = params if params is not None else model.params  # type: ignore[union-attr]
    peak, ptext, psteps = peak_for(gpu, peak_tflops, dtype, sparse, fname)
    steps += psteps
    bw, btext = _bandwidth(gpu, bandwidth, fname)
    flops = 2 * N * batch
    compute = flops / (tp * peak * efficiency)
    read_params, moe_steps = _weights_read(model if params is None else None, P_total, batch)
    steps += moe_steps
    wbytes = read_params * BYTES_PER[dtype]
    kv: Any = 0
    if model is not None and (is_array(seq_len) or seq_len):
        kv = kv_cache.raw(seq_len=seq_len, model=model, batch=batch, dtype=dtype)[0]
    moved = wbytes + kv
    memory = moved / (tp * bw * efficiency)
    value = vmax(compute, memory)
    steps += [
        Step("compute per step", "2 x N x batch / (tp x peak x efficiency)",
             f"2 x {n(N)} x {n(batch)} / ({n(tp)} x {ptext} x {n(efficiency)})", q(compute, "s")),
        Step("bytes read per step", "weights + KV cache", f"{q(wbytes, 'B')} + {q(kv, 'B')}", q(moved, "B")),
        Step("memory time per step", "bytes / (tp x bandwidth x efficiency)",
             f"{q(moved, 'B')} / ({n(tp)} x {btext} x {n(efficiency)})", q(memory, "s")),
        Step("ridge point", "peak / bandwidth (FLOP per byte where compute and memory balance)",
             f"{q(peak, 'FLOP/s')} / {q(bw, 'B/s')}", f"{n(peak / bw)} FLOP/B"),
        Step("time per output token", f"max(compute, memory): {_bound(compute, memory)}", "", q(value, "s")),
    ]
    inputs = {"model": model and model.id, "params": N, "seq_len": seq_len, "batch": batch, "gpu": gpu and gpu.id,
              "peak_flops": peak, "bandwidth": bw, "dtype": dtype, "tp": tp, "efficiency": efficiency,
              "bound": _bound_data(compute, memory)}
    return value, steps, inputs


_DECODE_HELP = {"seq_len": "tokens already in the context (prompt + generated) whose KV cache is read",
                "efficiency": "fraction of peak FLOP/s and bandwidth achieved (default 1: the roofline floor)"}


@formula(
    "decode-time",
    unit="s",
    summary="time per output token (one decode step for the batch), roofline lower bound",
    formula="max(2 N x batch / (tp x peak), (weights + KV cache) / (tp x bandwidth))",
    source=_SOURCE,
    help=_DECODE_HELP,
)
def decode_time(*, model: Model | None = None, params: Any = None, seq_len: Any = 0, batch: Any = 1,
                gpu: GPU | None = None, peak_tflops: Any = None, bandwidth: Any = None, dtype: str = "fp16",
                tp: Any = 1, efficiency: Any = 1.0, sparse: bool = False) -> Any:
    """Each decode step reads all the weights and the KV cache once and does 2N FLOPs per sequence. At
    small batch the bytes dominate (memory-bound): on an H100 the ridge point is ~295 FLOP/B while decode
    at batch b does ~b FLOP per weight byte (fp16). A mixture of experts reads its shared weights plus the
    experts its batch is routed to (active parameters at batch 1, nearly all at large batch) and does 2 x
    active parameters of FLOPs per token.
    Sources: LLM-Viewer roofline_model.py; llm-analysis analysis.py L1698.
    """
    return _decode("decode-time", model, params, seq_len, batch, gpu, peak_tflops, bandwidth, dtype, tp,
                   efficiency, sparse)


@formula(
    "tokens-per-second",
    unit="tokens/s",
    summary="decode throughput of a batch: batch / time per step (roofline upper bound)",
    formula="batch / max(2 N x batch / (tp x peak), (weights + KV cache) / (tp x bandwidth))",
    source=_SOURCE + "; llm-analysis decode_tokens_per_sec = batch / decode_latency",
    help=_DECODE_HELP,
)
def tokens_per_second(*, model: Model | None = None, params: Any = None, seq_len: Any = 0, batch: Any = 1,
                      gpu: GPU | None = None, peak_tflops: Any = None, bandwidth: Any = None, dtype: str = "fp16",
                      tp: Any = 1, efficiency: Any = 1.0, sparse: bool = False) -> Any:
    """Output tokens per second summed over the batch. Grows with batch until the step turns
    compute-bound (past the ridge point). Sources: LLM-Viewer; llm-analysis analysis.py L1778.
    """
    t, steps, inputs = _decode("tokens-per-second", model, params, seq_len, batch, gpu, peak_tflops, bandwidth,
                               dtype, tp, efficiency, sparse)
    value = batch / t
    steps.append(Step("throughput", "batch / time per step", f"{n(batch)} / {q(t, 's')}", f"{n(value)} tokens/s"))
    return value, steps, inputs


@formula(
    "ridge-point",
    unit="FLOP/B",
    summary="arithmetic intensity where a GPU turns from memory-bound to compute-bound",
    formula="peak FLOP/s / memory bandwidth",
    source="Williams, Waterman, Patterson 2009, Roofline (CACM); LLM-Viewer roofline_model.py turning_point",
)
def ridge_point(*, gpu: GPU | None = None, peak_tflops: Any = None, bandwidth: Any = None, dtype: str = "bf16",
                sparse: bool = False) -> Any:
    """Kernels doing fewer FLOPs per byte than this are limited by memory bandwidth.
    Source: Williams et al. 2009 (Roofline model); LLM-Viewer roofline_model.py.
    """
    peak, ptext, steps = peak_for(gpu, peak_tflops, dtype, sparse, "ridge-point")
    bw, btext = _bandwidth(gpu, bandwidth, "ridge-point")
    value = peak / bw
    steps.append(Step("ridge point", "peak / bandwidth", f"{ptext} / {btext}", f"{n(value)} FLOP/B"))
    return value, steps, {"gpu": gpu and gpu.id, "peak_flops": peak, "bandwidth": bw, "dtype": dtype}
