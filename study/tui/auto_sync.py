"""The app's automatic sync to the learner's LRS after a finished set, which quitting abandons.

A Textual thread worker runs on asyncio's default executor, whose threads the interpreter joins at exit: a
sync waiting on a slow LRS kept the process alive, screen blank, after ctrl+q. Here the sync runs in a daemon
thread of its own, awaited by an async worker. Quitting cancels that worker, which sets the sync's cancel
event: the client shuts its socket and stops. Nothing is lost by that: statements the LRS has not
acknowledged are simply sent again by the next sync.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

GROUP = "lrs-sync"


@dataclass
class AutoSyncJob:
    """One automatic sync: its thread and the event that stops it (tests look at both)."""

    db: Path
    cancel: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    outcome: tuple[bool, str] | None = None
    worker: Any = None


def start_auto_sync(app: Any, db: Path) -> AutoSyncJob:
    """Start the learner's automatic sync of ``db`` (on the app's thread); the app says how it went."""
    job = AutoSyncJob(db)
    app.auto_sync_job = job
    # exclusive: a newer set's sync replaces one still waiting on the LRS, so two never send side by side.
    job.worker = app.run_worker(_run(app, job), group=GROUP, name="automatic sync", exit_on_error=False,
                                exclusive=True)
    return job


async def _run(app: Any, job: AutoSyncJob) -> None:
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    bank = getattr(getattr(app, "services", None), "bank", None)

    def finish() -> None:  # on the app's loop, which may have cancelled the wait already
        if not done.done():
            done.set_result(None)

    def work() -> None:
        job.outcome = _sync(job, bank)
        try:
            loop.call_soon_threadsafe(finish)
        except RuntimeError:  # the app's loop is gone: it quit, and nobody waits for this answer
            pass

    job.thread = threading.Thread(target=work, name="lrs-auto-sync", daemon=True)
    job.thread.start()
    try:
        await done
    except asyncio.CancelledError:
        job.cancel.set()
        raise
    if job.outcome is not None:
        ok, message = job.outcome
        # markup off: the message quotes an LRS's answer, and "[link=...]" in it must stay text.
        app.notify(message, severity="information" if ok else "warning", timeout=8, markup=False)


def _sync(job: AutoSyncJob, bank: Any) -> tuple[bool, str] | None:
    from study.interop.sync import auto_sync

    try:
        return auto_sync(job.db, bank=bank, cancel=job.cancel)
    except Exception as exc:  # noqa: BLE001 - a bug in a background sync must be a toast, not a dead app
        return False, f"Sync to the LRS failed: {type(exc).__name__}"
