"""Card control as in Anki: suspend, bury, a cap on new items a day, and a review queue without repeats.

* **Suspend** an item (a topic card or a question): it is never due and never drawn (practice, exam,
  review) until it is unsuspended. Its history and FSRS state are kept.
* **Bury** an item: held back until the start of the next local day (the zone of the ``now`` passed), then
  it is due or drawn as before.
* **New items a day** (setting ``new_per_day``, default ``DEFAULT_NEW_PER_DAY``): how many items never seen
  before the learner meets in a day, cards and questions together; ``new_allowance`` says what is left.
* **Review queue**: ``ReviewQueue`` hands out what is due now and never the same item twice in one session,
  even when an item answered Again falls due again minutes later (FSRS's learning step): it waits for the
  next session, as Anki's does for a card already seen today.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Iterable

from study.progress.store import Store, parse_iso, utc_iso

DEFAULT_NEW_PER_DAY = 20


class UnknownItem(KeyError):
    """An id that is neither a card nor a question of the bank."""


def start_of_next_day(now: dt.datetime) -> dt.datetime:
    """Midnight after ``now`` in ``now``'s own zone (the learner's day), as an aware datetime."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    tomorrow = now.date() + dt.timedelta(days=1)
    return dt.datetime.combine(tomorrow, dt.time(0), tzinfo=now.tzinfo)


def start_of_day(now: dt.datetime) -> dt.datetime:
    return dt.datetime.combine(now.date(), dt.time(0), tzinfo=now.tzinfo)


def _write(store: Store, item_id: str, *, suspended: int | None = None, buried_until: str | None | bool = False,
           now: dt.datetime) -> None:
    with store._tx() as conn:
        conn.execute(
            "INSERT INTO item_control(item_id, suspended, buried_until, updated_at) VALUES (?, 0, NULL, ?)"
            " ON CONFLICT(item_id) DO NOTHING",
            (item_id, utc_iso(now)),
        )
        if suspended is not None:
            conn.execute("UPDATE item_control SET suspended = ?, updated_at = ? WHERE item_id = ?",
                         (suspended, utc_iso(now), item_id))
        if buried_until is not False:
            conn.execute("UPDATE item_control SET buried_until = ?, updated_at = ? WHERE item_id = ?",
                         (buried_until, utc_iso(now), item_id))
        # A released item keeps its row, suspended 0 and buried nowhere, with the time of the release: a merge
        # of an older backup must see that the release is newer than the backup's suspension.


def suspend(store: Store, item_id: str, now: dt.datetime | None = None) -> None:
    """Hold ``item_id`` back from every queue and draw until ``unsuspend``."""
    _write(store, item_id, suspended=1, now=now or dt.datetime.now(dt.timezone.utc))


def unsuspend(store: Store, item_id: str, now: dt.datetime | None = None) -> bool:
    """Release a suspended (or buried) item; returns whether it was held back."""
    was = item_id in held_back(store, now)
    _write(store, item_id, suspended=0, buried_until=None, now=now or dt.datetime.now(dt.timezone.utc))
    return was


def bury(store: Store, item_id: str, now: dt.datetime | None = None) -> dt.datetime:
    """Hold ``item_id`` back until the start of the next local day; returns that moment."""
    now = now or dt.datetime.now().astimezone()
    until = start_of_next_day(now)
    _write(store, item_id, buried_until=utc_iso(until), now=now)
    return until


@dataclass(frozen=True)
class HoldState:
    """One item's suspension and burial as stored, taken before a change so ``restore_hold`` can undo it."""

    item_id: str
    suspended: bool
    buried_until: str | None  # UTC ISO as stored; None: not buried

    def held(self, now: dt.datetime) -> bool:
        return self.suspended or (self.buried_until is not None and self.buried_until > utc_iso(now))


def hold_state(store: Store, item_id: str) -> HoldState:
    rows = store._query("SELECT suspended, buried_until FROM item_control WHERE item_id = ?", (item_id,))
    if not rows:
        return HoldState(item_id, False, None)
    suspended, buried = rows[0]
    return HoldState(item_id, bool(suspended), buried if isinstance(buried, str) else None)


def restore_hold(store: Store, state: HoldState, now: dt.datetime | None = None) -> None:
    """Put ``state`` back (the undo of a suspend, bury or unsuspend), stamped now: a merge of an older backup
    must see the undo as the newest word on the item, as it does a release."""
    _write(store, state.item_id, suspended=int(state.suspended), buried_until=state.buried_until,
           now=now or dt.datetime.now(dt.timezone.utc))


@dataclass(frozen=True)
class Control:
    item_id: str
    suspended: bool
    buried_until: dt.datetime | None


def controls(store: Store) -> list[Control]:
    """Every item with a suspension or a burial on record (a burial may have lapsed already)."""
    rows = store._query("SELECT item_id, suspended, buried_until FROM item_control"
                        " WHERE suspended = 1 OR buried_until IS NOT NULL ORDER BY item_id")
    return [Control(i, bool(s), parse_iso(b)) for i, s, b in rows]


def suspended_ids(store: Store) -> set[str]:
    return {r[0] for r in store._query("SELECT item_id FROM item_control WHERE suspended = 1")}


def held_back(store: Store, now: dt.datetime | None = None) -> set[str]:
    """Ids not to draw or show now: suspended ones, and buried ones whose day has not ended."""
    stamp = utc_iso(now or dt.datetime.now(dt.timezone.utc))
    rows = store._query("SELECT item_id FROM item_control WHERE suspended = 1 OR buried_until > ?", (stamp,))
    return {r[0] for r in rows}


def new_per_day(store: Store) -> int:
    value = store.get_setting("new_per_day")
    return int(value) if isinstance(value, int) and value >= 0 else DEFAULT_NEW_PER_DAY


def new_seen_today(store: Store, now: dt.datetime) -> int:
    """Items (cards and questions) whose very first answer or rating fell on ``now``'s local day."""
    since = utc_iso(start_of_day(now))
    rows = store._query(
        "SELECT count(*) FROM (SELECT item_id, min(at) AS first FROM (SELECT item_id, at FROM attempts"
        " UNION ALL SELECT card_id, at FROM reviews) GROUP BY item_id) WHERE first >= ?",
        (since,),
    )
    return int(rows[0][0])


def new_allowance(store: Store, now: dt.datetime) -> int:
    """How many items never seen the learner may still start today under the ``new_per_day`` cap."""
    return max(0, new_per_day(store) - new_seen_today(store, now))


@dataclass
class ReviewQueue:
    """One review session's queue: due now, held-back items left out, each item at most once.

    ``take(now)`` returns the items due at ``now`` that this session has not handed out yet, most overdue
    first, and marks them handed out; call it again (the screen's "more?") and only items that fell due and
    were not shown come back. ``kind`` is ``"card"``, ``"question"`` or None for both; ``known`` (optional)
    the ids still in the bank.
    """

    store: Store
    kind: str | None = None
    known: Iterable[str] | None = None
    shown: set[str] = field(default_factory=set)

    def take(self, now: dt.datetime) -> list[str]:
        known = set(self.known) if self.known is not None else None
        out = [i for i in self.store.due(now, kind=self.kind)  # type: ignore[arg-type]
               if i not in self.shown and (known is None or i in known)]
        self.shown.update(out)
        return out


# How alike (rapidfuzz's ratio, 0-100) a known id must be to a mistyped one to be suggested: "d1-mlops-3" is 95
# to "d1-mlops-03", while an id of another topic sharing only its domain prefix stays well under.
NEAR_ID_CUTOFF = 75
NEAR_IDS = 3


def nearest_ids(item_id: str, ids: Iterable[str], limit: int = NEAR_IDS) -> list[str]:
    """The known ids most like ``item_id`` (a typo, a missing zero, the wrong case), best first."""
    from rapidfuzz import fuzz, process

    found = process.extract(item_id.lower(), {i: i.lower() for i in ids}, scorer=fuzz.ratio, limit=limit,
                            score_cutoff=NEAR_ID_CUTOFF)
    return [key for _text, _score, key in found]


def check_item(bank: Any, item_id: str) -> str:
    """``"card"`` or ``"question"`` for an id of ``bank``; ``UnknownItem`` with a one-line message otherwise,
    naming the nearest ids when some are close (issue 37 §3: ``d1-mlops-3`` for ``d1-mlops-03``)."""
    if any(q.id == item_id for q in bank.questions):
        return "question"
    if any(c.id == item_id for c in bank.cards):
        return "card"
    near = nearest_ids(item_id, [q.id for q in bank.questions] + [c.id for c in bank.cards])
    if near:
        listed = near[0] if len(near) == 1 else f"{', '.join(near[:-1])} or {near[-1]}"
        raise UnknownItem(f"no card or question with id {item_id!r}; did you mean {listed}?")
    raise UnknownItem(f"no card or question with id {item_id!r} (ids are in the question and topic files, and on "
                      "screen in the app; `study preview ID` shows a question)")
