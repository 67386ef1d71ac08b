"""A lab being worked: its case, the tasks as instances, and each answer graded and recorded (mode ``lab``).

Shared by ``study lab ID --plain`` and the app's Lab screen so both grade and record the same way: an
answer becomes an :class:`~study.progress.Attempt` with the task's stable id (``lab.<lab>.<task>``), the
case's variables as its parameters and the task as shown, like any quiz answer.

A task's first answer is its grade. An answer given after that (once the feedback has shown the right one)
is graded for the learner to see but kept apart as a retry: it changes neither the task's grade, nor the
score, nor the progress store, so ``answer 1 C`` after reading the key cannot turn wrong into right.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any
from collections.abc import Iterable, Mapping

from study.lab.case import Case
from study.lab.shell import run_line


class LabSession:
    def __init__(self, case: Case, *, store: Any = None, clock: Any = None,
                 objective_titles: Mapping[str, str] | None = None) -> None:
        from study.quiz.instance import instantiate

        self.case = case
        # The blueprint's objective titles, for the shown record (an xAPI export names the objective by it);
        # without them the title is left empty rather than filled with something else, such as the lab's.
        self.objective_titles = dict(objective_titles or {})
        self.store = store
        self.clock = clock or (lambda: dt.datetime.now(dt.timezone.utc))
        self.id = uuid.uuid4().hex
        self.instances = [instantiate(q, case.seed, params=dict(case.vars)) for q in case.questions]
        self.grades: list[Any] = [None] * len(self.instances)
        # What was answered and how long it took, kept for the answer review (``study.lab.review``).
        self.given: list[str | None] = [None] * len(self.instances)
        self.seconds: list[float] = [0.0] * len(self.instances)
        self.started = [self.clock()] * len(self.instances)
        self.history: list[str] = []
        # Later answers to an answered task, as (answer as recorded, right?), for the screens to show.
        self.retries: list[list[tuple[str, bool]]] = [[] for _ in self.instances]

    @property
    def lab(self) -> Any:
        return self.case.lab

    def run(self, line: str) -> str:
        if line.strip():
            self.history.append(line.strip())
        return run_line(self.case.system, line)

    def answer(self, i: int, given: str) -> Any:
        """Grade ``given`` for task ``i`` (0-based) and record it; an unreadable answer raises AnswerError.
        A task already answered keeps its first grade: this answer is graded, returned and kept as a retry."""
        from study.quiz.grade import grade_answer, normalize_answer

        inst = self.instances[i]
        grade = grade_answer(inst, given)
        now = self.clock()
        # As recorded ("A", not the "a" typed): the review shows a pick as "A) its text".
        given = normalize_answer(inst, given) if inst.options else given.strip()
        if self.grades[i] is not None:
            self.retries[i].append((given, bool(grade.correct)))
            return grade
        self.grades[i] = grade
        self.given[i] = given
        self.seconds[i] = max(0.0, (now - self.started[i]).total_seconds())
        if self.store is not None:
            from study.progress import Attempt
            from study.quiz.shown import shown_record

            picked: tuple[str, ...] = ()
            if inst.options:
                labels = given.split(",")
                picked = tuple(inst.options[inst.labels.index(lb)].text for lb in labels if lb in inst.labels)
            self.store.record_attempt(Attempt(
                item_id=inst.qid, content_hash=inst.content_hash, params=dict(inst.params),
                given=given, correct=grade.correct,
                seconds=self.seconds[i], mode="lab", session_id=self.id,
                at=now, picked=picked, shown=shown_record(inst, self.objective_titles.get(inst.objective, ""))))
        return grade

    @property
    def done(self) -> bool:
        return all(g is not None for g in self.grades)

    def is_retry(self, i: int) -> bool:
        """Whether task ``i``'s latest answer was a retry (the task was graded before it)."""
        return bool(self.retries[i])

    def score(self) -> tuple[int, int]:
        return sum(bool(g and g.correct) for g in self.grades), len(self.grades)


def last_results(lab_ids: Iterable[str], attempts: Iterable[Any]) -> dict[str, int]:
    """Per lab, how many of its tasks were right in the most recent time it was worked (its last session,
    each task's first answer there: the grade; a store written before retries were kept apart may hold more). ``attempts`` newest first, as ``Store.history`` gives them; a lab never
    worked is absent."""
    # Longest id first: lab and task ids may hold dots, so "lab.a.b.t" is lab "a.b" when there is one.
    prefixes = sorted(((f"lab.{lab_id}.", lab_id) for lab_id in lab_ids), key=lambda p: -len(p[0]))
    session: dict[str, Any] = {}
    answers: dict[str, dict[str, bool]] = {}
    for a in attempts:
        if a.mode != "lab":
            continue
        lab_id = next((lid for prefix, lid in prefixes if a.item_id.startswith(prefix)), None)
        if lab_id is None:
            continue
        if session.setdefault(lab_id, a.session_id) == a.session_id:
            answers.setdefault(lab_id, {})[a.item_id] = a.correct  # newest first: the oldest, first answer wins
    return {lab_id: sum(right.values()) for lab_id, right in answers.items()}
