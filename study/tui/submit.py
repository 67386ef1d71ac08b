"""Submitting a quiz without making the learner wait for the disk.

``QuizSession.submit`` grades, builds the report and writes to the store: one durable (fsync'd) transaction
per attempt not yet recorded, then the session's end. On the UI thread those writes kept the old screen up for
most of a second after the confirming key (``bench/results.py``). Here the session submits against a stand-in
that queues the writes; the results are drawn at once, and a worker replays the writes, in order, on the real
store. Until it has, an interrupted app finds the exam as it was before the submit and offers to resume it.
"""

from __future__ import annotations

from typing import Any

DEFERRED = ("record_attempt", "save_session", "finish_session")


class _Deferred:
    """Stands in for the store during a submit: the writes in ``DEFERRED`` are queued, everything else is the
    real store's."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.queued: list[tuple[str, tuple, dict]] = []

    def __getattr__(self, name: str) -> Any:
        if name in DEFERRED:
            return lambda *args, **kwargs: self.queued.append((name, args, kwargs))
        return getattr(self._store, name)


def submit_now_save_later(app: Any, session: Any) -> Any:
    """Submit ``session`` and return its report; its store writes run in an app-level worker (one that
    outlives the screen that submitted). Errors from the session itself (time up, a bad state) propagate."""
    store = session.store
    if store is None or session.finished:
        return session.submit()
    deferred = _Deferred(store)
    session.store = deferred
    try:
        report = session.submit()
    finally:
        session.store = store
    app.run_worker(lambda: _replay(app, store, deferred.queued), thread=True, group="save-results",
                   exit_on_error=False)
    return report


def _replay(app: Any, store: Any, queued: list[tuple[str, tuple, dict]]) -> None:
    try:
        for name, args, kwargs in queued:
            getattr(store, name)(*args, **kwargs)
    except Exception as exc:  # a full disk must not take the app down; the learner is told what was lost
        app.call_from_thread(app.notify, f"The results could not be saved: {exc}", severity="error", timeout=10)
        return
    sync_after_a_set(app, store)


def sync_after_a_set(app: Any, store: Any) -> None:
    """The learner's automatic sync to their LRS, when they turned it on (``study settings lrs_auto_sync
    on``): after the set's writes, in a thread that quitting abandons (``study.tui.auto_sync``), so neither
    the screen nor ctrl+q ever waits for the network."""
    from study.tui.auto_sync import start_auto_sync

    path = getattr(store, "path", None)
    if path is None or not sync_is_on(store):
        return
    app.call_from_thread(start_auto_sync, app, path)


def sync_is_on(store: Any) -> bool:
    """Asked of the app's own connection: opening the store a second time to read two settings was how a
    finished set used to drop the app's locks (``study.held_files``), and with sync off there is nothing else
    to open it for."""
    try:
        return bool(store.get_setting("lrs_auto_sync") and store.get_setting("lrs_endpoint"))
    except Exception:  # noqa: BLE001 - a store that cannot be read now cannot be synced either
        return False
