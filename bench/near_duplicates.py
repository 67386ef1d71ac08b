"""Near-duplicate check speed: the blocked scan against the full token_set_ratio matrix, on the shipped bank.

Prints both times and their ratio (blocked / full; lower is better), measured in this run, best of N.
"""

from __future__ import annotations

import argparse
import time


def best_of(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from rapidfuzz import fuzz, process

    from study.bank.bank import load_bank
    from study.bank.near_duplicates import THRESHOLD, candidate_pairs, comparable, fingerprint

    texts = [fingerprint(q) for q in load_bank().questions if comparable(q)]

    def blocked() -> None:
        for i, j in candidate_pairs(texts):
            fuzz.token_set_ratio(texts[i], texts[j], score_cutoff=THRESHOLD)

    def full() -> None:
        process.cdist(texts, texts, scorer=fuzz.token_set_ratio, score_cutoff=THRESHOLD, workers=1)

    b, f = best_of(blocked, args.runs), best_of(full, args.runs)
    print(f"{len(texts)} questions: blocked {b * 1000:.0f} ms, full matrix {f * 1000:.0f} ms, ratio {b / f:.2f}")


if __name__ == "__main__":
    main()
