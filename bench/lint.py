"""Lint speed: `study lint` on 10,000 generated questions against a bare CSafeLoader load of the same files.

Prints the ratio (aim: at most 2x). Both run in this process, on the same files, best of N runs.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import yaml

QUESTION = """\
  - id: bench-{n}
    objective: "{objective}"
    difficulty: {difficulty}
    type: single
    tags: [scenario]
    stem: |
      Scenario {n}: a team must pick the interconnect for all-reduce traffic between servers. Which one?
    choices:
      - text: InfiniBand NDR through ConnectX-7 adapters (variant {n})
        correct: true
        why: Traffic between nodes crosses the scale-out fabric.
      - text: NVLink through NVSwitch (variant {n})
        why: NVLink scales up inside a node.
      - text: PCIe Gen5 (variant {n})
        why: PCIe connects devices inside a server.
      - text: The BMC port (variant {n})
        why: The BMC is for out-of-band management.
    explanation: Scale up inside the node, scale out between nodes.
    references:
      - title: DGX H100 User Guide
        url: https://docs.nvidia.com/dgx/dgxh100-user-guide/introduction-to-dgxh100.html
    verified: 2026-11-30
"""
OBJECTIVES = ["1.1", "1.2", "1.8", "2.1", "2.7", "2.9", "3.1", "3.4"]


def generate(folder: Path, total: int, per_file: int = 100) -> list[Path]:
    files = []
    for f in range(total // per_file):
        body = "questions:\n" + "".join(
            QUESTION.format(n=f * per_file + i, objective=OBJECTIVES[i % len(OBJECTIVES)], difficulty=1 + i % 3)
            for i in range(per_file)
        )
        path = folder / f"bench_{f:03d}.yaml"
        path.write_text(body, encoding="utf-8")
        files.append(path)
    return files


def best_of(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from study.bank import clear_cache
    from study.bank.lint import lint

    with tempfile.TemporaryDirectory() as tmp:
        files = generate(Path(tmp), args.questions)

        def bare() -> None:
            for p in files:
                yaml.load(p.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)

        def ours() -> None:
            clear_cache()
            result = lint([tmp])
            assert result.questions == args.questions and result.errors == 0, result.diagnostics[:3]

        baseline = best_of(bare, args.runs)
        measured = best_of(ours, args.runs)
    print(f"questions            {args.questions}")
    print(f"bare CSafeLoader     {baseline * 1000:8.1f} ms")
    print(f"study lint           {measured * 1000:8.1f} ms")
    print(f"ratio                {measured / baseline:8.2f}x  (aim: <= 2x)")


if __name__ == "__main__":
    main()
