"""The end-of-quiz report: score, per domain and objective, time per question, what went wrong and why.

The pass/fail line compares against a target the project chose (``content/blueprint.yaml``,
``exam.target_percent``); NVIDIA does not publish the NCA-AIIO passing score (see
``/work/shared/reference/exam.md`` section 1.1), so the verdict is labelled unofficial everywhere it shows.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from study.quiz.grade import PickResult, grade_answer
from study.text import fill, labelled

if TYPE_CHECKING:  # pragma: no cover
    from study.quiz.session import QuizSession

UNOFFICIAL = "unofficial: NVIDIA does not publish the passing score"


@dataclass(frozen=True)
class Tally:
    correct: int
    total: int
    name: str = ""

    @property
    def percent(self) -> float:
        return round(100.0 * self.correct / self.total, 1) if self.total else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "correct": self.correct, "total": self.total, "percent": self.percent}


@dataclass(frozen=True)
class QuestionResult:
    position: int  # 1-based, as shown
    id: str
    objective: str
    domain: str
    type: str
    stem: str
    given: str | None
    given_display: str  # the picked choices with their text, or the typed answer
    expected: str
    expected_display: str
    correct: bool
    answered: bool
    flagged: bool
    seconds: float
    message: str
    explanation: str
    derivation: tuple[str, ...]
    matched_distractor_why: str | None
    references: tuple[tuple[str, str], ...]
    # Every choice as shown, with whether it was picked, whether it is right and why: the post-exam review.
    choices: tuple[PickResult, ...] = ()


@dataclass(frozen=True)
class Report:
    session_id: str
    mode: str
    correct: int
    total: int
    target_percent: int
    timed_out: bool
    started_at: str
    finished_at: str | None
    seconds: float
    by_domain: dict[str, Tally]
    by_objective: dict[str, Tally]
    questions: tuple[QuestionResult, ...]
    # Practice questions passed over: shown, not graded, left out of ``total`` (an exam grades them wrong).
    skipped: int = 0
    # How many questions the learner had never attempted before this session (None: no history known).
    new_to_you: int | None = None
    # The class exam form asked (``study.quiz.form``: name and id), None for a drawn exam or practice.
    form: dict[str, str] | None = None

    @property
    def new_to_you_line(self) -> str | None:
        """``"41 of 50 new to you"``: how much the score measures rather than replays."""
        if self.new_to_you is None:
            return None
        return f"{self.new_to_you} of {len(self.questions)} new to you"

    @property
    def score(self) -> float:
        """Percent correct, one decimal."""
        return round(100.0 * self.correct / self.total, 1) if self.total else 0.0

    @property
    def passed(self) -> bool:
        return self.score >= self.target_percent

    @property
    def incorrect(self) -> tuple[QuestionResult, ...]:
        return tuple(q for q in self.questions if q.answered and not q.correct)

    @property
    def unanswered(self) -> tuple[QuestionResult, ...]:
        return tuple(q for q in self.questions if not q.answered)

    @property
    def verdict(self) -> str:
        """``"at or above the 70% target"`` or ``"below the 70% target"``: the target is named once."""
        side = "at or above" if self.passed else "below"
        return f"{side} the {self.target_percent}% target"

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "mode": self.mode,
            "score": self.score,
            "correct": self.correct,
            "total": self.total,
            "target_percent": self.target_percent,
            "passed": self.passed,
            "pass_label": UNOFFICIAL,
            "timed_out": self.timed_out,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "seconds": round(self.seconds, 1),
            "by_domain": {k: v.to_dict() for k, v in self.by_domain.items()},
            "by_objective": {k: v.to_dict() for k, v in self.by_objective.items()},
            "questions": [
                {**asdict(q), "derivation": list(q.derivation), "references": [list(r) for r in q.references],
                 "seconds": round(q.seconds, 1), "choices": [asdict(c) for c in q.choices]}
                for q in self.questions
            ],
            "incorrect": [q.id for q in self.incorrect],
            "unanswered": [q.id for q in self.unanswered],
            "skipped": self.skipped,
            "new_to_you": self.new_to_you,
            **({"form": dict(self.form)} if self.form else {}),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def render_text(self) -> str:
        """A plain-text report for terminals and screen readers (no colour, no box drawing)."""
        lines = [f"Form: {self.form['name']} (id {self.form['id']})."] if self.form else []
        if self.total:
            lines += [f"Score: {self.correct}/{self.total} ({self.score:g}%), {self.verdict} ({UNOFFICIAL})."]
        else:
            lines += ["Nothing answered, so nothing was graded."]
        if self.new_to_you is not None:
            lines.append(f"Questions: {self.new_to_you_line} (never answered before).")
        if self.skipped:
            lines.append(f"Skipped, not graded: {self.skipped} of {len(self.questions)} questions.")
        if self.timed_out:
            lines.append("Time ran out: graded as it stood when the time was up.")
        minutes, secs = divmod(int(round(self.seconds)), 60)
        lines.append(f"Time: {minutes} min {secs} s, {self.seconds / max(1, len(self.questions)):.0f} s per question on average.")
        lines.append("")
        lines.append("By domain:")
        for did, t in self.by_domain.items():
            lines.append(fill(f"{did}. {t.name}: {t.correct}/{t.total} ({t.percent:g}%)", head="  ", indent="     "))
        lines.append("By objective:")
        for oid, t in self.by_objective.items():
            lines.append(fill(f"{oid} {t.name}: {t.correct}/{t.total}", head="  ", indent="      "))
        unanswered = "Skipped (not graded)" if self.skipped else "Unanswered (graded wrong)"
        for title, items in (("Incorrect", self.incorrect), (unanswered, self.unanswered)):
            if not items:
                continue
            lines.append("")
            lines.append(f"{title}:")
            for q in items:
                lines.append(labelled(f"  Q{q.position} [{q.id}, objective {q.objective}] ", q.message, indent=4))
                if q.derivation:
                    lines.append("    Worked:")
                    lines += [fill(step, head="      ", indent=" " * 8) for step in q.derivation]
                lines.append(labelled("    Why: ", q.explanation, indent=6))
        return "\n".join(fill(line) if "\n" not in line else line for line in lines)


def build_report(session: QuizSession) -> Report:
    """Grade every question of ``session`` and tally by domain and objective."""
    results: list[QuestionResult] = []
    dom: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    obj: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    # Practice grades only what was answered; an exam or timed quiz, like the real exam, grades a blank wrong.
    grade_blanks = session.mode != "practice"
    for i, inst in enumerate(session.instances):
        given = session.answers[i]
        g = grade_answer(inst, given)
        results.append(
            QuestionResult(
                position=i + 1, id=inst.qid, objective=inst.objective, domain=inst.domain, type=inst.type,
                stem=inst.stem, given=given, given_display=inst.answer_display(given), expected=inst.expected,
                expected_display=inst.expected_display,
                correct=g.correct, answered=g.answered, flagged=session.flags[i], seconds=session.seconds[i],
                message=g.message, explanation=inst.explanation, derivation=inst.derivation,
                matched_distractor_why=g.matched_distractor_why, references=inst.references,
                choices=g.picks,
            )
        )
        if given is None and not grade_blanks:
            continue
        for table, key in ((dom, inst.domain), (obj, inst.objective)):
            table[key][0] += g.correct
            table[key][1] += 1

    def dotted(k: str) -> tuple[int, ...]:  # "1.10" sorts after "1.9"
        return tuple(int(p) for p in k.split("."))

    by_domain = {k: Tally(dom[k][0], dom[k][1], name=session.domain_names.get(k, ""))
                 for k in sorted(dom, key=dotted)}
    by_objective = {k: Tally(obj[k][0], obj[k][1], name=session.objective_titles.get(k, ""))
                    for k in sorted(obj, key=dotted)}
    finished = session.finished_at or session.mark
    skipped = 0 if grade_blanks else sum(not r.answered for r in results)
    return Report(
        session_id=session.id, mode=session.mode, correct=sum(r.correct for r in results),
        total=len(results) - skipped, skipped=skipped,
        target_percent=session.target_percent, timed_out=session.timed_out,
        started_at=session.started_at.isoformat(), finished_at=finished.isoformat() if finished else None,
        seconds=(finished - session.started_at).total_seconds(), by_domain=by_domain, by_objective=by_objective,
        questions=tuple(results),
        new_to_you=sum(session.new_to_you) if session.new_to_you is not None else None,
        form=getattr(session, "form", None),
    )
