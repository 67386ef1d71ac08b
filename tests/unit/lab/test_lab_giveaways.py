"""No task's feedback (explanation, choices' why) states another task's answer, for seeds 0-4 (issue 34)."""

from __future__ import annotations

from types import SimpleNamespace

from study.lab.case import build_case
from study.lab.giveaway import giveaways
from study.lab.load import all_labs
from study.quiz.instance import instantiate


def _keys(questions):
    return [instantiate(q, 0).numeric.value if q.type == "numeric" else None for q in questions]  # type: ignore[union-attr]


def test_no_lab_task_gives_another_tasks_answer_away():
    found = []
    for lab in all_labs():
        for seed in range(5):
            qs = build_case(lab, seed).questions
            found += [f"{lab.id} seed {seed}: task {i + 1} {m}" for i, _j, m in giveaways(qs, _keys(qs))]
    assert not found, "\n".join(sorted(set(found)))


def test_a_numeric_key_or_a_right_choices_own_phrase_in_other_feedback_is_found():
    c = SimpleNamespace
    numeric = c(stem="What limit is set?", explanation="It is 450 W.", choices=None)
    shown = c(stem="Which GPU?", explanation="GPU 3 sits at 450 W, thermal slowdown active.", choices=None)
    pick = c(stem="Why?", explanation="", choices=[c(text="Thermal slowdown", correct=True, why=""),
                                                    c(text="The power cap", correct=False, why="")])
    hits = giveaways([shown, numeric, pick], [None, 450.0, None])
    assert {(i, j) for i, j, _ in hits} == {(0, 1), (0, 2)}
