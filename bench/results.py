"""Confirming key -> results painted, in a real terminal, as ratios against a baseline measured in the same run.

Every process runs on a pseudo-terminal (the ``Terminal`` of ``bench/startup.py``), so Textual uses its real
driver; a time is from writing the key to the pty until the first output chunk that completes the awaited text.

Baseline: a minimal Textual app that switches to a new screen with one line of text on a key press.
Measured (median of ``--runs``, each in a fresh app and store):

1. exam of 50 questions from the shipped bank, all left unanswered (every question in "missed"), ``y`` on
   "Submit?" -> the results' score line painted;
2. exam of 50 questions from a generated single-choice bank, every question answered, ``y`` -> score painted
   (this one also records 50 attempts);
3. practice set of 10 from the generated bank, the last ``enter`` -> score painted;
4. in-process, ``QuizSession.submit`` with its store writes for exams like 1 and 2: what the UI thread used to
   wait for before it could draw the results (the app now replays the writes in a worker, ``study.tui.submit``).

Aim: 1 to 3 each under 300 ms.

    python bench/results.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from startup import PY, STUDY_ON_BANK, Terminal, env_for, write_bank  # noqa: E402

AIM_MS = 300

SWITCH_APP = textwrap.dedent(
    """
    from textual.app import App
    from textual.screen import Screen
    from textual.widgets import Footer, Header, Static

    class Done(Screen):
        def compose(self):
            yield Header()
            yield Static("Switched screen")
            yield Footer()

    class Minimal(App):
        BINDINGS = [("y", "switch", "Switch"), ("q", "quit", "Quit")]

        def compose(self):
            yield Header()
            yield Static("Press y")
            yield Footer()

        def action_switch(self):
            self.push_screen(Done())

    Minimal().run()
    """
)


def _env(tmp: Path, tag: str) -> dict[str, str]:
    env = env_for(tmp, tmp / f"{tag}.mark")
    env.pop("STUDY_TUI_BENCH")
    env["STUDY_DB"] = str(tmp / f"{tag}-{time.monotonic_ns()}.db")
    return env


def baseline(tmp: Path, script: Path) -> float:
    term = Terminal([PY, str(script)], _env(tmp, "base"))
    try:
        term.wait_for("Press y", term.t0, timeout=30)
        time.sleep(0.3)
        t = term.send("y")
        return (term.wait_for("Switched screen", t) - t) / 1e6
    finally:
        term.close()


def _app(tmp: Path, bank: Path | None, tag: str) -> Terminal:
    env = _env(tmp, tag)
    if bank is None:
        argv = [PY, "-m", "study"]
    else:
        runner = tmp / "study_on_bank.py"
        runner.write_text(STUDY_ON_BANK)
        argv = [PY, str(runner), env["STUDY_DB"], str(bank)]
    term = Terminal(argv, env)
    term.wait_for("Readiness", term.t0, timeout=90)
    return term


def exam_submit(tmp: Path, bank: Path | None, answer: bool) -> float:
    term = _app(tmp, bank, "exam")
    try:
        t = term.send("e")
        term.wait_for("Start the exam", t)
        t = term.send("s")
        term.wait_for("1/50", t, timeout=30)
        if answer:
            for k in range(2, 51):
                t = term.send("1n")
                term.wait_for(f"{k}/50", t)
            term.send("1")
        time.sleep(0.2)
        t = term.send("r")
        term.wait_for("Review before submitting", t)
        t = term.send("s")
        term.wait_for("Submit?", t)
        time.sleep(0.3)  # let the dialog settle so the key, not the paint before it, is timed
        t = term.send("y")
        return (term.wait_for("Score", t, timeout=30) - t) / 1e6
    finally:
        term.close()


def practice_finish(tmp: Path, bank: Path) -> float:
    term = _app(tmp, bank, "practice")
    try:
        t = term.send("p")
        term.wait_for("How many", t)
        time.sleep(0.2)
        t = term.send("s")
        term.wait_for("1/10", t, timeout=30)
        for k in range(1, 11):
            t = term.send("1\r")
            term.wait_for("enter: ", t)
            if k < 10:
                t = term.send("\r")
                term.wait_for(f"{k + 1}/10", t)
        time.sleep(0.3)
        t = term.send("\r")
        return (term.wait_for("Score", t, timeout=30) - t) / 1e6
    finally:
        term.close()


def submit_only(tmp: Path, bank_dir: Path, answer: bool) -> float:
    """In-process: what ``QuizSession.submit`` alone costs on a real store (the UI thread waits for it before
    it can draw the results): grading, one durable transaction per attempt not yet recorded, the report."""
    from study.bank import load_bank
    from study.progress import open_store
    from study.quiz import build_exam

    bank = load_bank(questions=[bank_dir])
    with open_store(tmp / f"submit-{time.monotonic_ns()}.db") as store:
        session = build_exam(bank, 1, 50, store=store)
        for _ in range(session.count if answer else 0):
            session.answer("A")
            session.next()
        t = time.perf_counter()
        session.submit()
        return (time.perf_counter() - t) * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement (median taken)")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="study-bench-results-") as tmpdir:
        tmp = Path(tmpdir)
        script = tmp / "switch_app.py"
        script.write_text(SWITCH_APP)
        bank = tmp / "bank"
        write_bank(bank, 500)
        cases = {
            "minimal Textual app, key -> new screen": lambda: baseline(tmp, script),
            "exam, 50 unanswered (shipped bank), y -> results": lambda: exam_submit(tmp, None, False),
            "exam, 50 answered (generated bank), y -> results": lambda: exam_submit(tmp, bank, True),
            "practice, 10 answered, last enter -> results": lambda: practice_finish(tmp, bank),
            "session.submit + writes, 50 blank (in-process)": lambda: submit_only(tmp, bank, False),
            "session.submit + writes, 50 answered (in-process)": lambda: submit_only(tmp, bank, True),
        }
        medians = {}
        for label, run in cases.items():
            medians[label] = statistics.median(run() for _ in range(args.runs))
        base = medians.pop("minimal Textual app, key -> new screen")
        print(f"Confirming key -> results painted (real pty, median of {args.runs})")
        print(f"  {'minimal Textual app, key -> new screen':<50} {base:7.0f} ms   (baseline 1.00x)")
        for label, ms in medians.items():
            # The in-process rows price the writes taken off the UI thread: no paint, so no aim.
            aim = "" if label.startswith("session.submit") else \
                f"   aim < {AIM_MS} ms: {'ok' if ms < AIM_MS else 'ABOVE AIM'}"
            print(f"  {label:<50} {ms:7.0f} ms   {ms / base:5.2f}x{aim}")


if __name__ == "__main__":
    main()
