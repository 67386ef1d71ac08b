"""Helpers for the quiz tests: banks built from the pydantic models, a fixed start time, a fake store."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from study.bank.bank import Bank
from study.bank.load import load_blueprint
from study.bank.schema import Choice, Distractor, NumericAnswer, Question, Reference

ROOT = Path(__file__).resolve().parents[3]
T0 = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.timezone.utc)
REF = [Reference(title="NVIDIA documentation", url="https://docs.nvidia.com/")]


def blueprint():
    return load_blueprint(ROOT / "content" / "blueprint.yaml")


def single(qid: str, objective: str = "2.1", difficulty: int = 2, right: int = 0, n: int = 4, **kw: Any) -> Question:
    choices = [Choice(text=f"option {i} of {qid}", correct=i == right, why=f"why {i}") for i in range(n)]
    return Question(id=qid, objective=objective, difficulty=difficulty, type="single", stem=f"Stem of {qid}?",
                    choices=choices, explanation=f"Explanation of {qid}.", references=REF,
                    verified=dt.date(2026, 11, 30), **kw)


def multi(qid: str, objective: str = "3.3", right: tuple[int, ...] = (0, 2)) -> Question:
    choices = [Choice(text=f"pick {i}", correct=i in right, why=f"why pick {i}") for i in range(5)]
    return Question(id=qid, objective=objective, difficulty=1, type="multi", choose=len(right),
                    stem="Which two? Choose two.", choices=choices, explanation="Two are right.", references=REF,
                    verified=dt.date(2026, 11, 30))


def true_false(qid: str, answer: bool, objective: str = "1.3") -> Question:
    return Question(id=qid, objective=objective, difficulty=1, type="true_false", stem="Every ML system is DL.",
                    answer=answer, explanation="DL is a subset of ML.", references=REF,
                    verified=dt.date(2026, 11, 30))


def numeric(qid: str, value: float, unit: str, tolerance: str = "2%", distractors: list[tuple[float, str]] = (),
            objective: str = "2.1", **kw: Any) -> Question:
    return Question(id=qid, objective=objective, difficulty=2, type="numeric", stem="How much?",
                    answer=NumericAnswer(value=value, unit=unit, tolerance=tolerance, **kw),
                    distractors=[Distractor(value=v, why=w) for v, w in distractors] or None,
                    explanation="Because.", references=REF, verified=dt.date(2026, 11, 30))


def make_bank(per_objective: int = 6, extra: list[Question] = ()) -> Bank:
    """``per_objective`` single-answer questions on every objective, difficulties cycling 1, 2, 3."""
    bp = blueprint()
    qs = [single(f"q-{o}-{k}", objective=o, difficulty=1 + k % 3, right=k % 4)
          for o in bp.objective_ids() for k in range(per_objective)]
    return Bank(blueprint=bp, questions=tuple(qs) + tuple(extra), topics=())


class FakeStore:
    """Records what the session sends, and answers the history calls selection makes."""

    def __init__(self, attempts: list[Any] = (), due: list[str] = (), exams: list[Any] = ()) -> None:
        self.saved: list[tuple[str, str, str, Any]] = []
        self.finished: list[tuple[str, str]] = []
        self.attempts: list[Any] = list(attempts)
        self._due = list(due)
        self._exams = list(exams)

    def save_session(self, session_id, kind, state_json, deadline=None):
        self.saved.append((session_id, kind, state_json, deadline))

    def finish_session(self, session_id, report_json, at=None):
        self.finished.append((session_id, report_json))

    def record_attempt(self, attempt):
        self.attempts.append(attempt)

    def history(self, item_id=None, limit=None):
        rows = [a for a in self.attempts if item_id is None or a.item_id == item_id]
        return sorted(rows, key=lambda a: a.at, reverse=True)

    def due(self, now=None, kind=None, limit=None):
        return list(self._due)

    def exam_history(self):
        return list(self._exams)


