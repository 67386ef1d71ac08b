"""An exam measures: it draws what the learner has not practised first, and says how much was new."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from study.bank import load_bank
from study.progress import open_store
from study.progress.control import suspend
from study.quiz import build_exam, build_practice, select_exam

from quiz_fixtures import make_bank

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def real_bank():
    return load_bank()


def _practise(bank, store, n: int, at: dt.datetime) -> set[str]:
    done: set[str] = set()
    seed = 0
    while len(done) < n:
        s = build_practice(bank, seed=f"p{seed}", count=min(25, n - len(done)), store=store, now=at)
        for k in range(s.count):
            inst = s.current
            s.answer(inst.labels[0] if inst.options else "1", now=at + dt.timedelta(seconds=k))
            done.add(inst.qid)
            if k < s.count - 1:
                s.next(now=at + dt.timedelta(seconds=k))
        s.submit(now=at + dt.timedelta(minutes=30))
        seed += 1
    return done


def test_after_100_practice_answers_the_next_exam_repeats_at_most_3(real_bank, tmp_path):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        practised = _practise(real_bank, store, 100, T0)
        assert len(practised) >= 100
        exam = build_exam(real_bank, seed=11, store=store, now=T0 + dt.timedelta(hours=1))
        asked = [i.qid for i in exam.instances]
        assert len(asked) == real_bank.blueprint.exam.questions
        assert len(set(asked) & practised) <= 3
        report = exam.submit(now=T0 + dt.timedelta(hours=2))
        assert report.new_to_you == len(set(asked) - practised)
        assert f"{report.new_to_you} of 50 new to you" in report.render_text()
        assert json.loads(report.to_json())["new_to_you"] == report.new_to_you


def test_when_fresh_questions_run_out_the_oldest_seen_come_first():
    bank = make_bank(per_objective=2)  # few questions: the exam must reuse some
    ids = [q.id for q in bank.questions]
    last_seen = {qid: f"2026-11-{10 + k:02d}T00:00:00" for k, qid in enumerate(ids)}
    fresh = ids[-3:]
    for qid in fresh:
        del last_seen[qid]
    chosen = [q.id for q in select_exam(bank.questions, bank.blueprint, 8, seed=1, last_seen=last_seen)]
    by_domain: dict[str, list[str]] = {}
    for q in bank.questions:
        by_domain.setdefault(q.domain, []).append(q.id)
    for _d, members in by_domain.items():
        # Per domain: every fresh question its quota allows, then the domain's oldest seen ones.
        drawn = [i for i in chosen if i in members]
        fresh_here = [i for i in members if i in fresh]
        assert len([i for i in drawn if i in fresh]) == min(len(drawn), len(fresh_here))
        seen_drawn = [i for i in chosen if i in members and i in last_seen]
        seen_all = sorted((i for i in members if i in last_seen), key=last_seen.get)
        assert seen_drawn == [] or sorted(seen_drawn, key=last_seen.get) == seen_all[: len(seen_drawn)]


def test_a_recent_exam_question_comes_after_every_other_seen_one():
    bank = make_bank(per_objective=3)
    ids = [q.id for q in bank.questions]
    # The avoided questions are the oldest seen: without the rule they would be drawn first.
    last_seen = {qid: f"2026-11-{10 + k % 15:02d}T00:00:00" for k, qid in enumerate(ids)}
    avoid = {qid for qid in ids if qid.endswith("-0")}
    for qid in avoid:
        last_seen[qid] = "2026-01-01T00:00:00"
    chosen = select_exam(bank.questions, bank.blueprint, 20, 3, avoid, last_seen=last_seen)
    assert len(chosen) == 20 and not avoid & {q.id for q in chosen}


def test_suspended_questions_are_never_drawn(real_bank, tmp_path):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        first = build_exam(real_bank, seed=5, store=store, now=T0)
        store.discard_session(first.id)
        gone = {i.qid for i in first.instances[:10]}
        for qid in gone:
            suspend(store, qid, T0)
        again = build_exam(real_bank, seed=5, store=store, now=T0)
        assert not gone & {i.qid for i in again.instances}
        practice = build_practice(real_bank, seed=1, count=400, store=store, now=T0)
        assert not gone & {i.qid for i in practice.instances}


def test_new_to_you_survives_resume(real_bank, tmp_path):
    from study.quiz import QuizSession

    with open_store(tmp_path / "p.db", fuzz=False) as store:
        exam = build_exam(real_bank, seed=2, count=5, store=store, now=T0)
        back = QuizSession.from_json(exam.to_json(), real_bank)
        assert back.new_to_you == exam.new_to_you == [True] * 5
