"""The question bank and topic cards: schema, safe loading, lint. No Textual here.

Names are imported on first use (PEP 562), so a caller that needs only ``study.bank.yamlsafe`` (the lab
command, run like a shell command) does not pay for building every pydantic model of the bank.
"""

from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "Bank": "bank", "BankError": "bank", "build_bank": "bank", "clear_cache": "bank", "load_bank": "bank",
    "Diagnostic": "load",
    **{n: "schema" for n in ("Blueprint", "Card", "Choice", "Distractor", "NumericAnswer", "Question",
                             "Reference", "SourceRef", "Topic")},
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'study.bank' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"study.bank.{module}"), name)
    globals()[name] = value
    return value
