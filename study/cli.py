"""The single ``study`` entry point.

Bare ``study`` opens the Textual app; everything else is a subcommand. Each subcommand lives in its own
module under ``study.commands`` exposing ``register(subparsers)``; modules import their heavy dependencies
inside their run functions so ``study --help`` and the TUI start-up stay fast.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence  # already loaded at start-up; `typing` would cost 4 ms

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (see above)
if TYPE_CHECKING:
    import argparse

# Every command: its name, the module under ``study.commands`` that registers it, and its one-line help. Order
# here is the order shown by ``study --help``. ``study --help`` (and a mistyped command, which argparse answers
# with its "did you mean") is built from this table alone, importing no command module; a test checks that the
# table says what the modules register.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("tui", "tui", "open the Textual app (the default when no command is given)"),
    ("quiz", "quiz", "take a practice quiz or a timed exam; --plain runs it in a plain terminal"),
    ("calc", "calc", "the sizing calculator on its own"),
    ("lab", "lab", "operations labs: read real tools' output on a simulated GPU cluster (--list, --run, --plain)"),
    ("lint", "lint", "check question and topic files (path:line:col: error|warning: CODE message)"),
    ("schema", "schema", "print the JSON Schema of question files (for editor validation)"),
    ("bank", "bank", "facts about the question bank"),
    ("preview", "preview", "show questions as a learner sees them, with answers and derivations"),
    ("new", "new", "start a new question from a commented skeleton"),
    ("analyze", "analyze",
     "item analysis of many learners' results (Moodle quiz statistics), flagging broken questions"),
    ("regrade", "regrade",
     "mark your stored answers again after a question's key was fixed, and replay the schedule"),
    ("stats", "stats", "your progress: exam readiness, per-domain mastery, streak, reviews due"),
    ("settings", "settings", "show or change your settings (exam date, daily goal, retention, theme, LRS)"),
    ("plan", "plan", "days to your exam and today's plan (reviews, new questions, minutes)"),
    ("suspend", "control", "hold a card or question back from reviews and quizzes until you unsuspend it"),
    ("unsuspend", "control", "let a suspended or buried card or question come back"),
    ("bury", "control", "hold a card or question back until tomorrow"),
    ("sync", "sync", "send your answers and exams to a learning record store (xAPI)"),
    ("export", "export", "back up all progress, or export questions/cards/results for Moodle, Anki or an LRS"),
    ("import", "import_",
     "restore or merge a progress backup, or turn a Moodle GIFT file into a question YAML file"),
    ("reports", "reports", "list the problems you reported with questions (press R on a question in the app)"),
    ("reset", "reset", "erase all progress (a JSON backup is written first)"),
    ("locate", "locate", "print where content, questions and the progress store are"),
    ("serve", "serve", "open the app in a web browser (offline, behind a one-time token)"),
)
COMMAND_MODULES = tuple(dict.fromkeys(module for _name, module, _help in COMMANDS))
_MODULE_OF = {name: module for name, module, _help in COMMANDS}
_HELP = {name: help_ for name, _module, help_ in COMMANDS}


def command_help(name: str) -> str:
    """A command's one-line help, which its module registers with: the table above is its one source."""
    return _HELP[name]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A mistake in how the command was called: reported in one line, exit 2."""


# Top-level options and whether each takes a value: enough to find the command word without argparse.
_GLOBAL_OPTIONS = {"--db": True, "--no-watch": False}


def wanted_modules(argv: Sequence[str]) -> tuple[str, ...] | None:
    """The command modules a command line needs: only the named command's (``study calc ...`` imports no
    other command module and so none of their dependencies), none for the bare app, and None where the
    commands' names and help are enough: ``--help``, ``--version``, an unknown option or a word that is not a
    command (argparse then lists the commands, with its "did you mean")."""
    words = iter(argv)
    for word in words:
        option = word.split("=", 1)[0]
        if option in _GLOBAL_OPTIONS:
            if _GLOBAL_OPTIONS[option] and "=" not in word:
                next(words, None)
            continue
        if word.startswith("-"):
            return None
        return (_MODULE_OF[word],) if word in _MODULE_OF else None
    return ()


def build_parser(modules: Sequence[str] | None = COMMAND_MODULES) -> argparse.ArgumentParser:
    """The parser with the commands of ``modules`` fully registered; with None, every command by its name and
    help only (enough for the top-level help and for a mistyped command)."""
    from study import __version__
    from study.cli_parser import StudyParser

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
    if modules is None:
        for name, _module, help_ in COMMANDS:
            sub.add_parser(name, help=help_)
        return parser
    for name in modules:
        try:
            module = importlib.import_module(f"study.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"study.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def _stand_in_for_closed_streams() -> bool:
    """Python makes a standard stream that was closed when it started (`study export >&-`, `<&-`) None, and
    every command that reads or writes it would end in an AttributeError. /dev/null stands in for each: closed
    stdin has nothing to read, which every command answers as end of input; with stderr closed, print(file=None)
    would put error lines into stdout's data. Returns whether stdout was closed: what a command prints would go
    nowhere, and an export or a figure dropped without a word looks like one that was written, so the caller
    refuses to run (as GNU tools say "write error: Bad file descriptor")."""
    import os

    stdout_closed = sys.stdout is None
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))  # noqa: SIM115 (open for the whole run)
    return stdout_closed


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if _stand_in_for_closed_streams():
        print("study: error: standard output is closed: what this command prints would be lost", file=sys.stderr)
        return EXIT_USAGE
    try:
        if not argv:
            # ``study`` alone: the app, with no command line to parse (argparse and the parser are 2 ms of
            # the start-up, before the first paint). The collector is off while Textual, Rich and our screens
            # are imported: what the imports build lives as long as the process, so the 80 collections they
            # set off (11 ms, 4% of the first paint) found nothing to free. run_app turns it back on.
            import gc

            gc.disable()
            from study.tui.app import run_app

            return run_app(db=None, watch=None, questions=None, content=None)  # as `study tui` gives it
        parser = build_parser(wanted_modules(argv))
        args = parser.parse_args(argv)
        func = getattr(args, "func", None)
        if func is None:
            # ``study --db X`` and the like: the app.
            from study.commands.tui import run as run_tui

            func = run_tui
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
