"""One sync of a progress store to its LRS, for ``study sync`` and the app's automatic sync alike."""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable, Mapping, Sequence

from study.interop.lrs import Client, Endpoint, LrsError, SyncOutcome, pending, read_credentials, send, statements_url
from study.text import count


@dataclass(frozen=True)
class SyncRequest:
    db: Path
    url: str | None = None  # None: the store's ``lrs_endpoint`` setting
    base: str | None = None  # None: the xAPI export's default
    actor: Mapping[str, Any] | None = None  # None: the store's learner
    batch: int = 100
    questions: Sequence[str] | None = None
    content: str | None = None


@dataclass
class SyncReport:
    endpoint: Endpoint
    outcome: SyncOutcome
    would_send: list[Mapping[str, Any]] = field(default_factory=list)

    def count_pending(self) -> str:
        return count(self.outcome.pending, "statement")

    def count_sent(self) -> str:
        return count(self.outcome.sent, "statement")


def endpoint_for(url: str | None, store: Any) -> Endpoint:
    return with_credentials(endpoint_url(url, store))


def endpoint_url(url: str | None, store: Any) -> str:
    chosen = url or store.get_setting("lrs_endpoint")
    if not chosen:
        raise LrsError("no LRS to sync with: give --lrs URL, or set one with `study settings lrs_endpoint URL`")
    return statements_url(str(chosen))


def with_credentials(url: str) -> Endpoint:
    from study.paths import user_config_dir

    return Endpoint(url, read_credentials(user_config_dir()))


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def sync_store(request: SyncRequest, *, dry_run: bool = False, show_progress: bool = False,
               notice: Callable[[str], None] = lambda text: None, bank: Any = None,
               client: Callable[[Endpoint], Client] = Client, cancel: threading.Event | None = None) -> SyncReport:
    """Send the store's statements the LRS has not acknowledged; record the time, or why it failed, in the
    store's settings (``lrs_last_sync``, ``lrs_last_error``) for Settings and ``study stats`` to show.

    ``cancel`` set (the app quitting) ends the sync at once; what the LRS acknowledged until then stays so."""
    from study.bank import load_bank
    from study.interop.xapi import DEFAULT_BASE, check_base, default_actor, store_learner_id, store_statements
    from study.progress import StoreError, open_store

    try:
        with open_store(request.db) as store:
            if store.notice:
                notice(store.notice)
            try:
                endpoint = with_credentials(endpoint_url(request.url, store))
                base = check_base(request.base or DEFAULT_BASE)
                actor = request.actor or default_actor(base, store_learner_id(store))
                if bank is None:
                    bank = load_bank(questions=request.questions, content=request.content)
                # A regraded answer goes out as a void of its old statement and a new one (xAPI 1.0.3, 2.3.2).
                statements, _summary = store_statements(store, bank, actor, base)
                todo = pending(statements, store.lrs_acked(endpoint.key))
                if dry_run:
                    outcome = SyncOutcome(pending=len(todo), already=len(statements) - len(todo))
                    return SyncReport(endpoint, outcome, would_send=todo)
                with client(endpoint) as http:
                    if cancel is not None:
                        http.cancel = cancel
                    outcome = _send(http, store, statements, request.batch,
                                    show_progress and len(todo) > request.batch)
            except LrsError as exc:
                if not dry_run:
                    store.set_setting("lrs_last_error", f"{_now()} {exc}")
                raise
            store.set_setting("lrs_last_sync", _now())
            store.set_setting("lrs_last_error", f"{_now()} {count(len(outcome.conflicts), 'statement')} in "
                              "conflict with the LRS" if outcome.conflicts else None)
            return SyncReport(endpoint, outcome)
    except StoreError as exc:
        raise LrsError(str(exc)) from None


def _send(client: Client, store: Any, statements: list[dict[str, Any]], batch: int, bar: bool) -> SyncOutcome:
    if not bar:
        return send(client, store, statements, batch_size=batch)
    from rich.console import Console
    from rich.progress import Progress

    todo = len(pending(statements, store.lrs_acked(client.endpoint.key)))
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("sending", total=todo)
        return send(client, store, statements, batch_size=batch,
                    progress=lambda n: progress.advance(task, n))


def auto_sync(db: Path, bank: Any = None, cancel: threading.Event | None = None) -> tuple[bool, str] | None:
    """After a finished exam or practice set: sync if the learner turned automatic sync on.

    None when it is off (or no LRS is set); else (ok, what to tell the learner). Meant for a worker thread:
    it opens its own store connection and never raises for a network or store problem; a failure is also in
    ``lrs_last_error`` for Settings to show."""
    from study.progress import StoreError, open_store

    try:
        with open_store(db) as store:
            if not (store.get_setting("lrs_auto_sync") and store.get_setting("lrs_endpoint")):
                return None
    except StoreError:
        return None
    try:
        report = sync_store(SyncRequest(db=db), bank=bank, cancel=cancel)
    except LrsError as exc:
        return False, f"Sync to the LRS failed: {exc}"
    if report.outcome.conflicts:
        return False, (f"Synced {report.count_sent()}; {count(len(report.outcome.conflicts), 'statement')} in "
                       "conflict with the LRS (see `study sync`)")
    return True, f"Synced {report.count_sent()} to the LRS"


def status_line(settings: Mapping[str, Any]) -> str | None:
    """Where the learner's statements go and how the last sync went (``study stats``, Settings); None when no
    LRS is set."""
    endpoint = settings.get("lrs_endpoint")
    if not endpoint:
        return None
    from study.untrusted import shown

    last = settings.get("lrs_last_sync") or "never"
    auto = "on" if settings.get("lrs_auto_sync") else "off"
    # Escaped again on the way out: a store written by an older study may hold an LRS's raw error text.
    line = shown(f"LRS {endpoint}: last sync {last}, automatic sync {auto}", keep_newlines=False)
    error = settings.get("lrs_last_error")
    return f"{line}; last failure {shown(str(error), keep_newlines=False)}" if error else line
