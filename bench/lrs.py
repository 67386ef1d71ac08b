"""Benchmark ``study sync`` and ``study analyze --lrs`` against a real LRS (Ralph) on the loopback address.

Prints, each against a baseline measured in the same run on the same machine:

* sending: statements per second by ``study sync`` (batches of 100) vs a plain loop of single-statement POSTs
  of the same number of statements, each to a fresh LRS;
* reading: ``study analyze --lrs`` over N statements (default 100,000: 1,000 learners x 100 answers) vs
  ``study analyze`` over the same statements in JSON-lines files, wall time and peak memory, each in its
  own process.

    .venv/bin/python bench/lrs.py [--send 2000] [--read 100000]

Needs the test extra (Ralph): ``pip install -e '.[test]'``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.lrs.ralph_server import PASSWORD, USER, start  # noqa: E402

from study.bank import load_bank  # noqa: E402
from study.interop.lrs import Client, Endpoint, read_credentials, statements_url  # noqa: E402
from study.interop.sync import SyncRequest, sync_store  # noqa: E402
from study.interop.xapi import DEFAULT_BASE, build_statements, default_actor  # noqa: E402
from study.progress import Attempt, open_store  # noqa: E402

UTC = dt.timezone.utc
START = dt.datetime(2026, 9, 1, tzinfo=UTC)
ENV = {"STUDY_LRS_USER": USER, "STUDY_LRS_PASSWORD": PASSWORD}


def learner_store(path: Path, bank, n: int, rng: random.Random) -> Path:
    qids = [q.id for q in bank.questions if q.type == "single"]
    with open_store(path) as store:
        for k in range(n):
            qid = rng.choice(qids)
            store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "A", rng.random() < 0.7, 40.0,
                                         "practice", at=START + dt.timedelta(minutes=k)))
    return path


def bench_send(n: int, bank, tmp: Path) -> None:
    rng = random.Random(1)
    db = learner_store(tmp / "send.db", bank, n, rng)
    with open_store(db) as store:
        statements = build_statements(store.export_data(), bank, default_actor(DEFAULT_BASE, "bench"), DEFAULT_BASE)[0]

    lrs = start(tmp / "lrs-loop")
    try:
        client = Client(Endpoint(statements_url(lrs.url), read_credentials(tmp, ENV)))
        t0 = time.perf_counter()
        for st in statements:
            assert client.request("POST", client.endpoint.statements_url, [st]).status == 200
        loop = time.perf_counter() - t0
    finally:
        lrs.stop()

    lrs = start(tmp / "lrs-sync")
    try:
        endpoint = Endpoint(statements_url(lrs.url), read_credentials(tmp, ENV))
        t0 = time.perf_counter()
        report = sync_store(SyncRequest(db=db, url=lrs.url, base=DEFAULT_BASE, actor=default_actor(DEFAULT_BASE,
                            "bench")), bank=bank, client=lambda e: Client(endpoint))
        synced = time.perf_counter() - t0
        assert report.outcome.sent == len(statements), report.outcome
    finally:
        lrs.stop()
    print(f"send {len(statements):,} statements: study sync {len(statements) / synced:,.0f}/s, "
          f"single POSTs {len(statements) / loop:,.0f}/s  (ratio {loop / synced:.1f}x faster)")


def class_statements(n: int, bank) -> list[dict]:
    """n answers by n/100 learners: real statements from the exporter, one learner at a time."""
    rng = random.Random(2)
    qids = [q.id for q in bank.questions if q.type == "single"]
    out: list[dict] = []
    per = 100
    for learner in range(max(1, n // per)):
        attempts = []
        for k in range(per):
            qid = rng.choice(qids)
            at = START + dt.timedelta(minutes=learner * per + k)
            attempts.append({"uid": uuid.UUID(int=rng.getrandbits(128)).hex, "item_id": qid,
                             "content_hash": bank.content_hash(qid), "params_json": "{}", "given": "A",
                             "correct": int(rng.random() < 0.4 + 0.5 * (learner % 10) / 10), "seconds": 40.0,
                             "mode": "practice", "session_id": None, "at": at.isoformat(), "rating": 3,
                             "picked_json": None})
        actor = default_actor(DEFAULT_BASE, f"learner{learner:05d}")
        out += build_statements({"attempts": attempts, "sessions": []}, bank, actor, DEFAULT_BASE)[0]
    return out


MEASURE = """
import resource, sys, time
from study.cli import main
t0 = time.perf_counter()
code = main(sys.argv[1:])
took = time.perf_counter() - t0
print(f"RESULT {code} {took:.3f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
"""

# What `study analyze --lrs URL --json` runs, with a page size for Ralph's file backend, whose paging re-reads
# its file from the start for every page: the command's 500 a page costs it quadratic time at 100,000
# statements, which would measure Ralph, not us.
MEASURE_LRS = """
import json, resource, sys, time
from study.analysis.report import analyse
from study.analysis.results import load_results_from_pages
from study.bank import load_bank
from study.interop.lrs import Client, Endpoint, fetch_pages, read_credentials, statements_url
from study.interop.xapi import DEFAULT_BASE
from pathlib import Path
t0 = time.perf_counter()
endpoint = Endpoint(statements_url(sys.argv[1]), read_credentials(Path("/nonexistent")))
responses = load_results_from_pages(fetch_pages(Client(endpoint), DEFAULT_BASE, limit=int(sys.argv[2])), sys.argv[1])
print(json.dumps(analyse(responses, load_bank()).to_dict()))
took = time.perf_counter() - t0
print(f"RESULT 0 {took:.3f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}", file=sys.stderr)
"""


def measure(args: list[str], env: dict, script: str = MEASURE) -> tuple[float, int]:
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)
    line = [x for x in proc.stderr.splitlines() if x.startswith("RESULT ")]
    if not line:
        raise SystemExit(f"analyze failed: {proc.stderr[-2000:]}")
    code, took, rss_kb = line[-1].split()[1:]
    if code != "0":
        raise SystemExit(f"analyze exited {code}: {proc.stderr[-2000:]}")
    return float(took), int(rss_kb)


def bench_read(n: int, bank, tmp: Path) -> None:
    import os

    statements = class_statements(n, bank)
    files = tmp / "class"
    files.mkdir()
    by_actor: dict[str, list[str]] = {}
    for st in statements:
        by_actor.setdefault(st["actor"]["account"]["name"], []).append(json.dumps(st, separators=(",", ":")))
    for name, lines in by_actor.items():
        (files / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")

    page = 5000
    lrs = start(tmp / "lrs-read", page_limit=page)
    try:
        # Seeded straight into Ralph's statement file, as its own writes leave it, so the bench measures the
        # read and not hours of Ralph checking duplicates on every POST.
        stored = dt.datetime.now(UTC).isoformat()
        authority = {"mbox": "mailto:teacher@example.com", "objectType": "Agent"}
        with open(lrs.data / "fs_lrs.jsonl", "w", encoding="utf-8") as out:
            for st in statements:
                out.write(json.dumps(dict(st, stored=stored, authority=authority), separators=(",", ":")) + "\n")
        env = dict(os.environ, **ENV, OPENBLAS_NUM_THREADS="1")
        lrs_time, lrs_rss = measure([lrs.url, str(page)], env, MEASURE_LRS)
    finally:
        lrs.stop()
    file_time, file_rss = measure(["analyze", str(files), "--json"], env)
    print(f"analyze {len(statements):,} statements ({len(by_actor):,} learners, {page:,} a page): "
          f"--lrs {lrs_time:.1f} s, "
          f"{lrs_rss / 1024:.0f} MB peak; files {file_time:.1f} s, {file_rss / 1024:.0f} MB peak  "
          f"(time ratio {lrs_time / file_time:.2f}, memory ratio {lrs_rss / file_rss:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--send", type=int, default=2000, help="answers to send (default 2000)")
    parser.add_argument("--read", type=int, default=100_000, help="statements to analyse (default 100000)")
    args = parser.parse_args()
    bank = load_bank()
    with tempfile.TemporaryDirectory(prefix="study-bench-lrs-") as tmp:
        if args.send:
            bench_send(args.send, bank, Path(tmp))
        if args.read:
            bench_read(args.read, bank, Path(tmp))


if __name__ == "__main__":
    main()
