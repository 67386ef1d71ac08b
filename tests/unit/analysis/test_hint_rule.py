"""The wrong-key hint (issue 36.1, 36.2): a choose-two with one wrong key letter names the key the strong
learners reject and the distractor they pick, each at its own line; a hint needs HINT_MIN_STRONG strong
learners and a HINT_MARGIN lead; a tie gives none; exactly --min-responses answers still give one; a partial
choose-N answer is wrong."""

from __future__ import annotations

import numpy as np
import pytest

from study.analysis.answers import Response
from study.analysis.rekey import Keys, mark_now
from study.analysis.responses import HINT_MARGIN, HINT_MIN_STRONG, regrade_marks, response_tables
from study.bank import load_bank

MULTI = """questions:
  - id: instr-multi
    objective: "3.1"
    difficulty: 2
    type: multi
    choose: 2
    stem: Which two tools report GPU health?
    choices:
      - text: nvidia-smi
        correct: true
        why: It reports temperature, power and ECC errors.
      - text: NCCL
        correct: true
        why: Wrongly marked; NCCL is a collective communication library.
      - text: DCGM (dcgmi)
        why: Wrongly unmarked; DCGM runs health checks.
      - text: Nsight Systems
        why: A profiler.
    explanation: Generated for a test.
    references:
      - title: NVIDIA DCGM
        url: https://docs.nvidia.com/datacenter/dcgm/latest/
    verified: 2026-11-30
"""
QID = "instr-multi"
RIGHT_PICK = ("nvidia-smi", "DCGM (dcgmi)")  # the truth
KEY_PICK = ("nvidia-smi", "NCCL")  # what the file's key says


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    root = tmp_path_factory.mktemp("multi")
    (root / "instr.yaml").write_text(MULTI, encoding="utf-8")
    return root, load_bank(questions=[str(root)])


def _class(picks, others=30):
    """Learner l has a rest score of l / others (distinct, so the thirds are exact) and picks ``picks[l]``."""
    n = len(picks)
    marks = np.zeros((n, others + 1))
    for learner in range(n):
        marks[learner, 1: 1 + learner] = 1.0
    given = {(learner, 0): Response(picked=p) for learner, p in enumerate(picks)}
    return marks, [QID] + [f"other-{k}" for k in range(others)], given


def _table(bank, picks, min_responses=1):
    root, b = bank
    marks, questions, given = _class(picks)
    keys = Keys()
    known = {q.id: q for q in b.questions}
    marks, _ = regrade_marks(marks, questions, given, known, keys)
    return response_tables(marks, questions, given, known, keys, min_responses=min_responses)[QID]


def _line(root, text):
    lines = (root / "instr.yaml").read_text().splitlines()
    return next(n for n, row in enumerate(lines, 1) if row.strip() == text)


def test_a_wrong_key_letter_names_the_rejected_key_and_the_chosen_distractor_each_at_its_line(bank):
    root, _ = bank
    table = _table(bank, [KEY_PICK] * 20 + [RIGHT_PICK] * 10)  # the ten strongest know the truth
    assert table.top_size == 10
    assert table.hint == ("the key may be wrong: the strongest learners chose DCGM (dcgmi) (10 of 10), "
                          "not the key NCCL (0 of 10)")
    named = {(c.response, c.role, c.top): c.location.rpartition(":")[2] for c in table.culprits}
    # NCCL's own `correct: true` (the second), not nvidia-smi's; DCGM's choice, which has no `correct:`.
    nccl_line = _line(root, "- text: NCCL") + 1
    assert named == {("NCCL", "key", 0): str(nccl_line), ("DCGM (dcgmi)", "distractor", 10):
                     str(_line(root, "- text: DCGM (dcgmi)"))}
    assert table.key_location.endswith(f"instr.yaml:{nccl_line}")
    # nvidia-smi, a right key chosen by all ten, is not accused.
    assert "nvidia-smi" not in table.hint


def test_the_text_report_prints_each_culprit_with_its_line(bank, capsys):
    from study.analysis.response_view import render_responses
    from rich.console import Console

    root, b = bank
    table = _table(bank, [KEY_PICK] * 20 + [RIGHT_PICK] * 10)

    class Row:
        id, type, flags = QID, "multi", ("key may be wrong",)

    class Analysis:
        questions = [Row()]
        responses = {QID: table}
        regraded: dict = {}

    render_responses(Analysis(), Console(width=200))
    out = capsys.readouterr().out
    assert "key rejected (0/10 of the top third): NCCL at " in out
    assert f"instr.yaml:{_line(root, '- text: NCCL') + 1}" in out
    assert "distractor chosen (10/10 of the top third): DCGM (dcgmi) at " in out
    assert f"instr.yaml:{_line(root, '- text: DCGM (dcgmi)')}" in out


def test_a_tie_between_the_key_and_a_distractor_among_the_strong_gives_no_hint(bank):
    # Top ten: five pick the key's NCCL, five DCGM: 5 of 10 each, no lead.
    table = _table(bank, [KEY_PICK] * 20 + [KEY_PICK, RIGHT_PICK] * 5)
    assert table.top_size == 10 and table.hint is None and table.culprits == ()


def test_a_lead_of_the_margin_gives_a_hint_and_one_less_does_not(bank):
    lead = (10 + HINT_MARGIN) // 2  # DCGM by `lead`, NCCL by 10 - lead: a lead of exactly the margin
    table = _table(bank, [KEY_PICK] * 20 + [KEY_PICK] * (10 - lead) + [RIGHT_PICK] * lead)
    assert table.hint is not None and f"DCGM (dcgmi) ({lead} of 10)" in table.hint
    # DCGM by half of them (5), NCCL by 4, one on Nsight: a lead of one learner is no evidence.
    below = _table(bank, [KEY_PICK] * 20 + [KEY_PICK] * 4 + [("nvidia-smi", "Nsight Systems")] + [RIGHT_PICK] * 5)
    assert HINT_MARGIN == 2 and below.top_size == 10 and below.hint is None


def test_too_few_strong_learners_give_no_hint(bank):
    # Twelve learners: a top third of four, all on the truth; one more learner and the hint is justified.
    assert HINT_MIN_STRONG == 5
    small = _table(bank, [KEY_PICK] * 8 + [RIGHT_PICK] * 4)
    assert small.top_size == 4 and small.hint is None
    enough = _table(bank, [KEY_PICK] * 10 + [RIGHT_PICK] * 5)
    assert enough.top_size == 5 and enough.hint is not None


def test_exactly_min_responses_answers_still_give_a_hint_and_one_fewer_none(bank):
    picks = [KEY_PICK] * 20 + [RIGHT_PICK] * 10
    assert _table(bank, picks, min_responses=30).hint is not None
    assert _table(bank, picks, min_responses=31).hint is None


def test_a_partial_choose_two_answer_is_wrong_in_the_marks_and_the_table(bank):
    _, b = bank
    q = b.question(QID)
    keys = Keys()
    assert mark_now(q, Response(picked=("nvidia-smi",)), keys) == 0.0
    assert mark_now(q, Response(picked=("NCCL",)), keys) == 0.0
    assert mark_now(q, Response(picked=KEY_PICK), keys) == 1.0
    marks, questions, given = _class([("nvidia-smi",)] * 3)
    marks[:, 0] = 1.0  # recorded as right by a lenient grader: the regrade marks them wrong
    known = {q.id: q}
    now, changed = regrade_marks(marks, questions, given, known, keys)
    assert list(now[:, 0]) == [0.0, 0.0, 0.0] and changed == {QID: 3}


def test_the_help_states_the_rule_the_code_applies():
    import argparse

    from study.analysis.responses import HINT_RULE
    from study.commands import analyze

    sub = argparse.ArgumentParser().add_subparsers()
    analyze.register(sub)
    text = " ".join(sub.choices["analyze"].description.split())
    assert f"at least {HINT_MIN_STRONG} learners in the top third" in text and f"at least {HINT_MARGIN} more" in text
    assert "least-chosen key" in HINT_RULE and "--strict" in text


@pytest.mark.parametrize("flags, strict, code", [
    (("key may be wrong",), False, 0),
    (("key may be wrong",), True, 1),
    (("key may be wrong", "negative discrimination"), False, 1),
    ((), True, 0),
])
def test_a_hint_alone_fails_the_command_only_with_strict(tmp_path, monkeypatch, capsys, progress_doc, flags,
                                                          strict, code):
    from study.analysis import report
    from study.cli import main
    from tests.unit.analysis.conftest import attempt, write_json

    class Q:
        pass

    q = Q()
    q.flags = flags

    class Fake:
        broken = (q,) if flags else ()

        def to_dict(self):
            return {}

    monkeypatch.setattr(report, "analyse", lambda *a, **k: Fake())
    doc = write_json(tmp_path / "a.json", progress_doc([attempt("q1", True, "2026-11-02T09:00:00+00:00")]))
    argv = ["analyze", str(doc), "--json"] + (["--strict"] if strict else [])
    assert main(argv) == code
    capsys.readouterr()


def test_a_partial_choose_two_answer_recorded_right_is_regraded_wrong(bank):
    import datetime as dt
    from types import SimpleNamespace

    from study.analysis.regrade import plan_regrade

    _, b = bank
    q = b.question(QID)
    shown = {"type": "multi", "stem": q.stem, "choices": [{"text": c.text} for c in q.choices]}

    def answered(uid, picked, correct):
        given = ",".join("ABCD"[[c.text for c in q.choices].index(t)] for t in picked)
        return SimpleNamespace(uid=uid, item_id=QID, content_hash="old", shown=shown, given=given, picked=picked,
                               params={}, correct=correct, at=dt.datetime(2026, 11, 2, tzinfo=dt.timezone.utc),
                               seconds=20.0)

    plan = plan_regrade([answered("partial", ("nvidia-smi",), True), answered("full", KEY_PICK, True)], b)
    assert [(c.attempt_uid, c.old_correct, c.new_correct) for c in plan.changes] == [("partial", True, False)]
    assert plan.unchanged == 1 and plan.not_comparable == 0
