"""What a progress export says about each session that an xAPI statement needs: when it started and
finished, its report, and the order its choices were shown in (the saved state of a session not yet
finished), so an older answer's letters can still be read as the choices the learner picked."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable, Mapping


@dataclass
class StoredSession:
    id: str
    kind: str
    started_at: str | None
    finished_at: str | None
    report: dict[str, Any] | None
    # question id -> the option texts in the order shown (from the saved state of an unfinished session)
    shown: dict[str, list[str]] = field(default_factory=dict)
    # question id -> the report's row (given, given_display, stem, type, objective)
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)


def json_or_none(text: Any) -> Any:
    if not isinstance(text, str) or not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def read_sessions(rows: Iterable[Mapping[str, Any]]) -> dict[str, StoredSession]:
    out: dict[str, StoredSession] = {}
    for row in rows:
        report = json_or_none(row.get("report_json"))
        s = StoredSession(str(row["id"]), str(row.get("kind") or ""), row.get("started_at"), row.get("finished_at"),
                           report if isinstance(report, dict) else None)
        state = json_or_none(row.get("state_json"))
        if isinstance(state, dict):
            for inst in state.get("instances") or ():
                if isinstance(inst, dict) and inst.get("options"):
                    s.shown[str(inst.get("qid"))] = [str(o.get("text", "")) for o in inst["options"]]
        if s.report is not None:
            for q in s.report.get("questions") or ():
                if isinstance(q, dict) and "id" in q:
                    s.rows[str(q["id"])] = q
        out[s.id] = s
    return out


def picked_texts(session: StoredSession | None, qid: str, given: str) -> list[str] | None:
    """The texts of the options the learner picked, from the session's saved order or its report."""
    if session is None:
        return None
    letters = given.split(",")
    shown = session.shown.get(qid)
    if shown is not None:
        idx = [ord(c) - ord("A") for c in letters]
        return [shown[i] for i in idx] if all(0 <= i < len(shown) for i in idx) else None
    row = session.rows.get(qid)
    if row is None or row.get("given") != given or not isinstance(row.get("given_display"), str):
        return None
    # given_display is "; ".join("B) text" for each picked letter, in order), so each letter's text runs up to
    # the next "; X) ".
    display: str = row["given_display"]
    texts, pos = [], 0
    for k, letter in enumerate(letters):
        head = f"{letter}) "
        if not display.startswith(head, pos):
            return None
        start = pos + len(head)
        if k + 1 < len(letters):
            end = display.find(f"; {letters[k + 1]}) ", start)
            if end < 0:
                return None
            pos = end + 2
        else:
            end = len(display)
        texts.append(display[start:end])
    return texts

