"""A learner's own stored answers marked again after the bank changed (``study regrade``).

Only attempts of questions whose content changed since (their content hash differs) are looked at, and
only where the question as shown then still matches the question now: the same stem (with the learner's
parameters), the same choices (texts, in any order), the same unit. Then only the key can have changed,
and the response the learner gave is marked again against it, exactly. An attempt asked differently (a
reworded stem, an edited choice) keeps its grade: the learner answered another question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from study.analysis.answers import response_of
from study.analysis.rekey import Keys, mark_now
from study.progress.regrades import RegradeChange


@dataclass(frozen=True)
class RegradePlan:
    changes: tuple[RegradeChange, ...]
    unchanged: int  # attempts of changed questions whose mark stays
    not_comparable: int  # attempts of changed questions asked differently, or with no response kept
    missing: int  # attempts of questions not in the bank regraded against
    missing_by_id: Mapping[str, int] = field(default_factory=dict)  # those attempts per question id


def _still_matches(question: Any, shown: Mapping[str, Any], params: Mapping[str, Any], keys: Keys) -> bool:
    from study.quiz.instance import InstanceError, render_stem

    if shown.get("type") != question.type:
        return False
    try:
        stem = render_stem(question, params) if question.params else question.stem
    except (InstanceError, KeyError, ValueError):
        return False
    if str(shown.get("stem", "")).strip() != stem.strip():
        return False
    texts = sorted(str(c.get("text")) for c in shown.get("choices") or () if isinstance(c, Mapping))
    if question.type in ("single", "multi"):
        return texts == sorted(c.text for c in question.choices or ())
    if question.type == "numeric":
        inst = keys.instance(question, params)
        numeric = raw if isinstance(raw := shown.get("numeric"), Mapping) else {}
        return inst is not None and inst.numeric is not None and numeric.get("unit") == inst.numeric.unit
    return True


def plan_regrade(attempts: list[Any], bank: Any) -> RegradePlan:
    """What a regrade of ``attempts`` (the store's :class:`~study.progress.Attempt` objects) would change."""
    from study.quiz.instance import content_hash

    def current_hash(question: Any) -> str:
        # The hash the quiz records with each attempt (the bank's), so an unchanged question is skipped.
        fn = getattr(bank, "content_hash", None)
        return fn(question.id) if fn is not None else content_hash(question)

    known = {q.id: q for q in bank.questions}
    hashes: dict[str, str] = {}
    keys = Keys()
    changes: list[RegradeChange] = []
    unchanged = not_comparable = missing = 0
    missing_by_id: dict[str, int] = {}
    for a in attempts:
        question = known.get(a.item_id)
        if question is None:
            missing += 1
            missing_by_id[a.item_id] = missing_by_id.get(a.item_id, 0) + 1
            continue
        now_hash = hashes.get(a.item_id) or hashes.setdefault(a.item_id, current_hash(question))
        if a.content_hash == now_hash:
            continue
        shown = a.shown if isinstance(a.shown, Mapping) else None
        response = response_of({"given": a.given, "picked": list(a.picked), "shown": shown, "params": a.params})
        if shown is None or response is None or not _still_matches(question, shown, a.params, keys):
            not_comparable += 1
            continue
        mark = mark_now(question, response, keys)
        if mark is None:
            not_comparable += 1
        elif bool(mark) == a.correct:
            unchanged += 1
        else:
            changes.append(RegradeChange(a.uid, a.item_id, a.at, float(a.seconds), a.correct, bool(mark), now_hash))
    changes.sort(key=lambda c: (c.at, c.attempt_uid))
    return RegradePlan(tuple(changes), unchanged, not_comparable, missing, missing_by_id)
