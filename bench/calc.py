"""Calculator speed, as ratios against baselines measured in this run.

1. One ``kv-cache`` call through the registry (coercion, catalog look-up, worked steps) against the same
   arithmetic written inline: the median latency and the overhead ratio (aim: under 50 microseconds).
2. One compiled question expression evaluated, for ``study lint`` and the quiz (same baseline).
3. A sweep of 1,000,000 configurations (batch x context for ``tokens-per-second``, which includes the KV
   cache read) with numpy arrays against the same sweep as a Python loop of scalar calls (aim: under 0.5 s
   and at least 50x faster). The loop is timed on a sample and scaled unless ``--full`` is given.
"""

from __future__ import annotations

import argparse
import statistics
import time


def median_us(fn, repeat: int, number: int) -> float:
    """Median over ``repeat`` batches of ``number`` calls, in microseconds per call."""
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        runs.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", type=int, default=1_000_000, help="sweep size (default 1,000,000)")
    ap.add_argument("--sample", type=int, default=20_000, help="loop points actually timed (default 20,000)")
    ap.add_argument("--full", action="store_true", help="time the whole loop instead of a sample")
    args = ap.parse_args()

    t0 = time.perf_counter()
    import study.calc as calc

    import_ms = (time.perf_counter() - t0) * 1e3
    calc.catalog()  # load once, as the app does at start-up

    m = calc.model("llama-2-70b")

    def inline() -> float:
        return 2 * m.layers * m.kv_heads * m.head_dim * 2.0 * 4096 * 1

    def registry_call():
        return calc.call("kv-cache", model="llama-2-70b", seq_len=4096, batch=1, dtype="fp16")

    assert registry_call().value == inline()
    base = median_us(inline, 7, 20_000)
    one = median_us(registry_call, 7, 5_000)
    expr = calc.compile_expr("kv_cache(model=model, seq_len=seq, batch=batch, dtype='fp16') / 1e9")
    env = {"model": "llama-2-70b", "seq": 4096, "batch": 1}
    ev = median_us(lambda: expr.evaluate(env), 7, 2_000)

    import sys

    note = ", compiled from source: PYTHONDONTWRITEBYTECODE" if sys.dont_write_bytecode else ""
    print(f"import study.calc            {import_ms:8.1f} ms (numpy not imported: {'numpy' not in sys.modules}{note})")
    print(f"inline arithmetic (baseline) {base:8.2f} us")
    print(f"call('kv-cache', ...)        {one:8.2f} us   {one / base:7.1f}x baseline   (aim < 50 us)")
    print(f"compiled expression evaluate {ev:8.2f} us   {ev / base:7.1f}x baseline")

    import numpy as np

    side = int(round(args.points ** 0.5))
    batch = np.arange(1, side + 1, dtype=float)[:, None]
    seq = np.linspace(128, 131072, side)[None, :]
    n = batch.size * seq.size
    kw = dict(model="llama-3-8b", gpu="h100-sxm", dtype="fp16")

    t0 = time.perf_counter()
    grid = calc.call("tokens-per-second", batch=batch, seq_len=seq, **kw).value
    vec = time.perf_counter() - t0
    assert grid.shape == (side, side)

    flat_b = np.broadcast_to(batch, grid.shape).ravel()
    flat_s = np.broadcast_to(seq, grid.shape).ravel()
    count = n if args.full else min(args.sample, n)
    idx = np.linspace(0, n - 1, count).astype(int)
    pairs = [(float(flat_b[i]), float(flat_s[i])) for i in idx]
    t0 = time.perf_counter()
    loop_vals = [calc.call("tokens-per-second", batch=b, seq_len=s, **kw).value for b, s in pairs]
    loop = (time.perf_counter() - t0) * n / count
    np.testing.assert_allclose(loop_vals, grid.ravel()[idx], rtol=1e-12)

    how = "timed in full" if count == n else f"{count:,} timed, scaled to {n:,}"
    print(f"sweep {n:,} points, numpy     {vec:8.3f} s    (aim < 0.5 s)")
    print(f"same sweep, Python loop      {loop:8.3f} s    ({how})")
    print(f"numpy speed-up               {loop / vec:8.1f}x   (aim >= 50x)")


if __name__ == "__main__":
    main()
