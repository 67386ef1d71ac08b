"""Command palette: every topic and card of the bank (screens come from ``StudyApp.get_system_commands``)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.css.query import NoMatches

if TYPE_CHECKING:
    from study.tui.app import StudyApp


class GuardedCommandPalette(CommandPalette):
    """Textual's palette, less a crash (issue 19, defect 11; Textual 8.2.8): PageDown or PageUp while the
    result list is being rebuilt, with no height, is ``KeyError: 0`` in ``OptionList._move_page`` (no line
    laid out yet), or ``NoMatches`` when the list is gone. The key is dropped instead; the next one works.
    Reproduction for upstream: /work/notes/textual-palette-bug.md."""

    def _action_command_list(self, action: str) -> None:
        try:
            super()._action_command_list(action)
        except (KeyError, IndexError, NoMatches):
            pass

    def _action_cursor_down(self) -> None:
        try:
            super()._action_cursor_down()
        except (KeyError, IndexError, NoMatches):
            pass


# Topics and cards share the palette with the screens ("Go to Exam"): a screen the query names comes first,
# so a card that merely contains "example" does not push "Go to Exam" down the list.
TOPIC_WEIGHT, CARD_WEIGHT = 0.6, 0.5


def content_score(score: float, card_id: str | None) -> float:
    """The matcher's score of a topic or card, ranked below screens."""
    return score * (CARD_WEIGHT if card_id else TOPIC_WEIGHT)


class TopicsProvider(Provider):
    @property
    def _study_app(self) -> StudyApp:
        # Provider.app is typed App[object]; this provider is only in StudyApp.COMMANDS.
        return cast("StudyApp", self.app)

    def _entries(self) -> list[tuple[str, str, str, str | None]]:
        services = getattr(self.app, "services", None)
        bank = services and services.bank
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
                yield DiscoveryHit(title, partial(self._study_app.open_topic, topic_id, None), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, topic_id, card_id in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    content_score(score, card_id),
                    matcher.highlight(title),
                    partial(self._study_app.open_topic, topic_id, card_id),
                    help=help_text,
                )
