"""The progress store's handle on its SQLite file: one connection behind one lock, the write transaction,
the one-line error for a failed statement, and following the file when it is deleted or replaced.

``Store`` (``study.progress.store``) is this handle plus what it records and reads; opening, checking and
moving a damaged file aside is ``study.progress.store_open``.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from collections.abc import Callable

from study import held_files
from study.progress.store_open import (
    StoreError,
    WriteTx,
    close_connection,
    file_identity,
    is_damage,
    open_connection,
    reopen_after_damage,
    write_error,
)


_R = TypeVar("_R")


class StoreHandle:
    """Thread-safe handle on one progress file: its connection, the lock every statement holds, and close."""

    def __init__(self, path: Path, *, fuzz: bool = True) -> None:
        self.path = Path(path)
        self.fuzz = fuzz
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None
        self.notice: str | None
        self._opened_as: held_files.Identity | None
        # The identity the file had when connected: ``_follow_path`` compares the path with it, and it is
        # held in ``study.held_files`` until the connection closes.
        self._conn, self.notice, self._opened_as = open_connection(self.path)
        self.on_notice: Callable[[str], None] | None = None  # the app's toast for a notice found in use
        self._left_out: dict[str, int] = {}  # rows left out of reads for a time damaged on disk, by kind

    def _tx(self) -> _locked_tx:
        return _locked_tx(self)

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            if self._conn is None:
                raise StoreError("the progress store is closed")
            try:
                return self._conn.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from exc

    def _failed(self, exc: sqlite3.Error) -> StoreError:
        """The one-line error for a failed statement. Damage found in use is handled as on opening: the file
        is kept aside and a fresh store takes over, so the next action works."""
        if not is_damage(exc):
            return write_error(self.path, exc)
        with self._lock:
            try:
                self._conn, notice, self._opened_as = reopen_after_damage(self.path, self._conn, self._opened_as, exc)
                self.notice = notice
            except StoreError as err:
                self._conn, self._opened_as = None, None
                return err
        return StoreError(notice)

    def _follow_path(self) -> None:
        """Before a write: if the file at ``self.path`` was deleted or replaced since it was opened, SQLite
        would go on writing into the unlinked file and the answer would be lost at quit. So the store at the
        path is opened instead (a new one if nothing is there), the learner is told, and the write goes there."""
        now = file_identity(self.path)
        if now == self._opened_as or self._conn is None:
            return
        with self._lock:
            old, self._conn = self._conn, None
            old_identity, self._opened_as = self._opened_as, None
            try:
                close_connection(old, old_identity)
            except sqlite3.Error:
                pass  # it was the unlinked file: nothing there is the learner's any more
            try:
                self._conn, _notice, self._opened_as = open_connection(self.path)
            except StoreError as exc:
                raise StoreError(f"the progress store {self.path} went away while study ran, and no new one "
                                 f"could be started there: {exc}") from None
            what = ("was deleted while study ran; a new store was started there" if now is None
                    else "was replaced while study ran; study now records into the file found there")
            notice = f"the progress store {self.path} {what}, and your answers go on being recorded"
            self.notice = notice
        if self.on_notice is not None:
            self.on_notice(notice)

    def _kept(self, kept: list[_R], read: int, what: str) -> list[_R]:  # what: a plural ending in "s"
        """``kept``, the rows of a read that could be placed in time; the learner is told once per kind how
        many were left out, so a flipped byte on disk is neither a traceback nor a silent gap in the history.
        The rows stay in the file as they are."""
        missing = read - len(kept)
        if missing > self._left_out.get(what, 0):
            self._left_out[what] = missing
            one = missing == 1
            notice = (f"{missing} {what if not one else what[:-1]} in {self.path} {'has' if one else 'have'} a time "
                      f"damaged on disk and {'is' if one else 'are'} left out of your history (the file keeps "
                      f"{'it' if one else 'them'} as {'it is' if one else 'they are'})")
            if self.notice is None:
                self.notice = notice
            if self.on_notice is not None:
                self.on_notice(notice)
        return kept

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                conn, identity = self._conn, self._opened_as
                self._conn, self._opened_as = None, None
                close_connection(conn, identity)

    @property
    def schema_version(self) -> int:
        return int(self._query("PRAGMA user_version")[0][0])


class _locked_tx:
    """``with store._tx() as conn``: the store's lock plus one ``BEGIN IMMEDIATE`` transaction. Any SQLite error
    inside comes out as a one-line ``StoreError`` (see ``StoreHandle._failed``), after the rollback."""

    def __init__(self, store: StoreHandle) -> None:
        self.store = store
        self.tx: WriteTx | None = None

    def __enter__(self) -> sqlite3.Connection:
        self.store._lock.acquire()
        if self.store._conn is None:
            self.store._lock.release()
            raise StoreError("the progress store is closed")
        try:
            self.tx = WriteTx(self.store._conn)
            return self.tx.__enter__()
        except sqlite3.Error as exc:
            try:
                raise self.store._failed(exc) from exc
            finally:
                self.store._lock.release()
        except BaseException:
            self.store._lock.release()
            raise

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        try:
            assert self.tx is not None
            try:
                self.tx.__exit__(exc_type, exc, tb)
            except sqlite3.Error as err:
                raise self.store._failed(err) from err
            if isinstance(exc, sqlite3.Error):
                raise self.store._failed(exc) from exc
        finally:
            self.store._lock.release()
