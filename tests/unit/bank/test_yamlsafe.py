from __future__ import annotations

import datetime as dt

from hypothesis import given, strategies as st

from study.bank.yamlsafe import parse_yaml


def test_plain_values_and_raw_objective() -> None:
    doc = parse_yaml("objective: 2.10\ndifficulty: 2\nwhy: yes\nok: true\nverified: 2026-11-30\nx: 1.5\n")
    assert doc.findings == []
    assert doc.data == {
        "objective": "2.10",  # kept as written, not the float 2.1
        "difficulty": 2,
        "why": "yes",  # prose stays prose, not YAML 1.1's boolean
        "ok": True,
        "verified": dt.date(2026, 11, 30),
        "x": 1.5,
    }


def test_duplicate_keys_are_all_reported_and_first_value_kept() -> None:
    doc = parse_yaml("a: 1\nb: 2\na: 3\nb: 4\n")
    assert [(f.line, f.code) for f in doc.findings] == [(3, "duplicate-key"), (4, "duplicate-key")]
    assert doc.data == {"a": 1, "b": 2}


def test_positions_follow_paths() -> None:
    doc = parse_yaml("questions:\n  - id: a\n    stem: hello\n  - id: b\n")
    assert doc.position(("questions", 0, "stem")) == (3, 11)
    assert doc.position(("questions", 1)) == (4, 5)
    assert doc.key_position(("questions", 0), "stem") == (3, 5)
    # A missing key is reported where its parent mapping starts.
    assert doc.position(("questions", 1, "stem")) == (4, 5)


def test_alias_bomb_is_refused_quickly() -> None:
    layers = ["a: &a [" + ",".join(['"x"'] * 10) + "]"]
    prev = "a"
    for name in "bcdefghij":
        layers.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
        prev = name
    doc = parse_yaml("\n".join(layers))
    assert doc.fatal and doc.findings[0].code == "alias-bomb"


def test_small_aliases_are_fine() -> None:
    doc = parse_yaml("ref: &r {title: T, url: 'https://x'}\nrefs: [*r, *r]\n")
    assert doc.findings == [] and doc.data["refs"][0] == {"title": "T", "url": "https://x"}


@given(st.text(max_size=200))
def test_any_text_gives_data_or_findings_never_an_exception(text: str) -> None:
    doc = parse_yaml(text)
    assert doc.fatal == (doc.data is None and bool(doc.findings))
    assert all(f.line >= 1 and f.column >= 1 for f in doc.findings)


def test_an_unclosed_quote_is_reported_where_it_opens_not_at_the_end_of_the_file() -> None:
    from study.bank.yamlsafe import parse_yaml

    text = 'questions:\n  - id: x\n    stem: "abc\n' + "    more: text\n" * 20
    (finding,) = parse_yaml(text).findings
    assert (finding.line, finding.column) == (3, 11) and "quoted scalar" in finding.message


def test_a_duplicate_key_names_the_line_of_the_first_one() -> None:
    # Reporting the duplicate at its own line but with the wrong "first at" line would mislead the author.
    doc = parse_yaml("a: 1\nb: 2\n\nc: 0\na: 3\n")
    (finding,) = doc.findings
    assert (finding.line, finding.column) == (5, 1)
    assert "first at line 1" in finding.message


def test_yaml_1_1_integer_forms_are_read_as_numbers() -> None:
    doc = parse_yaml("a: 0b11\nb: -0x1\nc: !!int 0o17\nd: +5\ne: 1_000\n")
    assert doc.findings == [] and doc.data == {"a": 3, "b": -1, "c": 15, "d": 5, "e": 1000}


def test_a_base_60_guess_stays_the_text_the_author_wrote() -> None:
    # YAML 1.1 resolves `1:30` as int and `1:30.5` as float; both are kept as text for the field's check.
    doc = parse_yaml("difficulty: 1:30\nx: 1:30.5\n")
    assert doc.findings == [] and doc.data == {"difficulty": "1:30", "x": "1:30.5"}


def test_an_explicit_tag_the_value_contradicts_is_a_finding_not_an_exception() -> None:
    for text in ("d: !!int abc\n", "d: !!float x\n", "d: !!bool maybe\n", "d: !!int ''\n"):
        doc = parse_yaml(text)
        assert doc.fatal, text
        (finding,) = doc.findings
        assert (finding.line, finding.column, finding.code) == (1, 4, "bad-scalar"), text


def _where(text: str, needle: str) -> tuple[int, int]:
    """Line and column (1-based) of the last occurrence of ``needle`` in ``text``."""
    before = text[: text.rindex(needle)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def test_text_positions_inside_multi_line_values_point_at_the_character() -> None:
    # Each value has the marker X on a later line than the one where the value starts.
    cases = [
        "s: |\n  first line\n  second é X here\n",
        "s: >\n  first line\n     indented X\n  third\n",
        "s: >-  # comment with X\n  first\n  X\n",
        "s: plain first\n  then X\n",
        "s: \"quoted é\n  then X\"\n",
        "s: 'it''s\n  then X'\n",
        "s: |\n\n  after a blank line X\n",
    ]
    for text in cases:
        doc = parse_yaml(text)
        value = doc.data["s"].lstrip()  # offsets count in the stripped text, as the models keep it
        assert doc.text_position(("s",), value.index("X")) == _where(text, "X"), text
    crlf = "s: |\r\n  one\r\n  two X\r\n"
    doc = parse_yaml(crlf)
    assert doc.text_position(("s",), doc.data["s"].index("X")) == (3, 7)


def test_text_position_of_a_path_that_is_not_text_is_where_the_value_starts() -> None:
    doc = parse_yaml("a:\n  b: [1, 2]\n")
    assert doc.text_position(("a", "b"), 3) == doc.position(("a", "b")) == (2, 6)


def test_block_nesting_too_deep_for_the_builder_is_a_finding_of_its_own() -> None:
    doc = parse_yaml("a:\n  " + "- " * 990 + "x\n")
    assert doc.fatal and [f.code for f in doc.findings] == ["too-deep"]


def test_nesting_beyond_the_limit_is_reported_where_it_passes_the_limit() -> None:
    from study.bank.yamlsafe import MAX_DEPTH

    assert not parse_yaml("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n").findings
    doc = parse_yaml("a:\n  b: " + "[" * 200 + "]" * 200 + "\n")
    (finding,) = doc.findings
    assert finding.code == "too-deep" and (finding.line, finding.column) == (2, 6 + MAX_DEPTH - 1)


def _only(text: str):
    (finding,) = parse_yaml(text).findings
    return finding


def test_an_item_indented_unlike_its_siblings_gets_an_indentation_hint() -> None:
    text = "q:\n  - id: a\n    choices:\n      - text: A\n        why: x\n       - text: B\n"
    f = _only(text)
    assert (f.line, f.column) == (6, 8)
    assert "indented 7 spaces" in f.message and "(from line 4) is at 6" in f.message and "siblings" in f.message


def test_a_dedented_key_gets_a_hint_naming_the_indentation_of_the_line_above() -> None:
    f = _only("q:\n  - id: a\n    stem: x\n  choose: 2\n")
    assert f.line == 4 and "indented 2 spaces, less than the line above (4)" in f.message


def test_a_key_indented_too_far_is_said_to_be_read_as_part_of_the_value_above() -> None:
    f = _only("q:\n  - id: a\n    stem: x\n     type: single\n")
    assert f.line == 4 and "indented 5 spaces, more than the line above (4)" in f.message


def test_text_with_a_colon_gets_a_hint_to_quote_it() -> None:
    f = _only("q:\n  - id: a\n    stem: Which fabric: NVLink or IB?\n")
    assert (f.line, f.column) == (3, 23)  # the colon after "fabric"
    assert "'stem' contains ': '" in f.message and "quotes" in f.message
    assert "mapping values are not allowed" in f.message  # the parser's own words stay, in brackets


def test_a_windows_1252_file_gets_the_byte_its_character_and_a_save_as_utf8_hint() -> None:
    from study.bank.yamlsafe import decode_utf8

    raw = "questions:\n  - stem: It’s the GPU’s memory.\n".encode("cp1252")
    text, finding = decode_utf8(raw)
    assert text is None and (finding.line, finding.column) == (2, 13)
    assert finding.message == "the file is not UTF-8 (byte 0x92, '’' in Windows-1252): save it as UTF-8 in your editor"
