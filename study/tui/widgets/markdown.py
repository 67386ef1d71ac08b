"""Markdown for cards, help and feedback, with tables laid out the way a reader expects on 80 columns.

Textual's own table shrinks columns from the left when the table is wider than the screen, so the first
column (usually the row's name: "A100 SXM 80GB", "Memory holds") wraps word by word while wide prose columns
stay whole, and a column narrower than its longest word shows "…". Here the column that wraps the least gives way
first, no column goes below its longest word while any other can still give, and a word that still cannot fit
folds onto the next line rather than being cut (see ``MarkdownTableContent`` in app.tcss).
"""

from __future__ import annotations

import textwrap

from markdown_it import MarkdownIt
from rich.cells import cell_len
from textual import events
from textual.content import Content
from textual.layout import Layout
from textual.layouts.grid import GridLayout
from textual.widgets import Markdown
from textual.widgets._markdown import MarkdownTable, MarkdownTableContent

GAP = 2  # blank columns after each column's text: the cells' right padding in app.tcss

# Stems and choices are one short paragraph of inline Markdown (bold, code, emphasis). Drawn as Content they
# lay out in the same refresh as the rest of the question (a Markdown widget mounts its blocks later, so the
# choices could be painted before their stem) and fit in an OptionList prompt.
_INLINE_STYLES = {"strong": "bold", "em": "italic", "s": "strike", "code_inline": "bold $text-warning"}
_PARSER = MarkdownIt("commonmark").enable("strikethrough")


def inline_content(source: str, code: list[str] | None = None) -> Content:
    """``source`` (Markdown) as styled Content: inline marks rendered, paragraphs apart by a blank line,
    soft line breaks re-flowed as spaces, any other block kept as its plain text. Given a list ``code``, the
    code blocks go there instead (a tool's output, shown apart so that it is never wrapped)."""
    parts: list[str | tuple[str, str]] = []
    blocks = 0
    for token in _PARSER.parse(source or ""):
        if token.type != "inline":
            if token.type in ("fence", "code_block"):
                if code is not None:
                    code.append(token.content.rstrip("\n"))
                    continue
                parts.append(("\n\n" if blocks else "") + token.content.rstrip("\n"))
                blocks += 1
            continue
        if blocks:
            parts.append("\n\n")
        blocks += 1
        open_styles: list[str] = []
        for child in token.children or ():
            kind = child.type
            if kind.endswith("_open") and kind[:-5] in _INLINE_STYLES:
                open_styles.append(_INLINE_STYLES[kind[:-5]])
            elif kind.endswith("_close") and kind[:-6] in _INLINE_STYLES and open_styles:
                open_styles.pop()
            elif kind == "code_inline":
                parts.append((child.content, " ".join([*open_styles, _INLINE_STYLES["code_inline"]])))
            elif kind == "softbreak":
                parts.append(" ")
            elif kind == "hardbreak":
                parts.append("\n")
            elif child.content:
                parts.append((child.content, " ".join(open_styles)) if open_styles else child.content)
    return Content.assemble(*parts)


def wrapped_lines(text: str, width: int) -> int:
    """Lines ``text`` takes wrapped at word boundaries into ``width`` cells (a longer word folds)."""
    return sum(max(1, len(textwrap.wrap(line, max(1, width)))) for line in text.splitlines() or [""])


def column_widths(rows: list[list[str]], available: int) -> list[int]:
    """Column widths for ``rows`` of cell texts (header first) in ``available`` cells, gutters already taken
    off. Each column starts at its widest cell; while the table is too wide, one column gives up one cell: the
    one that makes the table the fewest lines taller (a cell that wraps in a row that is already tall costs
    nothing), then the one that wraps the fewest cells, then the widest. No column goes below its longest word
    while another can still give, so words fold only when every column is down to its longest word."""
    columns = max((len(row) for row in rows), default=0)
    grid = [[row[c] if c < len(row) else "" for c in range(columns)] for row in rows]
    widths = [max([1] + [cell_len(line) for row in grid for line in row[c].splitlines()]) for c in range(columns)]
    floors = [max([1] + [cell_len(word) for row in grid for word in row[c].split()]) for c in range(columns)]
    floors = [min(f, w) for f, w in zip(floors, widths)]

    def lines(trial: list[int]) -> tuple[int, int]:
        per_cell = [[wrapped_lines(text, trial[c]) for c, text in enumerate(row)] for row in grid]
        return sum(max(row, default=1) for row in per_cell), sum(sum(row) for row in per_cell)

    excess = sum(widths) - max(available, columns)
    while excess > 0:
        shrinkable = [c for c in range(columns) if widths[c] > floors[c]] or [
            c for c in range(columns) if widths[c] > 1]
        cost = {c: lines([w - (i == c) for i, w in enumerate(widths)]) for c in shrinkable}
        give = min(shrinkable, key=lambda c: (*cost[c], -widths[c]))
        widths[give] -= 1
        excess -= 1
    return widths


class ReaderTableContent(MarkdownTableContent):
    """The grid of one table, its column widths set from the cells' text and the width it is given, every
    other row shaded: with no rule between rows, the shade shows where a row that wraps ends."""

    def compose(self):
        columns = max(1, len(self.headers))
        for index, cell in enumerate(super().compose()):
            row = index // columns  # 0 is the header
            if row and row % 2 == 0:
                cell.add_class("-even")
            if index % columns == columns - 1:
                cell.add_class("-last")  # no gap after the last column
            yield cell

    def pre_layout(self, layout: Layout) -> None:
        super().pre_layout(layout)
        assert isinstance(layout, GridLayout)
        if self.styles.grid_columns and len(self.styles.grid_columns) == len(self.headers):
            # The widths below already fit; stretching them would only spread the columns apart.
            layout.expand = False
            layout.shrink = False

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        columns = max(1, len(self.headers))
        texts = [cell.plain for cell in [*self.headers, *(cell for row in self.rows for cell in row)]]
        rows = [texts[i:i + columns] for i in range(0, len(texts), columns)]
        widths = column_widths(rows, width - GAP * (columns - 1))
        spec = " ".join(str(w + GAP) for w in widths[:-1]) + f" {widths[-1]}"
        if spec != getattr(self, "_spec", None):
            self._spec = spec
            self.styles.grid_columns = spec


class ReaderTable(MarkdownTable):
    def compose(self):
        headers, rows = self._get_headers_and_rows()
        self._headers = headers
        self._rows = rows
        yield ReaderTableContent(headers, rows)


class ReaderMarkdown(Markdown):
    """Markdown whose tables are compact and never cut a word (the app's only Markdown widget)."""

    BLOCKS = {**Markdown.BLOCKS, "table_open": ReaderTable}
