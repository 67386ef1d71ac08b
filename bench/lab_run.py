"""``study lab ID --run COMMAND`` for every command of every lab, against ``python -c pass``.

Run: ``python bench/lab_run.py [--repeat N]``. Each command runs in a fresh interpreter, as a learner's shell
would start it, with bytecode on (as an installed study has it). Two figures per command, each the best of N
rounds, in ms and as a ratio to an empty interpreter measured in the same run. A round runs every command
once, so a command's N runs are spread over the whole benchmark: this machine is shared and has slow spells
of several seconds (a third slower, or more), which N runs back to back could all fall into.

- warm: the case (lab, seed) was run before, so its checked system is read from the user cache (the way
  every command after a case's first one runs).
- cold: a fresh cache folder each run, so the lab file is parsed and checked first (a case's first command,
  after an install, an edit of the lab file or with a new --seed), by study.lab.shape, without pydantic.

Aim (issue 22): both under 100 ms for every command.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(cmd: list[str], cold: bool = False) -> float:
    """Milliseconds for one run of ``cmd``; ``cold`` with a fresh, empty case cache."""
    env = dict(ENV)
    if cold:
        env["STUDY_LAB_CACHE"] = tempfile.mkdtemp(prefix="lab-cold-")
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - t) * 1000


def best(cmd: list[str], repeat: int) -> float:
    return min(timed(cmd) for _ in range(repeat))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--limit", type=int, default=0, help="only the first N commands (0: all)")
    args = ap.parse_args()
    from study.lab.load import all_labs

    py = sys.executable
    base = best([py, "-c", "pass"], args.repeat)
    runs = [(lab.id, cmd) for lab in all_labs() for cmd in lab.commands]
    if args.limit:
        runs = runs[:args.limit]
    print(f"python -c pass: {base:.1f} ms (best of {args.repeat})")
    print(f"{'warm':>9} {'ratio':>6} {'cold':>9} {'ratio':>6}  lab: command")
    argvs = [[py, "-m", "study", "lab", lab_id, "--run", cmd] for lab_id, cmd in runs]
    for argv in argvs:
        timed(argv)  # the case cache filled, and the OS's file cache warm, before the first timed round
    warm = [float("inf")] * len(argvs)
    cold = [float("inf")] * len(argvs)
    for _ in range(args.repeat):
        for k, argv in enumerate(argvs):
            warm[k] = min(warm[k], timed(argv))
            cold[k] = min(cold[k], timed(argv, cold=True))
    for (lab_id, cmd), w, c in zip(runs, warm, cold):
        print(f"{w:6.1f} ms x{w / base:5.1f} {c:6.1f} ms x{c / base:5.1f}  {lab_id}: {cmd}")
    for label, results in (("warm", warm), ("cold", cold)):
        over = [r for r in results if r >= 100]
        print(f"{label}: {len(results)} commands, median {statistics.median(results):.1f} ms, max {max(results):.1f} ms, "
              f"median ratio x{statistics.median(results) / base:.1f}; {len(over)} at or over 100 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
