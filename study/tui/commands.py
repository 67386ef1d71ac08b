"""Command palette: every topic and card of the bank (screens come from ``StudyApp.get_system_commands``)."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


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
                    score,
                    matcher.highlight(title),
                    partial(self.app.open_topic, topic_id, card_id),
                    help=help_text,
                )
