"""No pattern sees an unbounded input or can backtrack quadratically (issue 15, defect 10).

The work is bounded by construction, not timed: the long-input tests watch how much text each pattern is
handed (a spy around the compiled pattern), and the rewritten patterns are checked to accept exactly what
the old ambiguous ones did. ``bench/regex.py`` prints the n -> 2n time ratios for the record.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

import study.calc.units as units
import study.interop.gift_import as gift_import
import study.interop.gift_syntax as gift_syntax
from study.bank.schema import TOLERANCE_PATTERN

MEGABYTE = 1_000_000
OLD_TOLERANCE = r"^\s*[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?\s*(%|[A-Za-z][A-Za-z0-9/_-]*)?\s*$"
OLD_GIFT_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
OLD_UNITS_NUMBER = (r"\s*([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?(?:[eE][-+]?\d+)?|[-+]?\.\d+(?:[eE][-+]?\d+)?)"
                    r"\s*(.*?)\s*$")


class Spy:
    """Stands in for a compiled pattern and remembers the longest text it was given."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.longest, self.calls = pattern, 0, 0

    def _see(self, text: str, *rest):
        self.calls += 1
        self.longest = max(self.longest, len(text))

    def match(self, text, *rest):
        self._see(text)
        return self.pattern.match(text, *rest)

    def fullmatch(self, text, *rest):
        self._see(text)
        return self.pattern.fullmatch(text, *rest)

    def search(self, text, *rest):
        self._see(text)
        return self.pattern.search(text, *rest)


NUMBERISH = st.text(alphabet="0123456789.,eE+- \t%GBbs/kx!", max_size=14)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(NUMBERISH)
def test_the_linear_tolerance_pattern_accepts_what_the_old_one_did(text) -> None:
    assert bool(re.match(TOLERANCE_PATTERN, text)) == bool(re.match(OLD_TOLERANCE, text))


@settings(max_examples=400, derandomize=True, deadline=None)
@given(NUMBERISH)
def test_the_linear_gift_number_accepts_what_the_old_one_did(text) -> None:
    old = re.fullmatch(OLD_GIFT_NUMBER, text)
    new = gift_syntax._NUMBER_RE.fullmatch(text)
    assert bool(old) == bool(new)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(NUMBERISH)
def test_the_quantity_pattern_splits_number_and_unit_as_before(text) -> None:
    old = re.match(OLD_UNITS_NUMBER, text, re.S)
    new = units._NUMBER_RE.match(text)
    assert bool(old) == bool(new)
    if old:
        assert (old.group(1), old.group(2)) == (new.group(1), new.group(2).strip())


def test_a_megabyte_answer_never_reaches_the_quantity_pattern(monkeypatch) -> None:
    spy = Spy(units._NUMBER_RE)
    monkeypatch.setattr(units, "_NUMBER_RE", spy)
    for text in ("1" + " " * MEGABYTE + "x", "9" * MEGABYTE + "GB", "14.5 " + "G" * MEGABYTE):
        with pytest.raises(ValueError, match="limit 200"):
            units.parse_quantity(text)
    assert spy.calls == 0
    assert units.parse_quantity("1,234.5 GB").value == 1.2345e12 and spy.longest == len("1,234.5 GB")


def test_unit_names_are_bounded_and_split_without_rescanning_blanks() -> None:
    # parse_unit is also reached from question YAML; blanks around an operator are plain whitespace.
    assert units.parse_unit("GB " + " " * 150 + "/ s").factor == 1e9
    with pytest.raises(ValueError, match="unknown unit 'GB +Q'"):
        units.parse_unit("GB" + " " * 150 + "Q")
    with pytest.raises(ValueError, match="1,000,002-character unit .*limit 200"):
        units.parse_unit("G" + " " * MEGABYTE + "B")


def _gift(body: str) -> gift_import.ImportResult:
    return gift_import.convert(body, prefix="t", objectives={"2.1"}, default_objective="2.1")


def test_a_megabyte_tolerance_comment_is_ignored_before_any_pattern_sees_it(monkeypatch) -> None:
    spy = Spy(gift_import._TOL_RE)
    monkeypatch.setattr(gift_import, "_TOL_RE", spy)
    source = "// study: tolerance=" + "1" * MEGABYTE + "!\n::q::How many? {#42:1}\n"
    result = _gift(source)
    assert spy.longest <= gift_import.MAX_SHORT_VALUE
    assert any("limit 200" in p.message for p in result.problems)
    assert len(result.questions) == 1  # the question itself still imports


def test_a_long_numeric_answer_is_an_error_before_the_number_pattern(monkeypatch) -> None:
    spy = Spy(gift_syntax._NUMBER_RE)
    monkeypatch.setattr(gift_syntax, "_NUMBER_RE", spy)
    long = 100_000  # 500 times the limit; the block scanner is Python, so a megabyte here only costs time
    for answer in ("1" * long + "x", "1" * long + ".." + "2" * long, "5:" + "1" * long + "x"):
        items, problems = gift_syntax.parse("::q::How many? {#" + answer + "}\n")
        assert [p.kind for p in problems] == ["error"] and "limit 200" in problems[0].message
    assert spy.longest == 0
    gift_syntax.parse("::q::How many? {#3.141..3.142}\n")
    assert spy.longest == len("3.142")


@pytest.mark.parametrize("line", ["[id:" * 50_000, "[tag:a" * 50_000], ids=["ids", "tags"])  # never closed
def test_moodle_id_and_tag_scans_stop_at_the_next_opening(line) -> None:
    # Each unclosed opening's scan now ends at the next '[' instead of the end of the line, so the total work
    # is one pass; the result is unchanged (nothing closes, nothing is found).
    assert gift_import.read_metadata([line], None, []) == {"reference": [], "accept": [], "distractor-calc": [], "tags": []}
    assert gift_import.read_metadata(["[id:a\\]b] [tag:x] [tag:y]"], None, []) == {
        "reference": [], "accept": [], "distractor-calc": [], "tags": ["x", "y"], "moodle_id": "a]b"}


OLD_HEADING = r"^##[ \t]+(.+?)(?:[ \t]+\{#([a-z0-9][a-z0-9._-]*)\})?[ \t]*$"
HEADINGISH = st.lists(st.sampled_from(["#", " ", "\t", "a", "B", "{#", "}", "x-1", ".", "{", "é", "{#a}", "\u00a0"]),
                      max_size=10).map(lambda parts: "##" + "".join(parts))


@settings(max_examples=1000, derandomize=True, deadline=None)
@given(HEADINGISH)
def test_card_headings_split_title_and_anchor_as_before(line) -> None:
    from study.bank.load import _HEADING_RE, _heading_parts

    old, new = re.match(OLD_HEADING, line), _HEADING_RE.match(line)
    assert bool(old) == bool(new)
    if old:
        assert _heading_parts(new.group(1)) == (old.group(1).strip(), old.group(2))


def test_a_heading_with_a_long_run_of_blanks_is_read_in_one_pass() -> None:
    # The old lazy title rescanned the blanks from each character: minutes for this line.
    from study.bank.load import _HEADING_RE, _heading_parts

    line = "## Title" + " " * MEGABYTE + "tail {#anchor}"
    assert _heading_parts(_HEADING_RE.match(line).group(1)) == ("Title" + " " * MEGABYTE + "tail", "anchor")


def test_same_titled_questions_get_numbered_ids_in_linear_steps(monkeypatch) -> None:
    checks = 0

    class CountingSet(set):
        def __contains__(self, item: object) -> bool:
            nonlocal checks
            checks += 1
            return set.__contains__(self, item)

    real_init = gift_import.Converter.__init__

    def init(self, *args, **kwargs) -> None:
        real_init(self, *args, **kwargs)
        self.ids = CountingSet()

    monkeypatch.setattr(gift_import.Converter, "__init__", init)
    n = 2000
    result = _gift("::q::What? {=a ~b}\n\n" * n)
    assert [c.data["id"] for c in result.questions[:3]] == ["t-q", "t-q-2", "t-q-3"]
    assert result.questions[-1].data["id"] == f"t-q-{n}"
    assert checks <= 2 * n  # counting from 2 for each question made this n^2 / 2
