"""A year of study activity as a GitHub-style calendar: one column per week, one row per weekday."""

from __future__ import annotations

from datetime import date, timedelta

from rich.text import Text
from textual.widgets import Static

# Levels are quantiles of the learner's own non-zero days, so a light week still shows shape.
LEVELS = " ░▒▓█"
HEAT_STYLES = ("", "#2a7a3b", "#2ea043", "#3fb950", "#56d364")
ROW_LABELS = ("Mon", "", "Wed", "", "Fri", "", "Sun")


class Heatmap(Static):
    DEFAULT_CSS = """
    Heatmap { height: 8; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._counts: dict[date, int] = {}
        self._today: date | None = None

    def set_counts(self, counts: dict[date, int], today: date) -> None:
        self._counts = {d: int(n) for d, n in counts.items() if n}
        self._today = today
        self.refresh()

    @staticmethod
    def level(n: int, thresholds: list[int]) -> int:
        if n <= 0:
            return 0
        for i, t in enumerate(thresholds, start=1):
            if n <= t:
                return i
        return len(LEVELS) - 1

    def render(self) -> Text:
        today = self._today or date.today()
        avail = (self.content_size.width or 60) - 4
        # Double-width cells when a whole year fits that way: easier to read on big terminals.
        cell = 2 if avail >= 53 * 2 else 1
        weeks = max(4, min(53, avail // cell))
        # Columns end with the week containing today; rows are Monday..Sunday.
        last_monday = today - timedelta(days=today.weekday())
        first_monday = last_monday - timedelta(weeks=weeks - 1)
        nonzero = sorted(n for d, n in self._counts.items() if d >= first_monday)
        if nonzero:
            q = [nonzero[min(len(nonzero) - 1, int(len(nonzero) * f))] for f in (0.25, 0.5, 0.75)]
        else:
            q = [1, 2, 3]
        # Runs of cells in one style are one span each: the cost of turning the text into lines on every
        # layout grows with the spans, and a year of mostly empty days is a few runs, not 371 cells.
        runs: list[tuple[str, str]] = []

        def put(text: str, style: str) -> None:
            if runs and runs[-1][1] == style:
                runs[-1] = (runs[-1][0] + text, style)
            else:
                runs.append((text, style))

        month_row = [" "] * (weeks * cell)
        for w in range(weeks):
            monday = first_monday + timedelta(weeks=w)
            if monday.day <= 7 and (w * cell) + 3 <= weeks * cell:
                month_row[w * cell : w * cell + 3] = list(monday.strftime("%b"))
        put("    " + "".join(month_row).rstrip() + "\n", "dim")
        for row in range(7):
            put(f"{ROW_LABELS[row]:<4}", "dim")
            for w in range(weeks):
                day = first_monday + timedelta(weeks=w, days=row)
                if day > today:
                    put(" " * cell, "")
                    continue
                lvl = self.level(self._counts.get(day, 0), q)
                glyph = LEVELS[lvl] * cell if lvl else "·" + " " * (cell - 1)
                put(glyph, HEAT_STYLES[lvl] if lvl else "dim")
            if row < 6:
                put("\n", "")
        out = Text()
        for text, style in runs:
            out.append(text, style=style)
        return out
