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
