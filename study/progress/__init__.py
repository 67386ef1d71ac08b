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

from typing import TYPE_CHECKING, Any

# The names resolve on first use (PEP 562), so a command that only needs ``study.progress.settings`` (every
# `study --help` builds the settings parser) does not import the store, SQLite and the FSRS scheduler.
_WHERE = {
    "EXAM_PACE_SECONDS": "study.progress.schedule",
    "Rating": "study.progress.schedule",
    "rating_for": "study.progress.schedule",
    "Attempt": "study.progress.store",
    "ItemState": "study.progress.store",
    "ItemSummary": "study.progress.store",
    "Review": "study.progress.store",
    "Session": "study.progress.store",
    "Store": "study.progress.store",
    "StoreError": "study.progress.store",
    "open_store": "study.progress.store",
}

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(f"module 'study.progress' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_WHERE[name]), name)
    globals()[name] = value
    return value


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
