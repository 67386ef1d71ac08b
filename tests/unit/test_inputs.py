"""``import`` and ``analyze`` read only regular files of a bounded size, and deep JSON is one error line
(issue 15, defect 11): no hang on a FIFO, no memory exhaustion on /dev/zero, no RecursionError traceback."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from study.cli import main
from study.inputs import MAX_GIFT_INPUT, MAX_JSON_INPUT, InputFileError, read_bounded

DEEP = "[" * 100_000 + "]" * 100_000


def _one_error_line(capsys, *needles: str) -> None:
    out, err = capsys.readouterr()
    assert err.startswith("study: error: ") and err.count("\n") == 1, err
    for needle in needles:
        assert needle in err


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "results.json"
    os.mkfifo(path)
    return path


@pytest.fixture
def huge(tmp_path: Path) -> Path:
    path = tmp_path / "huge.json"
    with open(path, "wb") as fh:
        fh.truncate(MAX_JSON_INPUT + 1)  # sparse: no disk used, but its size is past the limit
    return path


def test_read_bounded_refuses_what_is_not_a_regular_file(fifo) -> None:
    with pytest.raises(InputFileError, match="is a FIFO"):
        read_bounded(fifo, 100)
    with pytest.raises(InputFileError, match="is a device"):
        read_bounded("/dev/zero", 100)
    with pytest.raises(InputFileError, match="is a folder"):
        read_bounded(fifo.parent, 100)
    with pytest.raises(InputFileError, match="cannot read .*No such file"):
        read_bounded(fifo.parent / "missing.json", 100)


def test_read_bounded_stops_at_the_limit(tmp_path, monkeypatch) -> None:
    path = tmp_path / "f.json"
    path.write_bytes(b"x" * 101)
    with pytest.raises(InputFileError, match="101 bytes; the limit is 100 bytes"):
        read_bounded(path, 100)
    assert read_bounded(path, 101) == b"x" * 101
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"y" * 101)))
    with pytest.raises(InputFileError, match="standard input is larger than 100 bytes"):
        read_bounded("-", 100)


@pytest.mark.parametrize("command", [["import"], ["analyze"]])
def test_a_fifo_a_device_or_a_huge_file_is_one_error_line(tmp_path, capsys, fifo, huge, command) -> None:
    db = ["--db", str(tmp_path / "p.db")]
    for target, why in ((fifo, "FIFO"), (Path("/dev/zero"), "device"), (huge, f"the limit is {MAX_JSON_INPUT // 2**20} MiB")):
        assert main([*db, *command, str(target)]) == 1
        _one_error_line(capsys, str(target), why)


def test_a_fifo_inside_an_analysed_folder_is_skipped_not_waited_on(tmp_path, capsys) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    os.mkfifo(folder / "stuck.json")
    db = str(tmp_path / "p.db")
    assert main(["--db", db, "stats"]) == 0
    assert main(["--db", db, "export", str(folder / "learner.json")]) == 0
    capsys.readouterr()
    assert main(["analyze", str(folder)]) in (0, 1)  # no answers in an empty store is exit 1, not a hang
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("text", [DEEP, '{"format": "study-progress", "version": 1, "attempts": ' + DEEP + "}",
                                  '{"actor": {"mbox": "mailto:a@b"}, "verb": ' + DEEP + "}\n"],
                         ids=["list", "export", "statement"])
@pytest.mark.parametrize("command", ["import", "analyze"])
def test_deeply_nested_json_is_one_error_line(tmp_path, capsys, text, command) -> None:
    path = tmp_path / "deep.json"
    path.write_text(text)
    assert main(["--db", str(tmp_path / "p.db"), command, str(path)]) == 1
    _one_error_line(capsys, "too deeply")


def test_a_gift_fifo_is_refused(tmp_path, capsys) -> None:
    path = tmp_path / "moodle.gift"
    os.mkfifo(path)
    assert main(["import", str(path), "--out", "-"]) == 1
    _one_error_line(capsys, "FIFO")
    assert MAX_GIFT_INPUT < MAX_JSON_INPUT
