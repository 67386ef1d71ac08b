"""Opening the progress store: create, check, migrate, and move a damaged file aside.

A file is *damaged* when SQLite says so (``SQLITE_CORRUPT``, ``SQLITE_NOTADB``, an unsupported file format),
when ``PRAGMA quick_check`` finds a fault as it opens, or when a table its schema version promises is missing.
A damaged file is renamed ``NAME.corrupt-<UTC time>`` together with its ``-wal`` and ``-shm`` (never
overwritten, never deleted) and a fresh store is started; the caller shows the one-line notice.

A busy, read-only or full disk is *not* damage: it is reported, because moving a healthy store aside would
hide the learner's history. The check runs on a separate read-only connection: closing a read-write one
would checkpoint a stale ``-wal`` into the damaged file, and the file kept aside must be exactly what was found.
``bench/store.py`` measures what the check costs on a year of heavy use.
"""

from __future__ import annotations

import datetime as dt
import functools
import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Iterator

from study import held_files
from study.inputs import file_kind
from study.progress.migrations import SCHEMA_VERSION, migrate
from study.untrusted import shown

if TYPE_CHECKING:
    from types import TracebackType

BUSY_TIMEOUT_S = 30.0
SQLITE_MAGIC = b"SQLite format 3\x00"

_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY, _SQLITE_CORRUPT, _SQLITE_CANTOPEN = 5, 6, 8, 11, 14
_SQLITE_FULL, _SQLITE_FORMAT, _SQLITE_NOTADB = 13, 24, 26


class StoreError(Exception):
    """The store cannot be used; ``str(exc)`` is one line fit to show the learner."""


class Damaged(Exception):
    """The file is not a usable progress store; the message says what SQLite or the check found."""


class _ForeignDatabase(Exception):
    pass


def errcode(exc: BaseException) -> int | None:
    """SQLite's primary result code (the low byte) of ``exc``; guessed from the text before Python 3.11."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return int(code) & 0xFF
    text = str(exc).lower()
    for needle, value in (("not a database", _SQLITE_NOTADB), ("malformed", _SQLITE_CORRUPT),
                          ("readonly", _SQLITE_READONLY), ("unable to open", _SQLITE_CANTOPEN),
                          ("locked", _SQLITE_BUSY), ("disk is full", _SQLITE_FULL)):
        if needle in text:
            return value
    return None


def is_damage(exc: BaseException) -> bool:
    """Whether an error from SQLite means the file itself is broken (not a busy, read-only or full disk)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    if errcode(exc) in (_SQLITE_CORRUPT, _SQLITE_NOTADB, _SQLITE_FORMAT):
        return True
    # A schema-format number no SQLite ever wrote comes back as a plain SQLITE_ERROR.
    return "unsupported file format" in str(exc).lower()


def is_disk_full(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.Error) and errcode(exc) == _SQLITE_FULL


def write_error(path: Path, exc: sqlite3.Error) -> StoreError:
    """The one-line ``StoreError`` for a failed write or open that is not damage."""
    code = errcode(exc)
    if code in (_SQLITE_READONLY, _SQLITE_CANTOPEN):
        return StoreError(f"cannot write the progress store {path}: {exc}; choose another file with --db or STUDY_DB")
    if code in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return StoreError(f"progress store {path} stayed locked by another process for {BUSY_TIMEOUT_S:.0f} s")
    if code == _SQLITE_FULL:
        return StoreError(f"progress store {path}: the disk is full ({exc}); nothing was written")
    return StoreError(f"progress store {path}: {exc}")


class WriteTx:
    """``with WriteTx(conn)``: one ``BEGIN IMMEDIATE`` transaction, committed or rolled back."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is None:
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error:
                # A commit that fails (a full disk) can leave the transaction open; end it so the
                # connection stays usable and nothing half-written is kept.
                if self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
        elif self.conn.in_transaction:
            self.conn.execute("ROLLBACK")


def open_connection(path: Path) -> tuple[sqlite3.Connection, str | None, held_files.Identity]:
    """A checked, migrated read-write connection to ``path``, the notice to show (``None`` unless a damaged
    file was moved aside) and the file's identity, which stays registered in ``study.held_files`` until the
    caller gives it back with ``close_connection``. Raises ``StoreError`` for what cannot be repaired by
    starting afresh.

    A file this process already holds is not checked again: the raw read of its first bytes would open and
    close a descriptor of it, dropping the other connection's locks (``study.held_files`` says what follows),
    and it was checked when this process first opened it. The registry's lock covers the check, the connect
    and the registration, so a worker thread opening the store cannot slip a raw check in between."""
    _prepare(path)
    notice = None
    with held_files.LOCK:
        for _ in range(3):
            identity = _identity(path)
            try:
                if not held_files.held_identity(identity):
                    _check(path)
                conn = _connect(path)
            except Damaged as exc:
                if _identity(path) != identity:
                    continue  # another process replaced the file meanwhile (it may have repaired it): look again
                if held_files.held_identity(identity):
                    # Found damaged by a second connection while another of ours uses it: that one moves it
                    # aside when it meets the damage; renaming it under its feet here would lose its writes.
                    raise StoreError(f"progress store {path} is damaged ({shown(str(exc), keep_newlines=False)})"
                                     "; close study and open it again") from None
                moved = move_aside(path)
                # SQLite quotes the damaged schema text, newlines and all: the notice must stay one line.
                why = shown(str(exc), keep_newlines=False)
                notice = (f"{path} was not a valid progress store ({why}); it was moved to {moved.name} and a "
                          "new, empty store was started")
                continue
            opened = _identity(path)
            if opened is None:  # deleted in the instant after the connect: that connection writes nowhere
                conn.close()
                continue
            held_files.hold(opened)
            return conn, notice, opened
    raise StoreError(f"progress store {path} kept changing while it was opened; try again")


def close_connection(conn: sqlite3.Connection | None, identity: held_files.Identity | None) -> None:
    """Close a connection from ``open_connection`` and give its file back to the registry."""
    try:
        if conn is not None:
            conn.close()
    finally:
        if identity is not None:
            held_files.release(identity)


def move_aside(path: Path) -> Path:
    """Rename a damaged store (and its -wal and -shm) to an unused ``.corrupt-<time>`` name; returns it."""
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while any(t.exists() for t in _with_sides(target)):
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    try:
        # Only a regular file is ever renamed: never a device, a FIFO or a folder found at the path.
        if check_regular(path):
            os.replace(path, target)
        # A stale WAL or shared-memory file belongs to the moved file; SQLite would apply it to the new one.
        for side, moved in zip(_with_sides(path), _with_sides(target)):
            if side != path and side.exists():
                os.replace(side, moved)
    except OSError as exc:
        raise StoreError(f"progress store {path} is damaged and could not be moved aside: "
                         f"{exc.strerror or exc}; move it away yourself or use another file with --db") from exc
    return target


def _with_sides(path: Path) -> Iterator[Path]:
    yield path
    for suffix in ("-wal", "-shm"):
        yield path.with_name(path.name + suffix)


def file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``, None when there is none: tells a file replaced under the
    same name from the one opened."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


_identity = file_identity




def check_regular(path: Path) -> bool:
    """Whether ``path`` exists; ``StoreError`` (one line) unless it is a regular file or absent.

    Asked before anything opens it: opening a FIFO waits for a writer forever, SQLite takes a device such as
    /dev/null for a broken database (which would then be renamed aside, as root a system device) and writes
    a journal beside it. Never opened, renamed or written: only looked at."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False  # absent (its folder too, maybe): a new store, if the folder can be made
    except OSError as exc:
        raise StoreError(f"cannot use {_shown(path)} as the progress store: {exc.strerror or exc}; "
                         "choose another file with --db or STUDY_DB") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"progress store {_shown(path)} is {file_kind(info.st_mode)}, not a regular file; "
                         "choose another file with --db or STUDY_DB")
    return True


def _shown(path: Path) -> str:
    from study.untrusted import shown

    text = shown(str(path), keep_newlines=False)
    return text if len(text) <= 120 else text[:60] + "..." + text[-40:]


def _prepare(path: Path) -> None:
    check_regular(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder for the progress store {_shown(path)}: "
                         f"{exc.strerror or exc}") from exc
    # WAL needs to create -wal and -shm beside the file, so the folder must be writable too.
    hint = "; choose another file with --db or STUDY_DB"
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(f"cannot write the progress store: folder {path.parent} is read-only{hint}")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError(f"cannot write the progress store: {path} is read-only{hint}")


def _check(path: Path) -> None:
    """Raise ``Damaged`` if the file at ``path`` (absent or empty is fine: a new store) is not sound."""
    try:
        # O_NONBLOCK and fstat: a FIFO put in its place since ``_prepare`` looked must not hang the open.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read the progress store {_shown(path)}: {exc.strerror or exc}") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StoreError(f"progress store {_shown(path)} is {file_kind(info.st_mode)}, not a regular file; "
                             "choose another file with --db or STUDY_DB")
        head = os.read(fd, len(SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot read the progress store {_shown(path)}: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    if not head:
        return
    if head != SQLITE_MAGIC:
        raise Damaged("file is not a database")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as exc:
        raise write_error(path, exc) from exc
    try:
        _check_connection(conn)
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            raise Damaged(str(exc)) from exc
        raise write_error(path, exc) from exc
    finally:
        conn.close()


def _check_connection(conn: sqlite3.Connection) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version == 0:
        return  # new, or someone else's database: ``_connect`` decides
    # quick_check reads every page and verifies its structure, in one pass (integrity_check also
    # cross-checks every index, several times slower); "ok" is its only clean answer.
    faults = [r[0] for r in conn.execute("PRAGMA quick_check(3)")]
    if faults != ["ok"]:
        raise Damaged("; ".join(" ".join(f.split()) for f in faults)[:200])
    if version == SCHEMA_VERSION and not _tables_of_schema() <= tables:
        missing = ", ".join(sorted(_tables_of_schema() - tables))
        raise Damaged(f"tables missing: {missing}")


@functools.cache
def _tables_of_schema() -> frozenset[str]:
    # Read from the migrations themselves, so a table added by a future migration is expected too.
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(conn, 0)
        return frozenset(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        conn.close()


def _connect(path: Path) -> sqlite3.Connection:
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the progress store {path}: {exc}") from exc
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        version = _read_version(conn)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"progress store {path} was written by a newer version of study (schema {version}, this "
                f"version reads up to {SCHEMA_VERSION}); upgrade study or use another file with --db"
            )
        mode = _switch_to_wal(conn)
        if mode != "wal":
            raise StoreError(f"progress store {path}: cannot switch to WAL journal (got {mode})")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if version < SCHEMA_VERSION:
            _upgrade(conn, path, version)
    except _ForeignDatabase:
        conn.close()
        raise StoreError(f"{path} is a SQLite database that study did not create; refusing to change it") from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        if is_damage(exc):
            raise Damaged(str(exc)) from exc
        raise write_error(path, exc) from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _switch_to_wal(conn: sqlite3.Connection) -> str:
    if str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
        return "wal"
    # Only a new file gets here. The switch upgrades a read lock to a write lock, and SQLite does not wait
    # for that (waiting could deadlock), so a process checking the file at that moment makes it fail at once
    # with SQLITE_BUSY: retry within the usual busy timeout instead.
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.005
    while True:
        try:
            return str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        except sqlite3.OperationalError as exc:
            if errcode(exc) not in (_SQLITE_BUSY, _SQLITE_LOCKED) or time.monotonic() > deadline:
                raise
        time.sleep(delay)
        delay = min(2 * delay, 0.1)


def _upgrade(conn: sqlite3.Connection, path: Path, version: int) -> None:
    try:
        with WriteTx(conn):
            # Re-read under the write lock: another process may have migrated meanwhile.
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current < SCHEMA_VERSION:
                migrate(conn, current)
    except sqlite3.Error as exc:
        if is_damage(exc):
            raise
        raise StoreError(
            f"could not upgrade the progress store {path} from schema {version} to {SCHEMA_VERSION}"
            f" ({exc}); it was left unchanged"
        ) from exc


def _read_version(conn: sqlite3.Connection) -> int:
    version: int = conn.execute("PRAGMA user_version").fetchone()[0]
    # Reading the schema forces SQLite to parse the header and first page: a non-database fails here.
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if version == 0 and tables:
        # Someone else's database (a mistyped --db): not ours to move or change.
        raise _ForeignDatabase()
    return version


def reopen_after_damage(path: Path, conn: sqlite3.Connection | None, identity: held_files.Identity | None,
                        exc: BaseException) -> tuple[sqlite3.Connection, str, held_files.Identity]:
    """Damage found while the store was in use: move the file aside, close ``conn``, start a fresh store.
    Returns the new connection, the notice and the new file's identity (as ``open_connection``)."""
    # Moved before closing: the close checkpoints into the file it has open (the one kept aside) and can
    # no longer delete a -wal that belongs to it.
    moved = move_aside(path)
    try:
        close_connection(conn, identity)
    except sqlite3.Error:
        pass
    new, _, opened = open_connection(path)
    notice = (f"{path} turned out to be damaged ({exc}); it was moved to {moved.name} and a new, empty store "
              "was started")
    return new, notice, opened
