"""Never lose data: concurrent writers, a kill mid-write, corrupt files, read-only locations."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from study.progress import StoreError, open_store

WRITER = textwrap.dedent(
    """
    import datetime as dt, sys
    from study.progress import Attempt, open_store
    path, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = open_store(path)
    print("ready", flush=True)
    sys.stdin.readline()  # start together
    base = dt.datetime(2026, 11, 30, tzinfo=dt.timezone.utc)
    k = 0
    while n < 0 or k < n:
        at = base + dt.timedelta(seconds=k)
        store.record_attempt(Attempt(f"{tag}-{k % 7}", "h", {"k": k}, "A", k % 3 != 0, 20.0, "practice", None, at))
        store.record_attempt(Attempt("shared", "h", {}, tag, True, 20.0, "quiz", None, at))
        k += 1
        print(k, flush=True)
    store.close()
    """
)


def _start(path: Path, tag: str, n: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), tag, str(n)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    return proc


def _consistent(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    # the attempt and its FSRS update are one transaction: every item's last review is its latest attempt
    rows = conn.execute(
        "SELECT i.item_id, i.last_review, max(a.at) FROM items i JOIN attempts a ON a.item_id = i.item_id"
        " GROUP BY i.item_id"
    ).fetchall()
    assert rows and all(last == latest for _i, last, latest in rows)
    orphans = conn.execute("SELECT count(*) FROM attempts WHERE item_id NOT IN (SELECT item_id FROM items)")
    assert orphans.fetchone()[0] == 0
    return conn


@pytest.mark.slow
def test_two_processes_writing_at_once_both_succeed(tmp_path):
    path = tmp_path / "progress.db"
    n = 150
    procs = [_start(path, tag, n) for tag in ("p1", "p2")]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    conn = _consistent(path)
    assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 4 * n
    givens = dict(conn.execute("SELECT given, count(*) FROM attempts WHERE item_id = 'shared' GROUP BY given"))
    assert givens == {"p1": n, "p2": n}


@pytest.mark.slow
def test_sigkill_during_writes_leaves_a_consistent_store(tmp_path):
    path = tmp_path / "progress.db"
    proc = _start(path, "k", -1)
    proc.stdin.write("go\n")
    proc.stdin.flush()
    acknowledged = 0
    while acknowledged < 40:  # each line is printed only after its transaction committed
        acknowledged = int(proc.stdout.readline())
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    conn = _consistent(path)
    count = conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
    assert count >= 2 * acknowledged  # nothing acknowledged was lost
    conn.close()
    with open_store(path) as s:  # and the store opens normally, with no corruption notice
        assert s.notice is None and len(s.history(item_id="shared")) == count // 2


def test_corrupt_file_is_moved_aside_not_overwritten(tmp_path):
    path = tmp_path / "progress.db"
    junk = b"this is not a database\n" * 200
    path.write_bytes(junk)
    (tmp_path / "progress.db-wal").write_bytes(b"stale wal")
    with open_store(path) as s:
        assert s.notice and "moved to progress.db.corrupt-" in s.notice and "not a valid progress store" in s.notice
        assert s.history() == []
    moved = sorted(tmp_path.glob("progress.db.corrupt-*"))
    assert [m.name.split("-", 1)[0] for m in moved] == ["progress.db.corrupt", "progress.db.corrupt"]
    main = [m for m in moved if not m.name.endswith("-wal")]
    assert len(main) == 1 and main[0].read_bytes() == junk
    assert any(m.name.endswith("-wal") and m.read_bytes() == b"stale wal" for m in moved)


def test_corrupt_twice_in_one_second_keeps_both(tmp_path):
    path = tmp_path / "progress.db"
    for content in (b"first junk" * 100, b"second junk" * 100):
        for side in tmp_path.glob("progress.db*"):
            if not side.name.startswith("progress.db.corrupt"):
                side.unlink()
        path.write_bytes(content)
        open_store(path).close()
    kept = {p.read_bytes() for p in tmp_path.glob("progress.db.corrupt-*") if not p.name.endswith(("-wal", "-shm"))}
    assert kept == {b"first junk" * 100, b"second junk" * 100}


def test_folder_that_cannot_exist_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot create the folder"):
        open_store(blocker / "progress.db")
    with pytest.raises(StoreError, match="is a folder"):
        open_store(tmp_path)


def _make_read_only(paths: list[Path]) -> list[Path]:
    """chmod for ordinary users; root ignores modes, so use the immutable flag when we are root."""
    if os.geteuid() != 0:
        for p in paths:
            os.chmod(p, 0o555 if p.is_dir() else 0o444)
        return []
    done = []
    for p in paths:
        if subprocess.run(["chattr", "+i", str(p)], capture_output=True).returncode != 0:
            _undo(done)
            pytest.skip("running as root without chattr: cannot make a read-only folder")
        done.append(p)
    return done


def _undo(immutable: list[Path]) -> None:
    for p in reversed(immutable):
        subprocess.run(["chattr", "-i", str(p)], capture_output=True)


@pytest.mark.parametrize("existing", [False, True])
def test_read_only_location_is_a_clear_error(tmp_path, existing):
    folder = tmp_path / "ro"
    folder.mkdir()
    targets = [folder]
    if existing:
        from study.progress import Attempt

        with open_store(folder / "progress.db") as s:
            s.record_attempt(Attempt("q", "h", {}, "kept", True, 5.0, "quiz"))
        targets.insert(0, folder / "progress.db")
    immutable = _make_read_only(targets)
    try:
        with pytest.raises(StoreError, match="read-only") as info:
            open_store(folder / "progress.db")
        assert str(folder) in str(info.value)
        assert sorted(p.name for p in folder.iterdir()) == (["progress.db"] if existing else [])
    finally:
        _undo(immutable)
        for p in targets:
            os.chmod(p, 0o755)
    if existing:  # what was stored is all still there once the location is writable again
        with open_store(folder / "progress.db") as s:
            assert s.notice is None and [a.given for a in s.history()] == ["kept"]


def _populated(path: Path) -> Path:
    from study.progress import Attempt

    with open_store(path) as s:
        for k in range(30):
            s.record_attempt(Attempt(f"q{k % 5}", "h", {"k": k}, "A", k % 2 == 0, 25.0, "quiz"))
        s.set_setting("daily_goal", 30)
    return path


def test_store_from_a_newer_study_is_refused_and_left_exactly_as_it_was(tmp_path, capsys, monkeypatch):
    import io

    from study.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    path = _populated(tmp_path / "progress.db")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer version of study"):
        open_store(path)
    for command in (["stats"], ["reset", "--yes"], ["export"], ["quiz", "--plain", "--count", "1"]):
        code = main(["--db", str(path), *command])
        err = capsys.readouterr().err
        assert "newer version" in err and "Traceback" not in err
        assert code in (0, 1, 2)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if "corrupt" in p.name or "backup" in p.name] == []
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM attempts").fetchone()[0] == 30
    conn.close()


OPENER = textwrap.dedent(
    """
    import datetime as dt, sys
    from study.progress import Attempt, open_store
    sys.stdin.readline()
    with open_store(sys.argv[1]) as store:
        store.record_attempt(Attempt("q", "h", {}, sys.argv[2], True, 5.0, "quiz"))
        print(store.schema_version, store.notice)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("start", ["fresh", "v1"])
def test_processes_opening_at_once_create_or_migrate_once(tmp_path, start):
    path = tmp_path / "progress.db"
    if start == "v1":
        from .test_migrations import make_v1

        make_v1(path)
    procs = [subprocess.Popen([sys.executable, "-c", OPENER, str(path), f"p{k}"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(4)]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _o, e in outs]
    assert all(o.split() == [o.split()[0], "None"] for o, _e in outs)
    with open_store(path) as s:
        givens = sorted(a.given for a in s.history(item_id="q"))
        assert givens == ["p0", "p1", "p2", "p3"]
        assert len(s.history()) == 4 + (4 if start == "v1" else 0)
    assert sorted(p.name for p in tmp_path.iterdir() if "corrupt" in p.name) == []


@pytest.mark.slow
def test_processes_opening_a_damaged_store_at_once_keep_it_once_and_share_the_fresh_one(tmp_path):
    path = _populated(tmp_path / "progress.db")
    damaged = path.read_bytes()[: path.stat().st_size // 2]
    path.write_bytes(damaged)
    procs = [subprocess.Popen([sys.executable, "-c", OPENER, str(path), f"p{k}"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(4)]
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _o, e in outs]
    kept = [p for p in tmp_path.glob("progress.db.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]
    assert [k.read_bytes() for k in kept] == [damaged]  # moved once, exactly as found
    assert sum("moved to progress.db.corrupt-" in o for o, _e in outs) == 1
    with open_store(path) as s:
        assert s.notice is None and sorted(a.given for a in s.history()) == ["p0", "p1", "p2", "p3"]
