"""What the progress store answers about the history: attempts and card reviews, each item's FSRS state,
what is due, and the running totals per question. Read-only; ``Store`` (``study.progress.store``) has it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from study.progress import schedule
from study.progress.schedule import Rating
from study.progress.store_handle import StoreHandle
from study.progress.store_rows import (
    ATTEMPT_COLS,
    ITEM_COLS,
    Attempt,
    ItemState,
    ItemSummary,
    Kind,
    Review,
    attempt_of,
    item_of,
    stored_time,
    utc_iso,
    utc_now,
)


class StoreReading(StoreHandle):
    def history(
        self, item_id: str | None = None, limit: int | None = None, since: dt.datetime | None = None
    ) -> list[Attempt]:
        """Attempts, newest first; optionally for one item, since a time, and at most ``limit``. One whose time
        was damaged on disk is left out (``store_rows.attempt_of``)."""
        sql = f"SELECT {ATTEMPT_COLS} FROM attempts"
        where: list[str] = []
        args: list[Any] = []
        if item_id is not None:
            where.append("item_id = ?")
            args.append(item_id)
        if since is not None:
            where.append("at >= ?")
            args.append(utc_iso(since))
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        rows = self._query(sql, tuple(args))
        return self._kept([a for a in map(attempt_of, rows) if a is not None], len(rows), "answers")

    def reviews(self, card_id: str | None = None, limit: int | None = None) -> list[Review]:
        """Topic-card reviews, newest first; one whose time was damaged on disk is left out."""
        sql = "SELECT card_id, content_hash, rating, seconds, at, uid FROM reviews"
        args: list[Any] = []
        if card_id is not None:
            sql += " WHERE card_id = ?"
            args.append(card_id)
        sql += " ORDER BY at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        rows = self._query(sql, tuple(args))
        return self._kept([Review(c, h, Rating(r), s, when, u)
                           for c, h, r, s, a, u in rows if (when := stored_time(a)) is not None], len(rows), "card reviews")

    def item_state(self, item_id: str) -> ItemState | None:
        """The FSRS state of an item, or None if never seen."""
        rows = self._query(
            f"SELECT {ITEM_COLS} FROM items WHERE item_id = ?",
            (item_id,),
        )
        return item_of(rows[0]) if rows else None

    def item_states(self, kind: Kind | None = None) -> list[ItemState]:
        sql = f"SELECT {ITEM_COLS} FROM items"
        rows = self._query(sql + " WHERE kind = ?", (kind,)) if kind else self._query(sql)
        return [item_of(r) for r in rows]

    def retrievability(self, item_id: str, at: dt.datetime | None = None) -> float | None:
        """Predicted probability of recalling the item at ``at`` (now by default); None if never seen."""
        state = self.item_state(item_id)
        if state is None:
            return None
        return schedule.retrievability(state.card, at or utc_now())

    def due(self, now: dt.datetime | None = None, kind: Kind | None = None, limit: int | None = None) -> list[str]:
        """Ids of seen items whose FSRS due time is at or before ``now``, most overdue first: "due now", the
        one meaning of due (``study.progress.due``). Items never seen are not "due": the caller decides how
        many new ones to mix in (see ``seen_ids``). Suspended and buried items are never due."""
        # Suspended and buried items are held back (``study.progress.control``).
        stamp = utc_iso(now or utc_now())
        sql = ("SELECT item_id FROM items WHERE due <= ? AND item_id NOT IN (SELECT item_id FROM item_control"
               " WHERE suspended = 1 OR buried_until > ?)")
        args: list[Any] = [stamp, stamp]
        if kind is not None:
            sql += " AND kind = ?"
            args.append(kind)
        sql += " ORDER BY due, item_id"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(int(limit))
        return [r[0] for r in self._query(sql, tuple(args))]

    def summaries(self) -> dict[str, ItemSummary]:
        """Per answered question: attempts, right, and the latest outcome, from running totals (no scan of
        the history). Includes questions no longer in the bank; filter with ``bank.has_item``."""
        rows = self._query("SELECT item_id, attempts, correct, last_correct, last_at FROM item_totals")
        return {
            i: ItemSummary(i, n, c, None if lc is None else bool(lc), stored_time(la))
            for i, n, c, lc, la in rows
        }

    def seen_ids(self, kind: Kind | None = None) -> set[str]:
        sql = "SELECT item_id FROM items"
        rows = self._query(sql + " WHERE kind = ?", (kind,)) if kind else self._query(sql)
        return {r[0] for r in rows}

    def counts(self) -> dict[str, int]:
        """Row counts per table (for ``study stats`` and the reset confirmation)."""
        with self._lock:
            return {
                t: self._query(f"SELECT count(*) FROM {t}")[0][0]
                for t in ("attempts", "reviews", "sessions", "items", "settings")
            }

