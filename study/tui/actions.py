"""Thin calls from screens into the core services, in one place so the screens stay free of store details."""

from __future__ import annotations

from typing import Any

from study.tui.services import Services


def rate_card(services: Services, card_id: str, rating: str, seconds: float, fallback: Any = None) -> None:
    """Record a topic-card review (Again/Hard/Good/Easy) with the scheduler. ``fallback`` is a bank to take
    the card's content hash from when a live reload has just dropped it from the current one."""
    from study.progress import Rating

    store = services.store
    bank = services.bank
    if fallback is not None and (bank is None or not bank.has_item(card_id)):
        bank = fallback
    store.review_card(card_id, bank.content_hash(card_id), getattr(Rating, rating.capitalize()), seconds,
                      services.now())


def settings(services: Services) -> dict[str, Any]:
    keys = ("exam_date", "daily_goal", "desired_retention", "theme")
    return {k: services.setting(k) for k in keys}
