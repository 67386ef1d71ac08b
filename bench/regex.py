"""Regex work on hostile long inputs (issue 15, defect 10): the time ratio when the input doubles.

Run: ``python bench/regex.py``. For each pattern the old (ambiguous) form and the current one are timed on
an input of n and of 2n characters that makes the match fail late; a linear pattern shows a ratio near 2,
a quadratic one near 4. The inputs stay small enough that the old forms finish in seconds. The entry points
also bound their inputs now (200 characters for a quantity, a tolerance or a GIFT number), so in use the
current patterns never see texts this long at all.
"""

from __future__ import annotations

import re
import time

from study.bank.schema import TOLERANCE_PATTERN
from study.calc.units import _NUMBER_RE as UNITS_NUMBER
from study.bank.load import _HEADING_RE
from study.interop.gift_import import _MOODLE_ID_RE
from study.interop.gift_syntax import _NUMBER_RE as GIFT_NUMBER

CASES = [
    ("tolerance= digits + '!'", r"^\s*[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?\s*(%|[A-Za-z][A-Za-z0-9/_-]*)?\s*$",
     re.compile(TOLERANCE_PATTERN), lambda n: "1" * n + "!", "match"),
    ("GIFT number digits + 'x'", r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", GIFT_NUMBER,
     lambda n: "1" * n + "x", "fullmatch"),
    ("answer '1x' + blanks + 'y'",
     r"\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?)\s*(.*?)\s*$",
     UNITS_NUMBER, lambda n: "1x" + " " * n + "y", "match"),
    ("'[id:' repeated, never closed", r"\[id:((?:\\]|[^\]\x00-\x1f])+)\]", _MOODLE_ID_RE,
     lambda n: "[id:" * (n // 4), "findall"),
    ("card heading '## a' + blanks + 'b'", r"^##[ \t]+(.+?)(?:[ \t]+\{#([a-z0-9][a-z0-9._-]*)\})?[ \t]*$", _HEADING_RE,
     lambda n: "## a" + " " * n + "b", "match"),
]


def best(fn, runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    n = 4000
    print(f"{'input':34} {'old n->2n':>10} {'new n->2n':>10} {'old/new at 2n':>14}")
    for label, old_src, new, make, method in CASES:
        old = re.compile(old_src, re.S) if "answer" in label else re.compile(old_src)
        ratios, at_2n = [], []
        for pat in (old, new):
            small, large = make(n), make(2 * n)
            t1 = best(lambda pat=pat, method=method, small=small: getattr(pat, method)(small))
            t2 = best(lambda pat=pat, method=method, large=large: getattr(pat, method)(large))
            ratios.append(t2 / t1)
            at_2n.append(t2)
        print(f"{label:34} {ratios[0]:>10.1f} {ratios[1]:>10.1f} {at_2n[0] / at_2n[1]:>14.0f}")


if __name__ == "__main__":
    main()
