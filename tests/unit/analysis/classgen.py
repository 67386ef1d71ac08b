"""A generated class whose truth is known: learners of known ability answer a small bank through the real
quiz path (instantiate, grade, the attempt as the session records it), then export with `study export`.

Abilities are 0..N-1 and question j has difficulty b_j: learner l knows question j exactly when l >= b_j (a
Guttman pattern), so the top third by rest score is the ten strongest learners of a class of 30. A learner
who does not know a question picks the question's ``lure`` (a planted distractor). The true/false question's
key is flipped in the file: its truth is True, the file says false.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from study.progress import Attempt, open_store

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

_COMMON = """    explanation: Generated for a test.
    references:
      - title: NVIDIA H100 Tensor Core GPU datasheet
        url: https://www.nvidia.com/en-us/data-center/h100/
    verified: 2026-11-30
"""


def _single(qid: str, n: int) -> str:
    return f"""  - id: {qid}
    objective: "2.1"
    difficulty: 2
    type: single
    stem: Generated single-choice question {n}?
    choices:
      - text: Right answer {n}
        correct: true
        why: It is right.
      - text: Lure {n}
        why: The planted mistake.
      - text: Other wrong {n}
        why: Also wrong.
{_COMMON}"""


FLIP_ID = "gen-flip"
NUMERIC_ID = "gen-numeric"
SINGLE_IDS = [f"gen-single-{n}" for n in range(4)]
DIFFICULTY = {SINGLE_IDS[0]: 5, SINGLE_IDS[1]: 10, SINGLE_IDS[2]: 15, SINGLE_IDS[3]: 20, FLIP_ID: 12,
              NUMERIC_ID: 8}


def bank_text(flipped: bool = True) -> str:
    tf = f"""  - id: {FLIP_ID}
    objective: "2.1"
    difficulty: 1
    type: true_false
    stem: An H100 SXM has 80 GB of HBM3.
    answer: {"false" if flipped else "true"}
{_COMMON}"""
    numeric = f"""  - id: {NUMERIC_ID}
    objective: "3.1"
    difficulty: 2
    type: numeric
    stem: How many bytes in 8 bits, in B?
    answer:
      value: 1
      unit: B
    distractors:
      - value: 8
        why: Bits were taken for bytes.
      - value: 64
        why: Multiplied instead of divided.
{_COMMON}"""
    return "questions:\n" + "".join(_single(q, n) for n, q in enumerate(SINGLE_IDS)) + tf + numeric


def write_bank(directory: Path, flipped: bool = True) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "generated.yaml"
    path.write_text(bank_text(flipped), encoding="utf-8")
    return path


def _answer(inst, knows: bool, qid: str, numeric_exam: bool) -> str:
    if inst.type == "true_false":
        return "T" if knows else "F"  # the truth is True, whatever the file's key says
    if inst.is_numeric_typed:
        return "1 B" if knows else "8 B"
    want = (lambda o: o.correct) if knows else (lambda o: o.text.startswith("Lure") or o.text == "8 B")
    return "ABCDEF"[next(k for k, o in enumerate(inst.options) if want(o))]


def record_learner(db: Path, bank, learner: int, *, start: dt.datetime = T0) -> None:
    """Learner ``learner`` answers every question of ``bank`` once, in an exam, graded against its key."""
    from study.quiz.grade import grade_answer
    from study.quiz.instance import instantiate
    from study.quiz.session import _picked_texts
    from study.quiz.shown import shown_record

    with open_store(db, fuzz=False) as store:
        for n, q in enumerate(bank.questions):
            inst = instantiate(q, f"s{learner}", as_choice=learner % 2 == 0, hash_=bank.content_hash(q.id))
            given = _answer(inst, learner >= DIFFICULTY[q.id], q.id, learner % 2 == 0)
            grade = grade_answer(inst, given)
            store.record_attempt(Attempt(
                q.id, inst.content_hash, dict(inst.params), given, grade.correct, 20.0, "exam",
                f"exam-{learner}", start + dt.timedelta(minutes=n), picked=_picked_texts(inst, given),
                shown=shown_record(inst)))


# Knows every question but the hardest single one: 4 of 6 right by the flipped key (failed), 5 of 6 by the fixed one.
EXAM_LEARNER = 15


def take_exam(db: Path, bank_dir: Path, learner: int = EXAM_LEARNER, start: dt.datetime = T0) -> str:
    """One timed exam over the whole small bank, answered through the quiz session and submitted (with a
    report in the store, as the app leaves it); the session id."""
    from study.bank import load_bank
    from study.quiz.instance import instantiate
    from study.quiz.session import QuizSession

    bank = load_bank(questions=[str(bank_dir)])
    insts = [instantiate(q, f"s{learner}", as_choice=False, hash_=bank.content_hash(q.id)) for q in bank.questions]
    with open_store(db, fuzz=False) as store:
        session = QuizSession(insts, mode="exam", started_at=start, minutes=90, store=store, target_percent=70)
        for i, inst in enumerate(insts):
            session.goto(i, now=start + dt.timedelta(minutes=i))
            session.answer(_answer(inst, learner >= DIFFICULTY[inst.qid], inst.qid, False),
                           now=start + dt.timedelta(minutes=i, seconds=30))
        session.submit(now=start + dt.timedelta(minutes=20))
        return session.id


def record_class(directory: Path, bank_dir: Path, learners: int = 30, *, xapi_every: int = 3) -> Path:
    """Every learner answers every question once (an exam), is graded against the file's key, and exports:
    every ``xapi_every``-th learner as xAPI statements, the others as progress exports."""
    from study.bank import load_bank
    from study.cli import main

    bank = load_bank(questions=[str(bank_dir)])
    out = directory / "class"
    out.mkdir(parents=True, exist_ok=True)
    for learner in range(learners):
        db = directory / f"learner{learner:02d}.db"
        record_learner(db, bank, learner)
        xapi = learner % xapi_every == 0
        target = out / f"learner{learner:02d}.{'jsonl' if xapi else 'json'}"
        argv = ["--db", str(db), "export", *(["--format", "xapi", "--actor", f"l{learner}@example.com"]
                                            if xapi else []), "--questions", str(bank_dir), str(target)]
        assert main(argv) == 0
    return out
