"""What every renderer shares: the "not simulated" signal, stable fake identifiers, argument helpers."""

from __future__ import annotations

import hashlib


class NotSimulated(Exception):
    """A known tool called with flags this lab does not simulate; the shell prints the message."""


def unknown(tool: str, argv: list[str]) -> NotSimulated:
    return NotSimulated(f"not simulated in this lab: {' '.join([tool, *argv])}")


def uuid_for(*parts: object) -> str:
    """A stable UUID-shaped hex string for a simulated device (the same host and index give the same id)."""
    h = hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def hex_for(*parts: object, digits: int = 16) -> str:
    return hashlib.sha256("/".join(str(p) for p in parts).encode()).hexdigest()[:digits]


def gpu_uuid(host: str, index: int) -> str:
    return "GPU-" + uuid_for(host, "gpu", index)


def take_value(argv: list[str], i: int, flag: str, tool: str) -> str:
    if i + 1 >= len(argv):
        raise NotSimulated(f"not simulated in this lab: {tool} {flag} without a value")
    return argv[i + 1]
