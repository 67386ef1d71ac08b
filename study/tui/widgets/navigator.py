"""The exam's question navigator: one numbered cell per question, marked answered, flagged or not yet.

Clicked, or driven by keys: the arrows move a cursor over the cells and enter goes to the question under it.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

CELL = 4  # " 12 " plus nothing: cells are fixed width so a click maps to a question


class Navigator(Widget, can_focus=True):
    DEFAULT_CSS = """
    Navigator { height: auto; }
    """
    BINDINGS = [
        Binding("left", "move(-1)", "Previous cell", show=False),
        Binding("right", "move(1)", "Next cell", show=False),
        Binding("up", "move_row(-1)", "Row up", show=False),
        Binding("down", "move_row(1)", "Row down", show=False),
        Binding("home", "move_to(0)", "First", show=False),
        Binding("end", "move_to(-1)", "Last", show=False),
        Binding("enter", "choose", "Go to"),
    ]

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
        # The cell the keys move over (drawn underlined while the navigator has focus).
        self.cursor = 0

    def set_state(self, answered: list[bool], flagged: list[bool], current: int) -> None:
        self.answered, self.flagged, self.current = list(answered), list(flagged), current
        self.cursor = current
        self.refresh(layout=True)

    def action_move_to(self, index: int) -> None:
        if self.answered:
            self.cursor = index % len(self.answered)
            self.refresh()

    def action_move(self, step: int) -> None:
        if self.answered:
            self.action_move_to(max(0, min(len(self.answered) - 1, self.cursor + step)))

    def action_move_row(self, step: int) -> None:
        target = self.cursor + step * self._per_row()
        if 0 <= target < len(self.answered):
            self.action_move_to(target)

    def action_choose(self) -> None:
        if 0 <= self.cursor < len(self.answered):
            self.post_message(self.Selected(self, self.cursor))

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
            if i == self.cursor and self.has_focus:
                style += " underline"
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
