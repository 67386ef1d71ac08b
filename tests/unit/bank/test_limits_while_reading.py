"""Limits enforced while reading, before the costly part (issue 19, defect 13): a 6 MB file of three million
integers was composed whole (1.8 GB, 65 s) before the node limit was checked; 20,000 ``{= ...}`` in one stem
were all compiled and evaluated. The checks here prove the costly step is never reached."""

from __future__ import annotations

from pathlib import Path


from study.bank import yamlsafe
from study.bank.load import MAX_PLACEHOLDERS, load_question_file
from study.bank.yamlsafe import MAX_NODES, parse_yaml

QUESTION = """questions:
- id: many-exprs
  objective: "1.1"
  difficulty: 1
  type: single
  stem: "{stem}"
  choices:
  - text: a
    correct: true
    why: w
  - text: b
    why: w
  explanation: e
  references:
  - title: t
    url: https://www.nvidia.com/
  verified: 2026-11-30
"""


def test_a_file_of_too_many_values_is_refused_before_any_tree_is_built(monkeypatch):
    def no_compose(*args, **kwargs):
        raise AssertionError("composed a file that is over the limit")

    monkeypatch.setattr(yamlsafe.yaml, "compose", no_compose)
    doc = parse_yaml("questions: [" + ",".join(["1"] * (MAX_NODES + 10)) + "]\n")
    assert doc.fatal and doc.findings[0].code == "too-large"
    assert doc.findings[0].line == 1 and doc.findings[0].column > 2 * MAX_NODES  # where the limit was passed


def test_block_style_is_counted_too():
    doc = parse_yaml("".join(f"- {k}\n" for k in range(MAX_NODES + 5)))
    assert doc.fatal and doc.findings[0].code == "too-large" and doc.findings[0].line == MAX_NODES


def test_a_file_just_within_the_limit_reads():
    doc = parse_yaml("[" + ",".join(["1"] * (MAX_NODES - 10)) + "]")
    assert not doc.fatal and len(doc.data) == MAX_NODES - 10


def test_too_many_placeholders_are_refused_before_any_is_compiled(tmp_path: Path, monkeypatch):
    import study.calc as calc

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled an expression of a stem over the limit")

    monkeypatch.setattr(calc, "compile_expr", no_compile)
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION.format(stem=" ".join(["{= 2 * 3}"] * (MAX_PLACEHOLDERS + 1))))
    questions, diags = load_question_file(path)
    assert questions == []
    (diag,) = [d for d in diags if d.code == "too-many-placeholders"]
    assert (diag.line, diag.severity) == (6, "error") and f"{MAX_PLACEHOLDERS + 1}" in diag.message


def test_a_stem_within_the_placeholder_limit_loads(tmp_path: Path):
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION.format(stem=" ".join(["{= 2 * 3}"] * MAX_PLACEHOLDERS)))
    questions, diags = load_question_file(path)
    assert [q.id for q in questions] == ["many-exprs"], diags
