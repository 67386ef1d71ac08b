"""``study lab ID --plain``: a lab in a plain terminal, one line at a time.

A line is a simulated shell command (see ``help``), or one of: ``tasks`` (list them), ``task N`` (show task
N with its choices), ``answer N X`` (answer task N: letters, or a number with its unit), ``review`` (once
every task is answered: each answer beside the right one, with why), ``quit``: what the app's Lab screen
takes at its prompt. End of input ends the lab. Nothing typed is ever executed.
"""

from __future__ import annotations

from typing import IO

from study.lab.session import LabSession
from study.text import fill, plain_text, whole_number

LAB_HELP = ("Lab commands: tasks, task N, answer N X (letters, or a number with its unit), review (your answers, "
            "once all are given), help, quit. Anything else is a simulated shell command.")


def task_text(session: LabSession, i: int) -> str:
    from study.quiz.plain import answer_hint

    inst = session.instances[i]
    lines = [f"Task {i + 1} of {len(session.instances)} (objective {inst.objective})", plain_text(inst.stem)]
    for label, opt in zip(inst.labels, inst.options):
        lines.append(fill(plain_text(opt.text), head=f"  {label}) ", indent="     "))
    lines.append(f"Answer with: answer {i + 1} <{answer_hint(inst)}>")
    return "\n".join(lines)


def tasks_text(session: LabSession) -> str:
    out = []
    for i, inst in enumerate(session.instances):
        g = session.grades[i]
        mark = " " if g is None else ("right" if g.correct else "wrong")
        out.append(f"  {i + 1}. [{mark:>5}] {plain_text(inst.stem).splitlines()[0][:70]}")
    return "\n".join(out)


def review_text(session: LabSession) -> str:
    """Each task's answer beside the right one, with why (the app's answer review, as text). Only once every
    task is answered: before that the right answers would give the remaining tasks away."""
    from study.lab.review import lab_report
    from study.text import labelled

    left = sum(g is None for g in session.grades)
    if left:
        return f"Answer every task first ({left} left): the review shows the right answers."
    report = lab_report(session, session.objective_titles)
    lines = [f"Review: {report.correct} of {report.total} tasks right."]
    for q in report.questions:
        lines.append("")
        lines.append(f"Task {q.position}: {'right' if q.correct else 'wrong'}")
        lines.append(fill(plain_text(q.given_display), head="  You answered: ", indent="    "))
        if not q.correct:
            lines.append(fill(plain_text(q.expected_display), head="  Right answer: ", indent="    "))
        if q.derivation:
            lines.append("  Worked:")
            lines += [fill(step, head="    ", indent="      ") for step in q.derivation]
        lines.append(labelled("  Why: ", q.explanation))
    return "\n".join(lines)


def run_plain(session: LabSession, stdin: IO[str], out: IO[str]) -> tuple[int, int]:
    from study.progress.store_open import StoreError
    from study.quiz.grade import AnswerError
    from study.quiz.plain import feedback_text

    from study.untrusted import shown

    def say(text: str = "") -> None:
        # Every line can carry what the learner typed (an unknown command is echoed back in bash's words), and
        # a terminal obeys an ESC or a bidi override in it: escaped here, as --run and the app escape them.
        out.write(shown(text) + "\n")
        out.flush()

    lab = session.lab
    say(f"Lab: {lab.title} (case {session.case.seed})")
    from study.lab.case import fill as fill_vars

    say(fill(plain_text(fill_vars(lab.brief, session.case.vars))))
    say(LAB_HELP)
    say("Tasks:")
    say(tasks_text(session))
    while True:
        out.write("lab$ ")
        out.flush()
        line = stdin.readline()
        if line == "":
            say()
            break
        text = line.strip()
        words = text.split()
        if text in ("quit", "exit", ":quit"):
            break
        if text == "tasks":
            say(tasks_text(session))
        elif words[:1] == ["task"] and len(words) == 2:
            i = _index(words[1], session)
            say(task_text(session, i) if i is not None else f"No task {words[1]}: there are {len(session.instances)}.")
        elif words[:1] == ["answer"] and len(words) >= 3:
            i = _index(words[1], session)
            if i is None:
                say(f"No task {words[1]}: there are {len(session.instances)}.")
                continue
            try:
                grade = session.answer(i, " ".join(words[2:]))
            except AnswerError as exc:
                say(f"{exc}. {task_text(session, i).splitlines()[-1]}")
                continue
            except StoreError as exc:
                say(f"Could not save that to your progress ({exc}).")
                continue
            say(feedback_text(grade, session.instances[i]))
            if session.done:
                right, total = session.score()
                say(f"All tasks answered: {right} of {total} right. Type quit to leave, or keep exploring.")
        elif text == "review":
            say(review_text(session))
        elif text == "help":
            say(session.run("help"))
            say(LAB_HELP)
        elif text:
            say(session.run(text))
    right, total = session.score()
    say(f"Lab finished: {right} of {total} tasks right.")
    return right, total


def _index(word: str, session: LabSession) -> int | None:
    n = whole_number(word)
    return n - 1 if n is not None and 1 <= n <= len(session.instances) else None
