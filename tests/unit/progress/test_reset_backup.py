"""``study reset`` writes its backup whole or not at all (issue 19, defect 14): killed while writing it, reset
used to leave a truncated ``progress-backup-*.json`` that restores nothing, under the name a learner trusts."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from study.cli import main
from study.progress import Attempt, open_store

from .conftest import NOW

# The child dies of SIGXFSZ as soon as a write passes 64 KiB: in the middle of the backup, which is larger,
# while reading the store (below the limit's effect: nothing is written to it before the backup) goes on.
KILLED_MID_WRITE = textwrap.dedent(
    """
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it (a write then fails); a kill is wanted
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, resource.RLIM_INFINITY))
    from study.cli import main
    sys.exit(main(["--db", sys.argv[1], "reset", "--yes"]))
    """
)


def _store(path, answers: int) -> None:
    with open_store(path, fuzz=False) as s:
        for k in range(answers):
            s.record_attempt(Attempt(f"q{k % 50}", "h", {"k": k, "pad": "x" * 100}, "B", k % 2 == 0, 30.0, "quiz",
                                     None, NOW))


def _count(path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT count(*) FROM attempts").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.slow
def test_a_reset_killed_while_writing_its_backup_leaves_no_backup_and_erases_nothing(tmp_path):
    db = tmp_path / "progress.db"
    _store(db, 600)
    assert db.stat().st_size < 64 * 1024 * 8
    done = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(db)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == -signal.SIGXFSZ, done.stderr
    assert list(tmp_path.glob("*-backup-*.json")) == []  # no truncated backup under the real name
    assert _count(db) == 600


def test_the_backup_is_complete_private_and_restores(tmp_path, capsys):
    db = tmp_path / "progress.db"
    _store(db, 5)
    assert main(["--db", str(db), "reset", "--yes"]) == 0
    (backup,) = tmp_path.glob("*-backup-*.json")
    assert json.loads(backup.read_text())["format"] == "study-progress"
    assert backup.stat().st_mode & 0o077 == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert _count(db) == 0
    assert main(["--db", str(db), "import", "--replace", str(backup)]) == 0
    assert _count(db) == 5
