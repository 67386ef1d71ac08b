from __future__ import annotations

import datetime as dt
import io

from quiz_fixtures import FakeStore, T0, make_bank
from study.quiz import build_exam, build_practice
from study.quiz.plain import plain_text, run_plain


class StepClock:
    """Advances a fixed step on every reading; ``jump`` moves it forward at once."""

    def __init__(self, step: float = 1.0) -> None:
        self.t = T0
        self.step = dt.timedelta(seconds=step)

    def __call__(self) -> dt.datetime:
        self.t += self.step
        return self.t

    def jump(self, seconds: float) -> None:
        self.t += dt.timedelta(seconds=seconds)


def drive(session, lines, clock):
    out = io.StringIO()
    report = run_plain(session, io.StringIO("".join(f"{l}\n" for l in lines)), out, clock)
    return report, out.getvalue()


def test_exam_commands_review_goto_flag_submit():
    clock = StepClock()
    s = build_exam(make_bank(), seed=2, count=3, minutes=3, now=T0, clock=clock)
    report, text = drive(s, [":review", ":2", ":flag", s.instances[1].expected, ":submit"], clock)
    assert "Unanswered: 1, 2, 3. Flagged: none." in text
    assert "Question 2 of 3" in text and "Flagged." in text
    assert report.questions[1].flagged and report.questions[1].correct
    assert [q.position for q in report.unanswered] == [1, 3]


def test_bad_input_asks_again_without_moving():
    clock = StepClock()
    s = build_exam(make_bank(), seed=2, count=2, minutes=3, now=T0, clock=clock)
    report, text = drive(s, ["Z", s.instances[0].expected, s.instances[1].expected], clock)
    assert "'Z' is not a choice" in text
    assert report.correct == 2
    assert "That was the last question" in text and "End of input: submitting." in text


def test_an_answer_after_the_deadline_is_refused():
    clock = StepClock()
    s = build_exam(make_bank(), seed=2, count=2, minutes=1, now=T0, clock=clock)

    class Late(io.StringIO):
        def readline(self, *a):
            clock.jump(120)  # the learner thought for two minutes
            return super().readline(*a)

    out = io.StringIO()
    report = run_plain(s, Late(f"{s.instances[0].expected}\n"), out, clock)
    assert report.timed_out and report.correct == 0
    assert "Time is up" in out.getvalue()


def test_alerts_are_printed():
    clock = StepClock(step=20)
    s = build_exam(make_bank(), seed=2, count=5, minutes=2, now=T0, clock=clock)
    _, text = drive(s, ["", "", "", "", ""], clock)
    assert "Time check: 1 min left." in text


def test_practice_feedback_and_auto_submit():
    clock = StepClock()
    s = build_practice(make_bank(), seed=4, count=2, now=T0, clock=clock)
    wrong = next(l for l in s.instances[0].labels if l not in s.instances[0].correct_labels)
    report, text = drive(s, [wrong, s.instances[1].expected], clock)
    assert text.count("Why: Explanation of") == 2
    assert f"You picked {wrong}: why" in text
    assert report.correct == 1 and "End of input" not in text


def test_quit_leaves_an_exam_resumable():
    clock = StepClock()
    store = FakeStore()
    s = build_exam(make_bank(), seed=2, count=3, minutes=5, now=T0, clock=clock, store=store)
    report, text = drive(s, [s.instances[0].expected, ":quit"], clock)
    assert report is None and not s.finished
    assert store.saved and not store.finished
    assert "resumes with --resume" in text


def test_plain_text_drops_markdown_marks():
    assert plain_text("Serve **Llama** with `vLLM`") == "Serve Llama with vLLM"


def test_choose_two_with_one_letter_is_asked_again():
    from quiz_fixtures import multi

    clock = StepClock()
    bank = make_bank(per_objective=0, extra=[multi("m1", objective="3.3", right=(0, 2))])
    s = build_practice(bank, seed=1, count=1, now=T0, clock=clock)
    inst = s.instances[0]
    right = [inst.labels[i] for i, o in enumerate(inst.options) if o.correct]
    report, text = drive(s, [right[0], ",".join(right)], clock)
    assert "choose 2, you gave 1" in text
    assert report.correct == 1


def test_plain_text_reflows_prose_but_keeps_tables_and_lists() -> None:
    from study.quiz.plain import plain_text

    md = ("A **long** stem whose author broke\nthe line in the YAML.\n\n"
          "| GPU | GB |\n|---|---|\n| H100 | 80 |\n\n- first item\n- second item")
    out = plain_text(md, width=30)
    # "A long stem whose author broke" is exactly 30 characters.
    assert out.split("\n\n")[0] == "A long stem whose author broke\nthe line in the YAML."
    assert "| GPU | GB |\n|---|---|\n| H100 | 80 |" in out and "- first item\n- second item" in out
    assert plain_text("one\ntwo") == "one two"


def test_a_unitless_numeric_answer_is_asked_as_a_plain_number() -> None:
    from study.quiz import instantiate
    from study.quiz.plain import answer_hint

    from quiz_fixtures import numeric

    inst = instantiate(numeric("ratio-01", 12, "1"), seed=1)
    assert answer_hint(inst) == "a plain number (a ratio or a count, no unit)"


def test_control_and_bidi_characters_in_a_question_reach_the_terminal_escaped():
    from quiz_fixtures import single

    clock = StepClock()
    hostile = single("h1", objective="2.1").model_copy(update={"stem": "\x1b]0;owned\x07Which\u202e one?"})
    s = build_practice(make_bank(per_objective=0, extra=[hostile]), seed=1, count=1, now=T0, clock=clock)
    _, text = drive(s, ["\x1b[2J"], clock)
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert r"\x1b]0;owned\x07Which\u202e one?" in text
    assert r"'\x1b[2J' is not a choice" in text
