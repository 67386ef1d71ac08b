"""The exam's question navigator: one numbered cell per question, marked answered, partly answered or blank,
and flagged on top of that (a flag does not hide whether the question is answered).

Clicked, or driven by keys: the arrows move a cursor over the cells and enter goes to the question under it.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from study.tui.exam_state import ANSWERED, BLANK, PARTIAL

CELL = 5  # "12✓⚑ ": cells are fixed width so a click maps to a question
MARK = {ANSWERED: "✓", PARTIAL: "◐", BLANK: " "}


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
        def __init__(self, navigator: Navigator, index: int) -> None:
            super().__init__()
            self.navigator = navigator
            self.index = index

        @property
        def control(self) -> Navigator:
            return self.navigator

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        # One of exam_state's ANSWERED / PARTIAL / BLANK per question.
        self.states: list[str] = []
        self.flagged: list[bool] = []
        self.current = 0
        # The cell the keys move over (drawn underlined while the navigator has focus).
        self.cursor = 0

    def set_state(self, states: list[str], flagged: list[bool], current: int) -> None:
        self.states, self.flagged, self.current = list(states), list(flagged), current
        self.cursor = current
        self.refresh(layout=True)

    def action_move_to(self, index: int) -> None:
        if self.states:
            self.cursor = index % len(self.states)
            self.refresh()

    def action_move(self, step: int) -> None:
        if self.states:
            self.action_move_to(max(0, min(len(self.states) - 1, self.cursor + step)))

    def action_move_row(self, step: int) -> None:
        target = self.cursor + step * self._per_row()
        if 0 <= target < len(self.states):
            self.action_move_to(target)

    def action_choose(self) -> None:
        if 0 <= self.cursor < len(self.states):
            self.post_message(self.Selected(self, self.cursor))

    def _per_row(self) -> int:
        return max(1, (self.size.width or 80) // CELL)

    def get_content_height(self, container, viewport, width: int) -> int:
        per_row = max(1, width // CELL)
        rows = -(-len(self.states) // per_row) if self.states else 1
        return rows + 1

    def render(self) -> Text:
        per_row = self._per_row()
        out = Text()
        for i, state in enumerate(self.states):
            if i and i % per_row == 0:
                out.append("\n")
            flag = self.flagged[i] if i < len(self.flagged) else False
            label = f"{i + 1:>2}{MARK[state]}{'⚑' if flag else ' '} "
            style = {ANSWERED: "green", PARTIAL: "yellow", BLANK: "dim"}[state]
            if flag:
                style = "bold " + ("yellow" if state == BLANK else style)
            if i == self.current:
                style += " reverse"
            if i == self.cursor and self.has_focus:
                style += " underline"
            out.append(label, style=style)
        partial = self.states.count(PARTIAL)
        legend = f"\n✓ answered {self.states.count(ANSWERED)}  "
        if partial:
            legend += f"◐ partly {partial}  "
        legend += f"· blank {self.states.count(BLANK)}  ⚑ flagged {sum(self.flagged)}"
        out.append(legend, style="dim")
        return out

    def on_click(self, event: events.Click) -> None:
        per_row = self._per_row()
        index = event.y * per_row + event.x // CELL
        if event.x // CELL < per_row and 0 <= index < len(self.states):
            self.post_message(self.Selected(self, index))
