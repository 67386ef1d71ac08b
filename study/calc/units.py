"""Units and dimensions for the calculator.

Decimal SI prefixes by default (1 GB = 1e9 B), binary only when named (GiB). Bits are bytes/8 and spelled
with a lower-case ``b`` (``Gb/s``), bytes with an upper-case ``B`` (``GB/s``): mixing the two up is the
most common sizing mistake (see reference/calculator.md, pitfall 2), so the parser is case-sensitive there.

Coherent base units: B, FLOP, s, token, GPU, J, kgCO2e, USD. Energy is kept in joules so that
``W * s`` needs no factor; results whose customary unit is ``Wh`` or ``GPU-h`` convert at the edge.
Everything here works on plain floats and on numpy arrays alike; numpy is never imported.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, NamedTuple
from collections.abc import Iterator

_AXES = ("B", "FLOP", "s", "token", "GPU", "J", "kgCO2e", "USD")


_OPS: dict[tuple[tuple[int, ...], tuple[int, ...], int], Dim] = {}  # products and quotients already built: expressions combine the same few


class Dim:
    """An immutable vector of integer exponents over the base axes (B, FLOP, s, token, GPU, J, kgCO2e, USD)."""

    __slots__ = ("exps", "_hash")
    exps: tuple[int, ...]
    _hash: int

    def __init__(self, *exps: int, **named: int) -> None:
        if named:
            vals = [0] * len(_AXES)
            for k, v in named.items():
                vals[_AXES.index(k)] = v
            exps = tuple(vals)
        elif not exps:
            exps = (0,) * len(_AXES)
        if len(exps) != len(_AXES):
            raise ValueError(f"a Dim has {len(_AXES)} exponents")
        exps = tuple(int(e) for e in exps)
        object.__setattr__(self, "exps", exps)
        object.__setattr__(self, "_hash", hash(exps))  # Dims key the unit ladders: hash once

    def __setattr__(self, name: str, value: Any) -> None:  # immutability
        raise AttributeError("Dim is immutable")

    def __mul__(self, other: Dim) -> Dim:
        key = (self.exps, other.exps, 1)
        d = _OPS.get(key)
        if d is None:
            d = _OPS[key] = Dim(*(a + b for a, b in zip(self.exps, other.exps)))
        return d

    def __truediv__(self, other: Dim) -> Dim:
        key = (self.exps, other.exps, -1)
        d = _OPS.get(key)
        if d is None:
            d = _OPS[key] = Dim(*(a - b for a, b in zip(self.exps, other.exps)))
        return d

    def __pow__(self, n: int) -> Dim:
        return Dim(*(a * n for a in self.exps))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Dim) and self.exps == other.exps)

    def __hash__(self) -> int:
        return self._hash

    def __bool__(self) -> bool:
        return any(self.exps)

    @property
    def is_dimensionless(self) -> bool:
        return not any(self.exps)

    def without_counts(self) -> Dim:
        """The dimension with tokens and GPUs dropped: ``tokens/s`` grades like ``1/s``, ``GPUs`` like a number."""
        if not (self.exps[3] or self.exps[4]):
            return self
        e = list(self.exps)
        e[3] = e[4] = 0
        return Dim(*e)

    def __repr__(self) -> str:
        return f"Dim({base_unit_string(self)!r})"


ONE = Dim()
BYTES = Dim(B=1)
FLOP = Dim(FLOP=1)
TIME = Dim(s=1)
TOKENS = Dim(token=1)
GPUS = Dim(GPU=1)
ENERGY = Dim(J=1)
POWER = Dim(J=1, s=-1)
CO2 = Dim(kgCO2e=1)
MONEY = Dim(USD=1)
BANDWIDTH = BYTES / TIME
FLOP_RATE = FLOP / TIME
GPU_TIME = GPUS * TIME
TOKEN_RATE = TOKENS / TIME


def base_unit_string(dim: Dim) -> str:
    """``B/s``, ``FLOP/s``, ``1``: the dimension written in base units."""
    num = [a if e == 1 else f"{a}^{e}" for a, e in zip(_AXES, dim.exps) if e > 0]
    den = [a if e == -1 else f"{a}^{-e}" for a, e in zip(_AXES, dim.exps) if e < 0]
    top = "*".join(num) or "1"
    if not den:
        return top
    return f"{top}/{den[0]}" if len(den) == 1 else f"{top}/({'*'.join(den)})"


class Unit(NamedTuple):
    name: str
    factor: float  # multiply a value in this unit by factor to get base units
    dim: Dim


class Quantity:
    """A value in coherent base units with its dimension; arithmetic tracks dimensions.

    ``value`` may be a float or a numpy array. Adding or comparing mismatched dimensions raises
    ``DimensionError`` so a formula or an expression cannot silently add bytes to seconds.
    """

    __slots__ = ("value", "dim")

    def __init__(self, value: Any, dim: Dim = ONE) -> None:
        self.value = value
        self.dim = dim

    def __iter__(self) -> Iterator[Any]:  # lets ``value, dim = q`` work like the NamedTuple the API promises
        yield self.value
        yield self.dim

    def _same(self, other: Any, op: str) -> Quantity:
        o = other if isinstance(other, Quantity) else Quantity(other, ONE)
        if o.dim != self.dim:
            raise DimensionError(
                f"cannot {op} {dimension_name(self.dim)} ({base_unit_string(self.dim)}) and "
                f"{dimension_name(o.dim)} ({base_unit_string(o.dim)})"
            )
        return o

    def __add__(self, other: Any) -> Quantity:
        return Quantity(self.value + self._same(other, "add").value, self.dim)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Quantity:
        return Quantity(self.value - self._same(other, "subtract").value, self.dim)

    def __rsub__(self, other: Any) -> Quantity:
        return Quantity(self._same(other, "subtract").value - self.value, self.dim)

    def __mul__(self, other: Any) -> Quantity:
        if isinstance(other, Quantity):
            return Quantity(self.value * other.value, self.dim * other.dim)
        return Quantity(self.value * other, self.dim)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Quantity:
        if isinstance(other, Quantity):
            return Quantity(self.value / other.value, self.dim / other.dim)
        return Quantity(self.value / other, self.dim)

    def __rtruediv__(self, other: Any) -> Quantity:
        return Quantity(other / self.value, ONE / self.dim)

    def __neg__(self) -> Quantity:
        return Quantity(-self.value, self.dim)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Quantity) and other.dim == self.dim and bool(other.value == self.value)

    __hash__ = None  # type: ignore[assignment]

    def to(self, unit: str) -> float:
        u = parse_unit(unit)
        if u.dim != self.dim:
            raise DimensionError(
                f"cannot express {dimension_name(self.dim)} in {unit} ({dimension_name(u.dim)})"
            )
        value: float = self.value / u.factor  # an array where value is one (the calculator's sweeps)
        return value

    def __format__(self, spec: str) -> str:
        return format_quantity(self.value, self.dim)

    def __str__(self) -> str:
        return format_quantity(self.value, self.dim)

    def __repr__(self) -> str:
        return f"Quantity({self.value!r}, {base_unit_string(self.dim)!r})"


class DimensionError(ValueError):
    """Two quantities of different kinds were combined (bytes + seconds)."""


# --- the unit table -----------------------------------------------------------------------------------

_DEC = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15, "E": 1e18, "Z": 1e21}
_BIN = {"Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60}


def _build_table() -> dict[str, tuple[float, Dim]]:
    t: dict[str, tuple[float, Dim]] = {}
    for p, f in _DEC.items():
        t[f"{p}B"] = (f, BYTES)
        t[f"{p}b"] = (f / 8, BYTES)  # bits: always one-eighth of a byte
        t[f"{p}bit"] = (f / 8, BYTES)
        t[f"{p}FLOP"] = (f, FLOP)
        t[f"{p}FLOPs"] = (f, FLOP)  # plural of FLOP: an amount (PaLM spelling); FLOPS is a rate
        t[f"{p}FLOPS"] = (f, FLOP_RATE)
        t[f"{p}OPS"] = (f, FLOP_RATE)  # integer tensor ops per second, counted like FLOP/s
        t[f"{p}W"] = (f, POWER)
        t[f"{p}Wh"] = (f * 3600, ENERGY)
        t[f"{p}J"] = (f, ENERGY)
    for p, f in _BIN.items():
        t[f"{p}B"] = (f, BYTES)
        t[f"{p}b"] = (f / 8, BYTES)
    for bad in ("KFLOPS", "kOPS"):
        t.pop(bad, None)
    t["Bytes"] = t["bytes"] = t["byte"] = (1.0, BYTES)
    t["bits"] = (1 / 8, BYTES)
    t["ops"] = t["OP"] = (1.0, FLOP)
    t.update(
        {
            "ns": (1e-9, TIME), "us": (1e-6, TIME), "µs": (1e-6, TIME), "μs": (1e-6, TIME),
            "ms": (1e-3, TIME), "s": (1.0, TIME), "sec": (1.0, TIME), "second": (1.0, TIME),
            "seconds": (1.0, TIME), "min": (60.0, TIME), "mins": (60.0, TIME), "minute": (60.0, TIME),
            "minutes": (60.0, TIME), "h": (3600.0, TIME), "hr": (3600.0, TIME), "hrs": (3600.0, TIME),
            "hour": (3600.0, TIME), "hours": (3600.0, TIME), "d": (86400.0, TIME), "day": (86400.0, TIME),
            "days": (86400.0, TIME), "week": (604800.0, TIME), "weeks": (604800.0, TIME),
            "TOPS": (1e12, FLOP_RATE),
            "token": (1.0, TOKENS), "tokens": (1.0, TOKENS), "tok": (1.0, TOKENS),
            "GPU": (1.0, GPUS), "GPUs": (1.0, GPUS), "gpu": (1.0, GPUS), "gpus": (1.0, GPUS),
            "GPU-h": (3600.0, GPU_TIME), "GPU-hour": (3600.0, GPU_TIME), "GPU-hours": (3600.0, GPU_TIME),
            "GPUh": (3600.0, GPU_TIME), "GPU-s": (1.0, GPU_TIME), "GPU-day": (86400.0, GPU_TIME),
            "GPU-days": (86400.0, GPU_TIME),
            "gCO2e": (1e-3, CO2), "kgCO2e": (1.0, CO2), "tCO2e": (1e3, CO2),
            "gCO2eq": (1e-3, CO2), "kgCO2eq": (1.0, CO2), "tCO2eq": (1e3, CO2),
            "USD": (1.0, MONEY), "$": (1.0, MONEY),
            "%": (0.01, ONE), "1": (1.0, ONE), "x": (1.0, ONE),
        }
    )
    return t


_TABLE = _build_table()

# The unit is everything after the number, stripped in Python: a lazy ``(.*?)\s*$`` retried the trailing
# ``\s*`` at every character, quadratic on an answer full of blanks.
_NUMBER_RE = re.compile(
    r"\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?)(.*)\Z",
    re.S,
)
# Longer than any number with a unit a person types ("1,234,567.89 GB/s"); bounds every pattern's work.
MAX_QUANTITY_TEXT = 200


@lru_cache(maxsize=512)
def parse_unit(text: str) -> Unit:
    """``"GB/s"`` -> ``Unit("GB/s", 1e9, B/s)``. Compound units use ``/`` and ``*`` (or ``·``)."""
    name = text.strip()
    if not name:
        return Unit("1", 1.0, ONE)
    if name in _TABLE:
        f, d = _TABLE[name]
        return Unit(name, f, d)
    if len(name) > MAX_QUANTITY_TEXT:
        raise ValueError(f"a {len(name):,}-character unit is not one study knows (limit {MAX_QUANTITY_TEXT})")
    # ``kgCO2e/kWh``, ``USD/GPU-h``, ``tokens/s``: split on / and *, left to right.
    parts = [part.strip() for part in re.split(r"([/*·])", name)]
    factor, dim, op = 1.0, ONE, "*"
    for part in parts:
        if part in ("/", "*", "·"):
            op = part
            continue
        if part not in _TABLE:
            where = f" in {text!r}" if part != name else ""
            raise ValueError(f"unknown unit {part!r}{where}{_unit_hint(part)}")
        f, d = _TABLE[part]
        if op == "/":
            factor, dim = factor / f, dim / d
        else:
            factor, dim = factor * f, dim * d
    return Unit(name, factor, dim)


def _unit_hint(part: str) -> str:
    import difflib

    # Case first: 'gb' is almost always GB, never the bit 'b' that plain string similarity prefers; a
    # trailing 'ps' is "per second" (Gbps is Gb/s).
    folded = [u for u in _TABLE if u.lower() == part.lower()]
    if part.lower().endswith("ps") and len(part) > 2:
        # "bps" counts bits, so Gbps is Gb/s before GB/s.
        bases = sorted((u for u in _TABLE if u.lower() == part[:-2].lower()), key=lambda u: not u.endswith("b"))
        folded += [f"{u}/s" for u in bases]
    near = list(dict.fromkeys(folded + difflib.get_close_matches(part, list(_TABLE), n=3, cutoff=0.6)))[:3]
    return f" (did you mean {', '.join(near)}?)" if near else ""


def parse_quantity(text: str | int | float) -> Quantity:
    """``"21.5 GB"`` -> ``Quantity(2.15e10, B)``; a bare number is dimensionless; ``"72 %"`` -> 0.72."""
    if isinstance(text, bool):
        raise ValueError("expected a number with an optional unit, got a boolean")
    if isinstance(text, (int, float)):
        return Quantity(float(text), ONE)
    if len(text) > MAX_QUANTITY_TEXT:
        raise ValueError(f"expected a number with an optional unit, got {len(text):,} characters "
                         f"(limit {MAX_QUANTITY_TEXT})")
    m = _NUMBER_RE.match(text)
    if not m:
        raise ValueError(f"expected a number with an optional unit (like '80 GB' or '1.2e9'), got {text!r}")
    number, unit = m.group(1), m.group(2).strip()
    try:
        u = parse_unit(unit)
    except ValueError:
        raise  # the caller names the text it read ("cannot read '14.5gb'..."); saying it twice repeats itself
    value = float(number.replace(",", ""))
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {text!r}")
    return Quantity(value * u.factor, u.dim)


def convert(base_value: Any, unit: str) -> Any:
    """A value in base units expressed in ``unit``: ``convert(2.15e10, "GB") == 21.5``."""
    return base_value / parse_unit(unit).factor


# --- names and formatting -----------------------------------------------------------------------------

_NAMES = {
    BYTES: "a size",
    TIME: "a time",
    BANDWIDTH: "a bandwidth",
    FLOP: "a compute amount",
    FLOP_RATE: "a compute rate",
    POWER: "a power",
    ENERGY: "an energy",
    ONE: "a number",
    GPUS: "a count of GPUs",
    TOKENS: "a count of tokens",
    TOKEN_RATE: "a token rate",
    GPU_TIME: "GPU time",
    CO2: "an emission",
    MONEY: "a cost",
    FLOP / BYTES: "an arithmetic intensity",
    MONEY / GPU_TIME: "a price per GPU-hour",
    CO2 / ENERGY: "a carbon intensity",
    ONE / TIME: "a frequency",
    TIME / TOKENS: "a time per token",
    BYTES / TOKENS: "a size per token",
}


def dimension_name(dim: Dim) -> str:
    """A phrase for grading messages: ``"a size"``, ``"a time"``, ``"a bandwidth"``..."""
    return _NAMES.get(dim, f"a quantity in {base_unit_string(dim)}")


# (threshold in base units, unit name, factor) from largest to smallest; the first threshold met wins.
_LADDERS: dict[Dim, list[tuple[float, str, float]]] = {
    BYTES: [(1e15, "PB", 1e15), (1e12, "TB", 1e12), (1e9, "GB", 1e9), (1e6, "MB", 1e6), (1e3, "KB", 1e3),
            (0, "B", 1.0)],
    BANDWIDTH: [(1e12, "TB/s", 1e12), (1e9, "GB/s", 1e9), (1e6, "MB/s", 1e6), (1e3, "KB/s", 1e3),
                (0, "B/s", 1.0)],
    FLOP: [(1e12, "TFLOP", 1e12), (1e9, "GFLOP", 1e9), (1e6, "MFLOP", 1e6), (0, "FLOP", 1.0)],
    FLOP_RATE: [(1e18, "EFLOP/s", 1e18), (1e15, "PFLOP/s", 1e15), (1e12, "TFLOP/s", 1e12),
                (1e9, "GFLOP/s", 1e9), (0, "FLOP/s", 1.0)],
    TIME: [(2 * 86400, "days", 86400.0), (2 * 3600, "h", 3600.0), (120, "min", 60.0), (1, "s", 1.0),
           (1e-3, "ms", 1e-3), (1e-6, "µs", 1e-6), (0, "ns", 1e-9)],
    POWER: [(1e6, "MW", 1e6), (1e3, "kW", 1e3), (0, "W", 1.0)],
    ENERGY: [(3.6e12, "GWh", 3.6e12), (3.6e9, "MWh", 3.6e9), (3.6e6, "kWh", 3.6e6), (0, "Wh", 3600.0)],
    CO2: [(1e3, "tCO2e", 1e3), (0, "kgCO2e", 1.0)],
    MONEY: [(0, "USD", 1.0)],
    GPU_TIME: [(0, "GPU-h", 3600.0)],
    GPUS: [(0, "GPUs", 1.0)],
    TOKENS: [(0, "tokens", 1.0)],
    TOKEN_RATE: [(0, "tokens/s", 1.0)],
    FLOP / BYTES: [(0, "FLOP/B", 1.0)],
    ONE: [(0, "", 1.0)],
}


def format_number(value: float, digits: int = 3) -> str:
    """Significant digits without scientific notation for everyday magnitudes: 21.5, 0.0123, 1,230,000."""
    if 1 <= abs(value) < 1000:
        # The usual case once a prefix is picked: "g" drops trailing zeros; 999.7 -> "1e+03" takes the long way.
        text = f"{value:.{digits}g}"
        if "e" not in text:
            return text
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    mag = math.floor(math.log10(abs(value)))
    if mag >= 15 or mag < -6:
        return f"{value:.{max(digits - 1, 0)}e}"
    decimals = max(digits - 1 - mag, 0)
    rounded = round(value, decimals)
    # Rounding can bump the magnitude (999.96 -> 1000.0); recompute so we do not print a stray ".0".
    if rounded and math.floor(math.log10(abs(rounded))) > mag:
        decimals = max(decimals - 1, 0)
    text = f"{rounded:,.{decimals}f}"
    if "." in text:  # 80.0 GB reads worse than 80 GB
        text = text.rstrip("0").rstrip(".")
    return text


def pick_unit(base_value: float, dim: Dim) -> tuple[str, float]:
    """The readable unit for a value: (name, factor)."""
    ladder = _LADDERS.get(dim)
    if ladder is None:
        return base_unit_string(dim), 1.0
    a = abs(base_value)
    for threshold, name, factor in ladder:
        if a >= threshold:
            return name, factor
    return ladder[-1][1], ladder[-1][2]


def format_quantity(base_value: Any, dim: Dim, digits: int = 3) -> str:
    """``format_quantity(2.15e10, BYTES) == "21.5 GB"``; picks a decimal prefix; arrays are summarised."""
    if not isinstance(base_value, (int, float)):
        size = getattr(base_value, "size", None)
        if size is None:  # a list or tuple
            base_value = list(base_value) if hasattr(base_value, "__len__") else float(base_value)
            size = len(base_value) if isinstance(base_value, list) else None
        if size is not None and getattr(base_value, "ndim", 1) != 0:
            if size == 0:
                return "no values"
            lo, hi = float(min(base_value) if isinstance(base_value, list) else base_value.min()), float(
                max(base_value) if isinstance(base_value, list) else base_value.max())
            return f"{size} values, {format_quantity(lo, dim, digits)} to {format_quantity(hi, dim, digits)}"
        base_value = float(base_value)
    if dim == FLOP and abs(base_value) >= 1e15:
        # Training budgets are quoted in scientific notation (3.14e23 FLOPs), never in ZFLOP or YFLOP.
        mant, exp = f"{float(base_value):.{max(digits - 1, 0)}e}".split("e")
        return f"{mant}e{int(exp)} FLOP"
    # Nudge up by half a unit in the last digit so 999.96 GB, which rounds to 1,000, is shown as 1 TB.
    name, factor = pick_unit(base_value * (1 + 5 * 10.0 ** -(digits + 1)), dim)
    text = format_number(base_value / factor, digits)
    return f"{text} {name}" if name else text
