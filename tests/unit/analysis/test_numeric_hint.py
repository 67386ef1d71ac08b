"""A numeric question's wrong-key hint shows the value the strong learners typed, not only the mistake's text
(issue 36.5): "the distractor "off by 2x"" left the instructor to work out that it meant 140 GB."""

from __future__ import annotations

import numpy as np
import pytest

from study.analysis.answers import Response
from study.analysis.rekey import Keys
from study.analysis.responses import regrade_marks, response_tables
from study.bank import load_bank

_COMMON = """    explanation: Generated for a test.
    references:
      - title: EleutherAI, Transformer Math 101
        url: https://blog.eleuther.ai/transformer-math/
    verified: 2026-11-30
"""
# The key counts one byte per FP16 parameter: the truth is the "off by 2x" distractor.
BANK = f"""questions:
  - id: instr-fixed
    objective: "2.1"
    difficulty: 2
    type: numeric
    stem: How much memory do the weights of a 70-billion-parameter model take in FP16, in GB?
    answer:
      value: 70
      unit: GB
    distractors:
      - value: 140
        why: off by 2x
      - value: 280
        why: counted FP32
{_COMMON}  - id: instr-templated
    objective: "2.1"
    difficulty: 2
    type: numeric
    params:
      billions: [7, 13]
    stem: How much memory do the weights of a {{billions}}-billion-parameter model take in FP16?
    answer:
      calc: "billions * 1"
      unit: GB
    distractors:
      - calc: "billions * 2"
        why: off by 2x
{_COMMON}"""


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    root = tmp_path_factory.mktemp("numeric")
    (root / "instr.yaml").write_text(BANK, encoding="utf-8")
    return load_bank(questions=[str(root)])


def _table(bank, qid, responses, others=30):
    """Learner l has a rest score of l / others and gives ``responses[l]``."""
    n = len(responses)
    marks = np.zeros((n, others + 1))
    for learner in range(n):
        marks[learner, 1: 1 + learner] = 1.0
    questions = [qid] + [f"other-{k}" for k in range(others)]
    given = {(learner, 0): r for learner, r in enumerate(responses)}
    keys = Keys()
    known = {q.id: q for q in bank.questions}
    marks, _ = regrade_marks(marks, questions, given, known, keys)
    return response_tables(marks, questions, given, known, keys, min_responses=1)[qid]


def test_a_fixed_numeric_hint_shows_the_value_of_the_mistake(bank):
    typed = [Response(typed="70 GB")] * 20 + [Response(typed="140 GB")] * 10
    table = _table(bank, "instr-fixed", typed)
    assert table.hint == ("the key may be wrong: the strongest learners chose 140 GB, the mistake \"off by 2x\" "
                          "(10 of 10), not the key 70 GB (0 of 10)")
    assert {(c.role, c.response, c.value) for c in table.culprits} == {
        ("distractor", "off by 2x", "140 GB"), ("key", "right", "70 GB")}


def test_a_templated_numeric_hint_shows_the_range_of_values_the_learners_met(bank):
    def typed(billions, value):
        return Response(typed=f"{value} GB", params={"billions": billions})

    weak = [typed(7, 7), typed(13, 13)] * 10
    strong = [typed(7, 14), typed(13, 26)] * 5
    table = _table(bank, "instr-templated", weak + strong)
    assert table.hint == ("the key may be wrong: the strongest learners chose 14 GB to 26 GB (each learner's "
                          "numbers), the mistake \"off by 2x\" (10 of 10), not the key 7 GB to 13 GB (each "
                          "learner's numbers) (0 of 10)")


def test_the_text_report_names_each_value_at_its_line(bank, capsys):
    from rich.console import Console

    from study.analysis.response_view import render_responses

    table = _table(bank, "instr-fixed", [Response(typed="70 GB")] * 20 + [Response(typed="140 GB")] * 10)

    class Row:
        id, type, flags = "instr-fixed", "numeric", ("key may be wrong",)

    class Analysis:
        questions = [Row()]
        responses = {"instr-fixed": table}
        regraded: dict = {}

    render_responses(Analysis(), Console(width=200))
    out = capsys.readouterr().out
    assert "distractor chosen (10/10 of the top third): 140 GB (off by 2x) at " in out
    assert "key rejected (0/10 of the top third): 70 GB (the key) at " in out
