"""Helpers shared by the formula modules: resolving a model or GPU, array-safe maths, step text."""

from __future__ import annotations

from typing import Any

from study.calc.specs import GPU, Model
from study.calc.registry import BYTES_PER, QUIET, CalcError, Step
from study.calc.units import Dim, format_number, format_quantity, parse_unit


def is_array(x: Any) -> bool:
    return hasattr(x, "shape") and getattr(x, "ndim", 0) > 0


def vmax(a: Any, b: Any) -> Any:
    if is_array(a) or is_array(b):
        import numpy as np

        return np.maximum(a, b)
    return max(a, b)


def vceil(x: Any) -> Any:
    import math

    if is_array(x):
        import numpy as np

        return np.ceil(x)
    return float(math.ceil(x))


def vfloor(x: Any) -> Any:
    import math

    if is_array(x):
        import numpy as np

        return np.floor(x)
    return float(math.floor(x))


def n(x: Any, digits: int = 4) -> str:
    """A number for a derivation line; arrays are summarised so a sweep does not print a million values."""
    if QUIET.get():
        return ""
    t = type(x)
    if t is int:
        return f"{x:,}"
    if t is float:
        return f"{int(x):,}" if x.is_integer() and abs(x) < 1e15 else format_number(x, digits)
    if is_array(x):
        return f"[{x.size} values]"
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    if isinstance(x, int):
        return f"{x:,}"
    return format_number(float(x), digits)


def q(x: Any, unit: str | Dim) -> str:
    """A value in base units of ``unit`` shown with a readable prefix: q(8e10, "B") -> "80 GB"."""
    if QUIET.get():
        return ""
    if isinstance(unit, str):
        u = parse_unit(unit)
        return format_quantity(x * u.factor if u.factor != 1.0 else x, u.dim)
    return format_quantity(x, unit)


def dtype_bytes(dtype: str) -> float:
    return BYTES_PER[dtype]


def need(name: str, value: Any, fname: str, hint: str = "") -> Any:
    if value is None:
        extra = f" or {hint}" if hint else ""
        raise CalcError(f"{fname} needs --{name.replace('_', '-')}{extra}")
    return value


def pick(explicit: Any, model: Model | None, attr: str, fname: str, hint: str = "--model") -> Any:
    """An explicit number wins over the model's catalog value."""
    if explicit is not None:
        return explicit
    if model is not None:
        return getattr(model, attr)
    raise CalcError(f"{fname} needs --{attr.replace('_', '-')} or {hint}")


def params_for(model: Model | None, params: Any, fname: str, *, active: bool) -> tuple[Any, list[Step]]:
    """Parameter count: explicit, else the model's; a mixture of experts uses active params for FLOPs."""
    if params is not None:
        return params, []
    if model is None:
        raise CalcError(f"{fname} needs --params or --model")
    if active and model.is_moe:
        return model.active_params, [Step(
            "active parameters (mixture of experts)",
            "FLOPs use the parameters one token passes through",
            f"{model.name}: {n(model.active_params)} active of {n(model.params)} total",
            f"N = {n(model.active_params)}",
        )]
    return model.params, []


def peak_for(gpu: GPU | None, peak_tflops: Any, dtype: str, sparse: bool, fname: str) -> tuple[float, str, list[Step]]:
    """Peak FLOP/s per GPU: explicit TFLOP/s, else the GPU's dense tensor rate for ``dtype``."""
    if peak_tflops is not None:
        return peak_tflops * 1e12, f"{n(peak_tflops)} TFLOP/s (given)", []
    if gpu is None:
        raise CalcError(f"{fname} needs --gpu or --peak-tflops")
    from study.calc.specs import CatalogError

    steps: list[Step] = []
    d = dtype
    try:
        peak = gpu.peak_flops(d, sparse)
    except CatalogError:
        if dtype in ("int4", "fp4", "int8", "fp8"):
            # Weight-only quantisation still multiplies in 16-bit on GPUs without the narrow format.
            d = "fp16"
            peak = gpu.peak_flops(d, sparse)
            steps.append(Step("compute precision", f"{gpu.name} has no {dtype} tensor rate",
                              "weights are dequantised and multiplied in fp16", "peak = fp16 rate"))
        elif dtype == "bf16":
            # Pre-Ampere GPUs (T4, V100) have no bf16 tensor cores; 16-bit work runs in fp16 there.
            d = "fp16"
            peak = gpu.peak_flops(d, sparse)
            steps.append(Step("compute precision", f"{gpu.name} has no bf16 tensor rate",
                              "16-bit math runs in fp16 on this GPU", "peak = fp16 rate"))
        else:
            raise
    kind = "sparse" if sparse else "dense"
    return peak, f"{n(peak / 1e12)} TFLOP/s {gpu_source(gpu, f'{d} {kind}')}", steps


def gpu_source(gpu: GPU, detail: str = "") -> str:
    """A GPU named in parentheses after the figure taken from it; a name with its own parenthesis ("NVIDIA
    B200 (HGX B200)") has it turned into a comma, so the step does not read "(NVIDIA B200 (HGX B200))"."""
    name = gpu.name
    if " (" in name and name.endswith(")"):
        base, _, rest = name.partition(" (")
        name = f"{base}, {rest[:-1]}"
    return f"({name}, {detail})" if detail else f"({name})"
