"""Which progress exports come from one store: they share attempt uids, so they are one learner."""

from __future__ import annotations

from typing import Any
from collections.abc import Sequence


def same_store_groups(exports: Sequence[Any]) -> list[list[int]]:
    """Exports grouped by shared attempt uids (transitively): each group is one store, so one learner."""
    parent = list(range(len(exports)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # A class is 100,000s of attempts and usually no file shares one: a set of every uid finds that at one
    # insert per attempt; which file holds each uid is recorded only once a file brings a uid already seen.
    seen: set[str] = set()
    owner: dict[str, int] | None = None
    for i, ex in enumerate(exports):
        if not ex.uids:
            continue
        if owner is None:
            before = len(seen)
            seen.update(ex.uids)
            if len(seen) - before == len(ex.uids):
                continue
            owner = {}
            for j in range(i):
                owner.update(dict.fromkeys(exports[j].uids or (), j))
            seen.clear()
        mine = set(ex.uids)
        shared = owner.keys() & mine
        for uid in shared:
            parent[root(i)] = root(owner[uid])
        owner.update(dict.fromkeys(mine - shared, i))
    groups: dict[int, list[int]] = {}
    for i in range(len(exports)):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())
