"""Random sequences of session actions keep the invariants, and a JSON round trip at any point is exact."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from quiz_fixtures import T0, make_bank, multi, numeric, true_false
from study.quiz import AnswerError, QuizSession, SessionError, build_exam

BANK = make_bank(per_objective=2, extra=[multi("mu"), true_false("tf", True),
                                         numeric("nu", 140, "GB", distractors=[(70, "half")])])


class SessionMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.s = build_exam(BANK, seed=3, count=8, minutes=8, now=T0)
        self.t = T0

    def later(self, seconds: int) -> dt.datetime:
        self.t += dt.timedelta(seconds=seconds)
        return self.t

    @precondition(lambda self: not self.s.finished)
    @rule(secs=st.integers(0, 90), text=st.sampled_from(["A", "B", "C", "A,C", "T", "F", "140 GB", "Z", "?"]))
    def answer(self, secs, text):
        now = self.later(secs)
        try:
            self.s.answer(text, now=now)
        except (AnswerError, SessionError):
            pass

    @precondition(lambda self: not self.s.finished)
    @rule(secs=st.integers(0, 90), action=st.sampled_from(["next", "previous", "flag", "clear"]))
    def act(self, secs, action):
        try:
            getattr(self.s, action)(now=self.later(secs))
        except SessionError:
            pass

    @precondition(lambda self: not self.s.finished)
    @rule(secs=st.integers(0, 90), i=st.integers(0, 7))
    def goto(self, secs, i):
        try:
            self.s.goto(i, now=self.later(secs))
        except SessionError:
            pass

    @rule(secs=st.integers(0, 400))
    def tick(self, secs):
        self.s.tick(self.later(secs))

    @rule()
    def round_trip(self):
        text = self.s.to_json()
        restored = QuizSession.from_json(text, BANK)
        assert restored.to_json() == text
        self.s = restored

    @precondition(lambda self: not self.s.finished)
    @rule(secs=st.integers(0, 60))
    def submit(self, secs):
        report = self.s.submit(now=self.later(secs))
        assert report.total == 8

    @precondition(lambda self: self.s.finished)
    @rule(action=st.sampled_from(["next", "previous", "flag", "clear"]))
    def nothing_after_submit(self, action):
        with pytest.raises(SessionError):
            getattr(self.s, action)(now=self.later(1))

    @invariant()
    def consistent(self):
        s = self.s
        assert 0 <= s.index < s.count
        assert all(a is None or isinstance(a, str) for a in s.answers)
        # Time is conserved: every second since the start is charged to exactly one question.
        end = s.finished_at if s.finished else s.mark
        assert sum(s.seconds) == pytest.approx((end - s.started_at).total_seconds())
        if s.finished:
            assert s.report is not None and s.finished_at <= s.deadline
            if s.timed_out:
                assert s.finished_at == s.deadline
        else:
            assert s.mark < s.deadline


SessionMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=30, deadline=None)
TestSession = SessionMachine.TestCase
