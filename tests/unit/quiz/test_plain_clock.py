"""Issue 14 §1.3: the clock ends a timed quiz in the plain terminal while the learner types nothing.

The input is a real pipe whose write end stays open and silent, as a terminal or a script that paused would
be; before the fix ``run_plain`` blocked in ``readline`` for ever. The clock is injected and jumps on every
reading, so the session's deadline passes after a few readings whatever the machine's speed."""

from __future__ import annotations

import datetime as dt
import io
import os
import threading

import pytest

from quiz_fixtures import T0, make_bank
from study.quiz import build_exam, build_practice
from study.quiz.lines import LineReader
from study.quiz.plain import run_plain

pytestmark = pytest.mark.skipif(os.name == "nt", reason="select() on pipes is POSIX only")


class JumpClock:
    def __init__(self, step_s: float) -> None:
        self.t = T0
        self.step = dt.timedelta(seconds=step_s)

    def __call__(self) -> dt.datetime:
        self.t += self.step
        return self.t


@pytest.fixture
def idle_pipe():
    read_fd, write_fd = os.pipe()
    reader = os.fdopen(read_fd, "r", encoding="utf-8")
    yield reader, write_fd
    reader.close()
    try:
        os.close(write_fd)
    except OSError:  # the test closed it to signal end of input
        pass


def run_in_thread(session, stdin, clock):
    """run_plain in a thread, so a regression (a hang) fails the test instead of blocking the suite."""
    out = io.StringIO()
    result: dict = {}
    # poll_s: the injected clock jumps at each reading, so read it often rather than sleep its seconds.
    worker = threading.Thread(
        target=lambda: result.setdefault("report", run_plain(session, stdin, out, clock, poll_s=0.01)), daemon=True)
    worker.start()
    worker.join(timeout=120)  # a hang guard only: the run takes a few clock readings
    assert not worker.is_alive(), "the timed quiz waited at the prompt past its deadline"
    return result["report"], out.getvalue()


def test_an_idle_timed_quiz_alerts_and_submits_by_itself(idle_pipe):
    stdin, _writer = idle_pipe
    clock = JumpClock(step_s=20)  # each reading is 20 s later: a 2-minute quiz runs out in a few readings
    s = build_practice(make_bank(), seed=2, count=3, minutes=2, timed_like_exam=True, now=T0, clock=clock)
    report, text = run_in_thread(s, stdin, clock)
    assert report is not None and report.timed_out and s.finished
    assert "Time check:" in text
    assert "Time is up: the quiz was submitted." in text
    assert text.count("Question 1 of 3") == 1  # the question is not repeated on each alert


def test_an_idle_exam_submits_by_itself(idle_pipe):
    stdin, _writer = idle_pipe
    clock = JumpClock(step_s=90)
    s = build_exam(make_bank(), seed=2, count=2, minutes=3, now=T0, clock=clock)
    report, _ = run_in_thread(s, stdin, clock)
    assert report.timed_out and report.total == 2 and len(report.unanswered) == 2


def test_the_reader_splits_lines_that_arrive_together_and_times_out_between(idle_pipe):
    stdin, writer = idle_pipe
    lines = LineReader(stdin)
    os.write(writer, b"B\n:flag\nA,C")
    assert lines.readline(0) == "B\n"
    assert lines.readline(0) == ":flag\n"
    assert lines.readline(0) is None  # "A,C" waits for its newline
    os.write(writer, b"\n")
    assert lines.readline(0.5) == "A,C\n"
    os.write(writer, "é\n".encode())
    assert lines.readline(None) == "é\n"
    os.close(writer)
    assert lines.readline(0.5) == ""


def test_a_stream_without_a_descriptor_is_read_as_before():
    lines = LineReader(io.StringIO("one\ntwo"))
    assert (lines.readline(0), lines.readline(0), lines.readline(0)) == ("one\n", "two", "")


def test_a_timed_quiz_left_before_any_answer_resumes(tmp_path):
    """Issue 14 §1.4: ":quit" at the first prompt said "it resumes with --resume", then nothing resumed."""
    from study.progress import open_store
    from study.quiz import QuizSession

    clock = JumpClock(step_s=1)
    with open_store(tmp_path / "p.db") as store:
        s = build_practice(make_bank(), seed=2, count=3, minutes=5, timed_like_exam=True, now=T0, clock=clock,
                           store=store)
        out = io.StringIO()
        assert run_plain(s, io.StringIO(":quit\n"), out, clock) is None
        assert "resumes with --resume" in out.getvalue()
        active = store.active_session("quiz")
        assert active is not None and active[0] == s.id
        again = QuizSession.from_json(active[1], clock=clock, store=store)
        assert [i.qid for i in again.instances] == [i.qid for i in s.instances]
        assert again.deadline == s.deadline  # the clock kept running while away
