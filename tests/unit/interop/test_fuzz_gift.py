"""Fuzz GIFT import (issue 15, "Keep it held"): random text and mutated copies of the test GIFT files give
questions and problems, never an exception, and the YAML written from them parses.

Bounded and reproducible: ``derandomize=True`` fixes the cases.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from study.interop.gift import yaml_text
from study.interop.gift_import import convert

pytestmark = pytest.mark.filterwarnings("ignore::hypothesis.errors.HypothesisWarning")

FUZZ = settings(max_examples=150, derandomize=True, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
DATA = Path(__file__).parents[2] / "data" / "gift"
SEEDS = [(DATA / name).read_text(encoding="utf-8") for name in ("constructs.gift", "malformed.gift")]
OBJECTIVES = {"1.1", "2.1", "2.2", "3.1"}
# The characters GIFT gives meaning to, and the comment forms study reads its metadata from.
GIFT_PIECES = st.sampled_from(["{", "}", "=", "~", "#", ":", "::", "->", "%50%", "%-100%", "\\", "\n", "\n\n",
                               "// study: tolerance=", "// study: unit=", "// study: objective=2.1",
                               "[id:", "[tag:", "]", "$CATEGORY: ", "[html]", "[markdown]", "<b>", "&amp;",
                               "{#", "..", "TRUE", "F", "1e999", "-0", "\u00a0", "\x00",
                               "::t:: What is it? {=a ~b}\n\n", "::n:: How many? {#42:2}\n\n"])


def _check(source: str) -> str:
    result = convert(source, prefix="fuzz", objectives=OBJECTIVES, default_objective="2.1")
    for problem in result.problems:
        assert problem.kind in ("error", "skip", "note") and problem.message
    text = yaml_text(result, "fuzz.gift", dt.date(2026, 12, 1))
    data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # YAML a loader can read
    assert isinstance(data, dict) and isinstance(data["questions"], (list, type(None)))
    return "questions" if result.questions else "none"


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "flip", "truncate"]))
        if how == "insert":
            text = text[:at] + draw(GIFT_PIECES | st.text(max_size=5)) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif how == "flip" and at < len(text):
            text = text[:at] + chr((ord(text[at]) ^ (1 << draw(st.integers(0, 6)))) or 32) + text[at + 1:]
        else:
            text = text[:at]
    return text


def _run(strategy: st.SearchStrategy[str]) -> Counter[str]:
    outcomes: Counter[str] = Counter()

    @FUZZ
    @given(strategy)
    def run(source: str) -> None:
        outcomes[_check(source)] += 1

    run()
    return outcomes


def test_mutated_gift_files_import_or_report_problems() -> None:
    outcomes = _run(_mutated())
    print(f"\nGIFT fuzz, mutated files: {dict(outcomes)}")
    assert outcomes["questions"] >= 50  # many mutants still hold importable questions


def test_random_gift_like_text_imports_or_reports_problems() -> None:
    outcomes = _run(st.lists(GIFT_PIECES | st.text(max_size=8), max_size=40).map("".join) | st.text(max_size=200))
    print(f"\nGIFT fuzz, random text: {dict(outcomes)}")
    assert sum(outcomes.values()) == 150
