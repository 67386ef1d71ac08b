"""The embedded calculator: units, the GPU/model/interconnect catalog, sizing formulas, safe expressions.

Pure Python on the scalar path (numpy is imported only when a caller passes arrays), no Textual.
Every formula returns a ``Result`` with its value in the formula's unit and the worked steps::

    >>> from study.calc import call
    >>> call("kv-cache", model="llama-2-70b", seq_len=4096, batch=1, dtype="fp16").display
    '1.34 GB'
"""

from __future__ import annotations

from study.calc.units import (
    Dim,
    DimensionError,
    Quantity,
    Unit,
    convert,
    dimension_name,
    format_number,
    format_quantity,
    parse_quantity,
    parse_unit,
)
from study.calc.registry import (
    BYTES_PER,
    DTYPES,
    FUNCTIONS,
    SHARED,
    CalcError,
    Formula,
    Param,
    Result,
    Step,
    call,
)
from study.calc.specs import GPU, CatalogError, Link, Model, catalog, gpu, link, model
import study.calc.formulas  # noqa: E402,F401  (registers every formula in FUNCTIONS)
from study.calc.formulas.memory import (
    activation_memory,
    checkpoint_size,
    gpus_needed,
    kv_cache,
    max_batch,
    training_memory,
    weights_memory,
)
from study.calc.formulas.compute import forward_flops, gpu_hours, megatron_flops, mfu, training_flops, training_time
from study.calc.formulas.latency import decode_time, prefill_time, ridge_point, tokens_per_second, ttft
from study.calc.formulas.network import (
    allgather_time,
    allreduce_time,
    checkpoint_write_time,
    storage_read_time,
    transfer_time,
)
from study.calc.formulas.energy import co2, cost, energy
from study.calc.expr import Evaluation, Expr, ExprError, compile_expr, evaluate, value_in_unit

__all__ = [
    "Dim", "DimensionError", "Quantity", "Unit", "convert", "dimension_name", "format_number", "format_quantity",
    "parse_quantity", "parse_unit",
    "BYTES_PER", "DTYPES", "FUNCTIONS", "SHARED", "CalcError", "Formula", "Param", "Result", "Step", "call",
    "GPU", "CatalogError", "Link", "Model", "catalog", "gpu", "link", "model",
    "Evaluation", "Expr", "ExprError", "compile_expr", "evaluate", "value_in_unit",
    "weights_memory", "kv_cache", "training_memory", "activation_memory", "checkpoint_size", "max_batch",
    "gpus_needed", "training_flops", "megatron_flops", "forward_flops", "training_time", "mfu", "gpu_hours",
    "prefill_time", "decode_time", "ttft", "tokens_per_second", "ridge_point", "allreduce_time", "allgather_time",
    "transfer_time", "storage_read_time", "checkpoint_write_time", "energy", "co2", "cost",
]
