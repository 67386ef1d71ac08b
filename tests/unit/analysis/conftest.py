from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from study.progress import Attempt, open_store

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def export_learner(directory: Path, name: str, answers, *, fmt: str = "json", actor: str | None = "") -> Path:
    """Record ``answers`` (item_id, correct, mode, minutes after T0) in a real store, then export it with the
    real ``study export`` command: the files ``study analyze`` reads in the field. xAPI goes out as
    ``<name>@example.com`` unless ``actor`` names another, or is None for the default actor."""
    from study.cli import main

    db = directory / f"{name}.db"
    with open_store(db, fuzz=False) as store:
        for _n, (qid, correct, mode, minutes) in enumerate(answers):
            store.record_attempt(Attempt(qid, "h", {}, "A" if correct else "B", bool(correct), 20.0, mode,
                                         f"{name}-{mode}", T0 + dt.timedelta(minutes=minutes)))
    out = directory / f"{name}.{'jsonl' if fmt == 'xapi' else 'json'}"
    given = actor or f"{name}@example.com"
    option = ["--actor", given] if fmt == "xapi" and actor is not None else []
    argv = ["--db", str(db), "export", "--format", fmt, *option, str(out)]
    assert main(argv) == 0
    return out


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def progress_doc():
    def make(attempts):
        return {"format": "study-progress", "version": 1, "attempts": attempts, "reviews": [], "sessions": [],
                "items": [], "settings": {}}
    return make


def attempt(qid, correct, at, mode="exam", uid=None):
    return {"uid": uid or f"{qid}-{at}", "item_id": qid, "content_hash": "h", "params": {}, "given": "A",
            "correct": correct, "seconds": 10.0, "mode": mode, "session_id": None, "at": at, "rating": 3}
