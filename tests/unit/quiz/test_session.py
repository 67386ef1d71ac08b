from __future__ import annotations

import datetime as dt
import json

import pytest

from quiz_fixtures import FakeStore, T0, make_bank, multi, true_false
from study.quiz import (
    AnswerError,
    QuizSession,
    SessionError,
    TimeUp,
    alert_thresholds,
    build_exam,
    build_practice,
)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def right(session: QuizSession, i: int | None = None) -> str:
    inst = session.instances[session.index if i is None else i]
    return inst.expected


def wrong(session: QuizSession) -> str:
    inst = session.current
    return next(label for label in inst.labels if label not in inst.correct_labels)


@pytest.fixture
def exam(bank) -> QuizSession:
    return build_exam(bank, seed=7, now=T0)


def test_exam_defaults_follow_the_blueprint(exam):
    assert exam.mode == "exam" and exam.count == 50
    assert exam.deadline == T0 + dt.timedelta(minutes=60)
    assert exam.remaining(at(600)) == dt.timedelta(minutes=50)
    assert not exam.feedback


def test_answer_change_clear(exam):
    assert exam.answer("b", now=at(5)) is None  # no feedback in an exam
    assert exam.answers[0] == "B"
    exam.answer("C", now=at(6))
    assert exam.answers[0] == "C"
    exam.clear(now=at(7))
    assert exam.answers[0] is None
    with pytest.raises(AnswerError):
        exam.answer("Z", now=at(8))
    with pytest.raises(AnswerError):
        exam.answer("A,B", now=at(8))  # a single-answer question takes one letter


def test_navigation(exam):
    assert exam.previous(now=at(1)) is False and exam.index == 0
    assert exam.next(now=at(2)) is True and exam.index == 1
    assert exam.goto(49, now=at(3)) is True
    assert exam.next(now=at(4)) is False and exam.index == 49
    assert exam.previous(now=at(5)) is True and exam.index == 48
    with pytest.raises(SessionError):
        exam.goto(50, now=at(6))
    with pytest.raises(SessionError):
        exam.goto(-1, now=at(6))


def test_flag_and_review(exam):
    assert exam.flag(now=at(1)) is True
    exam.answer(right(exam), now=at(2))
    exam.goto(3, now=at(3))
    assert exam.flag(now=at(4)) is True
    assert exam.flag(now=at(5)) is False  # toggles back
    exam.flag(now=at(6), on=True)
    review = exam.review()
    assert review.flagged == (0, 3)
    assert 0 not in review.unanswered and len(review.unanswered) == 49


def test_time_per_question_is_charged_to_the_question_on_screen(exam):
    exam.answer(right(exam), now=at(40))
    exam.next(now=at(50))       # 50 s on question 1
    exam.next(now=at(80))       # 30 s on question 2
    exam.previous(now=at(100))  # 20 s on question 3
    exam.next(now=at(110))      # 10 more on question 2
    assert exam.seconds[:3] == [50.0, 40.0, 20.0]


def test_submit_grades_and_locks(exam):
    for i in range(50):
        exam.goto(i, now=at(i))
        if i < 30:
            exam.answer(right(exam), now=at(i + 0.5))
        elif i < 40:
            exam.answer(wrong(exam), now=at(i + 0.5))
    report = exam.submit(now=at(100))
    assert (report.correct, report.total) == (30, 50)
    assert len(report.incorrect) == 10 and len(report.unanswered) == 10
    assert exam.finished and not exam.timed_out
    for action in (lambda: exam.answer("A", now=at(101)), lambda: exam.next(now=at(101)),
                   lambda: exam.flag(now=at(101)), lambda: exam.clear(now=at(101))):
        with pytest.raises(SessionError):
            action()
    assert exam.submit(now=at(200)) is report  # submitting twice returns the same report


def test_alerts_at_30_15_5_minutes(exam):
    assert exam.tick(at(29 * 60)) == []
    assert exam.tick(at(30 * 60)) == ["30 min"]
    assert exam.tick(at(30 * 60 + 1)) == []  # once only
    assert exam.tick(at(45 * 60)) == ["15 min"]
    assert exam.tick(at(55 * 60)) == ["5 min"]
    assert exam.tick(at(59 * 60)) == []


def test_alerts_scale_for_shorter_quizzes(bank):
    assert alert_thresholds(60) == (1800, 900, 300)
    assert alert_thresholds(90) == (1800, 900, 300)
    assert alert_thresholds(20) == (600, 300, 100)
    s = build_exam(bank, seed=1, count=10, minutes=12, now=T0)
    assert s.alerts == (360, 180, 60)
    assert s.tick(at(6 * 60)) == ["6 min"]
    assert s.tick(at(11 * 60)) == ["1 min"]


def test_a_late_tick_names_only_the_latest_alert(exam):
    assert exam.tick(at(50 * 60)) == ["15 min"]
    assert exam.tick(at(55 * 60)) == ["5 min"]


def test_deadline_submits_by_itself(exam):
    exam.answer(right(exam), now=at(10))
    assert exam.tick(at(3600)) == ["time up"]
    assert exam.finished and exam.timed_out
    report = exam.report
    assert report.timed_out and report.correct == 1
    assert exam.finished_at == exam.deadline
    assert exam.tick(at(3700)) == []


def test_an_action_after_the_deadline_is_refused_and_submits(exam):
    exam.answer(right(exam), now=at(10))
    with pytest.raises(TimeUp):
        exam.next(now=at(3601))
    with pytest.raises(TimeUp):
        build_exam(make_bank(), seed=7, now=T0).answer("A", now=at(4000))
    assert exam.finished and exam.timed_out
    assert exam.seconds[0] == 3600.0  # charged up to the deadline, not past it


def test_practice_gives_feedback_and_answers_are_final(bank):
    s = build_practice(bank, seed=3, count=5, now=T0)
    assert s.mode == "practice" and s.deadline is None and s.feedback
    g = s.answer(right(s), now=at(10))
    assert g is not None and g.correct
    assert s.grade().correct
    with pytest.raises(SessionError):
        s.answer(wrong(s), now=at(11))
    with pytest.raises(SessionError):
        s.clear(now=at(11))
    s.next(now=at(12))
    g = s.answer(wrong(s), now=at(20))
    assert not g.correct and "The answer is" in g.message
    assert s.grade(2) is None  # not answered yet, nothing to show
    assert s.tick(at(10**6)) == []  # untimed


def test_custom_timed_quiz_grades_at_the_end(bank):
    s = build_practice(bank, seed=3, count=8, minutes=10, timed_like_exam=True, now=T0)
    assert s.mode == "quiz" and s.count == 8 and not s.feedback
    assert s.deadline == T0 + dt.timedelta(minutes=10)
    assert s.answer(right(s), now=at(5)) is None


def test_true_false_and_multi_in_a_session():
    bank = make_bank(per_objective=0, extra=[true_false("tf", False), multi("mu")])
    s = build_practice(bank, seed=1, count=2, now=T0)
    by_id = {inst.qid: i for i, inst in enumerate(s.instances)}
    s.goto(by_id["tf"], now=at(1))
    assert s.answer("F", now=at(2)).correct
    s.goto(by_id["mu"], now=at(3))
    inst = s.current
    g = s.answer(",".join(reversed(inst.correct_labels)), now=at(4))
    assert g.correct


def test_json_round_trip_in_the_middle_of_an_exam(bank):
    s = build_exam(bank, seed=11, now=T0)
    s.answer(right(s), now=at(30))
    s.next(now=at(40))
    s.answer(wrong(s), now=at(70))
    s.flag(now=at(71))
    s.goto(10, now=at(90))
    assert s.tick(at(30 * 60)) == ["30 min"]
    text = s.to_json()
    json.loads(text)  # valid JSON
    r = QuizSession.from_json(text, bank)
    assert r.to_json() == text
    assert r.index == 10 and r.flags[1] and r.answers[:2] == s.answers[:2]
    assert r.deadline == s.deadline and r.remaining(at(1900)) == s.remaining(at(1900))
    assert r.instances == s.instances
    # Both continue identically: the 30-minute alert does not fire again, and the reports agree.
    assert r.tick(at(30 * 60 + 5)) == []
    for x in (s, r):
        x.answer(right(x), now=at(2000))
    assert s.submit(now=at(2100)).to_dict() == r.submit(now=at(2100)).to_dict()


def test_resume_does_not_charge_the_downtime(bank):
    s = build_exam(bank, seed=11, now=T0)
    s.answer(right(s), now=at(30))
    r = QuizSession.from_json(s.to_json(), bank)
    r.resume(at(900))  # the process was dead for 14.5 minutes
    r.next(now=at(910))
    assert r.seconds[0] == 40.0
    assert r.remaining(at(910)) == dt.timedelta(seconds=3600 - 910)


def test_from_json_rejects_other_versions(bank):
    s = build_exam(bank, seed=1, now=T0)
    data = json.loads(s.to_json())
    data["version"] = 99
    with pytest.raises(SessionError):
        QuizSession.from_json(json.dumps(data), bank)


def test_store_sync_exam(bank):
    store = FakeStore()
    s = build_exam(bank, seed=5, count=10, minutes=12, now=T0, store=store)
    assert len(store.saved) == 1  # saved when built
    s.answer(right(s), now=at(10))
    s.flag(now=at(11))
    s.next(now=at(12))
    assert len(store.saved) == 4  # and after every action
    sid, kind, state, deadline = store.saved[-1]
    assert (sid, kind, deadline) == (s.id, "exam", s.deadline)
    assert QuizSession.from_json(state, bank).to_json() == s.to_json()
    assert store.attempts == []  # an exam records at the end
    report = s.submit(now=at(60))
    # Only the one answered question is an attempt; the nine blanks are graded wrong in the report alone.
    assert len(store.attempts) == 1 and len(store.finished) == 1
    assert (report.correct, report.total, len(report.unanswered)) == (1, 10, 9)
    first = next(a for a in store.attempts if a.item_id == s.instances[0].qid)
    assert first.correct and first.given == s.answers[0] and first.mode == "exam" and first.session_id == s.id
    assert first.seconds == 12.0 and first.at == at(60)
    assert first.content_hash == s.instances[0].content_hash
    assert json.loads(store.finished[0][1])["score"] == report.score


def test_store_sync_practice_records_each_answer_once(bank):
    store = FakeStore()
    s = build_practice(bank, seed=5, count=3, now=T0, store=store)
    s.answer(right(s), now=at(10))
    assert [a.item_id for a in store.attempts] == [s.instances[0].qid]
    assert store.saved == []  # untimed practice is not persisted for resume
    s.submit(now=at(20))
    assert len(store.finished) == 1 and store.finished[0][0] == s.id  # but its report is kept
    assert [a.correct for a in store.attempts] == [True]  # the two skipped are not recorded as misses


def test_attempts_keep_the_texts_of_the_picked_choices(bank, tmp_path):
    """The shown letters mean nothing once the shuffle is gone, so each attempt also keeps what they said."""
    progress = pytest.importorskip("study.progress")
    with progress.open_store(tmp_path / "p.db") as store:
        s = build_practice(bank, seed=11, count=6, now=T0, store=store)
        expected: dict[str, tuple[str, ...]] = {}
        for k, inst in enumerate(s.instances):
            if inst.options:
                letters = ["B", "A"][: inst.choose]  # deliberately not in label order
                s.answer(",".join(letters), now=at(10 * (k + 1)))
                expected[inst.qid] = frozenset(inst.options[ord(x) - ord("A")].text for x in letters)
            else:
                s.answer(str(inst.numeric.value), now=at(10 * (k + 1)))
                expected[inst.qid] = frozenset()
            if k + 1 < len(s.instances):
                s.next(now=at(10 * (k + 1) + 1))
        assert any(expected.values())
        history = {a.item_id: a.picked for a in store.history()}
        assert {q: frozenset(p) for q, p in history.items()} == expected
        assert all(len(p) == len(expected[q]) for q, p in history.items())


def test_real_progress_store_round_trip(bank, tmp_path):
    progress = pytest.importorskip("study.progress")
    store = progress.open_store(tmp_path / "p.db")
    try:
        s = build_exam(bank, seed=5, count=5, minutes=6, now=T0, store=store)
        # Persisted before any answer: closing the app at once still leaves it to resume.
        assert store.active_session("exam") is not None and store.active_session("exam")[0] == s.id
        s.answer(right(s), now=at(10))
        active = store.active_session("exam")
        assert active is not None and active[0] == s.id and active[2] == s.deadline
        resumed = QuizSession.from_json(active[1], bank, store=store)
        resumed.submit(now=at(30))
        assert store.active_session("exam") is None
        assert [a.item_id for a in store.history()] == [s.instances[0].qid]  # the four blanks are not attempts
        assert store.exam_history()[-1].report["questions"][0]["id"] == s.instances[0].qid
    finally:
        store.close()


def test_a_question_the_calculator_cannot_instantiate_is_replaced():
    import datetime as dt

    from study.bank.schema import NumericAnswer, Question, Reference

    broken = Question(id="broken", objective="2.1", difficulty=1, type="numeric", stem="?",
                      answer=NumericAnswer(calc="no_such_function(1)", unit="GB"), explanation="x",
                      references=[Reference(title="t", url="https://x.org")], verified=dt.date(2026, 11, 30))
    bank = make_bank(per_objective=3, extra=[broken])
    ids = set()
    for seed in range(5):
        s = build_exam(bank, seed=seed, count=30, now=T0)
        assert s.count == 30
        ids |= {i.qid for i in s.instances}
    assert "broken" not in ids
