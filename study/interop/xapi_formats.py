"""The small formats of an xAPI statement: the namespace of its ids, the ADL verbs and activity types,
language maps, RFC 3339 timestamps, ISO 8601 durations, decimals and choice component ids."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import ROUND_HALF_UP, Decimal

# Fixed forever: changing it would give every statement a new id and duplicate a learner's history in an LRS.
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://study-nca-aiio.invalid/xapi")
LANG = "en"

ADL_VERB = "http://adlnet.gov/expapi/verbs/"
ADL_TYPE = "http://adlnet.gov/expapi/activities/"
INTERACTION_TYPE = ADL_TYPE + "cmi.interaction"
_LOWER = "abcdefghijklmnopqrstuvwxyz"


def iso_timestamp(text: str | dt.datetime) -> str:
    """RFC 3339 in UTC with milliseconds (``2026-11-30T12:00:05.250Z``); a naive time is taken as UTC, as the
    store writes UTC."""
    value = dt.datetime.fromisoformat(text) if isinstance(text, str) else text
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.timezone.utc)
    value = value.astimezone(dt.timezone.utc)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def iso_duration(seconds: float) -> str:
    """ISO 8601 duration to 0.01 s, the precision xAPI compares (``PT42.5S``, ``PT1H5M2S``, ``PT0S``)."""
    # Decimal from the shortest repr rounds as a person would: 12.345 s is 12.35 s, not the binary 12.34.
    hundredths = max(0, int(Decimal(repr(float(seconds))).scaleb(2).quantize(Decimal(1), ROUND_HALF_UP)))
    hours, rest = divmod(hundredths, 360000)
    minutes, rest = divmod(rest, 6000)
    secs = f"{rest // 100}.{rest % 100:02d}".rstrip("0").rstrip(".")
    out = "PT" + (f"{hours}H" if hours else "") + (f"{minutes}M" if minutes else "")
    if rest or out == "PT":
        out += f"{secs}S"
    return out


def number_text(value: float) -> str:
    """A decimal without exponent, to 12 significant digits (response patterns come from SCORM's decimals)."""
    text = format(Decimal(f"{float(value):.12g}"), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def choice_id(i: int) -> str:
    """The component id of the author's ``i``-th choice: ``a``, ``b``, ... (``c27`` past the alphabet)."""
    return _LOWER[i] if i < len(_LOWER) else f"c{i + 1}"


def lang(text: str) -> dict[str, str]:
    return {LANG: text}


def title(stem: str, limit: int = 100) -> str:
    line = " ".join(stem.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "\u2026"

