"""What the screens call: the bank, the progress store and the clock, resolved lazily.

The app factory takes these as arguments so tests inject fixtures; when they are not given, the real bank
and store are loaded off the UI thread after the first paint, because importing pydantic, numpy and fsrs
costs more than drawing the home screen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from collections.abc import Callable

Clock = Callable[[], datetime]


def local_now() -> datetime:
    """Now, in the learner's zone: the core's figures take "today" from the zone of the time they are given
    (the streak, the heatmap, new cards a day, the exam countdown), and the commands give them local time.
    With UTC here the app's day turned at midnight UTC, so an evening's answers west of Greenwich counted
    for tomorrow in the app and for today in `study stats`. The store keeps every instant in UTC."""
    return datetime.now().astimezone()


@dataclass
class Services:
    BANK_LOAD_ERROR = "could not load the question bank"

    bank: Any = None
    store: Any = None
    clock: Clock = local_now
    db: str | None = None
    # Alternative question folders/files and content folder (an instructor's own bank; the benchmark).
    questions: list[str] | None = None
    content: str | None = None
    # None means a fresh seed per session; tests pin it so snapshots are reproducible.
    seed: int | None = None
    errors: list[str] = field(default_factory=list)
    # Live reload: None decides by ``study.bank.watch.enabled_by_default``; only a bank loaded from files
    # (not one injected by a test) is watched.
    watch: bool | None = None
    watcher: Any = None
    # Why a reload kept the previous bank ("bank") or calculator catalog ("spec"), until one succeeds.
    reload_errors: dict[str, str] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return self.bank is not None and self.store is not None

    def load(self) -> None:
        """Resolve whatever was not injected. Safe to call from a worker thread."""
        if self.bank is None:
            self._start_watching()
            try:
                from study.bank.cache import load_bank_cached

                self.bank = load_bank_cached(questions=self.questions, content=self.content)
            except Exception as exc:  # the app must still open and say why
                self.errors.append(f"{self.BANK_LOAD_ERROR}: {exc}")
        if self.store is None:
            try:
                from study.progress import open_store

                self.store = open_store(self.db)
            except Exception as exc:
                self.errors.append(f"could not open the progress store: {exc}")

    def _start_watching(self) -> None:
        from study.bank import watch

        on = self.watch if self.watch is not None else watch.enabled_by_default(self.questions, self.content)
        if not on:
            return
        try:
            self.watcher = watch.Watcher(watch.bank_roots(self.questions, self.content))
            # Before the load: an edit saved while the bank loads is then reloaded, not missed.
            self.watcher.prime()
        except Exception as exc:  # watching is a convenience; the app works without it
            self.watcher = None
            self.errors.append(f"live reload is off: {exc}")

    @property
    def reload_error(self) -> str | None:
        return "; ".join(self.reload_errors.values()) or None

    def reload(self, change: Any) -> tuple[Any, dict[str, str | None]]:
        """Load what ``change`` touched; safe off the UI thread. Returns the new bank (``None`` when it was not
        reloaded) and, for each part tried ("bank", "spec"), the error that kept the previous one in use or
        ``None`` when it reloaded."""
        from study.bank import watch

        outcome: dict[str, str | None] = {}
        if watch.SPEC in change.kinds:
            error = watch.reload_specs()
            outcome["spec"] = f"calculator catalog not reloaded: {error}" if error else None
        bank = None
        if change.kinds - {watch.SPEC}:
            try:
                bank = watch.reload_bank(self.questions, self.content)
                outcome["bank"] = None
            except Exception as exc:  # a blueprint that does not load: keep serving the old bank
                outcome["bank"] = f"question bank not reloaded: {exc}"
        return bank, outcome

    def next_seed(self) -> int:
        if self.seed is not None:
            return self.seed
        return random.randrange(1, 2**31)

    def now(self) -> datetime:
        return self.clock()

    def setting(self, key: str, default: Any = None) -> Any:
        if self.store is None:
            return default
        try:
            return self.store.get_setting(key, default)
        except Exception:
            return default
