"""Quiz and exam sessions in the progress store: the in-progress state saved after every action (what resume
reads), finishing with a report, abandoning, and the finished exams. The store keeps a session's state as
the quiz layer's JSON text and never reads it: the quiz's classes live a floor above."""

from __future__ import annotations

import datetime as dt

from study.progress.store_handle import StoreHandle
from study.progress.store_rows import SESSION_COLS, Session, session_of, stored_time, utc_iso, utc_now


class StoreSessions(StoreHandle):
    def save_session(
        self, session_id: str, kind: str, state_json: str, deadline: dt.datetime | None = None
    ) -> None:
        """Create or update an in-progress session (call after every exam action: it is what resume reads)."""
        now = utc_iso(utc_now())
        with self._tx() as conn:
            conn.execute(
                "INSERT INTO sessions(id, kind, started_at, updated_at, deadline, state_json)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET kind = excluded.kind,"
                " updated_at = excluded.updated_at, deadline = excluded.deadline,"
                " state_json = excluded.state_json",
                (session_id, kind, now, now, utc_iso(deadline) if deadline else None, state_json),
            )

    def active_session(self, kind: str = "exam") -> tuple[str, str, dt.datetime | None] | None:
        """The most recently updated unfinished session of ``kind`` that has saved state, as
        ``(session_id, state_json, deadline)``, or None. A deadline in the past is the caller's to handle
        (e.g. submit the exam as it stands)."""
        rows = self._query(
            "SELECT id, state_json, deadline FROM sessions WHERE kind = ? AND finished_at IS NULL"
            " AND state_json IS NOT NULL ORDER BY updated_at DESC LIMIT 1",
            (kind,),
        )
        if not rows:
            return None
        sid, state, deadline = rows[0]
        # The quiz keeps its own deadline in the state; this one only informs, so a damaged one is unknown.
        return sid, state, stored_time(deadline)

    def finish_session(self, session_id: str, report_json: str, at: dt.datetime | None = None) -> None:
        """Mark a session finished with its report; it no longer resumes. Its in-progress state is dropped."""
        stamp = utc_iso(at or utc_now())
        with self._tx() as conn:
            cur = conn.execute(
                "UPDATE sessions SET finished_at = ?, updated_at = ?, report_json = ?, state_json = NULL"
                " WHERE id = ?",
                (stamp, stamp, report_json, session_id),
            )
            if cur.rowcount == 0:
                raise KeyError(f"no session {session_id!r}")

    def discard_session(self, session_id: str) -> None:
        """Abandon an unfinished session (the learner declined to resume). Its attempts stay recorded."""
        stamp = utc_iso(utc_now())
        with self._tx() as conn:
            conn.execute(
                "UPDATE sessions SET finished_at = ?, updated_at = ?, state_json = NULL WHERE id = ?"
                " AND finished_at IS NULL",
                (stamp, stamp, session_id),
            )

    def session(self, session_id: str) -> Session | None:
        rows = self._query(f"SELECT {SESSION_COLS} FROM sessions WHERE id = ?", (session_id,))
        return session_of(rows[0]) if rows else None  # None too when its times were all damaged on disk

    def exam_history(self) -> list[Session]:
        """Finished exam sessions with a report, oldest first."""
        rows = self._query(
            f"SELECT {SESSION_COLS} FROM sessions WHERE kind = 'exam' AND finished_at IS NOT NULL"
            " AND report_json IS NOT NULL ORDER BY finished_at"
        )
        return self._kept([s for s in map(session_of, rows) if s is not None], len(rows), "sessions")
