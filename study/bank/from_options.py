"""The bank a command's options name: the built-in one, or an instructor's ``--questions``/``--content``.

It lives in the bank layer, not with the commands, because the exporters in ``interop`` need it too and
imports only point down."""

from __future__ import annotations

from typing import Any


def bank_for(args: Any) -> Any:
    """The bank ``--questions`` and ``--content`` on ``args`` choose (the built-in one when neither was given)."""
    from study.bank import load_bank

    return load_bank(questions=getattr(args, "questions", None), content=getattr(args, "content", None))
