"""The learner's progress: a durable SQLite store, FSRS scheduling, statistics and exam readiness.

No Textual here. The public surface::

    from study.progress import open_store, Store, StoreError, Attempt, Rating
    store = open_store(path=None)            # default path from study.paths; migrates; see open_store
    store.record_attempt(Attempt(item_id, content_hash, params, given, correct, seconds, mode,
                                 session_id=None, at=<now UTC>))
    store.review_card(card_id, content_hash, Rating.Good, seconds, at=None)
    store.save_session(session_id, kind, state_json, deadline=None); store.active_session("exam")
    store.finish_session(session_id, report_json); store.discard_session(session_id)
    store.due(now, kind="card"|"question"|None); store.item_state(item_id); store.retrievability(item_id, at)
    store.seen_ids(kind); store.summaries() -> {item_id: ItemSummary(attempts, correct, last_correct, last_at)}
    store.history(item_id=None, limit=None); store.exam_history(); store.get_setting(k); store.set_setting(k, v)

    from study.progress.stats import compute_stats      # compute_stats(store, bank, now) -> Stats
"""

from __future__ import annotations

from study.progress.schedule import EXAM_PACE_SECONDS, Rating, rating_for
from study.progress.store import (
    Attempt,
    ItemState,
    ItemSummary,
    Review,
    Session,
    Store,
    StoreError,
    open_store,
)

__all__ = [
    "EXAM_PACE_SECONDS",
    "Attempt",
    "ItemState",
    "ItemSummary",
    "Rating",
    "Review",
    "Session",
    "Store",
    "StoreError",
    "open_store",
    "rating_for",
]
