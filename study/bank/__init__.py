"""The question bank and topic cards: schema, safe loading, lint. No Textual here."""

from study.bank.bank import Bank, BankError, build_bank, clear_cache, load_bank
from study.bank.load import Diagnostic
from study.bank.schema import (
    Blueprint,
    Card,
    Choice,
    Distractor,
    NumericAnswer,
    Question,
    Reference,
    SourceRef,
    Topic,
)

__all__ = [
    "Bank",
    "BankError",
    "Blueprint",
    "Card",
    "Choice",
    "Diagnostic",
    "Distractor",
    "NumericAnswer",
    "Question",
    "Reference",
    "SourceRef",
    "Topic",
    "build_bank",
    "clear_cache",
    "load_bank",
]
