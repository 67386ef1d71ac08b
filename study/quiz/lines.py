"""Reading input lines with a time limit, so a timed quiz ends on time while the learner types nothing.

``sys.stdin.readline()`` blocks until a line arrives; a pipe or terminal that stays silent would hold an
exam open past its deadline. :class:`LineReader` waits on the file descriptor with ``select()`` (no busy
loop) and splits lines itself: Python's buffered reader may hold several lines already read from the pipe,
which ``select()`` cannot see, so the stream must not have been read through Python before. A stream without a usable descriptor (``io.StringIO`` in tests, or a pipe on
Windows, where ``select`` takes only sockets) falls back to a plain blocking ``readline``.
"""

from __future__ import annotations

import codecs
import os
import select
import time
from typing import IO

CHUNK = 4096


class LineReader:
    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.fd = _selectable_fd(stream)
        self._decoder = codecs.getincrementaldecoder(getattr(stream, "encoding", None) or "utf-8")("replace")
        self._pending = ""
        self._eof = False

    @property
    def can_time_out(self) -> bool:
        return self.fd is not None

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line with its ``\\n`` (``""`` at end of input, like ``readline``), or ``None`` when
        ``timeout`` seconds passed without a whole line. ``timeout=None`` waits as long as it takes."""
        if self.fd is None:
            return self.stream.readline()
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            cut = self._pending.find("\n")
            if cut >= 0:
                line, self._pending = self._pending[: cut + 1], self._pending[cut + 1:]
                return line
            if self._eof:
                line, self._pending = self._pending, ""
                return line
            wait = None if end is None else max(0.0, end - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], wait)
            if not ready:
                return None
            chunk = os.read(self.fd, CHUNK)
            if not chunk:
                self._eof = True
                self._pending += self._decoder.decode(b"", final=True)
            else:
                self._pending += self._decoder.decode(chunk)


def _selectable_fd(stream: IO[str]) -> int | None:
    if os.name == "nt":
        return None
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):
        return None
