"""Benchmark the progress store on a year of heavy use (100,000 answers).

Prints, each next to a bare-sqlite3 baseline measured in the same run on the same disk:

* record one answer (``Store.record_attempt``: insert + FSRS update, one durable WAL commit with
  ``synchronous=FULL``) vs a bare ``INSERT`` + commit with the same pragmas; and the price of durability:
  the same two with ``synchronous=NORMAL`` (which can lose the last commits on power loss, not on a crash);
* full statistics (``compute_stats`` over the built-in bank) vs the one aggregate query it cannot avoid
  (a GROUP BY over every attempt);
* opening the store with its damage check (``PRAGMA quick_check`` over every page, see
  ``study.progress.store_open``) vs the same open without the check;
* checking a whole backup before an import (``backup_format.parse_backup``) vs parsing its JSON text.

Targets from issue 5: under 2 ms per recorded answer, under 100 ms for the statistics.

    /work/venv/bin/python bench/store.py [--attempts 100000] [--repeat 200] [--dir DIR]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sqlite3
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from study.bank import load_bank
from study.progress import Attempt, open_store, store_open
from study.progress.backup_format import parse_backup
from study.progress.migrations import rebuild_aggregates
from study.progress.schedule import rating_for
from study.progress.stats import compute_stats
from study.progress.transfer import _replay

UTC = dt.timezone.utc


def fill(store, bank, n_attempts: int, now: dt.datetime, rng: random.Random) -> None:
    """A year of study: attempts spread over 365 days on the bank's questions, card reviews at a tenth of
    the rate, every item's FSRS state rebuilt from its history (as an import would)."""
    qids = [q.id for q in bank.questions] or [f"q{k}" for k in range(300)]
    cids = [c.id for c in bank.cards] or [f"t/c{k}" for k in range(100)]
    start = now - dt.timedelta(days=365)
    span = 365 * 86400
    rows = []
    for k in range(n_attempts):
        at = start + dt.timedelta(seconds=rng.random() * span)
        correct = rng.random() < 0.7
        seconds = rng.uniform(10, 120)
        rows.append((uuid.uuid4().hex, rng.choice(qids), "h", json.dumps({"k": k % 5}), "A", int(correct), seconds,
                     rng.choice(("practice", "exam", "quiz")), None, at.isoformat(timespec="microseconds"),
                     int(rating_for(correct, seconds))))
    reviews = [(uuid.uuid4().hex, rng.choice(cids), "h", rng.randint(1, 4), rng.uniform(3, 60),
                (start + dt.timedelta(seconds=rng.random() * span)).isoformat(timespec="microseconds"))
               for _ in range(n_attempts // 10)]
    with store._tx() as conn:
        conn.executemany(
            "INSERT INTO attempts(uid, item_id, content_hash, params_json, given, correct, seconds, mode,"
            " session_id, at, rating) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany(
            "INSERT INTO reviews(uid, card_id, content_hash, rating, seconds, at) VALUES (?, ?, ?, ?, ?, ?)", reviews)
        _replay(store, conn, set(qids) | set(cids))
        rebuild_aggregates(conn)


def median_ms(fn, repeat: int) -> float:
    times = []
    for k in range(repeat):
        t0 = time.perf_counter()
        fn(k)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def bare_insert(path: Path, synchronous: str):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {synchronous}")
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, item TEXT, given TEXT, correct INT,"
                 " seconds REAL, at TEXT)")

    def run(k: int) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t(item, given, correct, seconds, at) VALUES (?, ?, ?, ?, ?)",
                     (f"q{k}", "A", 1, 30.0, dt.datetime.now(UTC).isoformat()))
        conn.execute("COMMIT")

    return conn, run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--attempts", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--dir", help="where to put the stores (default: a temporary folder); the disk matters")
    args = ap.parse_args()
    rng = random.Random(5)
    bank = load_bank()
    now = dt.datetime.now(UTC)

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp_path = Path(tmp)
        t0 = time.perf_counter()
        store = open_store(tmp_path / "progress.db")
        fill(store, bank, args.attempts, now, rng)
        # At rest, as after any session closes: the year of data in the file, not waiting in the WAL.
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        print(f"filled {args.attempts:,} answers + {args.attempts // 10:,} card reviews in "
              f"{time.perf_counter() - t0:.1f} s; {len(bank.questions)} questions, {len(bank.cards)} cards; "
              f"file {(tmp_path / 'progress.db').stat().st_size / 1e6:.1f} MB")
        qids = [q.id for q in bank.questions] or ["q0"]

        def record(k: int) -> None:
            store.record_attempt(Attempt(qids[k % len(qids)], "h", {"k": k}, "A", k % 4 != 0, 30.0, "practice"))

        results = []
        for sync in ("FULL", "NORMAL"):
            store._conn.execute(f"PRAGMA synchronous = {sync}")
            ours = median_ms(record, args.repeat)
            conn, bare = bare_insert(tmp_path / f"bare-{sync}.db", sync)
            base = median_ms(bare, args.repeat)
            conn.close()
            results.append((sync, ours, base))
        store._conn.execute("PRAGMA synchronous = FULL")

        local_now = now.astimezone()
        stats_ms = median_ms(lambda k: compute_stats(store, bank, local_now), max(5, args.repeat // 20))
        agg_ms = median_ms(lambda k: store._conn.execute(
            "SELECT item_id, count(*), sum(correct) FROM attempts GROUP BY item_id").fetchall(),
            max(5, args.repeat // 20))
        open_ms = median_ms(lambda k: open_store(tmp_path / "progress.db").close(), 20)
        # The same open without the damage check (quick_check of every page), to price that check alone.
        checked = store_open._check_connection
        store_open._check_connection = lambda conn: None
        try:
            unchecked_ms = median_ms(lambda k: open_store(tmp_path / "progress.db").close(), 20)
        finally:
            store_open._check_connection = checked
        bare_open_ms = median_ms(lambda k: sqlite3.connect(tmp_path / "progress.db").execute(
            "PRAGMA user_version").fetchone(), 20)
        # What checking a backup before an import costs, against reading the same backup's JSON text.
        backup = store.export_data()
        text = json.dumps(backup)
        check_ms = median_ms(lambda k: parse_backup(backup), 3)
        read_ms = median_ms(lambda k: json.loads(text), 3)
        store.close()

    print(f"{'measure (median)':44} {'ours ms':>9} {'baseline ms':>12} {'ratio':>7}")
    for sync, ours, base in results:
        print(f"{'record one answer, synchronous=' + sync:44} {ours:9.3f} {base:12.3f} {ours / base:7.2f}x")
    full, normal = results[0][1], results[1][1]
    print(f"{'  durability cost: FULL / NORMAL (ours)':44} {full:9.3f} {normal:12.3f} {full / normal:7.2f}x")
    print(f"{'full statistics (compute_stats)':44} {stats_ms:9.3f} {agg_ms:12.3f} {stats_ms / agg_ms:7.2f}x")
    print(f"{'open store (checks + pragmas) vs bare open':44} {open_ms:9.3f} {bare_open_ms:12.3f} "
          f"{open_ms / bare_open_ms:7.2f}x")
    print(f"{'open store with quick_check vs without':44} {open_ms:9.3f} {unchecked_ms:12.3f} "
          f"{open_ms / unchecked_ms:7.2f}x")
    print(f"{'check a backup before import vs json.loads':44} {check_ms:9.3f} {read_ms:12.3f} "
          f"{check_ms / read_ms:7.2f}x")
    print(f"targets: record < 2 ms -> {'met' if full < 2 else 'MISSED'} ({full:.2f} ms); "
          f"statistics < 100 ms -> {'met' if stats_ms < 100 else 'MISSED'} ({stats_ms:.1f} ms)")


if __name__ == "__main__":
    main()
