"""A lab exhibit carried through GIFT: Moodle shows the exhibit's rendered output in the stem, and the
``// study: exhibit=`` comment lets an import restore the live exhibit instead of frozen text."""

from __future__ import annotations

from typing import Any

from study.interop.gift_syntax import Loc


def exhibit_back(data: dict[str, Any], meta: dict[str, Any], loc: Loc, problem: Any) -> None:
    """Restore a lab exhibit from its ``// study: exhibit={...}`` comment and take its rendered block (which
    the export appended for Moodle) off the stem again."""
    raw = meta.get("exhibit")
    if not raw:
        return
    import json

    try:
        ex = json.loads(raw)
    except ValueError:
        ex = None
    if not (isinstance(ex, dict) and set(ex) <= {"lab", "run", "seed"} and isinstance(ex.get("lab"), str)
            and isinstance(ex.get("run"), str) and isinstance(ex.get("seed", 0), int)):
        problem(loc, "note", "'// study: exhibit=' is not {lab, run, seed} JSON; ignored")
        return
    data["exhibit"] = ex
    stem = data.get("stem", "")
    cut = max(stem.rfind("\n\n```text\n$ "), stem.rfind("\n\n~~~~text\n$ "))
    if cut > 0:
        data["stem"] = stem[:cut]
