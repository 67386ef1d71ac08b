"""Text from outside (LRS answers, backups, question files, a learner's report) made safe to show.

A terminal obeys what it is sent: an ESC or OSC sequence inside an LRS error or a report can move the cursor,
retitle the window, hide text or write a hyperlink that lies about its target. Everything that did not come
from this program passes through :func:`shown` before it reaches a terminal, a toast or a stored message.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, the C1 controls (U+0080 to U+009F; U+009B is a one-character CSI),
# and lone surrogates: Python reads an undecodable byte of argv or stdin as U+DC80 to U+DCFF and writes it back
# out as that raw byte, so a 0x9B typed on the command line would reach the terminal as a CSI.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# Unicode's bidirectional overrides and isolates reorder what follows them (the "Trojan source" trick).
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x0D:
        return "\\r"
    if 0xDC80 <= code <= 0xDCFF:  # the byte it stands for, as it was typed
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every control character written as an escape (``\\x1b``), tab kept, newlines kept
    unless ``keep_newlines`` is false (a one-line message)."""
    out = _BIDI.sub(_escape, _CONTROL.sub(_escape, text))
    if not keep_newlines:
        out = out.replace("\r", "\\r").replace("\n", "\\n")
    return out


def has_controls(text: str) -> bool:
    """Whether ``text`` holds a character :func:`shown` would escape, newline and tab aside (lint's rule)."""
    return bool(_CONTROL.search(text) or _BIDI.search(text))
