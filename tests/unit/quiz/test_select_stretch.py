"""Stretch items (tag `stretch`, beyond the associate level) stay out of exam draws unless asked for."""

from __future__ import annotations

from quiz_fixtures import blueprint, make_bank, single
from study.quiz import select_exam, select_practice


def _stretch(n: int):
    return [single(f"stretch-{k}", objective="2.1", tags=["calculator", "stretch"]) for k in range(n)]


def test_an_exam_draw_leaves_stretch_items_out_even_when_short_of_questions() -> None:
    # Only two ordinary questions per objective: the draw would need the stretch items to fill objective 2.1.
    bank = make_bank(per_objective=2, extra=_stretch(10))
    for seed in range(5):
        exam = select_exam(bank.questions, blueprint(), 50, seed=seed)
        assert exam and not any(q.id.startswith("stretch-") for q in exam)


def test_an_exam_may_include_stretch_items_when_asked() -> None:
    bank = make_bank(per_objective=1, extra=_stretch(10))
    exam = select_exam(bank.questions, blueprint(), 50, seed=0, include_stretch=True)
    assert any(q.id.startswith("stretch-") for q in exam)


def test_practice_still_asks_stretch_items() -> None:
    picked = select_practice(_stretch(3), 3, seed=0)
    assert sorted(q.id for q in picked) == ["stretch-0", "stretch-1", "stretch-2"]
