"""``study export FILE`` replaces only an earlier export of the same format without --force (issue 15,
defect 5), and its temporary file cannot be redirected through a planted symlink (defect 6)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from study.cli import main
from study.interop.output import write_atomic

FORMATS = [("json", "backup.json"), ("gift", "bank.gift"), ("xapi", "answers.jsonl"), ("anki", "deck.apkg")]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "p.db"
    assert main(["--db", str(db), "stats"]) == 0
    return db


def _export(db: Path, fmt: str, target: Path, *extra: str) -> int:
    return main(["--db", str(db), "export", "--format", fmt, *extra, str(target)])


@pytest.mark.parametrize("fmt, _", FORMATS)
@pytest.mark.parametrize("victim, text", [("notes.txt", "my notes\n"), ("README", "no extension\n"),
                                          ("moodle.txt", "// some other GIFT\n::q::x{}\n"),
                                          ("other.json", '{"format": "something-else"}\n')])
def test_a_file_that_is_not_an_earlier_export_needs_force(tmp_path, capsys, db, fmt, _, victim, text) -> None:
    # The Anki exporter insists on .apkg, so its victims carry that suffix (a text file named like a deck).
    target = tmp_path / (victim + ".apkg" if fmt == "anki" else victim)
    target.write_text(text)
    assert _export(db, fmt, target) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"is not a {fmt} export" in err and "--force" in err
    assert target.read_text() == text
    assert _export(db, fmt, target, "--force") == 0
    assert target.read_bytes() != text.encode()


@pytest.mark.parametrize("fmt, name", FORMATS)
def test_an_earlier_export_of_the_same_format_is_refreshed(tmp_path, capsys, db, fmt, name) -> None:
    target = tmp_path / name
    assert _export(db, fmt, target) == 0
    os.utime(target, (0, 0))
    assert _export(db, fmt, target) == 0
    assert target.stat().st_mtime > 0


def test_an_export_of_another_format_is_not_replaced_silently(tmp_path, capsys, db) -> None:
    gift = tmp_path / "bank.gift"
    assert _export(db, "gift", gift) == 0
    before = gift.read_bytes()
    for other in ("json", "xapi", "anki"):
        assert _export(db, other, gift) == 2
    assert gift.read_bytes() == before


def test_a_fifo_is_never_replaced_even_with_force(tmp_path, capsys, db) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert _export(db, "json", fifo, "--force") == 2
    assert "not a regular file" in capsys.readouterr().err
    assert fifo.is_fifo()


def test_a_symlink_planted_where_a_temp_file_might_go_is_not_followed(tmp_path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    target = tmp_path / "out.json"
    # The old temporary name was predictable; every plausible one now points at the victim.
    for name in (f".{target.name}.tmp", f"{target.name}.tmp", f".{target.name}.part"):
        (tmp_path / name).symlink_to(victim)
    assert write_atomic(target, "new export\n")
    assert victim.read_text() == "precious\n"
    assert target.read_text() == "new export\n" and not target.is_symlink()
    leftovers = {p.name for p in tmp_path.iterdir()} - {"victim.txt", "out.json", f".{target.name}.tmp",
                                                       f"{target.name}.tmp", f".{target.name}.part"}
    assert leftovers == set()


def test_the_temporary_file_is_private_and_removed_when_the_write_fails(tmp_path, monkeypatch, capsys) -> None:
    target = tmp_path / "out.json"
    seen: list[int] = []
    real_fsync = os.fsync

    def failing_fsync(fd: int) -> None:
        seen.append(os.fstat(fd).st_mode & 0o777)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    assert not write_atomic(target, "data")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert seen == [0o600]
    assert list(tmp_path.iterdir()) == []
    assert "No space left on device" in capsys.readouterr().err


def test_the_export_gets_the_mode_a_plain_write_would_give(tmp_path) -> None:
    fresh, kept = tmp_path / "fresh.json", tmp_path / "kept.json"
    kept.write_text("old")
    kept.chmod(0o640)
    mask = os.umask(0o027)
    try:
        assert write_atomic(fresh, "x") and write_atomic(kept, "y")
    finally:
        os.umask(mask)
    assert fresh.stat().st_mode & 0o777 == 0o640
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_text() == "y"
