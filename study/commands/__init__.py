"""One module per subcommand, each exposing ``register(subparsers)``; shared options live here."""

from __future__ import annotations

import argparse
from typing import Any


def add_bank_options(p: argparse.ArgumentParser, purpose: str = "") -> None:
    """``--questions`` and ``--content``: an instructor's own bank instead of the built-in one.

    ``purpose`` ends the --questions help (", for locations and guess scores") or prefixes both ("gift/anki:
    " style scopes end with a colon and a space)."""
    scope = purpose if purpose.endswith(": ") else ""
    tail = "" if scope else purpose
    p.add_argument("--questions", action="append", metavar="PATH",
                   help=f"{scope}question files or folders instead of the built-in bank (repeatable){tail}")
    p.add_argument("--content", metavar="PATH",
                   help=f"{scope}a content folder (blueprint.yaml, topics/) instead of the built-in one")




def bank_for(args: argparse.Namespace) -> Any:
    """The bank ``add_bank_options`` chose; it lives in the bank layer, which the exporters use too. Imported
    when called, so a command that loads no bank does not pay for the bank's modules."""
    from study.bank.from_options import bank_for as chosen

    return chosen(args)


def bounded_number(low: float, high: float, *, low_open: bool = False, unit: str = "") -> Any:
    """An argparse ``type`` for a float in a range: NaN, infinity and absurd sizes become a usage error
    (one line, exit 2) instead of a crash deep inside (``--minutes 1e10`` overflowed a datetime)."""
    import math

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        above = value > low if low_open else value >= low
        if not (math.isfinite(value) and above and value <= high):
            bound = f"{'above' if low_open else 'at least'} {low:g} and at most {high:g}{unit}"
            raise argparse.ArgumentTypeError(f"must be {bound}; got {text!r}")
        return value

    parse.__name__ = "number"
    return parse
