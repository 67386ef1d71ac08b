"""A dedented line inside `stem: |` and a dedented `- text:` item get a hint naming the indentation to use,
at the line that is wrong (the parser's own words said "could not find expected ':'" a line later)."""

from __future__ import annotations

from study.bank.lint import lint

HEAD = """questions:
  - id: dd-01
    objective: "2.1"
    difficulty: 2
"""
TAIL = """    explanation: x
    references:
      - title: t
        url: https://www.nvidia.com/
    verified: 2026-11-30
"""


def _one(tmp_path, body: str):
    path = tmp_path / "q.yaml"
    path.write_text(HEAD + body + TAIL, encoding="utf-8")
    (d,) = lint([path]).diagnostics
    return d, path.read_text().splitlines()


def test_a_line_dedented_out_of_a_block_stem(tmp_path):
    d, lines = _one(tmp_path, "    type: true_false\n    stem: |\n      An H100 SXM has 80 GB\n"
                              "    of HBM3 in a dedented line.\n    answer: true\n")
    assert d.code == "yaml-syntax" and lines[d.line - 1].strip() == "of HBM3 in a dedented line."
    assert d.column == 5
    assert "'stem'" in d.message and "indent it to 6" in d.message and "could not find" not in d.message.split("(YAML")[0]


def test_a_dedented_choice_item(tmp_path):
    d, lines = _one(tmp_path, "    type: single\n    stem: Which?\n    choices:\n      - text: One\n        correct: true\n"
                              "        why: yes\n    - text: Two\n      why: no\n")
    assert lines[d.line - 1].strip() == "- text: Two"
    assert "items of the list above are at 6" in d.message and "indent it to 6" in d.message
