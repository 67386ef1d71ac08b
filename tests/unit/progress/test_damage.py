"""A damaged store is kept aside, byte for byte, and a fresh one works: through every command (issue 15).

Each variant damages a copy of a real populated store in a way seen on disks (a cut-off copy, a block of
noise, zeroed pages, flipped bits, a broken header field). The file header stays intact in most of them,
which is what used to slip past the open check.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sqlite3
from pathlib import Path
from collections.abc import Callable

import pytest

from study.cli import main
from study.progress import Attempt, StoreError, open_store

from .conftest import NOW

PAGE = 4096


@pytest.fixture(scope="module")
def populated(tmp_path_factory) -> bytes:
    """The bytes of a closed store with a few hundred answers, card reviews, sessions and settings."""
    path = tmp_path_factory.mktemp("populated") / "p.db"
    with open_store(path, fuzz=False) as s:
        for k in range(300):
            s.record_attempt(Attempt(f"q{k % 40}", "h", {"k": k}, "B" * (1 + k % 30), k % 3 != 0, 20.0 + k % 50,
                                     "quiz", f"s{k % 4}", NOW + dt.timedelta(minutes=k)))
        for k in range(30):
            s.review_card(f"t/c{k}", "h", 1 + k % 4, 5.0, NOW + dt.timedelta(minutes=k))
        s.set_setting("daily_goal", 25)
    assert not Path(f"{path}-wal").exists()  # closed cleanly: the file alone is the store
    data = path.read_bytes()
    assert len(data) > 30 * PAGE
    return data


def _noise(start: Callable[[int], int], n: int) -> Callable[[bytearray], bytearray]:
    def damage(b: bytearray) -> bytearray:
        at = start(len(b))
        b[at:at + n] = random.Random(15).randbytes(n)
        return b
    return damage


def _zero(start: Callable[[int], int], n: Callable[[int], int]) -> Callable[[bytearray], bytearray]:
    def damage(b: bytearray) -> bytearray:
        at = start(len(b))
        b[at:at + n(len(b))] = bytes(len(b[at:at + n(len(b))]))
        return b
    return damage


def _header_field(offset: int, value: int, width: int) -> Callable[[bytearray], bytearray]:
    def damage(b: bytearray) -> bytearray:
        b[offset:offset + width] = value.to_bytes(width, "big")
        return b
    return damage


def _flip_bits(b: bytearray) -> bytearray:
    rng = random.Random(7)
    for _ in range(40):
        i = rng.randrange(100, len(b))
        b[i] ^= 1 << rng.randrange(8)
    return b


def _mid_page(size: int) -> int:
    return size // 2 // PAGE * PAGE


DAMAGE: dict[str, Callable[[bytearray], bytearray]] = {
    "truncated to 50%": lambda b: b[: len(b) // 2],
    "truncated mid-page": lambda b: b[: len(b) // 2 + 1000],
    "only the first page left": lambda b: b[:PAGE],
    "4 KB of noise mid-file": _noise(lambda size: _mid_page(size) + 500, PAGE),
    "noise over page 1 after the header": _noise(lambda size: 100, PAGE - 100),
    "bogus page size": _header_field(16, 12345, 2),
    "zeroed pages mid-file": _zero(lambda size: size // 3 // PAGE * PAGE, lambda size: 3 * PAGE),
    "zeroed page 1 after the header": _zero(lambda size: 100, lambda size: PAGE - 100),
    "zeroed last page": _zero(lambda size: size - PAGE, lambda size: PAGE),
    "all zero after the header": _zero(lambda size: 100, lambda size: size),
    "flipped bits": _flip_bits,
    "page count far beyond the file": _header_field(28, 999_999, 4),
    "freelist pointing outside the file": lambda b: _header_field(36, 50, 4)(_header_field(32, 99_999, 4)(b)),
    "unknown schema format": _header_field(44, 99, 4),
    "not a database at all": lambda b: bytearray(b"these are my notes, not a progress store\n" * 100),
}


def _damaged(populated: bytes, tmp_path: Path, variant: str) -> tuple[Path, bytes]:
    path = tmp_path / "p.db"
    data = bytes(DAMAGE[variant](bytearray(populated)))
    assert data != populated
    path.write_bytes(data)
    return path, data


def _kept_aside(tmp_path: Path) -> list[Path]:
    return [p for p in tmp_path.glob("p.db.corrupt-*") if not p.name.endswith(("-wal", "-shm"))]


def _one_line_notices(err: str) -> list[str]:
    lines = err.strip().splitlines()
    assert lines and all(line.startswith("study: ") for line in lines), err
    assert "Traceback" not in err
    return lines


@pytest.mark.parametrize("variant", list(DAMAGE))
@pytest.mark.parametrize("command", [["stats", "--json"], ["reset", "--yes"], ["export", "--format", "json"]])
def test_damaged_store_is_kept_aside_and_a_fresh_one_works(populated, tmp_path, capsys, variant, command):
    path, damaged = _damaged(populated, tmp_path, variant)
    code = main(["--db", str(path), *command])
    out, err = capsys.readouterr()
    assert code == 0, err
    (notice,) = _one_line_notices(err)
    (kept,) = _kept_aside(tmp_path)
    assert f"moved to {kept.name}" in notice
    assert kept.read_bytes() == damaged  # kept exactly as found: nothing written into it
    if command[0] == "stats":
        assert json.loads(out)["attempts"] == 0
    # the fresh store takes answers, and the next command sees them without another notice
    with open_store(path) as s:
        assert s.notice is None and s.get_setting("daily_goal") == 20
        s.record_attempt(Attempt("q1", "h", {}, "A", True, 10.0, "quiz", None, NOW))
    assert main(["--db", str(path), "stats", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["attempts"] == 1 and err == ""
    assert _kept_aside(tmp_path) == [kept]


@pytest.mark.parametrize("variant", ["truncated to 50%", "4 KB of noise mid-file", "flipped bits"])
def test_plain_quiz_on_a_damaged_store_records_into_a_fresh_one(populated, tmp_path, monkeypatch, capsys, variant):
    import io

    path, damaged = _damaged(populated, tmp_path, variant)
    # A fixed one-question practice (the fixture bank's NCCL question), so "A" is an answer whatever the bank.
    fixture = Path(__file__).resolve().parents[2] / "tui" / "data"
    monkeypatch.setattr("sys.stdin", io.StringIO("A\n:submit\n"))
    code = main(["--db", str(path), "quiz", "--plain", "--questions", str(fixture / "questions"), "--content",
                 str(fixture / "content"), "--objective", "1.1", "--count", "1", "--mode", "practice"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert any("moved to p.db.corrupt-" in line for line in _one_line_notices(err))
    (kept,) = _kept_aside(tmp_path)
    assert kept.read_bytes() == damaged
    with open_store(path) as s:
        assert s.notice is None and len(s.history()) == 1


def test_damage_found_while_in_use_moves_the_file_aside_and_the_store_carries_on(populated, tmp_path):
    path = tmp_path / "p.db"
    path.write_bytes(populated)
    store = open_store(path)
    assert store.notice is None and store.get_setting("daily_goal") == 25
    # The open check passed; now the disk goes bad under the open store, in pages not read yet.
    with open(path, "r+b") as fh:
        fh.seek(4 * PAGE)
        fh.write(bytes(len(populated) - 4 * PAGE))
    with pytest.raises(StoreError, match=r"damaged .*moved to p\.db\.corrupt-") as info:
        store.history()
    assert "\n" not in str(info.value)
    assert store.notice and "moved to p.db.corrupt-" in store.notice
    (kept,) = _kept_aside(tmp_path)
    assert kept.read_bytes()[: 4 * PAGE] == populated[: 4 * PAGE]
    # the same handle now writes to the fresh store
    store.record_attempt(Attempt("q1", "h", {}, "A", True, 10.0, "quiz", None, NOW))
    assert len(store.history()) == 1
    store.close()
    with open_store(path) as s:
        assert s.notice is None and len(s.history()) == 1


def test_a_healthy_store_with_a_junk_wal_is_not_moved_and_keeps_its_data(populated, tmp_path):
    path = tmp_path / "p.db"
    path.write_bytes(populated)
    Path(f"{path}-wal").write_bytes(b"not a write-ahead log" * 50)
    with open_store(path) as s:
        assert s.notice is None
        assert len(s.history()) == 300 and len(s.reviews()) == 30 and s.get_setting("daily_goal") == 25
    assert _kept_aside(tmp_path) == []


def test_someone_elses_database_is_refused_not_moved(tmp_path, capsys):
    path = tmp_path / "p.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('mine')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    assert main(["--db", str(path), "stats"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error:") and "did not create" in line
    assert path.read_bytes() == before and _kept_aside(tmp_path) == []


def test_a_missing_table_counts_as_damage(populated, tmp_path):
    path = tmp_path / "p.db"
    path.write_bytes(populated)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE reviews")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with open_store(path) as s:
        assert s.notice and "tables missing: reviews" in s.notice
        assert s.reviews() == []
    (kept,) = _kept_aside(tmp_path)
    assert kept.read_bytes() == before


def test_every_variant_damages_the_store(populated, tmp_path):
    """Guard for the table above: each variant really is damage SQLite or its check can see."""
    for variant in DAMAGE:
        path, _ = _damaged(populated, tmp_path, variant)
        conn = sqlite3.connect(path)
        try:
            result = [r[0] for r in conn.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError:
            result = ["error"]
        finally:
            conn.close()
        assert result != ["ok"], variant
        for p in tmp_path.glob("p.db*"):
            os.unlink(p)


def test_values_damaged_inside_sound_pages_read_as_missing_and_schedules_are_rebuilt(populated, tmp_path, capsys):
    """A flipped byte inside a stored text passes SQLite's page checks; the value it spoils must not stop
    the store. (Also what an older study's import could leave behind, e.g. a retention of "abc".)"""
    path = tmp_path / "p.db"
    path.write_bytes(populated)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE items SET card_json = replace(card_json, '\"state\"', '\"stbte\"') WHERE item_id = 'q1'")
    conn.execute("UPDATE items SET card_json = substr(card_json, 2) WHERE item_id = 'q2'")
    conn.execute("UPDATE attempts SET params_json = '{\"k\":' WHERE id = 5")
    conn.execute("UPDATE settings SET value = 'x25' WHERE key = 'daily_goal'")
    conn.execute("INSERT INTO settings(key, value) VALUES ('desired_retention', '\"abc\"')")
    conn.execute("UPDATE sessions SET report_json = 'not json' WHERE id = 's1'")
    conn.commit()
    conn.close()
    assert main(["--db", str(path), "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["attempts"] == 300 and stats["settings"]["daily_goal"] == 20
    with open_store(path, fuzz=False) as s:
        assert s.notice is None and s.settings()["desired_retention"] == "abc"  # shown as found, not used
        at = NOW + dt.timedelta(days=30)
        s.record_attempt(Attempt("q1", "h", {}, "A", True, 10.0, "quiz", None, at))
        s.record_attempt(Attempt("q2", "h", {}, "A", False, 10.0, "quiz", None, at))
        rebuilt = s.item_state("q1")
        assert rebuilt.last_review == at and rebuilt.card.stability is not None
        assert s.item_state("q2").due < s.item_state("q1").due  # wrong comes back sooner: a real schedule
        assert [a.params for a in s.history() if a.params == {}]  # the damaged params read as empty
    backup = tmp_path / "b.json"
    assert main(["--db", str(path), "export", "--format", "json", str(backup)]) == 0
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "import", "--replace", str(backup)]) == 0
    with open_store(other) as s:
        assert s.counts()["attempts"] == 302 and s.item_state("q1") is not None
    assert main(["--db", str(path), "reset", "--yes"]) == 0
    assert _kept_aside(tmp_path) == []


@pytest.mark.slow
def test_the_installed_command_on_a_damaged_store_says_one_line(populated, tmp_path):
    import shutil
    import subprocess
    import sys

    path, damaged = _damaged(populated, tmp_path, "truncated to 50%")
    exe = shutil.which("study", path=str(Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-m", "study"]
    for args in (["stats"], ["reset", "--yes"]):
        done = subprocess.run([*command, "--db", str(path), *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "Traceback" not in done.stderr
    (kept,) = _kept_aside(tmp_path)
    assert kept.read_bytes() == damaged


def test_a_damaged_store_that_cannot_be_moved_is_one_line_and_left_in_place(populated, tmp_path, monkeypatch, capsys):
    path, damaged = _damaged(populated, tmp_path, "zeroed pages mid-file")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    assert main(["--db", str(path), "stats"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error:") and "could not be moved aside" in line
    assert path.read_bytes() == damaged


def test_times_damaged_inside_sound_pages_do_not_stop_stats_and_the_backup_still_restores(populated, tmp_path,
                                                                                           capsys):
    path = tmp_path / "p.db"
    path.write_bytes(populated)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE attempts SET at = replace(at, '2026-', '2X26-') WHERE id = 7")
    conn.execute("UPDATE items SET due = replace(due, '2026-', '2X26-') WHERE item_id = 'q3'")
    conn.execute("UPDATE item_totals SET last_at = replace(last_at, '2026-', '2X26-') WHERE item_id = 'q3'")
    conn.commit()
    conn.close()
    assert main(["--db", str(path), "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["attempts"] == 300
    with open_store(path) as s:
        assert s.item_state("q3").due == s.item_state("q3").card.due  # read from the card instead
    assert main(["--db", str(path), "reset", "--yes"]) == 0
    (backup,) = tmp_path.glob("p-backup-*.json")
    assert json.loads(backup.read_text())["left_out_damaged"] == {"attempts": 1, "items": 1}
    capsys.readouterr()
    assert main(["--db", str(path), "import", "--replace", str(backup)]) == 0
    with open_store(path) as s:
        assert s.counts()["attempts"] == 299 and s.item_state("q3") is not None
