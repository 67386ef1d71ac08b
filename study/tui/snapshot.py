"""The home screen's figures as last computed, kept on disk so the next start paints them at once.

Loading the bank (pydantic, the schema, the unpickled questions) and the statistics takes longer than the
first paint, so without this the home screen opens empty and fills a second or two later. A snapshot is
used only when nothing it depends on has changed: the bank's files (``study.fingerprint``), the store's
contents (a few counts and latest timestamps, read with the standard library's sqlite3 in read-only mode,
so neither pydantic nor the store's own module is imported), the questions/content folders asked for, the
day, and its age (under an hour: recall decays with time). The figures are then recomputed in the background
as before and replace the snapshot's, which is rewritten. Anything unreadable means no snapshot.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

# sqlite3 and hashlib are imported where used: without a snapshot file (a first start) neither is needed
# before the first paint.

VERSION = 1  # of the snapshot's layout; a study upgrade that changes the figures' form raises it
MAX_AGE = dt.timedelta(hours=1)
# What changes with every event the store records; a checkpoint or a reopened store changes none of it.
STORE_QUERIES = (
    "SELECT count(*), max(id), max(at) FROM attempts",
    "SELECT count(*), max(id), max(at) FROM reviews",
    "SELECT count(*), max(updated_at) FROM sessions",
    "SELECT count(*), max(updated_at) FROM items",
    "SELECT group_concat(key || '=' || value, ';') FROM (SELECT key, value FROM settings ORDER BY key)",
)


def _path() -> Path:
    from study import paths

    return paths.user_cache_dir() / "home-snapshot.json"


def _theme_path() -> Path:
    from study import paths

    return paths.user_cache_dir() / "theme.txt"


def remembered_theme() -> str | None:
    """The theme the app last showed, so a learner who chose the light one is not shown the dark one until
    the store has loaded (and every widget styled twice). The store's setting still decides once it loads."""
    try:
        with _theme_path().open("rb") as fh:
            raw = fh.read(65)
        name = raw.decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return name if len(raw) <= 64 and name.replace("-", "").isalnum() else None


def remember_theme(name: str) -> None:
    if remembered_theme() != name:
        from study.paths import write_cache

        write_cache(_theme_path(), name.encode("ascii"))


def _db_path(services: Any) -> Path:
    from study.paths import default_db_path

    return default_db_path(services.db)


def _store_key(db: Path) -> str | None:
    import sqlite3

    from study.fingerprint import checksum

    if not db.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=0.2)
        try:
            rows = [conn.execute(sql).fetchone() for sql in STORE_QUERIES]
            rows.append(conn.execute("PRAGMA user_version").fetchone())
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return checksum(repr((str(db.resolve()), rows)).encode())


def _bank_key(services: Any) -> str:
    from study import paths
    from study.fingerprint import files_fingerprint

    questions = [Path(q) for q in services.questions] if services.questions else [paths.questions_dir()]
    content = Path(services.content) if services.content else paths.content_dir()
    return files_fingerprint([content, *questions], versions=False, strong=False)


def key(services: Any) -> str | None:
    """What the snapshot must match; None when the store does not exist yet (a first start) or is unreadable."""
    try:
        store = _store_key(_db_path(services))
        if store is None:
            return None
        return f"{VERSION}|{_bank_key(services)}|{store}"
    except OSError:
        return None


def _to_json(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    # A paused exam's clock runs on: the next start reads it from the store, never from a saved picture.
    out.pop("paused", None)
    out["readiness_rows"] = [asdict(r) for r in data["readiness_rows"]]
    out["heatmap"] = {d.isoformat(): n for d, n in data["heatmap"].items()}
    out["today_date"] = data["today_date"].isoformat()
    return out


def _from_json(raw: dict[str, Any]) -> dict[str, Any]:
    from study.tui.widgets.bars import BarRow

    data = dict(raw)
    data["readiness_rows"] = [BarRow(**r) for r in raw["readiness_rows"]]
    data["heatmap"] = {dt.date.fromisoformat(d): n for d, n in raw["heatmap"].items()}
    data["today_date"] = dt.date.fromisoformat(raw["today_date"])
    data["next_rows"] = [tuple(r) for r in raw.get("next_rows", [])]
    return data


def load(services: Any) -> dict[str, Any] | None:
    """The home figures saved for exactly this bank, store and day, or None."""
    try:
        raw = json.loads(_path().read_text(encoding="utf-8"))
        now = services.now()
        saved = dt.datetime.fromisoformat(raw["computed_at"])
        if not dt.timedelta(0) <= now - saved <= MAX_AGE or raw["data"]["today_date"] != now.date().isoformat():
            return None
        if raw["key"] != key(services):
            return None
        return _from_json(raw["data"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(services: Any, data: dict[str, Any]) -> None:
    """Keep ``data`` (``study.tui.summary.home``'s) for the next start; a failure only loses the speed-up."""
    if data.get("problems"):
        return  # a problem must be found afresh, not remembered
    try:
        snapshot_key = key(services)
        if snapshot_key is None:
            return
        payload = {"key": snapshot_key, "computed_at": services.now().isoformat(), "data": _to_json(data)}
        from study.paths import write_cache

        write_cache(_path(), json.dumps(payload).encode("utf-8"))
    except (OSError, TypeError, ValueError):
        pass
