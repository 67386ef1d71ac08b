"""Every lab task and exhibit question can be answered from what the lab prints, for every case a learner meets.

A lab is templated: seed 3 may put the fault on another GPU than seed 0, so a task that is right for one case
can be unanswerable in another. The feedback is also a promise: a command it quotes in backticks is one the
learner can type in the lab, and an output line it quotes is there to be read. Seeds 0 to 9 are the cases
checked (a learner who retries a lab meets a new seed).

Remedies the feedback recommends (``nvidia-smi -r``, ``-pl``, ``scontrol update``, ``kubectl logs``) change or
read what the simulator does not model; they are advice, not places to look, and are not run.

A quoted line is looked for in all the lab's output, not in the block of the GPU the task is about: a quote of
`Pending: No` would pass because the healthy GPUs print it. That the right GPU carries it is for the reader.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from study.bank.load import load_question_file
from study.lab.case import build_case
from study.lab.exhibit import exhibit_output
from study.lab.load import all_labs
from study.lab.shell import TOOLS, run_line
from study.quiz.instance import instantiate

ROOT = Path(__file__).resolve().parents[3]
EXHIBIT_FILES = [ROOT / "questions" / "d2-infrastructure" / "lab-exhibits.yaml",
                 ROOT / "questions" / "d3-operations" / "lab-exhibits.yaml"]
SEEDS = range(10)
REMEDY = re.compile(r"^(nvidia-smi\b.*\s(-r|-pl)\b|scontrol update\b|kubectl logs\b)")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _norm(text: str) -> str:
    # Tools pad keys to a column (`Pending        : Yes`) and tables put cells between bars; feedback quotes
    # the words, so compare words only.
    return " ".join(re.sub(r"[|:]", " ", text).split())


def quoted(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def is_command(fragment: str) -> bool:
    return fragment.split()[0] in TOOLS


def is_option(fragment: str) -> bool:
    """``-q -d PERFORMANCE`` or ``-lgip``: a flag named in passing, not a line of output."""
    return re.match(r"-[A-Za-z-]", fragment) is not None


def line_shown(fragment: str, output: str) -> bool:
    """Whether every part of a quoted line is in the output; `...` and ` / ` join parts read apart."""
    parts = [p for p in re.split(r"\.\.\.|…| / ", fragment) if p.strip()]
    shown = _norm(output)
    return all(_norm(p) in shown for p in parts)


def number_shown(value: float, output: str) -> bool:
    return any(abs(float(n) - value) < 1e-9 for n in NUMBER.findall(output))


def _cases() -> list[Any]:
    return [build_case(lab, seed) for lab in all_labs() for seed in SEEDS]


CASES = _cases()


def _outputs(case: Any) -> str:
    return "\n".join(run_line(case.system, cmd) for cmd in case.lab.commands)


def test_the_checks_catch_a_quote_the_output_lacks() -> None:
    output = "    Remapped Rows\n        Pending                           : Yes\n"
    assert line_shown("Remapped Rows / Pending: Yes", output)
    assert not line_shown("Pending: No", output)
    assert line_shown("-> NVLink system: Warning", "|       -> NVLink system    | Warning   |")
    assert is_command("dmesg -T | grep -i xid") and not is_command("Pending: Yes")
    assert is_option("-q -d PERFORMANCE") and not is_option("-> NVLink system: Warning")
    assert number_shown(0.19, "GPU 1  100  0.190") and not number_shown(19, "GPU 1  100  0.190")
    assert REMEDY.match("nvidia-smi -i 2 -pl 700") and not REMEDY.match("nvidia-smi -q -d POWER -i 2")


def test_there_are_enough_labs_to_check() -> None:
    assert len({c.lab.id for c in CASES}) >= 24


def test_commands_quoted_in_feedback_run_in_the_lab() -> None:
    wrong = []
    for case in CASES:
        for q in case.questions:
            texts = [q.explanation] + [c.why or "" for c in q.choices or []]
            for frag in (f for t in texts for f in quoted(t)):
                if is_command(frag) and not REMEDY.match(frag):
                    said = run_line(case.system, frag)
                    if said.startswith(("not simulated", "bash:")) or "not found" in said.split("\n", 1)[0]:
                        wrong.append(f"{q.id} seed {case.seed}: `{frag}` -> {said.splitlines()[0]}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_output_lines_quoted_by_the_key_are_in_the_labs_output() -> None:
    # Only the explanation and the right answer's reason describe what the output shows; a distractor's
    # reason may quote what the output would say if it were right (`Physical state: Disabled`).
    wrong = []
    for case in CASES:
        shown = _outputs(case)
        for q in case.questions:
            texts = [q.explanation] + [c.why or "" for c in q.choices or [] if c.correct]
            for frag in (f for t in texts for f in quoted(t)):
                if not is_command(frag) and not is_option(frag) and not line_shown(frag, shown):
                    wrong.append(f"{q.id} seed {case.seed}: `{frag}` is not in the output of {case.lab.commands}")
    assert not wrong, "\n".join(wrong)


def test_numeric_answers_are_in_the_output_or_computed_from_it() -> None:
    wrong = []
    for case in CASES:
        shown = _outputs(case)
        for task, q in zip(case.lab.tasks, case.questions):
            if q.type != "numeric":
                continue
            calc = (task.answer or {}).get("calc")
            if calc is None:
                value = instantiate(q, 0).numeric.value
                if not number_shown(value, shown):
                    wrong.append(f"{q.id} seed {case.seed}: answer {value:g} is in no command's output")
                continue
            for name in set(re.findall(r"[a-z_][a-z0-9_]*", calc)) & set(case.vars):
                if not number_shown(float(case.vars[name]), shown):
                    wrong.append(f"{q.id} seed {case.seed}: {name}={case.vars[name]} (used by {calc!r}) is not shown")
    assert not wrong, "\n".join(wrong)


def _exhibit_questions() -> list[Any]:
    return [q for path in EXHIBIT_FILES for q in load_question_file(path)[0]]


# Numeric exhibit answers that are a count of lines rather than a printed number: the lines they count.
COUNTED = {"lab-ex-mig-list": r"^\s+MIG \S+\s+Device\s+\d+:"}


@pytest.mark.parametrize("q", _exhibit_questions(), ids=lambda q: q.id)
def test_an_exhibit_shows_what_its_key_relies_on(q: Any) -> None:
    assert q.exhibit is not None
    shown = exhibit_output(q.exhibit.lab, q.exhibit.run, q.exhibit.seed)
    texts = [q.explanation] + [c.why or "" for c in q.choices or [] if c.correct]
    if q.type == "numeric":
        value = instantiate(q, 0).numeric.value
        if q.id in COUNTED:
            assert len(re.findall(COUNTED[q.id], shown, re.MULTILINE)) == value
        else:
            assert number_shown(value, shown), f"{q.id}: {value:g} is not in `{q.exhibit.run}`"
    # The explanation may send the learner on to another command (`nvidia-smi -q -d PERFORMANCE -i 2` would
    # show ...): what it quotes must be in that command's output, in the same case.
    case = build_case(next(lab for lab in all_labs() if lab.id == q.exhibit.lab), q.exhibit.seed)
    context = shown + "".join("\n" + run_line(case.system, f) for t in texts for f in quoted(t) if is_command(f))
    missing = [f for t in texts for f in quoted(t)
               if not is_command(f) and not is_option(f) and not line_shown(f, context)]
    assert not missing, f"{q.id}: {missing} not in `{q.exhibit.run}` (lab {q.exhibit.lab}, seed {q.exhibit.seed})"
