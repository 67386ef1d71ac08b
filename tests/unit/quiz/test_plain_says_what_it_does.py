"""Plain mode says what happens (issue 20 §2): "your answer", not the key; one "submitted" line; the
learner's input as typed; "quiz" for a quiz; no seed line before a refused start."""

from __future__ import annotations

import datetime as dt
import io

from quiz_fixtures import T0, make_bank
from study.cli import main
from study.quiz import build_exam, build_practice
from study.quiz.plain import describe, run_plain


class StepClock:
    def __init__(self, step: float = 1.0) -> None:
        self.t = T0
        self.step = dt.timedelta(seconds=step)

    def __call__(self) -> dt.datetime:
        self.t += self.step
        return self.t


def drive(session, lines, clock):
    out = io.StringIO()
    report = run_plain(session, io.StringIO("".join(f"{l}\n" for l in lines)), out, clock)
    return report, out.getvalue()


def test_the_learners_pick_is_labelled_as_theirs():
    s = build_exam(make_bank(), seed=2, count=2, minutes=3, now=T0)
    text = describe(s.current, 1, 2, answer="C")
    assert "[your answer: C]" in text and "[answer: C]" not in text


def test_an_answer_revisited_in_an_exam_shows_as_your_answer():
    clock = StepClock()
    s = build_exam(make_bank(), seed=2, count=2, minutes=3, now=T0, clock=clock)
    _r, text = drive(s, ["B", ":1", ":submit"], clock)
    assert "[your answer: B]" in text


def test_input_is_named_as_typed_not_upper_cased():
    clock = StepClock()
    s = build_exam(make_bank(), seed=2, count=1, minutes=3, now=T0, clock=clock)
    _r, text = drive(s, ["z", ":submit"], clock)
    assert "'z' is not a choice" in text and "'Z'" not in text


def test_a_timed_out_quiz_says_submitted_once_and_calls_itself_a_quiz():
    clock = StepClock(step=50)
    s = build_practice(make_bank(), seed=2, count=3, minutes=1, timed_like_exam=True, now=T0, clock=clock)
    report, text = drive(s, ["A", "A", "A"], clock)
    full = text + report.render_text()
    assert report.timed_out
    assert full.count("submitted") == 1, full
    assert "exam" not in full.lower().replace("exam pace", "")


def test_an_exam_that_times_out_calls_itself_an_exam():
    clock = StepClock(step=100)
    s = build_exam(make_bank(), seed=2, count=2, minutes=1, now=T0, clock=clock)
    report, text = drive(s, ["A", "A"], clock)
    assert "the exam was submitted" in text and "quiz" not in text.lower()


def test_a_refused_start_prints_no_seed_line(tmp_path, capsys):
    code = main(["--db", str(tmp_path / "p.db"), "quiz", "--plain", "--pick", "missed"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "seed" not in out and "seed" not in err
    assert err.strip().startswith("study: error:") and len(err.strip().splitlines()) == 1
