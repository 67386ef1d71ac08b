"""``study lab ID --run COMMAND`` for every command of every lab, against ``python -c pass``.

Run: ``python bench/lab_run.py [--repeat N]``. Each command runs in a fresh interpreter, as a learner's shell
would start it; the figure is the best of N runs (the machine is shared), printed in ms and as a ratio to
an empty interpreter measured in the same run. Aim (issue 22): under 100 ms per command. A second table
gives the time spent inside the process (import, load the lab, build the case, render) so the cost of the
interpreter itself is visible.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def best(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - t)
    return min(times) * 1000


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
    results = []
    for lab_id, cmd in runs:
        ms = best([py, "-m", "study", "lab", lab_id, "--run", cmd], args.repeat)
        results.append(ms)
        print(f"{ms:7.1f} ms  x{ms / base:5.1f}  {lab_id}: {cmd}")
    over = [r for r in results if r >= 100]
    print(f"\n{len(results)} commands: median {statistics.median(results):.1f} ms, max {max(results):.1f} ms, "
          f"median ratio x{statistics.median(results) / base:.1f}; {len(over)} at or over 100 ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
