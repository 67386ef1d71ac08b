"""Topic cards stay readable on a small terminal and cover every objective.

content/topics/README.md asks for one screenful per card (about 12 to 25 lines at 80 columns); `study lint`
only warns past 40 source lines, which on an 80x24 terminal is almost two screens. The blueprint check in
test_content.py wants 2 cards per objective; the study plan needs at least 3 so that every objective has more
than a single pair of cards to review.
"""

from __future__ import annotations

import textwrap
from collections import Counter

from study.bank import load_bank
from study.bank.schema import Card

# 80 columns minus a border and a margin on each side; 24 rows minus the card's heading and its footer line.
SCREEN_WIDTH = 78
SCREEN_ROWS = 22
MIN_CARDS_PER_OBJECTIVE = 3


def screen_lines(body: str, width: int = SCREEN_WIDTH) -> int:
    """Rows the body takes once lines longer than the screen wrap (a blank line is still a row)."""
    return sum(max(1, len(textwrap.wrap(line, width))) for line in body.splitlines())


def test_every_card_fits_one_80x24_screen() -> None:
    too_long = {c.id: screen_lines(c.body) for c in load_bank().cards if screen_lines(c.body) > SCREEN_ROWS}
    assert not too_long, f"cards longer than {SCREEN_ROWS} rows at {SCREEN_WIDTH} columns: {too_long}"


def test_screen_lines_counts_wrapped_rows() -> None:
    # 3 short lines, one blank, and one line of 200 characters that wraps to 3 rows at 78 columns.
    body = "a\nb\nc\n\n" + " ".join(["word"] * 40)
    assert screen_lines(body) == 4 + 3
    long_card = Card(id="t/c", topic="t", title="c", body="\n".join(["line"] * 30), objectives=("1.1",))
    assert screen_lines(long_card.body) > SCREEN_ROWS


def test_every_objective_has_at_least_three_cards() -> None:
    bank = load_bank()
    per_objective = Counter(o for card in bank.cards for o in set(card.objectives))
    objectives = [o.id for d in bank.blueprint.domains for o in d.objectives]
    thin = {o: per_objective.get(o, 0) for o in objectives if per_objective.get(o, 0) < MIN_CARDS_PER_OBJECTIVE}
    assert not thin, f"objectives with fewer than {MIN_CARDS_PER_OBJECTIVE} cards: {thin}"


def test_prose_and_code_lines_fit_80_columns() -> None:
    # Tables are laid out by the renderer; prose and code are shown as written, so a longer line wraps
    # mid-word (prose) or scrolls sideways (a command the learner may copy).
    wide = []
    for card in load_bank().cards:
        for line in card.body.splitlines():
            if not line.startswith("|") and len(line) > 80:
                wide.append(f"{card.id}: {line[:40]}...")
    assert not wide, f"lines wider than 80 columns: {wide}"
