"""The lint warning codes a question may ``accept`` with a reason, in one place.

A question's ``accept`` list names codes from here; an unknown code is an error, so a typo cannot silently
accept nothing. A check that adds a warning code a question may accept adds it to ``ACCEPTABLE_CODES``.
"""

from __future__ import annotations

# Item-writing flaws (study.bank.item_flaws, study.bank.near_duplicates).
ITEM_FLAW_CODES = (
    "longest-key",
    "absolute-distractors",
    "absolute-false",
    "all-none-of-the-above",
    "stem-echo",
    "extreme-value",
    "grammatical-cue",
    "near-duplicate",
    # study.bank.twins: two questions that may test one fact; accepted per pair (``other:``), not per question.
    "possible-twin",
)

# Codes a question accepts against one other question, named by ``other``.
PAIR_CODES = ("possible-twin",)

# Warnings of the calculator checks in study.bank.lint.
CALC_WARNING_CODES = (
    "unit-bits-bytes",
    "tolerance-unit",
    "tolerance-too-tight",
    "tolerance-too-loose",
    "distractors-coincide",
    "unused-parameter",
    # study.bank.lint_catalog: a numeric question whose exam form would offer fewer than 4 options.
    "few-exam-options",
)

ACCEPTABLE_CODES: frozenset[str] = frozenset(ITEM_FLAW_CODES + CALC_WARNING_CODES)
