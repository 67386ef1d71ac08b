"""The one meaning of "due" that Home, Review, ``study stats`` and ``study plan`` share.

**Due now**: an item (topic card or question) the learner has seen whose FSRS due time is at or before
this moment, and that is neither suspended nor buried (``study.progress.control``). Review takes exactly
these; Home's count and ``study stats``'s are the same number. What falls due later today is in the
forecast, not in "due"; when nothing is due, ``next_due`` says when the next item will be.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from study.progress.store import Store, stored_time, utc_iso

DUE_LABEL = "due now"
DUE_MEANING = ("Due now: items you have seen whose review time has come, not suspended or buried. Review "
               "takes exactly these; what falls due later today shows in the forecast.")


def due_now(store: Store, now: dt.datetime, kind: str | None = None, known: Iterable[str] | None = None) -> list[str]:
    """Ids due at ``now``, most overdue first; ``known`` (optional) keeps only ids still in the bank."""
    ids = store.due(now, kind=kind)  # type: ignore[arg-type]
    if known is None:
        return ids
    keep = set(known)
    return [i for i in ids if i in keep]


def next_due(store: Store, now: dt.datetime, kind: str | None = None,
             known: Iterable[str] | None = None) -> dt.datetime | None:
    """When the next item falls due after ``now`` (a buried one counts from the end of its burial), or None
    when nothing is scheduled. Suspended items never count."""
    stamp = utc_iso(now)
    sql = ("SELECT i.item_id, max(i.due, coalesce(c.buried_until, '')) AS at FROM items AS i"
           " LEFT JOIN item_control AS c ON c.item_id = i.item_id WHERE coalesce(c.suspended, 0) = 0"
           " AND max(i.due, coalesce(c.buried_until, '')) > ?")
    args: list[str] = [stamp]
    if kind is not None:
        sql += " AND i.kind = ?"
        args.append(kind)
    sql += " ORDER BY at"
    keep = set(known) if known is not None else None
    for item_id, at in store._query(sql, tuple(args)):
        if keep is None or item_id in keep:
            return stored_time(at)
    return None
