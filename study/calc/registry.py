"""The one registry of calculator formulas, and the types every formula returns.

A formula is a plain function of keyword arguments in natural units. ``@formula`` wraps it so callers may
pass numbers, strings with units (``"80GB"``), ``Quantity`` objects, catalog ids or numpy arrays; the
wrapper coerces them once, by the shared parameter table below, and the function body only does arithmetic
(which numpy broadcasts, so the same code serves one call and a million-point sweep).

Bare numbers are read in base units (B, B/s, FLOP, s) unless the parameter's name carries its unit
(``tflops_per_gpu`` in TFLOP/s, ``days``, ``hours``, ``watts``, ``gpu_hours``, ``energy`` in Wh,
``intensity`` in kgCO2e/kWh, ``price`` in USD/GPU-h).
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, cast
from collections.abc import Callable, Iterable, Iterator

from study.calc.units import ONE, Dim, Quantity, dimension_name, format_quantity, parse_quantity, parse_unit


class Step(NamedTuple):
    """One line of a worked derivation."""

    label: str
    formula: str
    substituted: str
    outcome: str

    def to_dict(self) -> dict[str, str]:
        return self._asdict()


# True while a formula runs for its value only. Formatting the worked steps is most of a call's cost, and
# lint, sweeps and grading rarely read them, so step text is built on demand by running the body again.
# A ContextVar rather than a global so a TUI worker thread explaining a result cannot blank another's text.
QUIET: ContextVar[bool] = ContextVar("study_calc_quiet", default=False)


class Steps(list[Step]):
    """A list of ``Step`` filled on first use from callables that produce them."""

    __slots__ = ("_pending",)

    def __init__(self, *sources: Callable[[], list[Step]]) -> None:
        super().__init__()
        self._pending = list(sources)

    def add(self, source: Callable[[], list[Step]]) -> None:
        self._pending.append(source)

    def _fill(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, []
            for src in pending:
                list.extend(self, src())

    def __iter__(self) -> Iterator[Step]:
        self._fill()
        return list.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return list.__len__(self)

    def __getitem__(self, i: Any) -> Any:
        self._fill()
        return list.__getitem__(self, i)

    def __bool__(self) -> bool:
        self._fill()
        return list.__len__(self) > 0

    def __eq__(self, other: object) -> bool:
        self._fill()
        return list.__eq__(self, other)

    def __repr__(self) -> str:
        self._fill()
        return list.__repr__(self)

    def append(self, step: Step) -> None:
        self._fill()
        list.append(self, step)

    def extend(self, steps: Iterable[Step]) -> None:
        if isinstance(steps, Steps):
            self._fill()
            self._pending.extend(steps._pending)
            list.extend(self, list.__iter__(steps))
            if self._pending:  # keep order: the other list's own pending steps follow its filled ones
                self._fill()
            return
        self._fill()
        list.extend(self, steps)


def explained(body: Callable[[], Any]) -> list[Step]:
    token = QUIET.set(False)
    try:
        steps: list[Step] = body()[1]
        return steps
    finally:
        QUIET.reset(token)


class Result:
    """A formula's answer: ``value`` in ``unit`` (the formula's base unit), with the worked steps.

    ``steps`` are produced when first read (the formula runs again with its step text switched on).
    """

    __slots__ = ("name", "value", "unit", "inputs", "_steps", "_display")

    def __init__(self, name: str, value: Any, unit: str, steps: list[Step] | Callable[[], list[Step]],
                 inputs: dict[str, Any]) -> None:
        self.name, self.value, self.unit, self.inputs = name, value, unit, inputs
        self._steps = steps
        self._display: str | None = None

    @property
    def steps(self) -> list[Step]:
        if callable(self._steps):
            self._steps = self._steps()
        return self._steps

    @property
    def quantity(self) -> Quantity:
        """The value in coherent base units (Wh and GPU-h become J and GPU*s)."""
        u = parse_unit(self.unit)
        return Quantity(self.value * u.factor if u.factor != 1.0 else self.value, u.dim)

    @property
    def dim(self) -> Dim:
        return parse_unit(self.unit).dim

    @property
    def display(self) -> str:
        if self._display is None:
            q = self.quantity
            self._display = format_quantity(q.value, q.dim)
        return self._display

    def to(self, unit: str) -> Any:
        return self.quantity.to(unit)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "inputs": {k: _jsonable(v) for k, v in self.inputs.items()},
            "value": _jsonable(self.value),
            "unit": self.unit,
            "display": self.display,
            "steps": [s.to_dict() for s in self.steps],
        }

    def __repr__(self) -> str:
        return f"Result({self.name!r}, {self.display!r})"


def _jsonable(v: Any) -> Any:
    if hasattr(v, "tolist"):
        return v.tolist()
    if isinstance(v, Quantity):
        return _jsonable(v.value)
    return v


class CalcError(ValueError):
    """A formula was called with a missing, unknown or ill-typed input; the message says which."""


def _first_failing(v: Any, ok: Callable[[Any], Any]) -> float | None:
    """The first value of ``v`` (a number or an array) for which ``ok`` is false, or None."""
    if hasattr(v, "shape"):  # numpy is imported only by callers that pass arrays
        import numpy as np

        arr = np.asarray(v, dtype=float).ravel()
        failing = arr[~ok(arr)]
        return float(failing[0]) if failing.size else None
    return None if ok(v) else float(v)


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # num | qty | frac | str | bool | model | gpu | link
    help: str
    unit: str = ""  # the unit a bare number is read in (kind qty)
    choices: tuple[str, ...] = ()
    default: Any = None
    required: bool = False
    # The valid range, in the unit a bare number is read in. An open end excludes the bound itself.
    low: float = 0.0
    high: float = math.inf
    low_open: bool = False
    high_open: bool = False
    # A count of things (GPUs, layers, sequences): 2.5 GPUs in a ring gave 2(n-1)/n = 1.2, a confident wrong answer.
    whole: bool = False

    @property
    def range_text(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        lo = f"{'above' if self.low_open else 'at least'} {_short(self.low)}{unit}"
        if math.isinf(self.high):
            return lo
        hi = f"{'below' if self.high_open else 'at most'} {_short(self.high)}{unit}"
        return f"{lo} and {hi}"

    @property
    def range_short(self) -> str:
        """``1 to 1e9``, ``>0 to 1e15``, ``0 to <1``: the range in a help table's column."""
        return f"{'>' if self.low_open else ''}{_short(self.low)} to {'<' if self.high_open else ''}{_short(self.high)}"

    def check_range(self, v: Any) -> Any:
        """``v`` itself when every value lies in the range (so no formula sees NaN, infinity or a negative
        size) and, for a count, is whole; else a ``CalcError`` naming the parameter and what it must be."""
        bad = _first_failing(v, self._in_range)
        if bad is not None:
            raise CalcError(f"{self.name} must be {self.range_text}; got {_short(bad)}")
        if self.whole:
            bad = _first_failing(v, lambda x: x % 1 == 0)
            if bad is not None:
                raise CalcError(f"{self.name} must be a whole number; got {_short(bad)}")
        return v

    def _in_range(self, x: Any) -> Any:
        # Written so NaN compares false everywhere; infinity fails the finite upper bound or the isfinite test.
        above = (x > self.low) if self.low_open else (x >= self.low)
        below = (x < self.high) if self.high_open else (x <= self.high)
        finite = (x - x) == 0  # inf - inf and nan - nan are NaN
        return above & below & finite

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def type_label(self) -> str:
        if self.kind == "qty":
            return self.unit
        return {"num": "number", "frac": "fraction", "bool": "yes/no", "str": "|".join(self.choices) or "text",
                "model": "model id", "gpu": "GPU id", "link": "link id"}[self.kind]


def _short(x: float) -> str:
    """1e+09 -> 1e9, 4096.0 -> 4096: numbers as a user would type them."""
    return f"{x:g}".replace("e+0", "e").replace("e+", "e").replace("e-0", "e-")


DTYPES = ("fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "fp4")
RECOMPUTE = ("none", "selective", "full")

# The shared parameter names: one meaning and one unit per name across every formula.
# Each range is generous (far past any real system) but finite, so a product of a few inputs stays finite too.
SHARED: dict[str, Param] = {p.name: p for p in [
    Param("model", "model", "model catalog id (study calc models); explicit numbers override its values"),
    Param("gpu", "gpu", "GPU catalog id (study calc gpus); explicit numbers override its values"),
    Param("link", "link", "interconnect catalog id (nvlink-4, pcie-gen5-x16, ib-ndr, eth-400g)"),
    Param("params", "num", "number of parameters (total; MoE memory uses all experts)", low_open=True, high=1e15),
    Param("active_params", "num", "parameters active per token (MoE); FLOPs use these", low_open=True, high=1e15),
    Param("tokens", "num", "number of tokens", low_open=True, high=1e18),
    Param("gpus", "num", "number of GPUs", low=1, high=1e8, whole=True),
    Param("dtype", "str", "number format of weights / KV / math", choices=DTYPES),
    Param("bytes_per_param", "num", "bytes per parameter (overrides dtype)", low_open=True, high=64),
    Param("batch", "num", "batch size (sequences)", low=1, high=1e8, whole=True),
    # 0 is "no context yet" (decode without a KV cache); formulas that size the context itself ask for >= 1.
    Param("seq_len", "num", "sequence length / context in tokens", high=1e9, whole=True),
    Param("prompt_len", "num", "prompt (input) length in tokens", low=1, high=1e9, whole=True),
    Param("layers", "num", "transformer layers", low=1, high=1e4, whole=True),
    Param("hidden", "num", "hidden size (d_model)", low=1, high=1e7, whole=True),
    Param("heads", "num", "attention (query) heads", low=1, high=1e5, whole=True),
    Param("kv_heads", "num", "key/value heads (GQA/MQA); equals heads for plain multi-head attention", low=1, high=1e5, whole=True),
    Param("head_dim", "num", "dimension per head (default hidden/heads)", low=1, high=1e6, whole=True),
    Param("vocab", "num", "vocabulary size", low=1, high=1e8, whole=True),
    Param("flops", "qty", "total compute", unit="FLOP", low_open=True, high=1e35),
    Param("mfu", "frac", "model FLOPs utilisation, 0-1 or a percentage", low_open=True, high=1),
    Param("tflops_per_gpu", "qty", "achieved throughput per GPU", unit="TFLOP/s", low_open=True, high=1e6),
    Param("peak_tflops", "qty", "peak dense throughput per GPU (overrides the GPU's)", unit="TFLOP/s",
          low_open=True, high=1e6),
    Param("tokens_per_sec", "qty", "observed throughput of the whole job", unit="tokens/s", low_open=True, high=1e15),
    Param("tokens_per_sec_per_gpu", "qty", "observed throughput per GPU", unit="tokens/s", low_open=True, high=1e12),
    Param("recompute", "str", "activation recomputation", choices=RECOMPUTE),
    Param("zero", "num", "ZeRO stage 0-3", high=3),
    Param("dp", "num", "data-parallel degree", low=1, high=1e8, whole=True),
    Param("tp", "num", "tensor-parallel degree", low=1, high=1e6, whole=True),
    Param("sp", "bool", "sequence parallelism (with tensor parallelism)"),
    Param("days", "qty", "duration in days", unit="days", low_open=True, high=1e6),
    Param("hours", "qty", "duration in hours", unit="h", low_open=True, high=1e7),
    Param("duration", "qty", "a duration with a unit ('2 days', '36 h')", unit="s", low_open=True, high=1e11),
    Param("gpu_hours", "qty", "GPU-hours", unit="GPU-h", low_open=True, high=1e13),
    Param("watts", "qty", "power per GPU (default: the GPU's TDP)", unit="W", low_open=True, high=1e6),
    Param("pue", "num", "power usage effectiveness of the data centre (>= 1)", low=1, high=10),
    Param("energy", "qty", "energy", unit="Wh", high=1e18),
    Param("intensity", "qty", "grid carbon intensity", unit="kgCO2e/kWh", high=10),
    Param("price", "qty", "price per GPU-hour", unit="USD/GPU-h", high=1e6),
    Param("bytes", "qty", "data size", unit="B", low_open=True, high=1e21),
    Param("bandwidth", "qty", "bandwidth (overrides the link's or GPU's)", unit="B/s", low=1, high=1e20),
    Param("memory", "qty", "memory per GPU (overrides the GPU's)", unit="B", low=1, high=1e16),
    Param("sparse", "bool", "use sparse (2:4) tensor throughput instead of dense"),
    Param("attention", "bool", "include the attention FLOPs term"),
    Param("efficiency", "frac", "fraction of the peak actually achieved", low_open=True, high=1),
    Param("overhead", "frac", "extra memory on top of weights and KV cache (activations, CUDA context)", high=1),
    Param("reserve", "frac", "fraction of GPU memory kept free", high=1, high_open=True),
    Param("power_of_two", "bool", "round the GPU count up to a power of two (a tensor-parallel size)"),
    Param("optimizer", "bool", "include the optimizer state"),
    Param("direction", "str", "one-way uses the per-direction rate; both counts the two directions",
          choices=("one-way", "both")),
]}


@dataclass
class Formula:
    name: str
    pyname: str
    unit: str
    summary: str
    formula: str
    source: str
    params: tuple[Param, ...]
    func: Callable[..., Result] = field(repr=False)
    doc: str = ""

    def __call__(self, **kwargs: Any) -> Result:
        return self.func(**kwargs)

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def dim(self) -> Dim:
        return parse_unit(self.unit).dim


class FormulaFn(Protocol):
    """A registered formula: called with keyword inputs it returns a ``Result``; ``raw`` is the undecorated
    body, which another formula calls on inputs it has already coerced."""

    raw: Callable[..., Any]
    __name__: str

    def __call__(self, **kwargs: Any) -> Result: ...


FUNCTIONS: dict[str, Formula] = {}
BY_PYNAME: dict[str, Formula] = {}


def formula(name: str, *, unit: str, summary: str, formula: str, source: str,
            help: dict[str, str] | None = None,
            at_least: dict[str, float] | None = None) -> Callable[[Callable[..., Any]], FormulaFn]:
    """Register ``fn`` under ``name``; its keyword-only parameters must be names from ``SHARED``.

    ``at_least`` narrows a shared range for this formula (``seq_len`` may be 0 for a decode step, not for a
    KV cache).

    ``fn`` returns ``(value, steps, inputs)``; the wrapper builds the ``Result``.
    """

    def deco(fn: Callable[..., Any]) -> FormulaFn:
        sig = inspect.signature(fn)
        params = []
        for pname, p in sig.parameters.items():
            base = SHARED[pname]  # KeyError here is a programming error: add the name to SHARED first
            required = p.default is inspect.Parameter.empty
            text = (help or {}).get(pname, base.help)
            low = (at_least or {}).get(pname, base.low)
            params.append(dataclasses.replace(base, help=text, default=None if required else p.default,
                                              required=required, low=low, low_open=base.low_open and low == base.low))
        ptuple = tuple(params)
        known = {p.name: p for p in ptuple}

        def wrapper(**kwargs: Any) -> Result:
            args = {}
            for k, v in kwargs.items():
                p = known.get(k)
                if p is None:
                    raise CalcError(f"{name} has no parameter {k!r}{_did_you_mean(k, known)}")
                if v is None:
                    continue
                args[k] = coerce(p, v, name)
            for p in ptuple:
                if p.required and p.name not in args:
                    raise CalcError(f"{name} needs {p.option.lstrip('-')} ({p.help})")
            token = QUIET.set(True)
            try:
                value, _, inputs = fn(**args)
            except (ZeroDivisionError, OverflowError) as exc:
                raise CalcError(f"{name} gives no finite result for these inputs ({exc})") from None
            finally:
                QUIET.reset(token)
            _check_finite(name, value)
            return Result(name, value, unit, lambda: explained(lambda: fn(**args)), inputs)

        wrapper.__name__ = fn.__name__
        wrapper.__qualname__ = fn.__qualname__
        wrapper.__doc__ = fn.__doc__
        wrapper.__module__ = fn.__module__
        registered = cast(FormulaFn, wrapper)  # a function object takes the extra attribute the Protocol names
        registered.raw = fn
        f = Formula(name, fn.__name__, unit, summary, formula, source, ptuple, wrapper, inspect.cleandoc(fn.__doc__ or ""))
        FUNCTIONS[name] = f
        BY_PYNAME[fn.__name__] = f
        return registered

    return deco


def _check_finite(fname: str, value: Any) -> None:
    """Inputs inside their ranges can still combine into an overflow; a result is a finite number or an error."""
    if hasattr(value, "shape"):
        import numpy as np

        finite = bool(np.isfinite(np.asarray(value, dtype=float)).all())
    else:
        finite = isinstance(value, (int, float)) and math.isfinite(value)
    if not finite:
        raise CalcError(f"{fname} gives no finite result for these inputs")


def _did_you_mean(word: str, options: Any) -> str:
    import difflib

    near = difflib.get_close_matches(word, list(options), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(near)}?)" if near else ""


_TRUE = {"1", "true", "yes", "on", "y", "t"}
_FALSE = {"0", "false", "no", "off", "n", "f", "none"}


def coerce(p: Param, v: Any, fname: str = "") -> Any:
    """Turn a caller's value into what the formula body expects for parameter ``p``, inside its range."""
    value = _coerce(p, v, fname)
    if p.kind in ("num", "qty", "frac"):
        p.check_range(value)
    return value


def _coerce(p: Param, v: Any, fname: str = "") -> Any:
    kind = p.kind
    if kind == "num":
        if type(v) is int or type(v) is float:
            return v
        if isinstance(v, Quantity):
            if not v.dim.without_counts().is_dimensionless:
                raise CalcError(f"{p.name} is a number; got {dimension_name(v.dim)}")
            return v.value
        if isinstance(v, str):
            q = _parse(p, v)
            if not q.dim.without_counts().is_dimensionless:
                raise CalcError(f"{p.name} is a number; got {dimension_name(q.dim)} ({v!r})")
            # "4096" from the command line stays a whole number in --json inputs and derivations.
            return int(q.value) if q.value.is_integer() and abs(q.value) < 1e9 else q.value
        if isinstance(v, bool):
            raise CalcError(f"{p.name} is a number, not {v}")
        return _array_or_number(p, v)
    if kind == "qty":
        unit = parse_unit(p.unit)
        if type(v) is int or type(v) is float:
            return v
        if isinstance(v, str):
            v = _parse(p, v)
        if isinstance(v, Quantity):
            if v.dim.is_dimensionless:
                return v.value
            if v.dim != unit.dim and v.dim.without_counts() != unit.dim.without_counts():
                raise CalcError(f"{p.name} is {dimension_name(unit.dim)} ({p.unit}); got {dimension_name(v.dim)}")
            return v.value / unit.factor
        return _array_or_number(p, v)
    if kind == "frac":
        if isinstance(v, str):
            v = _parse(p, v)
        if isinstance(v, Quantity):
            if not v.dim.is_dimensionless:
                raise CalcError(f"{p.name} is a fraction; got {dimension_name(v.dim)}")
            v = v.value
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if not 0 <= v <= 1:
                raise CalcError(f"{p.name} is a fraction between 0 and 1; got {v} (write 0.4 or 40%)")
            return float(v)
        return _array_or_number(p, v)
    if kind == "bool":
        if isinstance(v, bool):
            return v
        if isinstance(v, (int, float)) and v in (0, 1):
            return bool(v)
        if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
            return v.strip().lower() in _TRUE
        raise CalcError(f"{p.name} is yes or no; got {v!r}")
    if kind == "str":
        if p.name == "recompute" and isinstance(v, bool):
            return "full" if v else "none"
        s = str(v).strip().lower()
        if p.name == "dtype":
            s = DTYPE_ALIASES.get(s.replace("-", "").replace("_", ""), s)
        if p.name == "recompute":
            s = {"true": "full", "yes": "full", "1": "full", "false": "none", "no": "none", "0": "none"}.get(s, s)
        if p.choices and s not in p.choices:
            raise CalcError(f"{p.name} must be one of {', '.join(p.choices)}; got {v!r}{_did_you_mean(s, p.choices)}")
        return s
    if kind in ("model", "gpu", "link"):
        from study.calc import specs

        if isinstance(v, (specs.GPU, specs.Model, specs.Link)):
            return v
        return specs.catalog().find(kind, str(v))
    raise AssertionError(kind)


# Counts (parameters, tokens, context lengths) are written 70B, 2T, 4k; "B" would otherwise read as bytes.
COUNT_MULTIPLIERS = {"k": 1e3, "K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}


def _parse(p: Param, text: str) -> Quantity:
    stripped = text.strip()
    if p.kind == "num" and stripped[-1:] in COUNT_MULTIPLIERS:
        try:
            q = parse_quantity(stripped[:-1])
        except ValueError:
            pass
        else:
            if q.dim.is_dimensionless:
                return Quantity(q.value * COUNT_MULTIPLIERS[stripped[-1]], ONE)
    try:
        return parse_quantity(text)
    except ValueError as exc:
        unit_slip = p.kind == "num" and str(exc).startswith("unknown unit") and "did you mean" not in str(exc)
        hint = " (a count takes k, M, B or T: 4k, 70B)" if unit_slip else ""
        raise CalcError(f"{p.name} {text!r}: {exc}{hint}") from None


def _array_or_number(p: Param, v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        import numpy as np

        return np.asarray(v, dtype=float)
    if hasattr(v, "dtype") and hasattr(v, "shape"):  # numpy array or scalar
        return v
    raise CalcError(f"{p.name}: expected a number, got {type(v).__name__}")


DTYPE_ALIASES = {
    "float32": "fp32", "fp32": "fp32", "float": "fp32", "single": "fp32",
    "tf32": "tf32", "tensorfloat32": "tf32",
    "bfloat16": "bf16", "bf16": "bf16",
    "float16": "fp16", "fp16": "fp16", "half": "fp16",
    "fp8": "fp8", "float8": "fp8", "e4m3": "fp8", "e5m2": "fp8",
    "int8": "int8", "i8": "int8",
    "int4": "int4", "i4": "int4",
    "fp4": "fp4", "nvfp4": "fp4", "mxfp4": "fp4", "float4": "fp4",
}

# Storage bytes per value. TF32 is a tensor-core math mode: values live in 32-bit registers and memory.
BYTES_PER = {"fp32": 4.0, "tf32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5, "fp4": 0.5}


def call(name: str, **kwargs: Any) -> Result:
    """Run the formula registered as ``name`` (kebab-case, ``kv-cache``; snake_case is accepted too)."""
    _ensure_loaded()
    f = FUNCTIONS.get(name) or BY_PYNAME.get(name) or FUNCTIONS.get(name.replace("_", "-"))
    if f is None:
        raise CalcError(f"no calculator function {name!r}{_did_you_mean(name, FUNCTIONS)}")
    return f.func(**kwargs)


def _ensure_loaded() -> None:
    if not FUNCTIONS:
        import study.calc.formulas  # noqa: F401  (registers every formula)
