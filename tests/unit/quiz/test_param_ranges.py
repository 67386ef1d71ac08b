"""Parameter ranges are counted and indexed, never listed in full, and absurd ones are refused."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from study.bank.schema import MAX_RANGE_VALUES, Range


@pytest.mark.parametrize(
    "low, high, step, expected",
    [
        (2048, 8192, 2048, [2048, 4096, 6144, 8192]),
        (0, 10, 3, [0, 3, 6, 9]),
        (0, 11, 4, [0, 4, 8]),
        (0.1, 0.3, 0.1, [0.1, 0.2, 0.3]),  # 0.3 - 0.1 is 0.19999...: the top value is kept
        (5, 5, 1, [5]),
        (0.5, 2, 0.5, [0.5, 1.0, 1.5, 2.0]),
    ],
)
def test_range_values_are_the_inclusive_steps(low, high, step, expected) -> None:
    values = Range(range=(low, high), step=step).values()
    assert len(values) == len(expected)
    assert list(values) == expected
    assert values[-1] == expected[-1]
    assert all(type(v) is type(e) for v, e in zip(values, expected))


def test_a_draw_from_a_range_is_the_draw_from_its_listed_values() -> None:
    # Seeds stored with sessions must keep drawing the same parameters.
    values = Range(range=(0, 9000), step=3).values()
    listed = list(values)
    for seed in range(20):
        assert random.Random(seed).choice(values) == random.Random(seed).choice(listed)


@pytest.mark.parametrize(
    "low, high, step",
    [(0, 1e12, 1), (0, 1e8, 1), (0, 1, 1e-300), (0, float("inf"), 1), (0, float("nan"), 1),
     (float("-inf"), 0, 1), (0, MAX_RANGE_VALUES, 1)],
)
def test_a_range_too_large_or_not_finite_is_refused(low, high, step) -> None:
    with pytest.raises(ValidationError) as info:
        Range(range=(low, high), step=step)
    assert info.value.errors()[0]["type"] == "param_range"


def test_the_largest_allowed_range_has_the_limit_of_values() -> None:
    values = Range(range=(1, MAX_RANGE_VALUES), step=1).values()
    assert len(values) == MAX_RANGE_VALUES and values[MAX_RANGE_VALUES - 1] == MAX_RANGE_VALUES
    with pytest.raises(IndexError):
        values[MAX_RANGE_VALUES]
