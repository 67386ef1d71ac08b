"""``study quiz --plain``: the quiz engine in a plain terminal, for scripts and screen readers.

One question at a time, choices labelled A, B, C; one line of input per question: a letter, letters
separated by commas (multi), T or F, or a number with its unit. An empty line skips. Commands: ``:flag``,
``:back``, ``:next``, ``:review``, ``:N`` (go to question N), ``:submit``, ``:quit`` (leave an exam to resume
later). End of input submits. No colour, no cursor movement: output is line-oriented text.
"""

from __future__ import annotations

from typing import IO, Any

from study.progress.store_open import StoreError
from study.quiz.clock import Clock
from study.quiz.grade import AnswerError, Grade, normalize_answer
from study.quiz.instance import Instance
from study.quiz.lines import LineReader
from study.quiz.report import Report
from study.quiz.session import QuizSession, SessionError, TimeUp, format_left
from study.text import WIDTH, fill, labelled, plain_text, whole_number
from study.untrusted import shown

HELP = ("commands: :flag  :back  :next  :review  :N (go to N)  :report WHY  :submit  :quit  (empty line "
        "skips)")


def _option(label: str, text: str) -> str:
    head = f"  {label}) "
    return fill(plain_text(text), WIDTH, head=head, indent=" " * len(head))


def describe(inst: Instance, position: int, total: int, *, flagged: bool = False, answer: str | None = None,
             now_left: str | None = None, show_objective: bool = True) -> str:
    """The question as the learner reads it. ``answer`` is the learner's answer so far (never the key),
    shown only where it may still change (an exam), so the caller passes None in practice. An exam does not
    name the objective unless the learner asked for it (``show_objective``, see :func:`objective_shown`)."""
    head = f"Question {position} of {total}" + (f" (objective {inst.objective})" if show_objective else "")
    if flagged:
        head += " [flagged]"
    if answer is not None:
        head += f" [your answer: {answer}]"
    if now_left:
        head += f" - {now_left} left"
    lines = [head, plain_text(inst.stem, WIDTH)]
    for label, opt in zip(inst.labels, inst.options):
        lines.append(_option(label, opt.text))
    lines.append(f"Answer: {answer_hint(inst)}")
    return "\n".join(lines)


# The app's setting (Settings > exam objective); the real exam does not say which objective a question tests.
EXAM_OBJECTIVE_SETTING = "exam_show_objective"


def objective_shown(session: QuizSession) -> bool:
    """Practice names the objective; an exam only when the learner's setting says so, as in the app."""
    if session.mode != "exam":
        return True
    read = getattr(session.store, "get_setting", None)  # a store without settings keeps the exam's default
    try:
        return bool(read(EXAM_OBJECTIVE_SETTING, False)) if read is not None else False
    except StoreError:
        return False


def report_problem(session: QuizSession, reason: str, now: Any) -> str:
    """``:report WHY``: keep a report on the current question as the app's R does. WHY may start with a kind
    (wrong-key, unclear, outdated, other); anything else is kept as kind "other" with those words."""
    from study.progress.reports import KINDS, ReportError, add_report

    if session.store is None:
        return "No progress store is open: the report cannot be kept."
    words = reason.strip()
    if not words:
        return f"Say what is wrong: :report WHY (it may start with one of {', '.join(KINDS)})."
    first, _, rest = words.partition(" ")
    kind, text = (first.lower(), rest) if first.lower() in KINDS else ("other", words)
    inst = session.current
    try:
        add_report(session.store, inst.qid, kind, text, content_hash=inst.content_hash, context=session.mode,
                   session_id=session.id, at=now)
    except (ReportError, StoreError) as exc:
        return f"The report could not be kept: {exc}"
    return "Report kept. `study reports` lists your reports; they travel in `study export`."


def answer_hint(inst: Instance) -> str:
    if inst.type == "true_false":
        return "T or F"
    if inst.is_multi:
        return f"{inst.choose} letters separated by commas"
    if inst.is_numeric_typed:
        assert inst.numeric is not None
        if inst.numeric.unit == "1":
            return "a plain number (a ratio or a count, no unit)"
        return f"a number with its unit (the question's unit is {inst.numeric.unit})"
    return "one letter"


def feedback_text(grade: Grade, inst: Instance) -> str:
    """Right or wrong, why, the worked derivation and a source: Markdown stripped, wrapped at words."""
    lines = [labelled("", grade.message, indent=2)]
    if not inst.is_multi and not grade.correct:
        lines += [labelled(f"  You picked {p.label}: ", p.why, indent=4) for p in grade.picks if p.picked and p.why]
    if inst.is_multi and not grade.correct:
        for p in grade.picks:
            mark = ("right" if p.correct else "wrong") if p.picked else ("missed" if p.correct else "")
            if mark:
                lines.append(labelled(f"  {p.label}) {mark}: ", p.why, indent=4))
    if grade.derivation:
        lines.append("Worked:")
        lines += [fill(step, head="  ", indent="    ") for step in grade.derivation]
    lines.append(labelled("Why: ", inst.explanation))
    if inst.references:
        title, url = inst.references[0]
        lines.append(fill(f"{title} <{url}>", head="Source: ", indent=" " * 8))
    return "\n".join(lines)


def review_text(session: QuizSession) -> str:
    r = session.review()
    unanswered = ", ".join(str(i + 1) for i in r.unanswered) or "none"
    flagged = ", ".join(str(i + 1) for i in r.flagged) or "none"
    return f"Unanswered: {unanswered}. Flagged: {flagged}. Type :N to go to question N, :submit to finish."


def run_plain(
    session: QuizSession,
    stdin: IO[str],
    out: IO[str],
    clock: Clock,
    *,
    poll_s: float = 1.0,
) -> Report | None:
    """Drive ``session`` from ``stdin`` lines, writing prompts and feedback to ``out``.

    Returns the report, or ``None`` when the learner typed ``:quit`` (the session stays resumable in the
    store). A timed session waits for input only until its next alert or its deadline (see
    :class:`~study.quiz.lines.LineReader`), so alerts and the submit come on time while the learner is idle;
    an answer typed after the deadline is refused and the exam is submitted as it stood. The wait is cut
    into ``poll_s`` slices so a clock that jumps (a laptop waking, an injected test clock) is read again
    soon; untimed sessions just wait for the next line.
    """
    reader = LineReader(stdin)

    def say(text: str = "") -> None:
        # Question files and typed answers come from outside: an ESC sequence or a bidi override in them
        # would act on the terminal (lint rejects them, but a bank with lint errors still loads).
        out.write(shown(text) + "\n")
        out.flush()

    timed = f", {format_left(session.minutes * 60)}" if session.minutes else ""
    noun = "question" if session.count == 1 else "questions"
    say(fill(f"{session.mode.capitalize()}: {session.count} {noun}{timed}. {HELP}"))
    show = True
    while not session.finished:
        try:
            alerts = session.tick(clock())
        except StoreError as exc:  # the clock still ran out (or an alert fired); only saving it failed
            say(_not_saved(exc))
            alerts = ["time up"] if session.finished else []
        for alert in alerts:
            say(f"Time is up: the {noun_of(session)} was submitted." if alert == "time up"
                else f"Time check: {alert} left.")
        if session.finished:
            break
        if show:
            left = session.remaining(clock())
            say()
            i = session.index
            say(describe(session.current, i + 1, session.count, flagged=session.flags[i],
                         answer=None if session.feedback else session.answers[i],
                         now_left=format_left(left.total_seconds()) if left is not None else None,
                         show_objective=objective_shown(session)))
        show = True
        wait = session.until_next_tick(clock()) if reader.can_time_out else None
        line = reader.readline(None if wait is None else min(wait, poll_s))
        if line is None:  # the clock has news (an alert or the deadline): the loop's tick says it
            show = False
            continue
        if line == "":
            say("End of input: submitting.")
            break
        text = line.strip()
        try:
            if text.startswith(":") and text[1:].strip().split(" ", 1)[0].lower() == "report":
                say(report_problem(session, text[1:].strip()[len("report"):], clock()))
                show = False
                continue
            if text.startswith(":"):
                cmd = text[1:].strip().lower()
                if cmd == "submit":
                    break
                if cmd == "quit":
                    if session.feedback or session.store is None:
                        break
                    say(f"Left the {noun_of(session)}; it resumes with --resume.")
                    return None
                if cmd == "flag":
                    on = session.flag(clock())
                    say("Flagged." if on else "Flag removed.")
                    show = False
                elif cmd == "back":
                    if not session.previous(clock()):
                        say("This is the first question.")
                elif cmd in ("next", ""):
                    if not session.next(clock()):
                        say(_end_text(session))
                        show = False
                elif cmd == "review":
                    say(review_text(session))
                    show = False
                elif cmd == "help":
                    say(HELP)
                    show = False
                elif (number := whole_number(cmd)) is not None:
                    session.goto(number - 1, clock())
                else:
                    say(f"Unknown command {text!r}. {HELP}")
                    show = False
                continue
            if not text:
                if not session.next(clock()):
                    if session.feedback:
                        break
                    say(_end_text(session))
                    show = False
                continue
            if session.feedback and session.answered():
                say("Already answered; press Enter for the next question.")
                show = False
                continue
            _check_pick_count(session.current, text)
            try:
                grade = session.answer(text, clock())
            except StoreError as exc:
                say(_not_saved(exc))
                grade = session.grade()
            if grade is not None:
                say(feedback_text(grade, session.current))
            if not session.next(clock()):
                if session.feedback:
                    break
                say(_end_text(session))
                show = False
        except AnswerError as exc:
            say(f"{exc}. Answer: {answer_hint(session.current)}")
            show = False
        except TimeUp:
            say(f"Time is up: the {noun_of(session)} was submitted; that answer came too late.")
        except SessionError as exc:
            say(str(exc))
            show = False
        except StoreError as exc:
            say(_not_saved(exc))
    try:
        return session.submit(clock())
    except StoreError as exc:
        say(_not_saved(exc))
        return session.report


def noun_of(session: QuizSession) -> str:
    """What the messages call a session: an exam is an exam, a timed or practice set is a quiz."""
    return "exam" if session.mode == "exam" else "quiz"


def _not_saved(exc: Exception) -> str:
    # The session lives on in memory; a store that cannot write (a full disk) costs only what it was saving.
    return f"Could not save that to your progress ({exc}). The quiz goes on; what was saved before is kept."


def _end_text(session: QuizSession) -> str:
    r = session.review()
    if r.empty:
        return "That was the last question. Type :submit to finish, :back or :N to revisit."
    return f"That was the last question. {review_text(session)}"


def _check_pick_count(instance: Instance, text: str) -> None:
    """A line is the whole answer: "choose two" with one letter is a slip to point out, not a wrong answer."""
    if not instance.is_multi:
        return
    picks = normalize_answer(instance, text).split(",")
    if len(picks) != instance.choose:
        raise AnswerError(f"choose {instance.choose}, you gave {len(picks)}")
