"""The exam's question navigator: one numbered cell per question, marked answered, flagged or not yet."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

CELL = 4  # " 12 " plus nothing: cells are fixed width so a click maps to a question


class Navigator(Widget):
    DEFAULT_CSS = """
    Navigator { height: auto; }
    """

    class Selected(Message):
        def __init__(self, navigator: "Navigator", index: int) -> None:
            super().__init__()
            self.navigator = navigator
            self.index = index

        @property
        def control(self) -> "Navigator":
            return self.navigator

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.answered: list[bool] = []
        self.flagged: list[bool] = []
        self.current = 0

    def set_state(self, answered: list[bool], flagged: list[bool], current: int) -> None:
        self.answered, self.flagged, self.current = list(answered), list(flagged), current
        self.refresh(layout=True)

    def _per_row(self) -> int:
        return max(1, (self.size.width or 80) // CELL)

    def get_content_height(self, container, viewport, width: int) -> int:
        per_row = max(1, width // CELL)
        rows = -(-len(self.answered) // per_row) if self.answered else 1
        return rows + 1

    def render(self) -> Text:
        per_row = self._per_row()
        out = Text()
        for i, done in enumerate(self.answered):
            if i and i % per_row == 0:
                out.append("\n")
            flag = self.flagged[i] if i < len(self.flagged) else False
            label = f"{i + 1:>2}{'⚑' if flag else ('✓' if done else ' ')} "
            style = "green" if done else "dim"
            if flag:
                style = "bold yellow"
            if i == self.current:
                style += " reverse"
            out.append(label, style=style)
        answered = sum(self.answered)
        flagged = sum(self.flagged)
        out.append(f"\n✓ answered {answered}  ⚑ flagged {flagged}  · unanswered {len(self.answered) - answered}",
                   style="dim")
        return out

    def on_click(self, event: events.Click) -> None:
        per_row = self._per_row()
        index = event.y * per_row + event.x // CELL
        if event.x // CELL < per_row and 0 <= index < len(self.answered):
            self.post_message(self.Selected(self, index))
