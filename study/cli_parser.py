"""``study``'s argparse parser class, apart from ``study.cli`` so that ``study`` alone, which opens the app,
imports no argparse (1.4 ms of the start-up, before the first paint)."""

from __future__ import annotations

import argparse
import sys

from study.cli import EXIT_USAGE


def _terminal_width() -> int:
    """What argparse's formatter would ask ``shutil`` for, without importing it (and bz2, lzma, fnmatch) for
    one number: $COLUMNS, else the terminal's width, else 80."""
    import os

    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 80
    except (AttributeError, ValueError, OSError):
        return 80


class StudyParser(argparse.ArgumentParser):
    """argparse with the project's error rule: one ``study: error:`` line (no usage dump), exit 2, and a
    "did you mean" for a mistyped choice or subcommand. Subparsers inherit the class."""

    def error(self, message: str) -> None:  # type: ignore[override]
        where = self.prog.removeprefix("study").strip()
        self.exit(EXIT_USAGE, f"study: error: {where + ': ' if where else ''}{message}\n")

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter = self.formatter_class(prog=self.prog, width=_terminal_width() - 2)  # type: ignore[call-arg]
        if hasattr(self, "color") and hasattr(formatter, "_set_color"):  # Python 3.14's coloured help
            formatter._set_color(self.color)
        return formatter

    def _check_value(self, action: argparse.Action, value: object) -> None:
        choices = action.choices
        if choices is not None and value not in choices:
            import difflib

            options = [str(c) for c in choices]
            near = difflib.get_close_matches(str(value), options, n=2, cutoff=0.6)
            hint = f" (did you mean {' or '.join(near)}?)" if near else f" (choose from {', '.join(options)})"
            raise argparse.ArgumentError(action, f"invalid choice: {value!r}{hint}")
