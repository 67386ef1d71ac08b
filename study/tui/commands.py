"""Command palette: every topic and card of the bank (screens come from ``StudyApp.get_system_commands``)."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


# Topics and cards share the palette with the screens ("Go to Exam"): a screen the query names comes first,
# so a card that merely contains "example" does not push "Go to Exam" down the list.
TOPIC_WEIGHT, CARD_WEIGHT = 0.6, 0.5


def content_score(score: float, card_id: str | None) -> float:
    """The matcher's score of a topic or card, ranked below screens."""
    return score * (CARD_WEIGHT if card_id else TOPIC_WEIGHT)


class TopicsProvider(Provider):
    def _entries(self) -> list[tuple[str, str, str, str | None]]:
        bank = getattr(self.app, "services", None) and self.app.services.bank
        if bank is None:
            return []
        entries: list[tuple[str, str, str, str | None]] = []
        for topic in bank.topics:
            objectives = ", ".join(topic.meta.objectives)
            entries.append((f"Topic: {topic.meta.title}", f"objectives {objectives}", topic.id, None))
            for card in topic.cards:
                entries.append((f"Card: {topic.meta.title} / {card.title}", card.id, topic.id, card.id))
        return entries

    async def discover(self) -> Hits:
        for title, help_text, topic_id, card_id in self._entries():
            if card_id is None:
                yield DiscoveryHit(title, partial(self.app.open_topic, topic_id, None), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, topic_id, card_id in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    content_score(score, card_id),
                    matcher.highlight(title),
                    partial(self.app.open_topic, topic_id, card_id),
                    help=help_text,
                )
