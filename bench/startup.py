"""TUI start-up and responsiveness, as ratios against a minimal Textual app measured in the same run.

Every process runs in a pseudo-terminal, so Textual uses its real driver. Times are taken with the system-wide
monotonic clock: the parent notes it just before spawning, the app notes it after a paint (it appends to the
file named by ``STUDY_TUI_BENCH`` and then exits).

1. ``study`` (the installed command, built-in bank, a fresh store): time to the first painted home screen
   ("first") and to the home screen filled with the bank and store figures ("ready"), against a minimal
   Textual app (Header, Static, Footer) to its first paint. Aim: first <= 1.3x the minimal app, ready <= 1.6x,
   judged on the median of paired ratios (each study start over the minimal start just before it); the ratio
   of the two medians is printed beside it.
2. The same app on a generated 10,000-question bank. Aim: first <= 1.5x.
3. Commands that start no app: ``study --help`` against ``python -c pass`` (aim <= 4x) and ``study calc
   kv-cache --json`` against ``python -c "import numpy"`` (aim <= 1x: the calculator needs numbers, not the store,
   the bank or the network client). A command imports only what it runs.
4. Key press to next question painted, in an exam in the real terminal: median and p90 over N presses of
   ``n``, detected when the new "k/50" position appears in the terminal output. Aim: median under 50 ms.

    python bench/startup.py [--runs 7] [--keys 40] [--skip-10k] [--only-commands]
"""

from __future__ import annotations

import argparse
import os
import pty
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
STUDY = shutil.which("study", path=str(Path(PY).parent)) or shutil.which("study")

MINIMAL_APP = textwrap.dedent(
    """
    import os, sys, time
    from textual.app import App
    from textual.widgets import Footer, Header, Static

    class Minimal(App):
        BINDINGS = [("q", "quit", "Quit")]

        def compose(self):
            yield Header()
            yield Static("Hello")
            yield Footer()

        def on_mount(self):
            self.call_after_refresh(self.mark)

        def mark(self):
            with open(os.environ["STUDY_TUI_BENCH"], "a") as fh:
                fh.write(f"first {time.monotonic_ns()}\\nready {time.monotonic_ns()}\\n")
            self.exit()

    Minimal().run()
    """
)

# Runs the app on another bank, exactly as run_app does but with question/content folders.
STUDY_ON_BANK = textwrap.dedent(
    """
    import os, sys
    from study.tui.app import make_app
    app = make_app(db=sys.argv[1], questions=[sys.argv[2]], bench_file=os.environ.get("STUDY_TUI_BENCH"))
    app.run()
    """
)

NUMBER_BOX = re.compile(r"type the (number|percentage)")  # the number box's hint (study.tui.widgets.question)
ANSI = re.compile(rb"\x1b\[[0-9;?<>=!]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")


class Terminal:
    """A child process on a pty of a fixed size; output is drained in a thread and kept with timestamps."""

    def __init__(self, argv: list[str], env: dict[str, str], cols: int = 100, rows: int = 30) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.t0 = time.monotonic_ns()
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                     start_new_session=True)
        os.close(slave)
        self.chunks: list[tuple[int, bytes]] = []
        self.lock = threading.Lock()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.05)
            except (OSError, ValueError):
                return
            if not ready:
                if self.proc.poll() is not None:
                    return
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.chunks.append((time.monotonic_ns(), data))

    def send(self, keys: str) -> int:
        t = time.monotonic_ns()
        os.write(self.master, keys.encode())
        return t

    def text_since(self, t: int) -> str:
        with self.lock:
            raw = b"".join(d for ts, d in self.chunks if ts >= t)
        return ANSI.sub(b"", raw).decode("utf-8", "replace")

    def wait_for(self, needle: str, since: int, timeout: float = 10.0) -> int:
        """Monotonic time of the first output chunk (after ``since``) whose text completes ``needle``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                chunks = [(ts, d) for ts, d in self.chunks if ts >= since]
            acc = b""
            for ts, d in chunks:
                acc += d
                if needle in ANSI.sub(b"", acc).decode("utf-8", "replace"):
                    return ts
            time.sleep(0.002)
        raise TimeoutError(f"{needle!r} not painted within {timeout} s")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        try:
            os.close(self.master)
        except OSError:
            pass


def env_for(tmp: Path, mark: Path) -> dict[str, str]:
    env = dict(os.environ)
    # Caches (the pickled bank, the home snapshot) in the run's own folder: the user's are left alone.
    env.update(STUDY_TUI_BENCH=str(mark), STUDY_DB=str(tmp / "bench.db"), TERM="xterm-256color",
               TEXTUAL_ANIMATIONS="none", XDG_CACHE_HOME=str(tmp / "cache"))
    env.pop("NO_COLOR", None)
    # Bytecode on, as a learner's Python has it: an installed study runs from .pyc files (pip compiles what it
    # installs; an editable checkout writes __pycache__ on the first run, which the warm-up run is). With
    # PYTHONDONTWRITEBYTECODE, set on some machines, every run would time the compiler on our ~25 modules
    # while the baselines' site-packages still had their .pyc.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed_start(argv: list[str], tmp: Path, tag: str) -> tuple[float, float]:
    """Seconds from spawn to the "first" and "ready" marks of one run."""
    mark = tmp / f"{tag}-{time.monotonic_ns()}.txt"
    term = Terminal(argv, env_for(tmp, mark))
    try:
        term.proc.wait(60)
    finally:
        term.close()
    marks = dict(line.split() for line in mark.read_text().splitlines())
    return (int(marks["first"]) - term.t0) / 1e9, (int(marks["ready"]) - term.t0) / 1e9


def write_bank(folder: Path, n: int) -> None:
    """``n`` valid single-choice questions spread over every objective, 100 per file."""
    import yaml

    sys.path.insert(0, str(ROOT))
    from study.bank import load_bank

    objectives = load_bank().blueprint.objective_ids()
    folder.mkdir(parents=True, exist_ok=True)
    for f in range(0, n, 100):
        items = []
        for i in range(f, min(n, f + 100)):
            items.append({
                "id": f"gen-{i:05d}", "objective": objectives[i % len(objectives)], "difficulty": 1 + i % 3,
                "type": "single", "stem": f"Generated question {i}: which choice is marked correct?",
                "choices": [{"text": f"choice {c} of {i}", "correct": c == i % 4, "why": "generated"} for c in range(4)],
                "explanation": "Generated for the start-up benchmark.",
                "references": [{"title": "benchmark", "url": "https://example.com/bench"}],
                "verified": "2026-11-30",
            })
        (folder / f"gen-{f // 100:03d}.yaml").write_text(yaml.safe_dump({"questions": items}, sort_keys=False))


def compare(label: str, argv: list[str], baseline_argv: list[str], tmp: Path, runs: int, aim: float,
            ready_aim: float | None = None) -> None:
    """The minimal app, then ``study`` as a learner starts it again and again (the home snapshot of the last
    run is valid: nothing changed), then ``study`` with the snapshot removed first (the first start after
    a session or an edit: home fills once the bank and store load). Interleaved, medians of ``runs``."""
    firsts, readies, cold_firsts, cold_readies, base = [], [], [], [], []
    snapshot = tmp / "cache" / "study-nca-aiio" / "home-snapshot.json"  # study.paths.APP_NAME
    timed_start(baseline_argv, tmp, "warm")  # warm the OS file cache for both, and write the snapshot
    timed_start(argv, tmp, "warm")
    for _ in range(runs):
        base.append(timed_start(baseline_argv, tmp, "min")[0])
        f, r = timed_start(argv, tmp, "study")
        firsts.append(f)
        readies.append(r)
        snapshot.unlink(missing_ok=True)
        f, r = timed_start(argv, tmp, "cold")
        cold_firsts.append(f)
        cold_readies.append(r)
    mb, mf, mr, cf, cr = (statistics.median(x) for x in (base, firsts, readies, cold_firsts, cold_readies))
    # Each study start against the minimal app started just before it: this machine's speed drifts by a third
    # within a minute (the minimal app alone took 240 to 390 ms in one run), and a pair sees the same speed.
    pf, pr = (statistics.median(x / b for x, b in zip(xs, base)) for xs in (firsts, readies))
    ok = "ok" if pf <= aim else "ABOVE AIM"
    print(f"{label}")
    print(f"  minimal Textual app, first paint   {mb * 1e3:7.0f} ms   (baseline 1.00x)")
    print(f"  study, home first painted          {mf * 1e3:7.0f} ms   {mf / mb:5.2f}x   paired {pf:5.2f}x   "
          f"aim <= {aim}x: {ok}")
    ready = f"   aim <= {ready_aim}x: {'ok' if pr <= ready_aim else 'ABOVE AIM'}" if ready_aim else ""
    print(f"  study, home with bank + store data {mr * 1e3:7.0f} ms   {mr / mb:5.2f}x   paired {pr:5.2f}x{ready}")
    print(f"  the same without a home snapshot   {cr * 1e3:7.0f} ms   {cr / mb:5.2f}x   (first paint {cf / mb:.2f}x)")


def timed_command(argv: list[str], env: dict[str, str]) -> float:
    t0 = time.monotonic_ns()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.monotonic_ns() - t0) / 1e9


def command_ratios(tmp: Path, runs: int) -> None:
    """Whole-process times of commands that start no app, interleaved with their baselines, medians."""
    env = env_for(tmp, tmp / "unused-mark.txt")
    env.pop("STUDY_TUI_BENCH")
    rows = [
        ("study --help", [STUDY, "--help"], "python -c pass", [PY, "-c", "pass"], 4.0),
        ("study calc kv-cache --json", [STUDY, "calc", "kv-cache", "--model", "llama-2-70b", "--seq-len", "4096",
                                        "--json"], "python -c 'import numpy'", [PY, "-c", "import numpy"], 1.0),
    ]
    print(f"Commands without the app (median of {runs}, whole process)")
    for label, argv, base_label, base_argv, aim in rows:
        timed_command(argv, env)
        timed_command(base_argv, env)
        mine, base = [], []
        for _ in range(runs):
            base.append(timed_command(base_argv, env))
            mine.append(timed_command(argv, env))
        m, b = statistics.median(mine), statistics.median(base)
        ok = "ok" if m / b <= aim else "ABOVE AIM"
        print(f"  {label:<28} {m * 1e3:6.0f} ms  against {base_label} {b * 1e3:5.0f} ms: {m / b:5.2f}x   "
              f"aim <= {aim:g}x: {ok}")


def key_latency(tmp: Path, presses: int) -> None:
    """Median time from pressing ``n`` in an exam to the next question's position being painted."""
    env = env_for(tmp, tmp / "keys-mark.txt")
    env.pop("STUDY_TUI_BENCH")
    env["STUDY_DB"] = str(tmp / "keys.db")
    term = Terminal([STUDY], env)
    try:
        term.wait_for("Exam", term.t0, timeout=30)
        term.wait_for("Readiness", term.t0, timeout=60)
        t = term.send("e")
        term.wait_for("Start the exam", t)
        t = term.send("s")
        total = None
        first = term.wait_for("/50", t, timeout=30)
        total = 50
        lat = []
        shown = first
        for k in range(2, min(presses + 2, total + 1)):
            time.sleep(0.05)  # let the timer's repaint settle so we time the key, not a tick
            # A question answered by typing a number has the focus in its box, where n is a letter (of a unit:
            # "ns"); there enter, with the box empty, moves on. The box's hint says which kind is on screen.
            typed = NUMBER_BOX.search(term.text_since(shown)) is not None
            t = term.send("\r" if typed else "n")
            try:
                painted = term.wait_for(f"{k}/{total}", t, timeout=3 if not typed else 10)
            except TimeoutError:
                # The hint was not repainted (two number questions in a row): take the n back, then enter.
                term.send("\x7f")
                time.sleep(0.05)
                t = term.send("\r")
                painted = term.wait_for(f"{k}/{total}", t)
            lat.append((painted - t) / 1e6)
            shown = painted
    finally:
        term.close()
    lat.sort()
    med = statistics.median(lat)
    p90 = lat[int(0.9 * (len(lat) - 1))]
    ok = "ok" if med < 50 else "ABOVE AIM"
    print(f"Key press -> next exam question painted ({len(lat)} presses, real pty)")
    print(f"  median {med:6.1f} ms   p90 {p90:6.1f} ms   max {lat[-1]:6.1f} ms   aim median < 50 ms: {ok}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7, help="start-ups per variant (median taken)")
    ap.add_argument("--keys", type=int, default=40, help="key presses for the latency measurement")
    ap.add_argument("--questions", type=int, default=10_000, help="size of the generated bank")
    ap.add_argument("--skip-10k", action="store_true")
    ap.add_argument("--skip-keys", action="store_true", help="leave out the key-latency measurement")
    ap.add_argument("--only-commands", action="store_true", help="only the commands that start no app")
    args = ap.parse_args()
    if not STUDY:
        sys.exit("bench: the `study` command is not installed in this environment")
    with tempfile.TemporaryDirectory(prefix="study-bench-") as tmpdir:
        tmp = Path(tmpdir)
        command_ratios(tmp, args.runs)
        if args.only_commands:
            return
        minimal = tmp / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        baseline = [PY, str(minimal)]
        compare("Shipped bank", [STUDY], baseline, tmp, args.runs, 1.3, ready_aim=1.6)
        if not args.skip_10k:
            bank_dir = tmp / "bank10k"
            write_bank(bank_dir, args.questions)
            runner = tmp / "study_on_bank.py"
            runner.write_text(STUDY_ON_BANK)
            compare(f"Generated bank of {args.questions:,} questions", [PY, str(runner), str(tmp / "b10k.db"),
                    str(bank_dir)], baseline, tmp, args.runs, 1.5)
        if not args.skip_keys:
            key_latency(tmp, args.keys)


if __name__ == "__main__":
    main()
