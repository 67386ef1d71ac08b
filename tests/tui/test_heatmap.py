"""Home's activity calendar: what it draws per day, and that a run of days in one style is one span."""

from __future__ import annotations

from datetime import date, timedelta

from study.tui.widgets.heatmap import HEAT_STYLES, LEVELS, Heatmap

TODAY = date(2026, 12, 2)  # a Wednesday


def _styles_per_char(text) -> list[str]:
    styles = [""] * len(text.plain)
    for span in text.spans:
        for i in range(span.start, span.end):
            styles[i] = str(span.style)
    return styles


def test_an_empty_year_is_a_few_runs_not_a_span_per_day() -> None:
    heat = Heatmap()
    heat.set_counts({}, TODAY)
    text = heat.render()
    lines = text.plain.split("\n")
    assert len(lines) == 8 and lines[1].startswith("Mon ") and "·" in lines[1]
    # Month row, then per weekday: label and past days (one dim run), then the days after today (unstyled).
    assert len(text.spans) <= 1 + 7 * 2


def test_each_day_keeps_its_level_glyph_and_colour() -> None:
    heat = Heatmap()
    counts = {TODAY: 9, TODAY - timedelta(days=1): 1, TODAY - timedelta(days=2): 1, TODAY - timedelta(days=7): 3}
    heat.set_counts(counts, TODAY)
    text = heat.render()
    styles = _styles_per_char(text)
    lines = text.plain.split("\n")
    starts = [sum(len(line) + 1 for line in lines[:i]) for i in range(len(lines))]
    # Today is the last column drawn on Wednesday's row; Monday and Tuesday of this week sit above it. Every
    # glyph is drawn in its level's colour, the busiest day darkest.
    wed = lines[3]
    col = len(wed) - 1
    levels = {}
    for row in (1, 2, 3):
        glyph = lines[row][col]
        level = LEVELS.index(glyph)
        assert level > 0 and styles[starts[row] + col] == HEAT_STYLES[level]
        levels[row] = level
    assert levels[1] == levels[2] == 1 and levels[3] > 1
    # A day without study is a dim dot; the label column is dim too.
    assert lines[3][col - 2] == "·" and styles[starts[3] + col - 2] == "dim"
    assert styles[starts[1]] == "dim"
