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
