"""Home's "study next" rows: the title gives way (with …) so the objective and the gain always show."""

from __future__ import annotations

import pytest
from rich.console import Console

from study.tui.summary import next_table


@pytest.mark.parametrize("width", [30, 44, 80])
def test_a_row_fills_the_width_and_keeps_its_gain_right_aligned(width: int) -> None:
    console = Console(width=width, record=True, color_system=None)
    console.print(next_table([("2.1", "Identify hardware requirements for specific AI training tasks", "+4.4 pts/h")]))
    (line,) = console.export_text().splitlines()
    assert line.startswith("2.1 ") and line.endswith(" +4.4 pts/h") and len(line) == width
    assert ("…" in line) is (width < 4 + 62 + 12)


def test_several_rows_stack_one_a_line() -> None:
    console = Console(width=60, record=True, color_system=None)
    console.print(next_table([("1.1", "A", "+1 pts/h"), ("1.2", "B", "+2 pts/h")]))
    assert [ln.split()[0] for ln in console.export_text().splitlines()] == ["1.1", "1.2"]
