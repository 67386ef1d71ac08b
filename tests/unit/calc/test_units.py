from __future__ import annotations

import pytest

from study.calc import Dim, Quantity, convert, dimension_name, format_quantity, parse_quantity, parse_unit
from study.calc.units import (
    BANDWIDTH, BYTES, CO2, ENERGY, FLOP, FLOP_RATE, GPU_TIME, GPUS, MONEY, ONE, POWER, TIME, TOKEN_RATE, TOKENS,
    DimensionError,
)


@pytest.mark.parametrize(
    "text, value, dim",
    [
        ("21.5 GB", 21.5e9, BYTES),
        ("20 GiB", 20 * 2**30, BYTES),
        ("21474836480", 21474836480.0, ONE),
        ("2.15e10 B", 2.15e10, BYTES),
        ("1.2 s", 1.2, TIME),
        ("950 ms", 0.95, TIME),
        ("3.3 TB/s", 3.3e12, BANDWIDTH),
        ("400 Gb/s", 50e9, BANDWIDTH),
        ("80GB", 80e9, BYTES),
        ("1,024 GB", 1024e9, BYTES),
        ("72 %", 0.72, ONE),
        ("3.2 TFLOPS", 3.2e12, FLOP_RATE),
        ("3.2 TFLOP/s", 3.2e12, FLOP_RATE),
        ("3.14e23 FLOPs", 3.14e23, FLOP),
        ("2 days", 172800.0, TIME),
        ("140 GB", 140e9, BYTES),
        ("700 W", 700.0, POWER),
        ("1 kWh", 3.6e6, ENERGY),
        ("756.9408MWh", 756.9408 * 3.6e9, ENERGY),
        (".5 h", 1800.0, TIME),
        ("-3 s", -3.0, TIME),
    ],
)
def test_parse_quantity_accepts_the_promised_forms(text: str, value: float, dim: Dim) -> None:
    q = parse_quantity(text)
    assert q.dim == dim
    assert q.value == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("text", ["", "GB", "12 parsecs", "1.2.3 GB", "abc", "12 G B/x", "nan", "1e999 B"])
def test_parse_quantity_rejects_with_a_message(text: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_quantity(text)
    assert str(info.value)


def test_unknown_unit_suggests_a_near_one() -> None:
    with pytest.raises(ValueError, match="did you mean"):
        parse_unit("GiBB")


def test_decimal_by_default_binary_only_when_named() -> None:
    assert parse_unit("GB").factor == 1e9
    assert parse_unit("GiB").factor == 2**30
    assert parse_unit("TB").factor == 1e12
    assert parse_unit("TiB").factor == 2**40
    # 350 GB of GPT-3 fp16 weights is about 326 GiB.
    assert convert(350e9, "GiB") == pytest.approx(325.96, abs=0.01)


def test_bits_are_an_eighth_of_bytes_and_case_matters() -> None:
    assert parse_quantity("400 Gb/s").value * 8 == parse_quantity("400 GB/s").value
    assert parse_quantity("200 Gb/s").value == 25e9  # the llm-analysis HDR trap: 200 Gb/s is 25 GB/s
    assert parse_unit("Mb").factor == 1e6 / 8


def test_flops_amount_versus_rate() -> None:
    assert parse_unit("FLOPs").dim == FLOP
    assert parse_unit("FLOPS").dim == FLOP_RATE
    assert parse_unit("TFLOP/s").dim == parse_unit("TFLOPS").dim


# Every unit the question format promises, with its factor to the base unit (B, s, FLOP, J, ...) worked out
# by hand: decimal prefixes are powers of 10, binary ones powers of 2, a bit is 1/8 byte, Wh is 3,600 J.
PROMISED_UNITS = {
    "B": (1, BYTES), "KB": (1e3, BYTES), "MB": (1e6, BYTES), "GB": (1e9, BYTES), "TB": (1e12, BYTES),
    "PB": (1e15, BYTES), "KiB": (1024, BYTES), "MiB": (1024**2, BYTES), "GiB": (1024**3, BYTES),
    "TiB": (1024**4, BYTES), "b": (0.125, BYTES), "Kb": (125, BYTES), "Mb": (125_000, BYTES),
    "Gb": (125_000_000, BYTES), "Tb": (125_000_000_000, BYTES),
    "ns": (1e-9, TIME), "us": (1e-6, TIME), "ms": (1e-3, TIME), "s": (1, TIME), "min": (60, TIME),
    "h": (3600, TIME), "day": (86_400, TIME),
    "B/s": (1, BANDWIDTH), "MB/s": (1e6, BANDWIDTH), "GB/s": (1e9, BANDWIDTH), "TB/s": (1e12, BANDWIDTH),
    "Gb/s": (125_000_000, BANDWIDTH), "Mb/s": (125_000, BANDWIDTH),
    "FLOP": (1, FLOP), "GFLOP": (1e9, FLOP), "TFLOP": (1e12, FLOP), "PFLOP": (1e15, FLOP), "EFLOP": (1e18, FLOP),
    "FLOP/s": (1, FLOP_RATE), "TFLOP/s": (1e12, FLOP_RATE), "PFLOP/s": (1e15, FLOP_RATE),
    "TFLOPS": (1e12, FLOP_RATE),
    "W": (1, POWER), "kW": (1e3, POWER), "MW": (1e6, POWER),
    "Wh": (3600, ENERGY), "kWh": (3.6e6, ENERGY), "MWh": (3.6e9, ENERGY), "GWh": (3.6e12, ENERGY),
    "kgCO2e": (1, CO2), "tCO2e": (1e3, CO2), "USD": (1, MONEY),
    "GPU-h": (3600, GPU_TIME), "GPUs": (1, GPUS), "tokens": (1, TOKENS), "tokens/s": (1, TOKEN_RATE),
    "%": (0.01, ONE), "1": (1, ONE),
}


@pytest.mark.parametrize("unit", PROMISED_UNITS)
def test_every_unit_the_question_format_promises(unit: str) -> None:
    factor, dim = PROMISED_UNITS[unit]
    u = parse_unit(unit)
    assert u.factor == pytest.approx(factor, rel=1e-15) and u.dim == dim


def test_compound_units() -> None:
    assert parse_unit("kgCO2e/kWh").factor == pytest.approx(1 / 3.6e6)
    assert parse_unit("USD/GPU-h").factor == pytest.approx(1 / 3600)
    assert parse_unit("tokens/s").dim == parse_unit("token/s").dim


def test_dimension_algebra() -> None:
    t = Quantity(80e9, BYTES) / Quantity(3.35e12, BANDWIDTH)
    assert t.dim == TIME
    assert (Quantity(700.0, POWER) * Quantity(3600.0, TIME)).dim == ENERGY
    with pytest.raises(DimensionError, match="a size"):
        Quantity(1.0, BYTES) + Quantity(1.0, TIME)
    value, dim = parse_quantity("2 GB")
    assert (value, dim) == (2e9, BYTES)


def test_dimension_names_for_grading_messages() -> None:
    assert dimension_name(BYTES) == "a size"
    assert dimension_name(TIME) == "a time"
    assert dimension_name(BANDWIDTH) == "a bandwidth"
    assert dimension_name(FLOP) == "a compute amount"
    assert dimension_name(FLOP_RATE) == "a compute rate"
    assert dimension_name(POWER) == "a power"
    assert dimension_name(ENERGY) == "an energy"
    assert dimension_name(parse_unit("GPUs").dim) == "a count of GPUs"


@pytest.mark.parametrize(
    "value, unit, expected",
    [
        (21.5e9, "B", "21.5 GB"),
        (80e9, "B", "80 GB"),
        (999.96e9, "B", "1 TB"),
        (0.95, "s", "950 ms"),
        (2929687.5, "s", "33.9 days"),
        (50e9, "B/s", "50 GB/s"),
        (989.4e12, "FLOP/s", "989 TFLOP/s"),
        (3.15e23, "FLOP", "3.15e23 FLOP"),
        (756940800 * 3600, "J", "757 MWh"),
        (291422.0, "kgCO2e", "291 tCO2e"),
    ],
)
def test_format_quantity_picks_a_readable_decimal_prefix(value: float, unit: str, expected: str) -> None:
    assert format_quantity(value, parse_unit(unit).dim) == expected


def test_format_round_trips_through_parse() -> None:
    for v in (1.23e3, 4.56e9, 7.89e12):
        text = format_quantity(v, BYTES)
        assert parse_quantity(text).value == pytest.approx(v, rel=5e-3)


@pytest.mark.parametrize("typed, first", [("gb", "GB"), ("kwh", "kWh"), ("gbps", "Gb/s"), ("mib", "MiB")])
def test_a_unit_in_the_wrong_case_suggests_the_right_case_first(typed: str, first: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_unit(typed)
    assert f"(did you mean {first}" in str(err.value)
