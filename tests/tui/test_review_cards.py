"""Review asks before it tells: a card's front is its recall prompt (or a question built from its heading),
the back is the card; the last rating can be taken back with u, restoring the card's schedule exactly."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from tests.tui.conftest import answered, settle

CARD = "fx-ai-ml-dl/nested"
PROMPT = "How do AI, machine learning and deep learning relate to each other?"
BODY_WORDS = "Deep learning is the subset"


def with_prompt(bank: Any, card_id: str, prompt: str) -> Any:
    topics = []
    for topic in bank.topics:
        cards = tuple(c.model_copy(update={"prompt": prompt}) if c.id == card_id else c for c in topic.cards)
        topics.append(topic.model_copy(update={"cards": cards}))
    return dataclasses.replace(bank, topics=tuple(topics))


def due(store: Any, bank: Any, clock: Any) -> None:
    from study.progress import Rating

    store.review_card(CARD, bank.content_hash(CARD), Rating.Again, 20, clock.now - dt.timedelta(days=5))


def card_text(app: Any) -> str:
    return app.screen.query_one("#review-card-md").source


def footer_keys(app: Any) -> set[str]:
    return {k for k, a in app.screen.active_bindings.items() if a.binding.show}


async def test_the_front_asks_the_prompt_and_the_back_shows_the_card(make_app, store, bank, clock):
    bank = with_prompt(bank, CARD, PROMPT)
    due(store, bank, clock)
    app = make_app(bank=bank)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        front = card_text(app)
        assert PROMPT in front and BODY_WORDS not in front and "Nested sets" not in front
        # Nothing to rate before the card is shown: the footer offers space, not 1-4.
        assert "space" in footer_keys(app) and not {"1", "2", "3", "4"} & footer_keys(app)
        await pilot.press("3")  # not a rating yet
        await settle(pilot, app)
        assert len(store.reviews(CARD)) == 1 and app.screen.phase == "card"
        await pilot.press("space")
        await settle(pilot, app)
        back = card_text(app)
        assert "Nested sets" in back and BODY_WORDS in back
        assert {"1", "2", "3", "4"} <= footer_keys(app) and "space" not in footer_keys(app)


async def test_without_a_prompt_the_front_asks_from_the_heading(make_app, store, bank, clock):
    bank = with_prompt(bank, CARD, None)  # lint requires a prompt, but a card served without one still works
    due(store, bank, clock)
    app = make_app(bank=bank)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        assert "Recall: Nested sets" in card_text(app) and BODY_WORDS not in card_text(app)


async def test_u_takes_back_the_last_rating_and_shows_the_card_again(make_app, store, bank, clock):
    due(store, bank, clock)
    before = store.item_state(CARD)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        assert "u" not in footer_keys(app)  # nothing to undo yet
        await pilot.press("space", "4")
        await settle(pilot, app)
        assert app.screen.phase == "done" and store.item_state(CARD).due > clock.now
        assert "u" in footer_keys(app)
        await pilot.press("u")
        await settle(pilot, app)
        after = store.item_state(CARD)
        assert (after.due, after.last_review, after.card.to_json()) == (before.due, before.last_review,
                                                                         before.card.to_json())
        assert len(store.reviews(CARD)) == 1
        screen = app.screen
        assert screen.phase == "card" and not screen.revealed and screen.position == 0
        assert "u" not in footer_keys(app)
        # Rated again, it is recorded once more.
        await pilot.press("space", "2")
        await settle(pilot, app)
        assert [r.rating.name for r in store.reviews(CARD)] == ["Hard", "Again"]


async def test_a_question_in_review_hides_the_card_ratings(make_app, store, bank, clock):
    qid = "fx-d1-nccl"
    answered(store, bank, clock, qid)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("r")
        await settle(pilot, app)
        assert app.screen.phase == "question"
        keys = footer_keys(app)
        assert not {"1", "2", "3", "4", "space"} & keys
        await pilot.press("2")  # picks choice B, as in practice
        await settle(pilot, app)
        assert app.screen.query_one("#q-choices").picked == {1}
