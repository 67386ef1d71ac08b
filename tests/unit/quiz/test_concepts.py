"""Enemy items: questions sharing a ``concept`` (twins that test one fact) never sit on one form together."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from types import SimpleNamespace

from quiz_fixtures import T0, FakeStore, blueprint, make_bank, single
from study.bank.bank import Bank
from study.quiz import select_exam
from study.quiz.build import build_practice
from study.quiz.retake import build_retake


def _twinned_bank() -> Bank:
    """Six questions per objective, and pairs and triples of twins marked across objectives and domains."""
    base = make_bank(per_objective=6)
    ids = [q.id for q in base.questions]
    concepts: dict[str, str] = {}
    # Twins in one objective, across objectives of one domain, and across domains; some groups of three.
    for g, k in enumerate(range(0, len(ids) - 7, 7)):
        concepts[ids[k]] = concepts[ids[k + 3]] = f"fact-{g}"
        if g % 3 == 0:
            concepts[ids[k + 6]] = f"fact-{g}"
    qs = tuple(q.model_copy(update={"concept": concepts.get(q.id)}) for q in base.questions)
    return Bank(blueprint=base.blueprint, questions=qs, topics=())


def _pairs(form) -> list[str]:
    counts = Counter(q.concept for q in form if q.concept)
    return [c for c, n in counts.items() if n > 1]


def test_no_exam_form_of_200_holds_two_questions_of_one_concept() -> None:
    bank = _twinned_bank()
    marked = sum(1 for q in bank.questions if q.concept)
    assert marked > 40  # a third of the bank is in groups, as in the real bank
    for seed in range(200):
        form = select_exam(bank.questions, bank.blueprint, 50, seed=seed)
        assert len(form) == 50
        assert not _pairs(form), (seed, _pairs(form))


def test_a_short_bank_fills_from_older_questions_but_still_one_per_concept() -> None:
    # Every question was on a recent exam, so the draw takes the fallback path (oldest first).
    bank = _twinned_bank()
    avoid = {q.id for q in bank.questions}
    for seed in range(30):
        form = select_exam(bank.questions, bank.blueprint, 50, seed=seed, avoid=avoid)
        assert len(form) == 50 and not _pairs(form)


def test_a_bank_without_concepts_draws_exactly_as_before() -> None:
    # Ids drawn for fixed seeds before concepts existed (a plain bank must not change its forms).
    bank = make_bank(per_objective=6)
    got = [q.id for q in select_exam(bank.questions, blueprint(), 12, seed=7)]
    assert got == EXPECTED_SEED_7


def _attempt(qid: str, at: dt.datetime) -> SimpleNamespace:
    return SimpleNamespace(item_id=qid, at=at, correct=True, kind="question")


def test_practice_buries_a_twin_for_the_day_once_its_sibling_was_answered() -> None:
    twin_a = single("twin-a", concept="gpu-fp4")
    twin_b = single("twin-b", concept="gpu-fp4")
    other = single("other")
    bank = Bank(blueprint=blueprint(), questions=(twin_a, twin_b, other), topics=())
    today = FakeStore(attempts=[_attempt("twin-a", T0 - dt.timedelta(hours=2))])
    # Over many seeds: a set holds one twin anyway, so only burying keeps twin-b out of every one of them.
    for s in range(20):
        drawn = {i.qid for i in build_practice(bank, seed=s, count=10, store=today, now=T0).instances}
        assert drawn == {"twin-a", "other"}, s
    # The next day the twin is back (a set still holds one of the pair, as any form does).
    yesterday = FakeStore(attempts=[_attempt("twin-a", T0 - dt.timedelta(days=1))])
    sets = [{i.qid for i in build_practice(bank, seed=s, count=10, store=yesterday, now=T0).instances}
            for s in range(20)]
    assert all(len(d & {"twin-a", "twin-b"}) == 1 and "other" in d for d in sets)
    assert any("twin-b" in d for d in sets)


def test_practice_without_history_asks_one_twin_per_set() -> None:
    qs = (single("twin-a", concept="c"), single("twin-b", concept="c"), single("other"))
    bank = Bank(blueprint=blueprint(), questions=qs, topics=())
    for seed in range(10):
        drawn = [i.qid for i in build_practice(bank, seed=seed, count=10).instances]
        assert len(drawn) == 2 and "other" in drawn


def test_a_retake_keeps_one_question_per_concept() -> None:
    qs = (single("twin-a", concept="c"), single("twin-b", concept="c"), single("solo-1"), single("solo-2"))
    bank = Bank(blueprint=blueprint(), questions=qs, topics=())
    session = build_retake(bank, ["twin-a", "solo-1", "twin-b", "solo-2"], seed=0, clock=lambda: T0)
    assert [i.qid for i in session.instances] == ["twin-a", "solo-1", "solo-2"]


# Drawn by the code before concepts were added (git stash; select_exam(make_bank(6).questions, blueprint(), 12, 7)).
EXPECTED_SEED_7 = ['q-3.2-0', 'q-1.3-2', 'q-2.6-4', 'q-3.1-2', 'q-2.2-0', 'q-1.2-3', 'q-3.3-4', 'q-2.10-4',
                   'q-2.5-3', 'q-1.4-4', 'q-1.6-1', 'q-2.7-5']
