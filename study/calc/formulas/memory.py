"""Memory formulas: weights, KV cache, training state, activations, checkpoints, what fits on a GPU."""

from __future__ import annotations

from typing import Any

from study.calc.specs import GPU, Model
from study.calc.formulas._common import gpu_source, is_array, n, params_for, pick, q, vceil, vfloor, vmax
from study.calc.registry import BYTES_PER, CalcError, Step, formula


@formula(
    "weights-memory",
    unit="B",
    summary="memory taken by the model weights",
    formula="params x bytes per parameter (/ tp)",
    source="EleutherAI, Transformer Math 101 (2023): fp32 4, fp16/bf16 2, int8 1 bytes per parameter",
)
def weights_memory(*, model: Model | None = None, params: Any = None, dtype: str = "fp16",
                   bytes_per_param: Any = None, tp: Any = 1) -> Any:
    """Weights = parameters x bytes per parameter; a mixture of experts keeps every expert in memory.

    Source: EleutherAI, Transformer Math 101 (Anthony, Biderman, Schoelkopf 2023).
    """
    P, _ = params_for(model, params, "weights-memory", active=False)
    b = BYTES_PER[dtype] if bytes_per_param is None else bytes_per_param
    value = P * b
    blabel = f"{n(b)} B ({dtype})" if bytes_per_param is None else f"{n(b)} B"
    steps = [Step("weights", "params x bytes per parameter", f"{n(P)} x {blabel}", q(value, "B"))]
    if tp != 1:
        value = value / tp
        steps.append(Step("per GPU", "weights / tp", f"{q(P * b, 'B')} / {n(tp)}", q(value, "B")))
    return value, steps, {"model": model and model.id, "params": P, "dtype": dtype, "bytes_per_param": b, "tp": tp}


def _attention_shape(fname: str, model: Model | None, layers: Any, heads: Any, kv_heads: Any,
                     head_dim: Any, hidden: Any) -> tuple[Any, Any, Any, list[Step]]:
    L = pick(layers, model, "layers", fname)
    notes: list[Step] = []
    if kv_heads is None:
        if model is not None:
            kv_heads = model.kv_heads
        elif heads is not None:
            kv_heads = heads
            notes.append(Step("KV heads", "no --kv-heads: plain multi-head attention assumed", "kv_heads = heads",
                              n(heads)))
        else:
            raise CalcError(f"{fname} needs --kv-heads (or --heads, or --model)")
    if head_dim is None:
        if hidden is not None:
            H = pick(heads, model, "heads", fname)
            head_dim = hidden / H
            notes.append(Step("head dimension", "hidden / heads", f"{n(hidden)} / {n(H)}", n(head_dim)))
        elif model is not None:
            head_dim = model.head_dim
        else:
            raise CalcError(f"{fname} needs --head-dim (or --hidden and --heads, or --model)")
    return L, kv_heads, head_dim, notes


@formula(
    "kv-cache",
    unit="B",
    summary="KV cache size for a context and batch (uses KV heads: GQA/MQA aware)",
    formula="2 x layers x kv_heads x head_dim x seq_len x batch x bytes(dtype)",
    source="NVIDIA Technical Blog, Mastering LLM Techniques: Inference Optimization; HF Transformers docs",
    at_least={"seq_len": 1},
)
def kv_cache(*, seq_len: Any, model: Model | None = None, batch: Any = 1, dtype: str = "fp16",
             layers: Any = None, heads: Any = None, kv_heads: Any = None, head_dim: Any = None,
             hidden: Any = None, tp: Any = 1) -> Any:
    """KV cache = 2 (K and V) x layers x KV heads x head dim x tokens x batch x bytes per value.

    Grouped-query and multi-query attention store only the KV heads (Llama 2 70B: 8 of 64), the trap of
    LLM-Viewer issue #12 and gpu_poor. With tensor parallelism each GPU holds kv_heads / tp heads, at least one.
    Sources: NVIDIA Technical Blog "Mastering LLM Techniques: Inference Optimization"; llm-analysis
    analysis.py L913; Hugging Face "Optimizing LLMs for Speed and Memory" section 3.2.1.
    """
    L, kvh, hd, steps = _attention_shape("kv-cache", model, layers, heads, kv_heads, head_dim, hidden)
    b = BYTES_PER[dtype]
    per_token = 2 * L * kvh * hd * b
    steps.append(Step("per token", "2 (K and V) x layers x kv_heads x head_dim x bytes",
                      f"2 x {n(L)} x {n(kvh)} x {n(hd)} x {n(b)} B", q(per_token, "B")))
    value = per_token * seq_len * batch
    steps.append(Step("KV cache", "per token x seq_len x batch", f"{q(per_token, 'B')} x {n(seq_len)} x {n(batch)}",
                      q(value, "B")))
    if tp != 1:
        kv_gpu = vmax(kvh / tp, 1)
        value = value / kvh * kv_gpu
        steps.append(Step("per GPU", "KV heads per GPU = max(kv_heads / tp, 1)",
                          f"max({n(kvh)} / {n(tp)}, 1) = {n(kv_gpu)} heads", q(value, "B")))
    inputs = {"model": model and model.id, "seq_len": seq_len, "batch": batch, "dtype": dtype, "layers": L,
              "kv_heads": kvh, "head_dim": hd, "tp": tp}
    return value, steps, inputs


@formula(
    "training-memory",
    unit="B",
    summary="model states per GPU for mixed-precision Adam (16 B/param), with ZeRO stages 1-3",
    formula="stage 0: 16P; 1: 4P + 12P/dp; 2: 2P + 14P/dp; 3: 16P/dp (activations not included)",
    source="Rajbhandari et al. 2020, ZeRO (arXiv:1910.02054), section 3.1 and Figure 1",
)
def training_memory(*, model: Model | None = None, params: Any = None, zero: Any = 0, dp: Any = 1,
                    tp: Any = 1) -> Any:
    """Mixed-precision Adam keeps fp16 weights (2) and gradients (2) plus fp32 master weights, momentum and
    variance (K = 12): 16 bytes per parameter. ZeRO partitions the optimizer (stage 1), the gradients too
    (stage 2) and the weights too (stage 3) across the data-parallel degree. Activations are separate
    (see activation-memory). Other conventions exist (gpu_poor: 3x model dtype; accelerate: 4x fp32).
    Source: Rajbhandari et al. 2020 (ZeRO), arXiv:1910.02054, section 3.1, Figure 1.
    """
    stage = int(zero)
    if stage not in (0, 1, 2, 3) or stage != zero:
        raise CalcError(f"training-memory: zero must be 0, 1, 2 or 3; got {zero}")
    P, _ = params_for(model, params, "training-memory", active=False)
    steps = [Step("bytes per parameter", "fp16 weights 2 + fp16 gradients 2 + fp32 Adam state K=12 (master 4, m 4, v 4)",
                  "2 + 2 + 12", "16 B/param")]
    if tp != 1:
        steps.append(Step("tensor parallel", "params per GPU = P / tp", f"{n(P)} / {n(tp)}", n(P / tp)))
        P = P / tp
    forms = {
        0: ("16 x P", f"16 x {n(P)}", 16 * P),
        1: ("(2 + 2) x P + 12 x P / dp", f"4 x {n(P)} + 12 x {n(P)} / {n(dp)}", 4 * P + 12 * P / dp),
        2: ("2 x P + (2 + 12) x P / dp", f"2 x {n(P)} + 14 x {n(P)} / {n(dp)}", 2 * P + 14 * P / dp),
        3: ("(2 + 2 + 12) x P / dp", f"16 x {n(P)} / {n(dp)}", 16 * P / dp),
    }
    text, sub, value = forms[stage]
    steps.append(Step(f"model states per GPU (ZeRO stage {stage})", text, sub, q(value, "B")))
    return value, steps, {"model": model and model.id, "params": P, "zero": stage, "dp": dp, "tp": tp}


@formula(
    "activation-memory",
    unit="B",
    summary="activation memory per GPU for training (Korthikanti), with tp, sequence parallelism, recompute",
    formula="L x s x b x h x (10 + 24/t + 5 a s/(h t)); SP: 34/t + 5as/(ht); selective: 10 + 24/t or 34/t; full: 2",
    source="Korthikanti et al. 2022, Reducing Activation Recomputation in Large Transformer Models, Table 2",
    at_least={"seq_len": 1},
)
def activation_memory(*, seq_len: Any, model: Model | None = None, batch: Any = 1, layers: Any = None,
                      hidden: Any = None, heads: Any = None, tp: Any = 1, sp: bool = False,
                      recompute: str = "none") -> Any:
    """Bytes of activations kept for the backward pass, 16-bit activations and 1-byte dropout masks.

    Per layer: no parallelism s*b*h*(34 + 5*a*s/h); tensor parallel s*b*h*(10 + 24/t + 5*a*s/(h*t)); with
    sequence parallelism s*b*h*(34/t + 5*a*s/(h*t)); selective recompute drops the 5as/h attention term;
    full recompute keeps only the layer input, 2*s*b*h. Pipeline parallelism and the embedding/logit
    layers are not included. Source: Korthikanti et al. 2022, arXiv:2205.05198, Table 2.
    """
    L = pick(layers, model, "layers", "activation-memory")
    h = pick(hidden, model, "hidden", "activation-memory")
    a = pick(heads, model, "heads", "activation-memory")
    s, b, t = seq_len, batch, tp
    if recompute == "full":
        text, sub, per = "2 x s x b x h", f"2 x {n(s)} x {n(b)} x {n(h)}", 2 * s * b * h
    elif recompute == "selective":
        if sp:
            text, sub, per = "34 x s x b x h / t", f"34 x {n(s)} x {n(b)} x {n(h)} / {n(t)}", 34 * s * b * h / t
        else:
            text = "s x b x h x (10 + 24/t)"
            sub, per = f"{n(s)} x {n(b)} x {n(h)} x (10 + 24/{n(t)})", s * b * h * (10 + 24 / t)
    else:
        attn = 5 * a * s / (h * t)
        if sp:
            text = "s x b x h x (34/t + 5 a s / (h t))"
            sub, per = f"{n(s)} x {n(b)} x {n(h)} x (34/{n(t)} + {n(attn)})", s * b * h * (34 / t + attn)
        else:
            text = "s x b x h x (10 + 24/t + 5 a s / (h t))"
            sub, per = f"{n(s)} x {n(b)} x {n(h)} x (10 + 24/{n(t)} + {n(attn)})", s * b * h * (10 + 24 / t + attn)
    value = per * L
    steps = [
        Step(f"per layer ({recompute} recompute{', sequence parallel' if sp else ''})", text, sub, q(per, "B")),
        Step("all layers", "per layer x layers", f"{q(per, 'B')} x {n(L)}", q(value, "B")),
    ]
    return value, steps, {"model": model and model.id, "seq_len": s, "batch": b, "layers": L, "hidden": h,
                          "heads": a, "tp": t, "sp": sp, "recompute": recompute}


@formula(
    "checkpoint-size",
    unit="B",
    summary="size of a training checkpoint: weights, plus fp32 master weights and Adam moments",
    formula="params x bytes(dtype) + 12 x params (optimizer: fp32 master 4 + m 4 + v 4)",
    source="Rajbhandari et al. 2020 (ZeRO), section 3.1: Adam state K = 12 bytes per parameter",
)
def checkpoint_size(*, model: Model | None = None, params: Any = None, dtype: str = "bf16",
                    optimizer: bool = True) -> Any:
    """A resumable checkpoint stores the weights and the optimizer state (fp32 master copy and both Adam
    moments, 12 B/param); gradients are not saved. Weights only: params x bytes(dtype).
    Source: Rajbhandari et al. 2020 (ZeRO), arXiv:1910.02054, section 3.1.
    """
    P, _ = params_for(model, params, "checkpoint-size", active=False)
    w = P * BYTES_PER[dtype]
    steps = [Step("weights", "params x bytes(dtype)", f"{n(P)} x {n(BYTES_PER[dtype])} B", q(w, "B"))]
    value = w
    if optimizer:
        value = w + 12 * P
        steps.append(Step("with optimizer state", "weights + 12 x params", f"{q(w, 'B')} + 12 x {n(P)}", q(value, "B")))
    return value, steps, {"model": model and model.id, "params": P, "dtype": dtype, "optimizer": optimizer}


def _gpu_memory(gpu: GPU | None, memory: Any, fname: str) -> tuple[Any, str]:
    if memory is not None:
        return memory, q(memory, "B")
    if gpu is None:
        raise CalcError(f"{fname} needs --gpu or --memory")
    return gpu.memory_bytes, f"{q(gpu.memory_bytes, 'B')} {gpu_source(gpu)}"


@formula(
    "max-batch",
    unit="1",
    summary="largest batch whose KV cache fits beside the weights",
    formula="floor((memory x tp x (1 - reserve) - weights) / KV cache per sequence)",
    source="vidur memory_planner.py (Microsoft, MLSys 2024); KV cache per NVIDIA inference blog",
    at_least={"seq_len": 1},
)
def max_batch(*, seq_len: Any, model: Model | None = None, gpu: GPU | None = None, memory: Any = None,
              dtype: str = "fp16", tp: Any = 1, reserve: Any = 0.1, params: Any = None, layers: Any = None,
              kv_heads: Any = None, head_dim: Any = None) -> Any:
    """Sequences of ``seq_len`` tokens that fit: free memory after the weights, over the KV cache of one
    sequence. ``reserve`` keeps a fraction of memory free (activations, CUDA context; vidur uses 0.1).
    ``tp`` GPUs share the weights and the cache. Source: microsoft/vidur memory_planner.py.
    """
    mem, mem_text = _gpu_memory(gpu, memory, "max-batch")
    P, _ = params_for(model, params, "max-batch", active=False)
    w = P * BYTES_PER[dtype]
    kv = kv_cache.raw(seq_len=seq_len, model=model, batch=1, dtype=dtype, layers=layers,
                                   kv_heads=kv_heads, head_dim=head_dim)
    per_seq = kv[0]
    shape = kv[2]
    usable = mem * tp * (1 - reserve)
    free = usable - w
    value = vmax(vfloor(free / per_seq), 0)
    steps = [
        Step("usable memory", "memory x tp x (1 - reserve)", f"{mem_text} x {n(tp)} x (1 - {n(reserve)})", q(usable, "B")),
        Step("weights", "params x bytes(dtype)", f"{n(P)} x {n(BYTES_PER[dtype])} B", q(w, "B")),
        Step("KV cache per sequence", "2 x layers x kv_heads x head_dim x seq_len x bytes",
             f"2 x {n(shape['layers'])} x {n(shape['kv_heads'])} x {n(shape['head_dim'])} x {n(seq_len)}"
             f" x {n(BYTES_PER[dtype])} B", q(per_seq, "B")),
        Step("max batch", "floor((usable - weights) / per sequence)",
             f"floor(({q(usable, 'B')} - {q(w, 'B')}) / {q(per_seq, 'B')})", n(value)),
    ]
    return value, steps, {"model": model and model.id, "gpu": gpu and gpu.id, "memory": mem, "seq_len": seq_len,
                          "dtype": dtype, "tp": tp, "reserve": reserve, "params": P}


@formula(
    "gpus-needed",
    unit="GPUs",
    summary="GPUs needed to hold weights + KV cache + overhead, optionally rounded to a tensor-parallel size",
    formula="ceil((weights + KV cache) x (1 + overhead) / memory per GPU)",
    source="EleutherAI Transformer Math 101 (inference ~1.2 x weights); NVIDIA NIM: fewest GPUs that hold the model",
)
def gpus_needed(*, model: Model | None = None, params: Any = None, dtype: str = "fp16", gpu: GPU | None = None,
                memory: Any = None, seq_len: Any = 0, batch: Any = 1, overhead: Any = 0.2,
                power_of_two: bool = False) -> Any:
    """Memory-bound sizing: the fewest GPUs whose memory holds the weights and the KV cache with
    ``overhead`` (default 0.2, the EleutherAI rule of thumb) on top. ``power_of_two`` rounds up to a
    tensor-parallel size (1, 2, 4, 8...), since TP must divide the attention heads.
    Sources: EleutherAI Transformer Math 101; NVIDIA NIM optimization guide (throughput profiles).
    """
    mem, mem_text = _gpu_memory(gpu, memory, "gpus-needed")
    P, _ = params_for(model, params, "gpus-needed", active=False)
    w = P * BYTES_PER[dtype]
    steps = [Step("weights", "params x bytes(dtype)", f"{n(P)} x {n(BYTES_PER[dtype])} B", q(w, "B"))]
    kv: Any = 0
    if is_array(seq_len) or seq_len:
        if model is None:
            raise CalcError("gpus-needed: a KV cache (--seq-len) needs --model for the attention shape")
        kv, _kv_steps, shape = kv_cache.raw(seq_len=seq_len, model=model, batch=batch, dtype=dtype)
        steps.append(Step("KV cache", "2 x layers x kv_heads x head_dim x seq_len x batch x bytes",
                          f"2 x {n(shape['layers'])} x {n(shape['kv_heads'])} x {n(shape['head_dim'])} x {n(seq_len)}"
                          f" x {n(batch)} x {n(BYTES_PER[dtype])} B", q(kv, "B")))
    total = (w + kv) * (1 + overhead)
    steps.append(Step("memory needed", "(weights + KV cache) x (1 + overhead)",
                      f"({q(w, 'B')} + {q(kv, 'B')}) x (1 + {n(overhead)})", q(total, "B")))
    value = vceil(total / mem)
    steps.append(Step("GPUs", "ceil(memory needed / memory per GPU)", f"ceil({q(total, 'B')} / {mem_text})", n(value)))
    if power_of_two:
        import math

        if is_array(value):
            import numpy as np

            value = 2.0 ** np.ceil(np.log2(value))
        else:
            value = float(2 ** math.ceil(math.log2(value)))
        steps.append(Step("tensor-parallel size", "next power of two", "TP must divide the attention heads", n(value)))
    return value, steps, {"model": model and model.id, "params": P, "dtype": dtype, "gpu": gpu and gpu.id,
                          "memory": mem, "seq_len": seq_len, "batch": batch, "overhead": overhead}
