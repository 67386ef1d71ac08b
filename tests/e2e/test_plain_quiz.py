"""End to end: the installed ``study quiz --plain`` driven through pipes, as a script or screen reader would.

The bank is a small fixture written here; the driver reads each printed question, picks the option whose
text says it is right (or wrong), and the JSON report and the progress store are checked afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BANK = textwrap.dedent(
    """
    questions:
      - id: e2e-single-1
        objective: "2.9"
        difficulty: 1
        type: single
        stem: Which fabric carries traffic between DGX nodes?
        choices:
          - {text: RIGHT the InfiniBand compute fabric, correct: true, why: It leaves the node.}
          - {text: WRONG NVLink, why: NVLink stays inside the node.}
          - {text: WRONG the BMC port, why: Management only.}
        explanation: Scale-out goes over InfiniBand or Ethernet.
        references: [{title: DGX H100 User Guide, url: "https://docs.nvidia.com/dgx/dgxh100-user-guide/"}]
        verified: 2026-11-30
      - id: e2e-multi-2
        objective: "3.3"
        difficulty: 1
        type: multi
        choose: 2
        stem: Which two report GPU health? Choose two.
        choices:
          - {text: RIGHT nvidia-smi, correct: true, why: NVML tool.}
          - {text: RIGHT DCGM, correct: true, why: Cluster scale.}
          - {text: WRONG NCCL, why: Collectives.}
          - {text: WRONG TensorRT, why: Inference.}
        explanation: Both sit on NVML.
        references: [{title: DCGM, url: "https://docs.nvidia.com/datacenter/dcgm/latest/"}]
        verified: 2026-11-30
      - id: e2e-tf-3
        objective: "1.3"
        difficulty: 1
        type: true_false
        stem: Every machine learning system is a deep learning system.
        answer: false
        explanation: DL is a subset of ML.
        references: [{title: NVIDIA glossary, url: "https://www.nvidia.com/en-us/glossary/deep-learning/"}]
        verified: 2026-11-30
      - id: e2e-numeric-4
        objective: "2.1"
        difficulty: 2
        type: numeric
        stem: How much memory do the weights of a 70-billion-parameter model take in FP16?
        answer: {value: 140, unit: GB, tolerance: 2%}
        distractors:
          - {value: 70, why: "One byte per parameter is INT8, not FP16."}
          - {value: 280, why: Four bytes per parameter is FP32.}
        explanation: Two bytes per parameter in FP16.
        references: [{title: "Transformer Math 101", url: "https://blog.eleuther.ai/transformer-math/"}]
        verified: 2026-11-30
    """
)


def study_cmd() -> list[str]:
    exe = shutil.which("study", path=str(Path(sys.executable).parent)) or shutil.which("study")
    return [exe] if exe else [sys.executable, "-m", "study"]


@pytest.fixture
def bank_dir(tmp_path: Path) -> Path:
    d = tmp_path / "questions"
    d.mkdir()
    (d / "e2e.yaml").write_text(BANK, encoding="utf-8")
    return d


def run(args: list[str], stdin: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, STUDY_DB=str(db), NO_COLOR="1")
    return subprocess.run([*study_cmd(), "--db", str(db), *args], input=stdin, capture_output=True, text=True,
                          timeout=120, env=env)


class Driver:
    """Talks to a running ``study quiz --plain --json``: prompts arrive on stderr, one answer per prompt."""

    def __init__(self, args: list[str], db: Path) -> None:
        env = dict(os.environ, STUDY_DB=str(db), NO_COLOR="1", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([*study_cmd(), "--db", str(db), *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.transcript: list[str] = []
        # A quiz that stops prompting would block readline() for ever; kill it so the test fails instead.
        self._watchdog = threading.Timer(120, self.proc.kill)
        self._watchdog.daemon = True
        self._watchdog.start()

    def question(self) -> list[str] | None:
        """Lines of the next question up to its ``Answer:`` prompt; None when the quiz has ended."""
        lines: list[str] = []
        assert self.proc.stderr is not None
        while True:
            line = self.proc.stderr.readline()
            if line == "":
                return None
            self.transcript.append(line)
            lines.append(line.rstrip("\n"))
            if line.startswith("Answer:"):
                start = max(i for i, l in enumerate(lines) if l.startswith("Question "))
                return lines[start:]

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def finish(self) -> dict:
        out, err = self.proc.communicate(timeout=120)  # closes stdin: end of input
        self.transcript.append(err)
        assert self.proc.returncode == 0, "".join(self.transcript)
        return json.loads(out)


def answer_for(lines: list[str], want_right: bool) -> str:
    """Letters whose option text says RIGHT (or the first WRONG one), T/F, or a typed number."""
    options = [re.match(r"\s+([A-Z])\) (.*)", l) for l in lines]
    options = [m for m in options if m]
    prompt = lines[-1]
    if "T or F" in prompt:
        return "F" if want_right else "T"
    if "number with its unit" in prompt:
        return "140 GB" if want_right else "70 GB"
    if options and options[0].group(2).endswith(" GB"):  # a numeric question asked as choices
        target = "140 GB" if want_right else "70 GB"
        return next(m.group(1) for m in options if m.group(2) == target)
    right = [m.group(1) for m in options if m.group(2).startswith("RIGHT")]
    if want_right:
        return ",".join(right)
    wrong = next(m.group(1) for m in options if m.group(2).startswith("WRONG"))
    # "choose two" wants two letters: one wrong pick among them makes the answer wrong.
    return ",".join(sorted([wrong, right[0]])) if "2 letters" in prompt else wrong


def test_practice_answers_piped_in_come_back_in_the_json_report(bank_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    d = Driver(["quiz", "--plain", "--json", "--mode", "practice", "--count", "4", "--seed", "5",
                "--questions", str(bank_dir)], db)
    asked: list[str] = []
    plan = {"single": True, "multi": True, "tf": False, "numeric": False}
    while (lines := d.question()) is not None:
        stem = lines[1]
        kind = ("multi" if "Choose two" in stem else "tf" if "Every machine" in stem
                else "numeric" if "70-billion" in stem else "single")
        asked.append(kind)
        d.send(answer_for(lines, plan[kind]))
    report = d.finish()
    feedback = " ".join("".join(d.transcript).split())  # wrapped at 79 columns: compare the words
    assert sorted(asked) == sorted(plan)
    assert report["score"] == 50.0 and report["correct"] == 2 and report["total"] == 4
    by_id = {q["id"]: q for q in report["questions"]}
    assert by_id["e2e-multi-2"]["correct"] is True and by_id["e2e-single-1"]["correct"] is True
    assert by_id["e2e-tf-3"] == {**by_id["e2e-tf-3"], "given": "T", "expected": "F", "correct": False}
    assert by_id["e2e-numeric-4"]["given"] == "70 GB" and by_id["e2e-numeric-4"]["expected"] == "140 GB"
    assert "One byte per parameter is INT8" in feedback  # the distractor's why, shown as feedback
    assert report["by_domain"]["2"]["total"] == 2
    for q in report["questions"]:
        assert {"id", "objective", "domain", "given", "expected", "correct", "seconds"} <= set(q)
    # Recorded into the progress store, one attempt per question.
    from study.progress import open_store

    store = open_store(db)
    try:
        attempts = store.history()
        assert sorted(a.item_id for a in attempts) == sorted(by_id)
        assert {a.mode for a in attempts} == {"practice"}
    finally:
        store.close()


def test_exam_with_flag_back_and_end_of_input(bank_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    d = Driver(["quiz", "--plain", "--json", "--mode", "exam", "--count", "4", "--seed", "9",
                "--questions", str(bank_dir)], db)
    first = d.question()
    assert first is not None and first[0].startswith("Question 1 of 4")
    d.send(":flag")           # flag question 1; the prompt is not repeated
    d.send(answer_for(first, True))
    second = d.question()     # question 2 after answering 1
    assert second is not None and second[0].startswith("Question 2 of 4")
    d.send("")                # skip question 2
    third = d.question()
    assert third is not None and third[0].startswith("Question 3 of 4")
    d.send(":back")
    again = d.question()
    assert again is not None and again[0].startswith("Question 2 of 4")
    d.send(answer_for(again, False))
    d.question()              # question 3 shown again; end of input submits the exam
    report = d.finish()
    qs = report["questions"]
    assert report["mode"] == "exam" and report["total"] == 4 and report["correct"] == 1
    assert qs[0]["correct"] and qs[0]["flagged"]
    assert qs[1]["given"] and not qs[1]["correct"]
    assert qs[2]["given"] is None and qs[3]["given"] is None
    assert report["unanswered"] == [qs[2]["id"], qs[3]["id"]]
    assert "unofficial" in report["pass_label"]
    from study.progress import open_store

    store = open_store(db)
    try:
        assert store.active_session("exam") is None  # finished, not left to resume
        assert len(store.exam_history()) == 1
        assert len(store.history()) == 2  # two answered; the two blanks are in the report only
    finally:
        store.close()


def test_pipe_without_a_terminal_and_text_report(bank_dir: Path, tmp_path: Path) -> None:
    result = run(["quiz", "--plain", "--mode", "practice", "--count", "2", "--seed", "1", "--no-store",
                  "--objective", "2.1", "--questions", str(bank_dir)], "140 GB\n", tmp_path / "p.db")
    assert result.returncode == 0, result.stderr
    assert "Correct: 140 GB." in result.stdout
    assert "Score: 1/1" in result.stdout


def test_usage_errors_exit_2(bank_dir: Path, tmp_path: Path) -> None:
    result = run(["quiz"], "", tmp_path / "p.db")
    assert result.returncode == 2 and "--plain" in result.stderr
    result = run(["quiz", "--plain", "--objective", "4.2", "--questions", str(bank_dir)], "", tmp_path / "p.db")
    assert result.returncode == 2 and "unknown objective" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = run(["quiz", "--plain", "--difficulty", "5", "--questions", str(bank_dir)], "", tmp_path / "p.db")
    assert result.returncode == 2


def test_quit_then_resume_an_exam(bank_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    args = ["quiz", "--plain", "--json", "--mode", "exam", "--count", "4", "--seed", "3", "--questions", str(bank_dir)]
    d = Driver(args, db)
    first = d.question()
    assert first is not None
    d.send(answer_for(first, True))
    d.question()
    d.send(":quit")
    out, err = d.proc.communicate(timeout=120)
    assert d.proc.returncode == 0 and out == "" and "--resume" in err

    again = run([*args, "--resume"], "", db)  # nothing more typed: end of input submits
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["correct"] == 1 and report["questions"][0]["given"] is not None
    assert sum(q["given"] is not None for q in report["questions"]) == 1
    assert run([*args, "--resume"], "", db).returncode == 2  # nothing left to resume


def stats_json(db: Path, bank_dir: Path) -> dict:
    result = run(["stats", "--json"], "", db)  # the shipped bank: no question of it was answered
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_an_empty_exam_leaves_no_attempts_and_no_due_reviews(bank_dir: Path, tmp_path: Path) -> None:
    """Issue 14 §1.2: submitted with nothing answered, the exam scores 0/4 and the record stays empty."""
    db = tmp_path / "progress.db"
    result = run(["quiz", "--plain", "--json", "--mode", "exam", "--count", "4", "--seed", "2",
                  "--questions", str(bank_dir)], ":submit\n", db)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (report["correct"], report["total"], len(report["unanswered"])) == (0, 4, 4)
    stats = stats_json(db, bank_dir)
    assert stats["attempts"] == 0 and stats["due_today"] == 0
    assert sum(n for _day, n in stats["forecast"]) == 0
    assert all(o["attempts"] == 0 and o["seen"] == 0 for o in stats["objectives"])
    assert [e["report"]["total"] for e in stats["exam_history"]] == [4]


def test_practice_left_with_quit_grades_only_the_answered(bank_dir: Path, tmp_path: Path) -> None:
    db = tmp_path / "progress.db"
    d = Driver(["quiz", "--plain", "--mode", "practice", "--count", "4", "--seed", "5",
                "--questions", str(bank_dir)], db)
    assert d.proc.stdout is not None
    lines: list[str] = []
    while not (lines and lines[-1].startswith("Answer:")):
        lines.append(d.proc.stdout.readline().rstrip("\n"))
    start = max(i for i, l in enumerate(lines) if l.startswith("Question "))
    d.send(answer_for(lines[start:], False))
    d.send(":quit")
    out, err = d.proc.communicate(timeout=120)
    assert d.proc.returncode == 0, err
    assert "Score: 0/1 (0%), below the 70% target" in out and "against a target" not in out
    assert "Skipped, not graded: 3 of 4 questions." in out
    stats = stats_json(db, bank_dir)
    assert stats["attempts"] == 1


def _started_quiz(db: Path, bank_dir: Path, seconds_left: float) -> None:
    """A timed quiz saved in the store with ``seconds_left`` on its clock, as if started a while ago: the
    installed command resumes it, so the test waits seconds, not the shortest time --minutes allows."""
    import datetime as dt

    from study.bank import load_bank
    from study.progress import open_store
    from study.quiz import build_practice

    minutes = 1
    started = dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=minutes * 60 - seconds_left)
    with open_store(db) as store:
        build_practice(load_bank(questions=[bank_dir]), seed=1, count=2, minutes=minutes, timed_like_exam=True,
                       now=started, store=store)


def test_an_idle_pipe_does_not_hold_a_timed_quiz_open(bank_dir: Path, tmp_path: Path) -> None:
    """Issue 14 §1.3: stdin stays open and silent; the deadline alone ends the quiz and prints the report."""
    db = tmp_path / "progress.db"
    _started_quiz(db, bank_dir, seconds_left=3)
    out_path = tmp_path / "out.json"
    env = dict(os.environ, STUDY_DB=str(db), NO_COLOR="1")
    with open(out_path, "w") as out:
        proc = subprocess.Popen([*study_cmd(), "--db", str(db), "quiz", "--plain", "--json", "--mode", "quiz",
                                 "--resume", "--questions", str(bank_dir)],
                                stdin=subprocess.PIPE, stdout=out, stderr=subprocess.PIPE, text=True, env=env)
        try:
            proc.wait(timeout=120)  # a hang guard, not a speed check: the quiz had 3 s left
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("the timed quiz waited at the prompt past its deadline")
        finally:
            assert proc.stdin is not None and proc.stderr is not None
            err = proc.stderr.read()
            proc.stdin.close()
    assert proc.returncode == 0, err
    assert "Time is up: the quiz was submitted." in err and "End of input" not in err
    report = json.loads(out_path.read_text())
    assert report["mode"] == "quiz" and report["timed_out"] and report["total"] == 2


def test_a_timed_quiz_quit_at_once_resumes(bank_dir: Path, tmp_path: Path) -> None:
    """Issue 14 §1.4: leaving before any answer keeps the quiz for --resume."""
    db = tmp_path / "progress.db"
    args = ["quiz", "--plain", "--json", "--mode", "quiz", "--count", "2", "--minutes", "30", "--seed", "4",
            "--questions", str(bank_dir)]
    left = run(args, ":quit\n", db)
    assert left.returncode == 0 and "--resume" in left.stderr
    resumed = run([*args, "--resume"], ":submit\n", db)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["total"] == 2


def test_an_abandoned_exam_is_resumed_or_counted_not_restarted(bank_dir: Path, tmp_path: Path) -> None:
    """Issue 14 §1.5: the same seed must not give the same questions on a fresh clock."""
    db = tmp_path / "progress.db"
    args = ["quiz", "--plain", "--json", "--mode", "exam", "--count", "4", "--seed", "3", "--questions", str(bank_dir)]
    assert run(args, ":quit\n", db).returncode == 0
    again = run(args, ":submit\n", db)
    assert again.returncode == 2 and again.stdout == ""
    [line] = again.stderr.strip().splitlines()
    assert line.startswith("study: error: an unfinished exam has ") and "--resume" in line


def test_an_exam_whose_time_ran_out_is_counted_before_a_new_one(bank_dir: Path, tmp_path: Path) -> None:
    import datetime as dt

    from study.bank import load_bank
    from study.progress import open_store
    from study.quiz import build_exam

    db = tmp_path / "progress.db"
    with open_store(db) as store:
        build_exam(load_bank(questions=[bank_dir]), seed=3, count=4,
                   now=dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=2), store=store)
    result = run(["quiz", "--plain", "--json", "--mode", "exam", "--count", "4", "--seed", "3",
                  "--questions", str(bank_dir)], ":submit\n", db)
    assert result.returncode == 0, result.stderr
    assert "note: your unfinished exam ran out of time and was counted as submitted: 0/4 (0%)" in result.stderr
    assert len(stats_json(db, bank_dir)["exam_history"]) == 2
