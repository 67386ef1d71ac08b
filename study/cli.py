"""The single ``study`` entry point.

Bare ``study`` opens the Textual app; everything else is a subcommand. Each subcommand lives in its own
module under ``study.commands`` exposing ``register(subparsers)``; modules import their heavy dependencies
inside their run functions so ``study --help`` and the TUI start-up stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

# Order here is the order shown by ``study --help``.
COMMAND_MODULES = (
    "tui",
    "quiz",
    "calc",
    "lint",
    "schema",
    "bank",
    "preview",
    "new",
    "analyze",
    "stats",
    "export",
    "import_",
    "reports",
    "reset",
    "locate",
)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A mistake in how the command was called: reported in one line, exit 2."""


def build_parser() -> argparse.ArgumentParser:
    from study import __version__

    parser = argparse.ArgumentParser(
        prog="study",
        description="Study for the NVIDIA NCA-AIIO exam: topic cards, scenario quizzes, timed exams, "
        "a GPU sizing calculator and spaced repetition. Run without a command to open the app.",
    )
    parser.add_argument("--version", action="version", version=f"study {__version__}")
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="progress store (default: $STUDY_DB, else the platform user data dir)",
    )
    parser.add_argument(
        "--no-watch",
        dest="watch",
        action="store_false",
        default=None,
        help="app: do not reload question and card files when they change (also STUDY_WATCH=0)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"study.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"study.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        # ``study`` alone, or ``study --db X``: the app.
        from study.commands.tui import run as run_tui

        func = run_tui
    try:
        return int(func(args) or 0)
    except UsageError as exc:
        print(f"study: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`study preview X | head`). Point stdout at /dev/null so the interpreter's
        # final flush does not print a second BrokenPipeError on the way out.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        # A bank that cannot be built (a mistyped --content or --questions, a broken blueprint) is one line,
        # whichever command met it; anything else is a bug and keeps its traceback.
        from study.bank.bank import BankError

        if not isinstance(exc, BankError):
            raise
        print(f"study: error: {exc}", file=sys.stderr)
        return EXIT_FINDINGS


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
