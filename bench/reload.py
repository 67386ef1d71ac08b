"""Live reload costs: one poll of the bank's files, and the reload after an edit.

Ratios are against baselines measured in the same run: a bare os.stat() of the same files (the least a
poll can do) and, for the reload, parsing the one edited file (the floor for any reload). Unchanged files
are not parsed again (study.bank.bank keeps each file's parse keyed by its bytes); what remains is reading
and hashing every file, the cross-file checks and writing the disk cache.
Run from the repository: python bench/reload.py [--questions N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent if (Path(__file__).resolve().parent.parent / "study").is_dir() else Path.cwd()
sys.path.insert(0, str(ROOT))


def best(fn, runs: int) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def measure(label: str, questions: Path, content: Path, cache: Path) -> None:
    from study.bank import load_bank, watch
    from study.bank.bank import clear_cache
    from study.bank.load import load_question_file

    roots = watch.bank_roots([questions], content, specs=True)
    files = list(watch.scan(roots))
    w = watch.Watcher(roots)
    w.prime()
    poll = best(w.poll, 200)
    bare = best(lambda: [os.stat(f) for f in files], 200)
    print(f"{label}: {len(files)} files")
    print(f"  poll            {poll * 1e3:7.2f} ms   {poll / bare:4.1f}x a bare stat of each file ({bare * 1e3:.2f} ms)")

    edited = max(questions.rglob("*.yaml"), key=lambda p: p.stat().st_size)
    one_file = best(lambda: load_question_file(edited), 5)
    times = []
    for i in range(5):
        with edited.open("a") as fh:
            fh.write(f"# edit {i}\n")
        t = time.perf_counter()
        watch.reload_bank([str(questions)], str(content), cache_directory=cache)
        times.append(time.perf_counter() - t)
    clear_cache()
    bank = load_bank(questions=[questions], content=content)
    reload = statistics.median(times)
    print(f"  reload          {reload * 1e3:7.1f} ms   {reload / one_file:4.1f}x parsing only the edited file "
          f"({edited.name}, {one_file * 1e3:.1f} ms); {len(bank.questions):,} questions")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=10_000, help="size of the generated bank (0: skip)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        shutil.copytree(ROOT / "questions", tmp / "questions")
        shutil.copytree(ROOT / "content", tmp / "content")
        measure("Shipped bank", tmp / "questions", tmp / "content", tmp / "cache")
        if args.questions:
            sys.path.insert(0, str(ROOT / "bench"))
            from startup import write_bank

            write_bank(tmp / "gen", args.questions)
            measure("Generated bank", tmp / "gen", tmp / "content", tmp / "cache")


if __name__ == "__main__":
    main()
