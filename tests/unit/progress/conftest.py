from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from study.bank import Bank
from study.bank.schema import Blueprint, Card, Choice, Distractor, NumericAnswer, Question, Reference, Topic, TopicMeta
from study.progress import open_store

UTC = dt.timezone.utc
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
REF = [Reference(title="NCA-AIIO exam page", url="https://www.nvidia.com/en-us/learn/certification/")]


@pytest.fixture
def store(tmp_path: Path):
    with open_store(tmp_path / "progress.db", fuzz=False) as s:
        yield s


def question(qid: str, objective: str, qtype: str = "single", n_choices: int = 4, distractors: int = 0,
             choose: int | None = None) -> Question:
    kw: dict = {}
    if qtype in ("single", "multi"):
        kw["choices"] = [Choice(text=f"c{i}", correct=i == 0 or (choose is not None and i < choose), why="w")
                         for i in range(n_choices)]
        if choose:
            kw["choose"] = choose
    elif qtype == "true_false":
        kw["answer"] = True
    else:
        kw["answer"] = NumericAnswer(value=1.0, unit="GB")
        if distractors:
            kw["distractors"] = [Distractor(value=float(i + 2), why="w") for i in range(distractors)]
    return Question(id=qid, objective=objective, difficulty=1, type=qtype, stem="s", explanation="e",
                    references=REF, verified=dt.date(2026, 11, 30), **kw)


def blueprint(weights=(60, 40, 0)) -> Blueprint:
    domains = []
    for d, w in zip(("1", "2", "3"), weights):
        if w:
            domains.append({"id": d, "name": f"Domain {d}", "weight": w,
                            "objectives": [{"id": f"{d}.{k}", "title": f"Objective {d}.{k}"} for k in (1, 2)]})
    return Blueprint.model_validate({
        "exam": {"code": "T", "name": "Test exam", "questions": 5, "minutes": 6, "target_percent": 70,
                 "source": "test fixture", "verified": "2026-11-30"},
        "domains": domains,
    })


def topic(tid: str, objectives: list[str], sections: list[str]) -> Topic:
    meta = TopicMeta(id=tid, title=tid, objectives=objectives, references=REF, verified=dt.date(2026, 11, 30))
    cards = tuple(Card(id=f"{tid}/{s}", topic=tid, title=s, body="b", objectives=tuple(objectives)) for s in sections)
    return Topic(meta=meta, intro="", cards=cards)


@pytest.fixture
def bank() -> Bank:
    """Domain 1 (60%): a1 single 4-choice (1.1), a2 true/false (1.2). Domain 2 (40%): b1 single 4-choice
    (2.1), b2 numeric with 3 distractors (2.1); objective 2.2 has no questions, only the card t2/x."""
    qs = (question("a1", "1.1"), question("a2", "1.2", "true_false"), question("b1", "2.1"),
          question("b2", "2.1", "numeric", distractors=3))
    topics = (topic("t1", ["1.1"], ["intro"]), topic("t2", ["2.2"], ["x"]))
    return Bank(blueprint=blueprint(), questions=qs, topics=topics)
