"""Figures for the hostile-LRS cases (issue 19): every mode of tests/lrs/hostile.py against `study sync` and
`study analyze --lrs`, each in this process, with the limits given on the command line.

Prints per mode and command: seconds to give up, requests the hostile LRS saw, requests that reached the
other host or port (must be 0), statements falsely acknowledged (must be 0). Then the peak memory (tracemalloc) of
reading an endless huge page with the learner's default limits, against reading one small page.

    .venv/bin/python bench/lrs_hostile.py [--request 1.0] [--total 5.0]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from study.cli import main  # noqa: E402
from study.interop import lrs_http  # noqa: E402
from study.interop.lrs import statements_url  # noqa: E402
from study.progress import Attempt, open_store  # noqa: E402
from tests.lrs.hostile import MODES, TOKEN, Server, other_host_server  # noqa: E402

def make_store(path: Path) -> None:
    from study.bank import load_bank

    bank = load_bank()
    start = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)
    with open_store(path) as store:
        for i, q in enumerate(sorted(q.id for q in bank.questions if q.type == "single")[:5]):
            store.record_attempt(Attempt(q, bank.content_hash(q), {}, "A", True, 20.0, "practice",
                                         at=start + dt.timedelta(minutes=i)))


def run(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def huge_page_peak() -> tuple[float, float, str]:
    """Peak traced memory (MB) of reading an endless page with the learner's default limits, against
    reading one small valid page the same way."""
    import tracemalloc

    from study.interop.lrs import Client, Endpoint, LrsError, fetch_pages

    peaks, said = [], ""
    for mode in ("ok", "huge-body"):
        with Server(mode, lifetime=120) as lrs:
            tracemalloc.start()
            try:
                with Client(Endpoint(statements_url(lrs.url), f"Bearer {TOKEN}"),
                            limits=lrs_http.Limits()) as client:
                    list(fetch_pages(client, "https://study-nca-aiio.invalid/nca-aiio"))
            except LrsError as exc:
                said = str(exc)
            peaks.append(tracemalloc.get_traced_memory()[1] / 2**20)
            tracemalloc.stop()
    return peaks[0], peaks[1], said


def main_bench() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--request", type=float, default=1.0, help="request deadline for the modes (s)")
    ap.add_argument("--total", type=float, default=5.0, help="total per sync or analysis (s)")
    args = ap.parse_args()
    lrs_http.DEFAULT_LIMITS = lrs_http.Limits(request=args.request, total=args.total, connect=1.0, backoff=0.1,
                                              max_pages=200)
    tmp = Path(tempfile.mkdtemp())
    os.environ.update(STUDY_LRS_TOKEN=TOKEN, XDG_CONFIG_HOME=str(tmp / "config"))
    print(f"limits: request {args.request} s, total {args.total} s, backoff 0.1 s doubling, 5 tries")
    print(f"{'mode':<24} {'command':<8} {'exit':>4} {'s':>6} {'asked':>5} {'elsewhere':>9} {'false acks':>10} "
          "token shown")
    longest, elsewhere_total, false_total, token_total = 0.0, 0, 0, 0
    for mode in MODES:
        for command in ("sync", "analyze"):
            db = tmp / f"{mode}-{command}.db"
            make_store(db)
            with other_host_server() as host, Server("ok") as port:
                with Server(mode, other=f"http://{host.host}:{host.port}", other_port=port.port,
                            lifetime=args.total * 4, max_requests=1000) as lrs:
                    argv = (["--db", str(db), "sync", "--lrs", lrs.url] if command == "sync"
                            else ["analyze", "--lrs", lrs.url])
                    began = time.monotonic()
                    code, err = run(argv)
                    took = time.monotonic() - began
                    elsewhere = len(host.seen) + len(port.seen)
            with open_store(db) as store:
                false_acks = len(store.lrs_acked(statements_url(lrs.url)))
                last = store.get_setting("lrs_last_error") or ""
            shown = TOKEN in err or TOKEN in last
            longest = max(longest, took)
            elsewhere_total += elsewhere
            false_total += false_acks
            token_total += shown
            print(f"{mode:<24} {command:<8} {code:>4} {took:>6.2f} {len(lrs.seen):>5} {elsewhere:>9} {false_acks:>10} "
                  f"{'YES' if shown else 'no'}")
    print(f"\nmodes {len(MODES)} x 2 commands; requests elsewhere {elsewhere_total}; false acknowledgements "
          f"{false_total}; token shown {token_total}; longest time to give up {longest:.2f} s "
          f"(limits: {args.request} s a request, {args.total} s in all)")
    base, huge, said = huge_page_peak()
    print(f"\npeak traced memory, default limits: small page {base:.1f} MB, endless huge page {huge:.1f} MB "
          f"(ratio {huge / max(base, 0.01):.0f}); it said: {said}")


if __name__ == "__main__":
    main_bench()
