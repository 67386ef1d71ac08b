"""The learner's settings: one rule per key for whoever writes it (``study settings``, the app, a sync).

Each rule turns the text a person types into the stored JSON value, or raises ``ValueError`` with a
message that says what is accepted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple
from collections.abc import Callable, Mapping


def _date(text: str) -> str:
    from study.text import read_date

    try:
        return read_date(text).isoformat()
    except ValueError as exc:
        raise ValueError(f"must be a date: {exc}") from None


def exam_date_setting(text: str, today: dt.date | None = None) -> str:
    """The exam date typed as ``text``, stored as YYYY-MM-DD: a date, and not one that has passed (readiness
    is a prediction for that day). ``today`` is the caller's (the app's clock); by default the local date.
    The one rule for ``study settings``, ``study stats --exam-date`` and the app's Settings form."""
    value = _date(text)
    today = today or dt.date.today()
    day = dt.date.fromisoformat(value)
    if day < today:
        raise ValueError(f"must be today ({today:%d %b %Y}) or later: {day:%d %b %Y} has passed")
    return value


def _int_between(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise ValueError(f"must be a whole number from {low} to {high}, not {text!r}") from None
        if not low <= value <= high:
            raise ValueError(f"must be from {low} to {high}, not {value}")
        return value

    return parse


def _retention(text: str) -> float:
    from study.progress.store import RETENTION_RANGE

    low, high = RETENTION_RANGE
    try:
        value = float(text.strip())
    except ValueError:
        raise ValueError(f"must be a decimal from {low:.2f} to {high:.2f}, not {text!r}") from None
    if not low <= value <= high:  # also refuses nan
        raise ValueError(f"must be from {low:.2f} to {high:.2f} (the chance of recall FSRS aims for), "
                         f"not {text.strip()}")
    return value


def _theme(text: str) -> str:
    value = text.strip().lower()
    if value not in ("dark", "light"):
        raise ValueError(f"must be dark or light, not {text!r}")
    return value


def _switch(text: str) -> bool:
    value = text.strip().lower()
    if value in ("on", "true", "yes", "1"):
        return True
    if value in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"must be on or off, not {text!r}")


def _checked_by_caller(text: str) -> str:
    # The store's layer knows nothing of URLs or the network: the LRS address is checked by the rule the
    # caller passes in (``study.interop.lrs_address.endpoint_setting``). Without one it cannot be set.
    raise ValueError("can only be set with `study settings lrs_endpoint URL`")


class Rule(NamedTuple):  # a NamedTuple, not a dataclass: `study --help` reads these, dataclasses costs inspect
    key: str
    meaning: str
    parse: Callable[[str], Any] | None  # None: written by study itself, shown but not set by hand
    default: Any = None  # what an unset key means, when the store has no default of its own


RULES: tuple[Rule, ...] = (
    Rule("exam_date", "your exam day (YYYY-MM-DD, today or later): readiness predicts for it", exam_date_setting),
    Rule("daily_goal", "questions answered a day (card ratings do not count)", _int_between(1, 10_000)),
    Rule("new_per_day", "most items never seen before to start in a day (cards and questions)",
         _int_between(0, 10_000), 20),
    Rule("desired_retention", "recall FSRS aims for when it schedules (0.70 to 0.97)", _retention),
    Rule("theme", "the app's colours: dark or light", _theme),
    Rule("lrs_endpoint", "the learning record store `study sync` sends to (http(s) URL)",
         _checked_by_caller),
    Rule("lrs_auto_sync", "on: the app syncs after each finished exam or practice set", _switch, False),
    Rule("lrs_last_sync", "when the last sync finished (UTC)", None),
    Rule("lrs_last_error", "why the last sync failed, if it did", None),
    Rule("learner_id", "your anonymous id in xAPI statements", None),
)
BY_KEY = {r.key: r for r in RULES}


def parse_setting(key: str, text: str, checks: Mapping[str, Callable[[str], Any]] | None = None) -> Any:
    """The value to store for ``key`` typed as ``text``; ``KeyError`` for a key not set by hand.

    ``checks`` holds the rules of the layers above for the keys this layer cannot check itself
    (``lrs_endpoint``: an address, checked by the LRS client's rule)."""
    rule = BY_KEY.get(key)
    if rule is None or rule.parse is None:
        raise KeyError(key)
    if checks and key in checks:
        return checks[key](text)
    return rule.parse(text)
