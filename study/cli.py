"""The single ``study`` entry point.

Bare ``study`` opens the Textual app; everything else is a subcommand. Each subcommand lives in its own
module under ``study.commands`` exposing ``register(subparsers)``; modules import their heavy dependencies
inside their run functions so ``study --help`` and the TUI start-up stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence  # already loaded by argparse's imports; `typing` would cost 4 ms

# Order here is the order shown by ``study --help``. Each module registers the command of its own name
# (``import_`` registers ``import``), so a command line that names one builds only that parser; a module may
# register more commands, which the full parser (built when the name is not a module's) finds.
COMMAND_MODULES = (
    "tui",
    "quiz",
    "calc",
    "lab",
    "lint",
    "schema",
    "bank",
    "preview",
    "new",
    "analyze",
    "regrade",
    "stats",
    "settings",
    "plan",
    "control",
    "sync",
    "export",
    "import_",
    "reports",
    "reset",
    "locate",
    "serve",
)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A mistake in how the command was called: reported in one line, exit 2."""


class StudyParser(argparse.ArgumentParser):
    """argparse with the project's error rule: one ``study: error:`` line (no usage dump), exit 2, and a
    "did you mean" for a mistyped choice or subcommand. Subparsers inherit the class."""

    def error(self, message: str) -> None:  # type: ignore[override]
        where = self.prog.removeprefix("study").strip()
        self.exit(EXIT_USAGE, f"study: error: {where + ': ' if where else ''}{message}\n")

    def _check_value(self, action: argparse.Action, value: object) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            import difflib

            options = [str(c) for c in choices]
            near = difflib.get_close_matches(str(value), options, n=2, cutoff=0.6)
            hint = f" (did you mean {' or '.join(near)}?)" if near else f" (choose from {', '.join(options)})"
            raise argparse.ArgumentError(action, f"invalid choice: {value!r}{hint}")


# Top-level options and whether each takes a value: enough to find the command word without argparse.
_GLOBAL_OPTIONS = {"--db": True, "--no-watch": False}


def wanted_modules(argv: Sequence[str]) -> tuple[str, ...]:
    """The command modules a command line needs: only the named command's (``study calc ...`` imports no
    other command module and so none of their dependencies), none for the bare app, all for ``--help`` or a
    word that is not a command (argparse then lists them, with its "did you mean")."""
    words = iter(argv)
    for word in words:
        option = word.split("=", 1)[0]
        if option in _GLOBAL_OPTIONS:
            if _GLOBAL_OPTIONS[option] and "=" not in word:
                next(words, None)
            continue
        if word.startswith("-"):
            return COMMAND_MODULES
        mine = tuple(m for m in COMMAND_MODULES if m.rstrip("_") == word)
        return mine or COMMAND_MODULES
    return ()


def build_parser(modules: Sequence[str] = COMMAND_MODULES) -> argparse.ArgumentParser:
    from study import __version__

    parser = StudyParser(
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
    for name in modules:
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
    parser = build_parser(wanted_modules(argv))
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
    except SystemExit as exc:
        # Rich meets the same closed pipe inside Console.print, points stdout at /dev/null itself and exits 1;
        # a reader that stopped early (`study calc gpus | head`) is not a failure.
        if isinstance(exc.__context__, BrokenPipeError):
            return 0
        raise
    except Exception as exc:
        # A bank that cannot be built (a mistyped --content or --questions, a broken blueprint) or a progress
        # store that fails mid-command (a full disk, damage found in use) is one line, whichever command met
        # it; anything else is a bug and keeps its traceback.
        from study.bank.bank import BankError
        from study.progress.store_open import StoreError

        if not isinstance(exc, (BankError, StoreError)):
            raise
        print(f"study: error: {exc}", file=sys.stderr)
        return EXIT_FINDINGS


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
