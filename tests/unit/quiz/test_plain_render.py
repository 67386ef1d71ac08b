"""Issue 14 §2.3 (plain side): Markdown is stripped cleanly and text is wrapped at words, never inside one."""

from __future__ import annotations

import re

import pytest

from study.quiz import grade_answer, instantiate
from study.quiz.plain import describe, feedback_text
from study.text import WIDTH, labelled, plain_text, strip_inline

URL = re.compile(r"<?https?://\S+")


@pytest.mark.parametrize(
    ("markdown", "plain"),
    [
        ("The **BMC** runs `ipmitool sel list`.", "The BMC runs ipmitool sel list."),
        ("An *emphasised* and _quiet_ word.", "An emphasised and quiet word."),
        ("See [the guide](https://docs.nvidia.com/x).", "See the guide <https://docs.nvidia.com/x>."),
        ("2 * 3 * 4 GB, snake_case_name and a \\*literal\\*", "2 * 3 * 4 GB, snake_case_name and a *literal*"),
        ("__strong__ text", "strong text"),
    ],
)
def test_inline_marks_go_and_words_stay(markdown, plain):
    assert strip_inline(markdown) == plain


def test_headings_lists_and_tables():
    md = "## Steps\n\n- first **item** that is long enough to wrap onto a second line at forty columns\n- `second`\n\n| a | b |\n|---|---|"
    text = plain_text(md, 40)
    assert text.splitlines()[0] == "Steps"
    item = [l for l in text.splitlines() if l.startswith("- first")]
    assert item and text.splitlines()[text.splitlines().index(item[0]) + 1].startswith("  ")  # hanging indent
    assert "- second" in text and "| a | b |" in text and "**" not in text


def test_a_label_wraps_with_a_hanging_indent_at_word_boundaries():
    words = "quizzes token " * 12
    out = labelled("Why: ", words.strip(), width=40)
    lines = out.splitlines()
    assert len(lines) > 2 and all(len(l) <= 40 for l in lines)
    assert all(l.startswith("     ") for l in lines[1:])
    assert {w for l in lines for w in l.split()} - {"Why:"} == {"quizzes", "token"}  # no word cut in two


def _shipped():
    from study.bank import load_bank

    return load_bank()


def _check(text: str, where: str) -> None:
    from study.text import CODE_GUTTER

    for line in text.splitlines():
        if line.lstrip().startswith(CODE_GUTTER):
            continue  # a tool's output, shown as the tool prints it (an exhibit): its own columns, not prose
        assert "**" not in line and "`" not in line, (where, line)
        if not URL.search(line):
            assert len(line) <= WIDTH, (where, line)


def test_every_shipped_question_reads_cleanly_in_the_plain_terminal():
    """Every question of the bank, asked both ways, and its feedback for a wrong and a right answer: no line
    longer than the terminal (a URL aside, it cannot be broken), no Markdown mark left."""
    bank = _shipped()
    checked = 0
    for q in bank.questions:
        for as_choice in (True, False):
            inst = instantiate(q, 1, as_choice=as_choice)
            _check(describe(inst, 1, 50), q.id)
            answers = [inst.expected]
            if inst.options:
                answers.append(next(l for l in inst.labels if l not in inst.correct_labels) if not inst.is_multi
                               else ",".join(inst.labels[: inst.choose]))
            for given in answers:
                _check(feedback_text(grade_answer(inst, given), inst), q.id)
            checked += 1
    assert checked == 2 * len(bank.questions) > 0


def test_an_exhibit_keeps_its_columns_behind_a_gutter_without_fences():
    from study.text import plain_text

    out = plain_text("Read this output.\n\n```text\n| GPU  Name   |\n|   0  H100   |\n```\n\nWhich GPU?")
    assert out == "Read this output.\n\n│ | GPU  Name   |\n│ |   0  H100   |\n\nWhich GPU?"


def test_a_label_before_several_paragraphs_starts_them_on_the_next_line():
    assert labelled("Why: ", "First part.\n\nSecond part.", width=40) == "Why:\n     First part.\n\n     Second part."
    assert labelled("", "One.\n\nTwo.", width=40, indent=2) == "  One.\n\n  Two."
