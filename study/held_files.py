"""The files this process holds open through SQLite, which nothing else in the process may open and close.

POSIX record locks belong to a process and a file, not to a descriptor: closing *any* descriptor of the
file drops every lock the process holds on it, SQLite's included. A progress store in WAL mode keeps a
shared lock on the database and the shared-memory file for as long as a connection is open; once that is
lost, the next process to close the store believes it is the last one, checkpoints, and deletes the WAL and
the shared-memory file the connection is still writing into: answers vanish and the store can end damaged.
(SQLite's unix VFS defers its own closes for this reason, but cannot know of a descriptor opened beside it.)

So the store module registers each file it connects to here, by device and inode, and everything that
would open a file a user or the code names (an input, an export's target, the store's own raw check) asks
``held`` first. The database's ``-wal``, ``-shm`` and ``-journal`` count as held with it. ``stat`` is safe:
it opens nothing. One registry per process, guarded by a lock, because the app opens stores from worker
threads too.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path

Identity = tuple[int, int]

SIDE_SUFFIXES = ("-wal", "-shm", "-journal")

LOCK = threading.RLock()
_held: Counter[Identity] = Counter()


def identity(path: str | os.PathLike[str]) -> Identity | None:
    """(device, inode) of the file at ``path`` (symlinks followed, as ``open`` would), None when there is none."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def hold(ident: Identity) -> None:
    with LOCK:
        _held[ident] += 1


def release(ident: Identity) -> None:
    with LOCK:
        _held[ident] -= 1
        if _held[ident] <= 0:
            del _held[ident]


def held_identity(ident: Identity | None) -> bool:
    with LOCK:
        return ident is not None and ident in _held


def held(path: str | os.PathLike[str]) -> bool:
    """Whether opening and closing ``path`` in this process would drop a store connection's locks: it is a
    database this process has a connection to, or that database's -wal, -shm or -journal."""
    with LOCK:
        if not _held:
            return False
        if held_identity(identity(path)):
            return True
        name = os.fspath(path)
        return any(
            name.endswith(suffix) and held_identity(identity(name[: -len(suffix)])) for suffix in SIDE_SUFFIXES
        )


def refusal(path: str | os.PathLike[str]) -> str | None:
    """The one-line reason a raw open of ``path`` is refused, or None when it may be opened."""
    if held(path):
        return (f"{Path(path)} is the progress store this study process has open (or one of its files); "
                "give a backup made with `study export` instead")
    return None
