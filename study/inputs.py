"""Reading a file a user names (a backup, results, a GIFT file) without hanging or exhausting memory.

``study import /dev/zero`` used to read until memory ran out and a FIFO blocked forever: only regular files
are read, up to a size limit, and ``-`` reads standard input up to the same limit.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from typing import Any

MiB = 1024 * 1024
# Far above any real file (one learner's export after months of daily study is well under 10 MB; a class's
# files are read one by one) and low enough that parsing one cannot exhaust memory.
MAX_JSON_INPUT = 64 * MiB
MAX_GIFT_INPUT = 16 * MiB


class InputFileError(ValueError):
    """The file cannot be read as input; the message names it and says why, in one line."""


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of ``path`` (``-``: standard input), refusing anything but a regular file and anything
    larger than ``limit`` bytes."""
    label = os.fspath(path)
    if label == "-":
        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise InputFileError(f"standard input is larger than {_size(limit)}")
        return data
    from study.held_files import refusal

    held = refusal(label)  # closing a descriptor of a store this process uses would drop its locks
    if held:
        raise InputFileError(held)
    try:
        # O_NONBLOCK: opening a FIFO for reading must not wait for a writer before the type check below.
        fd = os.open(label, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputFileError(f"cannot read {label}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"{label} is {file_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise InputFileError(f"{label} is {_size(info.st_size)}; the limit is {_size(limit)}")
    except BaseException:
        os.close(fd)
        raise
    with os.fdopen(fd, "rb") as fh:
        try:
            data = fh.read(limit + 1)  # a file can grow between the stat and the read
        except OSError as exc:
            raise InputFileError(f"cannot read {label}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputFileError(f"{label} is larger than {_size(limit)}")
    return data


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is, in words: "a folder", "a FIFO (named pipe)", "a device"..."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a plain file"


def _size(n: int) -> str:
    return f"{n / MiB:,.0f} MiB" if n >= MiB else f"{n:,} bytes"


# --- JSON from outside, with every number bounded -------------------------------------------------------

# Python refuses to turn more than 4,300 digits into an int (CVE-2020-10735) with a ValueError no caller
# expects, and below that a long number still costs quadratic time. No value of ours needs more than a
# few dozen digits; NaN and Infinity are not JSON at all, and 1e999 reads as infinity.
MAX_NUMBER_CHARS = 300


class _RefusedNumber(ValueError):
    pass


def _bounded_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise _RefusedNumber(f"a number of {len(text):,} digits (the limit is {MAX_NUMBER_CHARS})")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_NUMBER_CHARS:
        raise _RefusedNumber(f"a number of {len(text):,} characters (the limit is {MAX_NUMBER_CHARS})")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _RefusedNumber(f"{text[:20]} is too large to be a number")
    return value


def _no_constant(name: str) -> Any:
    raise _RefusedNumber(f"{name} is not a number JSON allows")


BOUNDED_JSON = json.JSONDecoder(parse_int=_bounded_int, parse_float=_bounded_float, parse_constant=_no_constant)
_NUMBERISH = re.compile(r"NaN|-?Infinity|-?\d[\d.eE+-]{%d,}|-?\d[\d.]*[eE][+-]?\d{3,}" % MAX_NUMBER_CHARS)


def parse_json(text: str) -> Any:
    """``json.loads(text)``, except that a number longer than ``MAX_NUMBER_CHARS``, one too large for a
    float, and NaN/Infinity raise ``json.JSONDecodeError`` (a ``ValueError``) saying which, as bad syntax
    does, so a caller handles both the same way."""
    try:
        return BOUNDED_JSON.decode(text)
    except _RefusedNumber as exc:
        where = _NUMBERISH.search(text)
        raise json.JSONDecodeError(str(exc), text, where.start() if where else 0) from None


def raw_decode_json(text: str, start: int = 0) -> tuple[Any, int]:
    """``BOUNDED_JSON.raw_decode`` with :func:`parse_json`'s handling of refused numbers."""
    try:
        return BOUNDED_JSON.raw_decode(text, start)
    except _RefusedNumber as exc:
        where = _NUMBERISH.search(text, start)
        raise json.JSONDecodeError(str(exc), text, where.start() if where else start) from None
