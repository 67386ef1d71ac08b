"""Horizontal bars for readiness, scores and memory, drawn as text so they work in 80 columns and NO_COLOR."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

EIGHTHS = " ▏▎▍▌▋▊▉█"
MIN_BAR = 4  # cells a bar keeps before its label is shortened


def bar(fraction: float, width: int, *, style: str = "", marker: float | None = None) -> Text:
    """A bar ``width`` cells wide filled to ``fraction`` (clamped), with an optional target tick."""
    width = max(1, width)
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    cells = ["█"] * full
    if full < width:
        cells.append(EIGHTHS[part] if part else " ")
        cells.extend(" " * (width - full - 1))
    if marker is not None and 0 <= marker <= 1:
        idx = min(width - 1, int(marker * width))
        if cells[idx] == " ":
            cells[idx] = "│"
    text = Text("".join(cells), style=style)
    return text


@dataclass(frozen=True)
class BarRow:
    label: str
    fraction: float
    value: str
    marker: float | None = None
    style: str = ""
    # Kept whole when the label is shortened to fit, e.g. a domain's weight "(38%)" after its name.
    suffix: str = ""

    @property
    def full_label(self) -> str:
        return f"{self.label} {self.suffix}" if self.suffix else self.label

    def fitted_label(self, width: int) -> str:
        full = self.full_label
        if len(full) <= width:
            return full
        if self.suffix and width > len(self.suffix) + 2:
            room = width - len(self.suffix) - 1
            return self.label[: room - 1] + "… " + self.suffix
        return full[: width - 1] + "…"


class BarChart(Static):
    """Labelled bars; the bar width follows the widget's width so resizing keeps one row per bar."""

    DEFAULT_CSS = """
    BarChart { height: auto; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, rows: list[BarRow] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._rows = list(rows or [])

    def set_rows(self, rows: list[BarRow]) -> None:
        self._rows = list(rows)
        self.refresh(layout=True)

    @property
    def rows(self) -> list[BarRow]:
        return list(self._rows)

    def get_content_height(self, container, viewport, width: int) -> int:
        return max(1, len(self._rows))

    def render(self) -> Text:
        if not self._rows:
            return Text("")
        width = max(self.content_size.width, 20)
        label_w = min(max(len(r.full_label) for r in self._rows), max(10, width // 2))
        value_w = max(len(r.value) for r in self._rows)
        # Every row fits the width: a row that wrapped would push the last rows (a total) out of the panel.
        # A long value (e.g. "167 GB / 141 GB") takes room from the bar first, then from the labels.
        bar_w = width - label_w - value_w - 2
        if bar_w < MIN_BAR:
            label_w = max(6, label_w - (MIN_BAR - bar_w))
            bar_w = max(1, width - label_w - value_w - 2)
        out = Text(no_wrap=True, overflow="ellipsis")
        for i, row in enumerate(self._rows):
            if i:
                out.append("\n")
            out.append(row.fitted_label(label_w).ljust(label_w) + " ")
            out.append_text(bar(row.fraction, bar_w, style=row.style or "green", marker=row.marker))
            out.append(" " + row.value.rjust(value_w))
        return out
