"""Thin calls from screens into the core services, in one place so the screens stay free of store details."""

from __future__ import annotations

from typing import Any

from study.tui.services import Services


def rate_card(services: Services, card_id: str, rating: str, seconds: float) -> None:
    """Record a topic-card review (Again/Hard/Good/Easy) with the scheduler."""
    from study.progress import Rating

    store = services.store
    bank = services.bank
    store.review_card(card_id, bank.content_hash(card_id), getattr(Rating, rating.capitalize()), seconds,
                      services.now())


def settings(services: Services) -> dict[str, Any]:
    keys = ("exam_date", "daily_goal", "desired_retention", "theme")
    return {k: services.setting(k) for k in keys}
