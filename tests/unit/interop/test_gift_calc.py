"""`study import` of a GIFT export keeps the calculator expressions of a fixed numeric question (issue 36.8):
the GIFT number is what the expression gave, and the expression itself travels in a `// study: calc=` comment
(each distractor's in `distractor-calc=N`), so export -> import gives back the question as written.

Over the whole shipped bank: every numeric question, templated ones made fixed by writing their seed-0 values
into their expressions and stem, goes through export and import and comes back equal."""

from __future__ import annotations

import argparse
import ast
import datetime as dt

import pytest

from study.bank.bank import clear_cache, load_bank
from study.bank.schema import Question
from study.interop.gift import import_command
from study.interop.gift_export import ExportReport, question_gift
from study.quiz.instance import instantiate

H100, TWICE, L40S = 'gpu("h100-sxm").memory', 'gpu("h100-sxm").memory * 2', 'gpu("l40s").memory'
REF = [{"title": "NVIDIA H100 datasheet", "url": "https://www.nvidia.com/en-us/data-center/h100/"}]


def _q(**kw) -> Question:
    base = dict(id="t-calc", objective="2.2", difficulty=2, explanation="Because.", references=REF,
                verified=dt.date(2026, 11, 30), type="numeric", stem="How much memory has an H100 SXM, in GB?")
    base.update(kw)
    return Question.model_validate(base)


def round_trip(tmp_path, questions: list[Question]) -> dict[str, Question]:
    report = ExportReport()
    text = "\n\n".join(question_gift(q, report) for q in questions) + "\n"
    gift = tmp_path / "bank.gift"
    gift.write_text(text, encoding="utf-8")
    out = tmp_path / "back.yaml"
    assert import_command(argparse.Namespace(file=str(gift), out=str(out))) == 0
    clear_cache()
    back = load_bank(questions=[out])
    assert back.diagnostics == (), back.diagnostics
    return {q.id: back.question(q.id) for q in questions}


def same(a: Question, b: Question) -> None:
    assert a.model_dump(exclude={"source"}) == b.model_dump(exclude={"source"})


@pytest.mark.parametrize("answer, distractors", [
    ({"calc": H100, "unit": "GB"}, [{"value": 40, "why": "Half of it."}]),
    ({"calc": H100, "value": 80, "unit": "GB"}, [{"calc": TWICE, "why": "Counted twice."}]),
    ({"value": 80, "unit": "GB"}, [{"calc": TWICE, "value": 160, "why": "Counted twice."},
                                   {"value": 40, "why": "Half of it."}]),
])
def test_a_fixed_numeric_questions_calc_comes_back(tmp_path, answer, distractors):
    q = _q(id="t-calc-1", answer=answer, distractors=distractors)
    same(round_trip(tmp_path, [q])["t-calc-1"], q)


def test_a_distractor_left_out_of_the_instance_does_not_shift_the_others(tmp_path):
    # The second distractor rounds to the answer, so the instance and the GIFT file leave it out; the third's
    # calc must still land on the third.
    q = _q(id="t-calc-2", answer={"calc": H100, "unit": "GB"},
           distractors=[{"calc": L40S, "why": "Another GPU."}, {"value": 80.0001, "why": "Rounds to it."},
                        {"calc": TWICE, "why": "Counted twice."}])
    back = round_trip(tmp_path, [q])["t-calc-2"]
    assert [(d.calc, d.value) for d in back.distractors] == [(L40S, None), (TWICE, None)]
    assert back.answer.calc == H100 and back.answer.value is None


class _Bind(ast.NodeTransformer):
    """A parameter's name in an expression becomes its value (a function's name is left alone)."""

    def __init__(self, params):
        self.params = params

    def visit_Call(self, node):
        if not isinstance(node.func, ast.Name):  # gpu(g).peak('fp16'): the g inside
            node.func = self.visit(node.func)
        node.args = [self.visit(a) for a in node.args]
        node.keywords = [self.visit(k) for k in node.keywords]
        return node

    def visit_Name(self, node):
        return ast.Constant(self.params[node.id]) if node.id in self.params else node


def fixed(q: Question) -> Question:
    """``q`` as a fixed question: its seed-0 values written into its stem and expressions."""
    if not q.is_templated:
        return q
    params = dict(instantiate(q, 0, shuffle=False).params)

    def bind(expr):
        return None if expr is None else ast.unparse(_Bind(params).visit(ast.parse(expr, mode="eval")))

    data = q.model_dump(exclude={"source", "params"}, exclude_none=True)
    data["stem"] = instantiate(q, 0, shuffle=False).stem.replace("{", "{{").replace("}", "}}")
    data["answer"]["calc"] = bind(q.answer.calc)
    if data["answer"]["calc"] is None:
        del data["answer"]["calc"]
    for d, orig in zip(data.get("distractors") or (), q.distractors or ()):
        if orig.calc is not None:
            d["calc"] = bind(orig.calc)
    return Question.model_validate(data)


def test_every_numeric_question_of_the_shipped_bank_made_fixed_comes_back_unchanged(tmp_path):
    clear_cache()
    bank = load_bank()
    numeric = [fixed(q) for q in bank.questions if q.type == "numeric"]
    assert len(numeric) >= 50
    with_calc = [q for q in numeric if q.answer.calc is not None]
    assert len(with_calc) >= 40  # the test is about calc: most of the bank's numbers are computed
    back = round_trip(tmp_path, numeric)
    for q in numeric:
        same(back[q.id], q)
    clear_cache()
