"""Writing an export so that an interrupted run never leaves a half-written file under the real name."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> bool:
    """Write ``data`` to a temporary sibling, fsync, then rename over ``path``.

    Returns False after printing a one-line error (exit code 1 for the caller) instead of raising, because
    every caller is a command that reports and stops.
    """
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        print(f"study: error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def emit(target: str | None, text: str) -> str | None:
    """``text`` to standard output (``target`` None or ``-``) or atomically to the file ``target``.

    Returns where it went, for the caller's summary ("standard output" or the file name), or None after a
    write error has been reported."""
    if not target or target == "-":
        sys.stdout.write(text)
        return "standard output"
    return target if write_atomic(target, text) else None


# Files an export must never replace by accident: question and card sources, stores, code, decks...
_PROTECTED = {".yaml", ".yml", ".md", ".db", ".sqlite", ".py", ".apkg"}
# ...unless the name is one the format itself writes, which is an earlier export being refreshed.
_OWN_SUFFIXES = {"anki": {".apkg"}}


def refusal(target: str | None, *, force: bool, fmt: str) -> str | None:
    """Why writing an export to ``target`` needs --force, or None. An existing file of a kind that is
    authored or irreplaceable (a question file, a store) is refused; an earlier export of the same
    kind is simply replaced, as users expect of an export."""
    if force or not target or target == "-":
        return None
    path = Path(target)
    if not path.exists():
        return None
    if path.is_dir():
        return f"{target} is a folder; give a file name"
    if path.suffix.lower() in _PROTECTED - _OWN_SUFFIXES.get(fmt, set()):
        return (f"{target} already exists and is not a {fmt} export; pick another name, or add --force to "
                "replace it")
    return None


def report_bank_problems(bank: object) -> bool:
    """One line on stderr when broken question files left questions out of an export; True if any."""
    errors = getattr(bank, "errors", ())
    if not errors:
        return False
    from study.text import count

    print(f"study: {count(len(errors), 'problem')} in the question files: the questions they affect are not "
          f"exported (first: {errors[0]}); run `study lint` for all", file=sys.stderr)
    return True
