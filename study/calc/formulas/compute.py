"""Compute formulas: training and forward FLOPs, Megatron's exact count, training time, MFU, GPU-hours."""

from __future__ import annotations

from typing import Any

from study.calc.specs import GPU, Model
from study.calc.formulas._common import is_array, n, params_for, peak_for, pick, q
from study.calc.registry import CalcError, Step, formula


def _total_flops(fname: str, flops: Any, model: Model | None, params: Any, tokens: Any,
                 recompute: str) -> tuple[Any, list[Step], dict[str, Any]]:
    """Total training FLOPs: given, or 6ND (8ND with full recompute) with N active for MoE."""
    if flops is not None:
        return flops, [Step("total compute", "given", "", q(flops, "FLOP"))], {"flops": flops}
    if tokens is None:
        raise CalcError(f"{fname} needs --flops, or --params/--model with --tokens")
    N, steps = params_for(model, params, fname, active=True)
    k = 8 if recompute == "full" else 6
    value = k * N * tokens
    why = "forward 2 + backward 4 + recomputed forward 2" if k == 8 else "forward 2 + backward 4"
    steps.append(Step("training compute", f"{k} x N x D ({why} FLOP per parameter per token)",
                      f"{k} x {n(N)} x {n(tokens)}", q(value, "FLOP")))
    return value, steps, {"params": N, "tokens": tokens, "recompute": recompute}


@formula(
    "training-flops",
    unit="FLOP",
    summary="total training compute: 6 x params x tokens (8 with full activation recompute)",
    formula="C = 6 N D (8 N D with full recompute); N = active parameters for a mixture of experts",
    source="Kaplan et al. 2020 (arXiv:2001.08361); Narayanan et al. 2021 section 5.1 for the recompute factor 8",
)
def training_flops(*, tokens: Any, model: Model | None = None, params: Any = None, recompute: str = "none") -> Any:
    """Forward pass 2N and backward 4N FLOPs per token; full recompute repeats the forward (8N).
    Selective recompute adds only a few percent and is counted as 6N here.
    Sources: Kaplan et al. 2020, Table 1; EleutherAI Transformer Math 101; Narayanan et al. 2021, section 5.1.
    """
    value, steps, inputs = _total_flops("training-flops", None, model, params, tokens, recompute)
    inputs["model"] = model and model.id
    return value, steps, inputs


@formula(
    "megatron-flops",
    unit="FLOP",
    summary="exact FLOPs per training iteration of a GPT model (Megatron-LM), with or without recompute",
    formula="96 B s l h^2 (1 + s/(6h) + V/(16 l h)) with recompute; 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) without",
    source="Narayanan et al. 2021, Efficient Large-Scale Language Model Training on GPU Clusters, section 5.1",
    at_least={"seq_len": 1},
)
def megatron_flops(*, batch: Any, seq_len: Any = None, model: Model | None = None, layers: Any = None,
                   hidden: Any = None, vocab: Any = None, recompute: str = "full") -> Any:
    """FLOPs of one iteration of batch B sequences: matrix multiplications of the transformer layers,
    attention scores and the logit layer. The paper's 96 includes activation recompute (4 passes).
    Source: Narayanan et al. 2021, arXiv:2104.04473, section 5.1.
    """
    s = seq_len if seq_len is not None else (model.context if model is not None else None)
    if s is None:
        raise CalcError("megatron-flops needs --seq-len (or --model)")
    l = pick(layers, model, "layers", "megatron-flops")
    h = pick(hidden, model, "hidden", "megatron-flops")
    V = pick(vocab, model, "vocab", "megatron-flops")
    B = batch
    if recompute == "full":
        k, d, text = 96, 16, "96 B s l h^2 (1 + s/(6h) + V/(16 l h))"
    else:
        k, d, text = 72, 12, "72 B s l h^2 (1 + s/(6h) + V/(12 l h))"
    bracket = 1 + s / (6 * h) + V / (d * l * h)
    value = k * B * s * l * h * h * bracket
    steps = [Step("FLOPs per iteration", text,
                  f"{k} x {n(B)} x {n(s)} x {n(l)} x {n(h)}^2 x (1 + {n(s)}/(6 x {n(h)}) + {n(V)}/({d} x {n(l)} x {n(h)}))",
                  q(value, "FLOP"))]
    return value, steps, {"model": model and model.id, "batch": B, "seq_len": s, "layers": l, "hidden": h,
                          "vocab": V, "recompute": recompute}


@formula(
    "forward-flops",
    unit="FLOP",
    summary="inference (forward pass) compute: 2 x params per token, optionally with attention",
    formula="2 N x tokens (+ 2 x layers x seq_len x d_attn per token with attention)",
    source="Kaplan et al. 2020 (arXiv:2001.08361), Table 1",
)
def forward_flops(*, model: Model | None = None, params: Any = None, tokens: Any = 1, attention: bool = False,
                  seq_len: Any = None, layers: Any = None, hidden: Any = None) -> Any:
    """Each parameter does one multiply-add (2 FLOP) per token. Kaplan adds 2 n_layer n_ctx d_attn for the
    attention scores, small unless the context is long. A mixture of experts uses its active parameters.
    Source: Kaplan et al. 2020, Table 1.
    """
    N, steps = params_for(model, params, "forward-flops", active=True)
    value = 2 * N * tokens
    steps.append(Step("forward compute", "2 x N x tokens", f"2 x {n(N)} x {n(tokens)}", q(value, "FLOP")))
    inputs = {"model": model and model.id, "params": N, "tokens": tokens, "attention": attention}
    if attention:
        L = pick(layers, model, "layers", "forward-flops")
        d = pick(hidden, model, "hidden", "forward-flops")
        ctx = seq_len if seq_len is not None else (model.context if model is not None else None)
        if ctx is None:
            raise CalcError("forward-flops with attention needs --seq-len")
        extra = 2 * L * ctx * d * tokens
        value = value + extra
        steps.append(Step("attention", "+ 2 x layers x seq_len x d_attn x tokens",
                          f"2 x {n(L)} x {n(ctx)} x {n(d)} x {n(tokens)}", q(extra, "FLOP")))
        steps.append(Step("total", "weights + attention", "", q(value, "FLOP")))
        inputs.update(layers=L, hidden=d, seq_len=ctx)
    return value, steps, inputs


def _rate_per_gpu(fname: str, tflops_per_gpu: Any, mfu: Any, gpu: GPU | None, peak_tflops: Any, dtype: str,
                  sparse: bool) -> tuple[Any, list[Step]]:
    if tflops_per_gpu is not None:
        r = tflops_per_gpu * 1e12
        return r, [Step("achieved per GPU", "given", "", q(r, "FLOP/s"))]
    if mfu is None:
        raise CalcError(f"{fname} needs --tflops-per-gpu, --mfu with --gpu (or --peak-tflops), or --tokens-per-sec-per-gpu")
    peak, text, steps = peak_for(gpu, peak_tflops, dtype, sparse, fname)
    r = mfu * peak
    steps.append(Step("achieved per GPU", "MFU x peak", f"{n(mfu)} x {text}", q(r, "FLOP/s")))
    return r, steps


@formula(
    "training-time",
    unit="s",
    summary="wall-clock training time from total FLOPs (or 6ND) and the achieved rate per GPU",
    formula="FLOPs / (gpus x achieved FLOP/s per GPU); or tokens / (gpus x tokens/s per GPU)",
    source="Narayanan et al. 2021, section 5.1 (8TP/(nX)); EleutherAI Transformer Math 101 (C = tau T)",
)
def training_time(*, flops: Any = None, model: Model | None = None, params: Any = None, tokens: Any = None,
                  gpus: Any = 1, tflops_per_gpu: Any = None, mfu: Any = None, gpu: GPU | None = None,
                  peak_tflops: Any = None, dtype: str = "bf16", sparse: bool = False,
                  tokens_per_sec_per_gpu: Any = None, recompute: str = "none") -> Any:
    """Time = total compute / (GPUs x achieved FLOP/s per GPU). The rate is given (--tflops-per-gpu), or MFU
    x the GPU's dense peak, or the job is measured in tokens/s per GPU. With --recompute full the compute is
    8ND, which reproduces Megatron's 8TP/(nX): GPT-3 on 1024 A100s at 140 TFLOP/s is about 34 days.
    Source: Narayanan et al. 2021, arXiv:2104.04473, section 5.1.
    """
    inputs: dict[str, Any] = {"model": model and model.id, "gpus": gpus}
    if tokens_per_sec_per_gpu is not None:
        if tokens is None:
            raise CalcError("training-time with --tokens-per-sec-per-gpu needs --tokens")
        value = tokens / (gpus * tokens_per_sec_per_gpu)
        steps = [Step("training time", "tokens / (gpus x tokens/s per GPU)",
                      f"{n(tokens)} / ({n(gpus)} x {n(tokens_per_sec_per_gpu)} tokens/s)", q(value, "s"))]
        inputs.update(tokens=tokens, tokens_per_sec_per_gpu=tokens_per_sec_per_gpu)
        return value, steps, inputs
    F, steps, extra = _total_flops("training-time", flops, model, params, tokens, recompute)
    inputs.update(extra)
    rate, rsteps = _rate_per_gpu("training-time", tflops_per_gpu, mfu, gpu, peak_tflops, dtype, sparse)
    steps += rsteps
    value = F / (gpus * rate)
    steps.append(Step("training time", "FLOPs / (gpus x FLOP/s per GPU)",
                      f"{q(F, 'FLOP')} / ({n(gpus)} x {q(rate, 'FLOP/s')})", q(value, "s")))
    inputs.update(rate_per_gpu=rate, gpu=gpu and gpu.id)
    return value, steps, inputs


@formula(
    "mfu",
    unit="1",
    summary="model FLOPs utilisation: achieved model FLOP/s over the GPUs' dense peak",
    formula="tokens/s x (6N [+ 12 L H Q T]) / (gpus x peak FLOP/s)",
    source="Chowdhery et al. 2022 (PaLM, arXiv:2204.02311), section 4.1 and Appendix B",
)
def mfu(*, model: Model | None = None, params: Any = None, tokens_per_sec: Any = None,
        tokens_per_sec_per_gpu: Any = None, gpus: Any = 1, gpu: GPU | None = None, peak_tflops: Any = None,
        dtype: str = "bf16", sparse: bool = False, attention: bool = False, layers: Any = None, heads: Any = None,
        head_dim: Any = None, seq_len: Any = None) -> Any:
    """MFU = observed tokens/s x model FLOPs per token / (chips x peak). The denominator is the dense peak
    in 10^12 (not 2^40, vidur's slip; not the sparse figure, nanoGPT PR #464's 104 %). Without the attention
    term PaLM 540B is 45.7 %, with it 46.2 %. Recomputed FLOPs are excluded (that would be HFU).
    Source: Chowdhery et al. 2022 (PaLM), Appendix B.
    """
    N, steps = params_for(model, params, "mfu", active=True)
    if tokens_per_sec is None:
        if tokens_per_sec_per_gpu is None:
            raise CalcError("mfu needs --tokens-per-sec or --tokens-per-sec-per-gpu")
        tokens_per_sec = tokens_per_sec_per_gpu * gpus
        steps.append(Step("job throughput", "tokens/s per GPU x gpus", f"{n(tokens_per_sec_per_gpu)} x {n(gpus)}",
                          f"{n(tokens_per_sec)} tokens/s"))
    per_token = 6 * N
    ptext, psub = "6 N", f"6 x {n(N)}"
    if attention:
        L = pick(layers, model, "layers", "mfu")
        H = pick(heads, model, "heads", "mfu")
        Q = pick(head_dim, model, "head_dim", "mfu")
        T = seq_len if seq_len is not None else (model.context if model is not None else None)
        if T is None:
            raise CalcError("mfu with attention needs --seq-len")
        per_token = per_token + 12 * L * H * Q * T
        ptext, psub = "6 N + 12 L H Q T", f"6 x {n(N)} + 12 x {n(L)} x {n(H)} x {n(Q)} x {n(T)}"
    steps.append(Step("model FLOPs per token", ptext, psub, q(per_token, "FLOP")))
    peak, text, psteps = peak_for(gpu, peak_tflops, dtype, sparse, "mfu")
    steps += psteps
    achieved = tokens_per_sec * per_token
    steps.append(Step("achieved", "tokens/s x FLOPs per token", f"{n(tokens_per_sec)} x {q(per_token, 'FLOP')}",
                      q(achieved, "FLOP/s")))
    value = achieved / (gpus * peak)
    highest = float(value.max()) if is_array(value) else value
    if highest > 1:
        # Dense peak is a hard ceiling: a throughput above it means a mistyped rate, GPU count or model.
        raise CalcError(f"mfu would be {highest:,.0%} of the GPUs' peak; more than 100% cannot happen "
                        "(check --tokens-per-sec, --gpus and --model)")
    steps.append(Step("MFU", "achieved / (gpus x peak)", f"{q(achieved, 'FLOP/s')} / ({n(gpus)} x {text})",
                      f"{n(value * 100, 3)} %"))
    return value, steps, {"model": model and model.id, "params": N, "tokens_per_sec": tokens_per_sec, "gpus": gpus,
                          "peak_flops": peak, "attention": attention, "gpu": gpu and gpu.id}


def duration_seconds(fname: str, days: Any, hours: Any, duration: Any) -> tuple[Any, str] | None:
    given = [(v, t) for v, t in ((days, "days"), (hours, "h"), (duration, "s")) if v is not None]
    if len(given) > 1:
        raise CalcError(f"{fname}: give one of --days, --hours, --duration")
    if not given:
        return None
    v, unit = given[0]
    secs = v * {"days": 86400.0, "h": 3600.0, "s": 1.0}[unit]
    return secs, q(secs, "s")


@formula(
    "gpu-hours",
    unit="GPU-h",
    summary="GPU-hours: GPUs x duration, or total FLOPs over the achieved rate",
    formula="gpus x hours; or FLOPs / (MFU x peak FLOP/s) / 3600",
    source="Touvron et al. 2023 (Llama 2, arXiv:2307.09288) Table 2; llm-analysis (GPU-hours = latency x GPUs / 3600)",
)
def gpu_hours(*, gpus: Any = None, days: Any = None, hours: Any = None, duration: Any = None, flops: Any = None,
              model: Model | None = None, params: Any = None, tokens: Any = None, recompute: str = "none",
              mfu: Any = None, tflops_per_gpu: Any = None, gpu: GPU | None = None, peak_tflops: Any = None,
              dtype: str = "bf16", sparse: bool = False) -> Any:
    """GPU-hours measure a job's size independently of how many GPUs ran it.
    Sources: Touvron et al. 2023 (Llama 2), Table 2; cli99/llm-analysis.
    """
    d = duration_seconds("gpu-hours", days, hours, duration)
    if d is not None:
        if gpus is None:
            raise CalcError("gpu-hours with a duration needs --gpus")
        secs, text = d
        value = gpus * secs / 3600
        steps = [Step("GPU-hours", "gpus x hours", f"{n(gpus)} x {text}", f"{n(value)} GPU-h")]
        return value, steps, {"gpus": gpus, "seconds": secs}
    F, steps, inputs = _total_flops("gpu-hours", flops, model, params, tokens, recompute)
    rate, rsteps = _rate_per_gpu("gpu-hours", tflops_per_gpu, mfu, gpu, peak_tflops, dtype, sparse)
    steps += rsteps
    value = F / rate / 3600
    steps.append(Step("GPU-hours", "FLOPs / FLOP/s per GPU / 3600", f"{q(F, 'FLOP')} / {q(rate, 'FLOP/s')} / 3600",
                      f"{n(value)} GPU-h"))
    inputs.update(model=model and model.id, rate_per_gpu=rate, gpu=gpu and gpu.id)
    return value, steps, inputs
