"""What the screens call: the bank, the progress store and the clock, resolved lazily.

The app factory takes these as arguments so tests inject fixtures; when they are not given, the real bank
and store are loaded off the UI thread after the first paint, because importing pydantic, numpy and fsrs
costs more than drawing the home screen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Services:
    bank: Any = None
    store: Any = None
    clock: Clock = utc_now
    db: str | None = None
    # Alternative question folders/files and content folder (an instructor's own bank; the benchmark).
    questions: list[str] | None = None
    content: str | None = None
    # None means a fresh seed per session; tests pin it so snapshots are reproducible.
    seed: int | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def ready(self) -> bool:
        return self.bank is not None and self.store is not None

    def load(self) -> None:
        """Resolve whatever was not injected. Safe to call from a worker thread."""
        if self.bank is None:
            try:
                from study.bank.cache import load_bank_cached

                self.bank = load_bank_cached(questions=self.questions, content=self.content)
            except Exception as exc:  # the app must still open and say why
                self.errors.append(f"could not load the question bank: {exc}")
        if self.store is None:
            try:
                from study.progress import open_store

                self.store = open_store(self.db)
            except Exception as exc:
                self.errors.append(f"could not open the progress store: {exc}")

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
