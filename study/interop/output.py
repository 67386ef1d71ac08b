"""Writing an export so that an interrupted run never leaves a half-written file under the real name."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> bool:
    """Write ``data`` to a temporary sibling, fsync, then rename over ``path``.

    The temporary file is created by ``mkstemp`` in the target's folder: an unpredictable name opened with
    O_CREAT|O_EXCL, mode 0600, so a symlink planted at a guessable name cannot redirect the write, and the
    rename stays on one file system. Returns False after printing a one-line error (exit code 1 for the
    caller) instead of raising, because every caller is a command that reports and stops.
    """
    import tempfile

    from study.held_files import refusal

    target = Path(path)
    held = refusal(target)
    if held:  # renamed over, the store in use would be swapped for an export under its feet
        print(f"study: error: cannot write {target}: {held}", file=sys.stderr)
        return False
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, _final_mode(target))
        os.replace(tmp, target)
    except OSError as exc:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        print(f"study: error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def _final_mode(target: Path) -> int:
    """The mode a plain ``open(target, "w")`` would have given: the old file's, else 0666 less the umask."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask


def emit(target: str | None, text: str) -> str | None:
    """``text`` to standard output (``target`` None or ``-``) or atomically to the file ``target``.

    Returns where it went, for the caller's summary ("standard output" or the file name), or None after a
    write error has been reported."""
    if not target or target == "-":
        sys.stdout.write(text)
        return "standard output"
    return target if write_atomic(target, text) else None


# How each format's own output begins, so refreshing an earlier export needs no --force but nothing else is
# replaced silently (a notes.txt, a file without extension, a question file or a store).
# Enough for the first xAPI statement line (a question's text and choices); the other formats need less.
_SNIFF_BYTES = 256 * 1024
_JSON_BACKUP = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"study-progress"')
_FORM_FILE = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:\s*#[^\n]*\n)*\s*format:\s*[\"']?study-form\b")
_GIFT_HEADER = re.compile(rb"\A(?:\xef\xbb\xbf)?// [^\n]{0,200}exported by `study export --format gift`")


def _is_export(path: Path, fmt: str) -> bool:
    """True when ``path`` holds what an earlier ``study export --format fmt`` wrote (or nothing at all)."""
    with open(path, "rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    if not head:
        return True  # an empty file holds nothing to lose
    if fmt == "json":
        return bool(_JSON_BACKUP.match(head))
    if fmt == "gift":
        return bool(_GIFT_HEADER.match(head))
    if fmt == "xapi":
        return _is_statement_line(head)
    if fmt == "csv":  # study analyze --csv, per question or per learner (study.analysis.csv_out)
        return head.startswith((b"question,location,", b"learner,score,answered", b"question,response,correct,"))
    if fmt == "form":  # study export --form: its comment header, then `format: study-form`
        return bool(_FORM_FILE.match(head))
    if fmt == "anki":
        import zipfile

        try:
            with zipfile.ZipFile(path) as zf:
                return "collection.anki2" in zf.namelist()
        except (zipfile.BadZipFile, OSError, ValueError):
            return False
    return False


def _is_statement_line(head: bytes) -> bool:
    import json

    first = head.split(b"\n", 1)[0]
    try:
        statement = json.loads(first)
    except (ValueError, RecursionError):
        return False  # includes a first line longer than the sniffed part: not one of our compact statements
    return isinstance(statement, dict) and {"actor", "verb", "object"} <= statement.keys()


def refusal(target: str | None, *, force: bool, fmt: str) -> str | None:
    """Why writing an export to ``target`` is refused (or needs --force), or None.

    Only a file that is recognisably an earlier export of the same format is replaced without --force, as
    users expect of an export; anything else (a question file, a store, notes) needs --force. A folder or a
    device, FIFO or socket is never replaced: the rename would swap out the node itself."""
    if not target or target == "-":
        return None
    path = Path(target)
    if not path.exists():
        return None
    if path.is_dir():
        return f"{target} is a folder; give a file name"
    if not path.is_file():
        return f"{target} is not a regular file; give a file name"
    from study.held_files import held

    if held(path):  # not even with --force: reading it to check would drop the store's locks
        return f"{target} is the progress store in use; give another file name"
    if force:
        return None
    try:
        ours = _is_export(path, fmt)
    except OSError as exc:
        return f"cannot read {target}: {exc.strerror or exc}"
    if not ours:
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
