"""A card's recall prompt: written `? question` under its heading, kept out of the body, required by lint."""

from __future__ import annotations

from pathlib import Path

from study.bank.lint import lint
from study.bank.load import load_topic_file

FRONT = """---
id: t-prompt
title: Prompt test
objectives: ["2.1"]
references:
  - title: NVIDIA MIG User Guide
    url: https://docs.nvidia.com/datacenter/tesla/mig-user-guide/
verified: 2026-12-01
---
Intro text.

"""


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "t-prompt.md"
    path.write_text(FRONT + body)
    return path


def test_the_prompt_line_becomes_the_cards_prompt_and_leaves_the_body(tmp_path: Path) -> None:
    path = _write(tmp_path, "## MIG {#mig}\n\n? What does MIG partition in hardware?\nSM, cache and memory.\n\n## Second\n? Why?   \nBecause.\n")
    topic, diags = load_topic_file(path)
    assert diags == []
    first, second = topic.cards
    assert first.prompt == "What does MIG partition in hardware?"
    assert first.body == "SM, cache and memory."
    assert second.prompt == "Why?" and second.body == "Because."


def test_a_question_mark_line_later_in_the_card_is_body_text(tmp_path: Path) -> None:
    path = _write(tmp_path, "## Card\n? Asked first?\nText.\n? not a prompt\n")
    topic, _ = load_topic_file(path)
    assert topic.cards[0].prompt == "Asked first?"
    assert topic.cards[0].body == "Text.\n? not a prompt"


def test_a_missing_prompt_is_an_error_at_the_cards_heading(tmp_path: Path) -> None:
    body = "## Has one\n? Asked?\nText.\n\n## Lacks one\nText only.\n\n## Too late\nText.\n? Asked after the text?\n"
    path = _write(tmp_path, body)
    lines = (FRONT + body).splitlines()
    found = [(d.line, d.column, d.severity, d.code) for d in lint([path], with_calc=False).diagnostics]
    assert found == [
        (lines.index("## Lacks one") + 1, 1, "error", "missing-prompt"),
        (lines.index("## Too late") + 1, 1, "error", "missing-prompt"),
    ]


def test_a_card_with_only_a_prompt_is_empty(tmp_path: Path) -> None:
    path = _write(tmp_path, "## Card\n? Asked?\n\n")
    topic, diags = load_topic_file(path)
    assert [d.code for d in diags] == ["empty-card"] and topic.cards == ()


def test_every_shipped_card_has_a_prompt() -> None:
    from study.bank import load_bank

    bank = load_bank()
    assert bank.cards and all(c.prompt and c.prompt.endswith("?") for c in bank.cards)
    assert not any(c.body.lstrip().startswith("? ") for c in bank.cards)
