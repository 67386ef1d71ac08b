"""`study suspend --list`: which holds it lists and what it says of each (pinned when mypy's narrowing of
a burial's Optional time rewrote the loop)."""

from __future__ import annotations

import datetime as dt
import json

from study.cli import main
from study.progress import open_store
from study.progress import control


def test_list_shows_live_holds_only_with_a_suspended_items_burial_kept(tmp_path, capsys):
    db = tmp_path / "p.db"
    now = dt.datetime.now().astimezone()
    with open_store(db) as store:
        control.bury(store, "both", now)
        control.suspend(store, "both", now)
        control.bury(store, "buried", now)
        control.bury(store, "lapsed", now - dt.timedelta(days=3))  # held until a day that has passed
        control.suspend(store, "suspended", now)
    assert main(["--db", str(db), "suspend", "--list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert sorted(rows) == ["both", "buried", "suspended"]
    assert rows["both"]["suspended"] and rows["both"]["buried_until"]
    assert not rows["buried"]["suspended"] and rows["buried"]["buried_until"]
    assert rows["suspended"]["suspended"] and rows["suspended"]["buried_until"] is None
    assert rows["both"]["text"] == "both  suspended"
    assert rows["buried"]["text"].startswith("buried  buried until ")
