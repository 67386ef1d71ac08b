"""A ``--db`` that is not a regular file is one error line, never opened so that it hangs, never renamed aside,
never written beside (issue 19, defects 10 and 7's long file name).

Before: a FIFO hung ``study stats`` for good, ``/dev/zero`` was "damaged" and renamed aside (as root, a
system device), ``/dev/null`` was "disk I/O error" with a ``null-journal`` left beside it, and a 300-character
name was ``OSError: File name too long``.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from study.progress import StoreError, open_store
from study.progress.store_open import move_aside


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.db"
    os.mkfifo(path)
    return path


def _socket(tmp_path: Path) -> Path:
    path = tmp_path / "s.db"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the socket file stays
    return path


def _folder(tmp_path: Path) -> Path:
    path = tmp_path / "folder.db"
    path.mkdir()
    return path


KINDS = {"fifo": (_fifo, "a FIFO"), "socket": (_socket, "a socket"), "folder": (_folder, "a folder")}


def _listing(folder: Path) -> list[tuple[str, int]]:
    return sorted((p.name, p.stat().st_mode) for p in folder.iterdir())


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_path_that_is_not_a_regular_file_is_refused_and_left_alone(tmp_path, kind):
    make, says = KINDS[kind]
    path = make(tmp_path)
    before = _listing(tmp_path)
    with pytest.raises(StoreError) as info:
        open_store(path)
    assert says in str(info.value) and "not a regular file" in str(info.value)
    assert _listing(tmp_path) == before  # nothing renamed aside, no -journal, -wal or -shm


DEVICES = {"null": (1, 3), "zero": (1, 5)}


def _device(tmp_path: Path, name: str) -> Path:
    """A character device to try: as root a copy made in ``tmp_path`` (a regression must never get to rename
    the system's own /dev/zero, as the bug did), otherwise the real one, which a user cannot rename."""
    if os.geteuid() == 0:
        path = tmp_path / "dev" / name
        path.parent.mkdir(exist_ok=True)
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(*DEVICES[name]))
        return path
    return Path("/dev") / name


@pytest.mark.parametrize("name", list(DEVICES))
def test_a_device_is_refused_and_never_written_beside(tmp_path, name):
    device = _device(tmp_path, name)
    before = sorted(os.listdir(device.parent))
    with pytest.raises(StoreError, match="is a device, not a regular file"):
        open_store(device)
    assert sorted(os.listdir(device.parent)) == before  # no null-journal, no zero.corrupt-...


def test_a_store_is_never_moved_aside_when_it_is_not_a_regular_file(tmp_path):
    path = _fifo(tmp_path)
    with pytest.raises(StoreError):
        move_aside(path)
    assert path.exists() and [p.name for p in tmp_path.iterdir()] == ["pipe.db"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/null", "long name", "folder"])
def test_the_command_line_says_one_line_and_does_not_hang(tmp_path, kind):
    if kind.startswith("/dev/"):
        db = str(_device(tmp_path, kind[len("/dev/"):]))
    elif kind == "long name":
        db = str(tmp_path / ("x" * 300 + ".db"))
    else:
        db = str(KINDS[kind][0](tmp_path))
    # A FIFO used to hang for good: the timeout here only stops a regression from hanging the suite.
    done = subprocess.run([sys.executable, "-m", "study", "--db", db, "stats"], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("study: error: ") and ("not a regular file" in line or "File name too long" in line)
