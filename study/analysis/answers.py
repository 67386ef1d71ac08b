"""The response a learner gave, as it was shown to them, read from a progress export's attempt or an xAPI
statement, so the analysis can say *which* answer each learner chose and grade it again against the key.

A learner's mark travels through the loader's merging (exports of one store, both forms of one learner) and
its first-answer rule as a float; :class:`Answer` is that float with the response attached, so every one of
those paths carries the response of exactly the answer whose mark it keeps, without a parallel column that
each path would have to keep in step.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Mapping
from urllib.parse import parse_qsl, urlsplit

_LETTERS = re.compile(r"^[A-Z](,[A-Z])*$")


@dataclass(frozen=True)
class Response:
    """What the learner answered. ``picked``: the texts of the options picked (choices, True/False, or the
    number picked in an exam's choice form); ``typed``: a number as typed, with its unit when known;
    ``params``: the values of a templated question as asked; ``stem``: the question as shown, when known."""

    picked: tuple[str, ...] = ()
    typed: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    stem: str | None = None
    kind: str | None = None  # the question type as shown (single, multi, true_false, numeric), when known


class Answer(float):
    """A mark (0..1) that remembers the record it came from; its :attr:`response` is read from that record
    only when asked for (a class is 100,000s of attempts, and only first answers are asked)."""

    __slots__ = ("_record", "_read", "_response")
    _record: Any
    _read: Callable[[Any], Response | None]
    _response: Response | None

    def __new__(cls, mark: float, record: Any, read: Callable[[Any], Response | None]) -> Answer:
        self = super().__new__(cls, mark)
        self._record, self._read, self._response = record, read, _UNREAD
        return self

    @property
    def response(self) -> Response | None:
        if self._response is _UNREAD:
            self._response = self._read(self._record)
        return self._response


_UNREAD: Any = object()


def response_of(a: Mapping[str, Any]) -> Response | None:
    """The response of one attempt of a progress export: ``picked`` (the texts picked, schema 5 on), else the
    letters read against the choices as shown (schema 6), else a typed number; None when nothing was given or
    the letters cannot be read any more (the shuffled order is gone)."""
    given = str(a.get("given") or "").strip()
    if not given:
        return None
    shown = raw_shown if isinstance(raw_shown := a.get("shown"), dict) else None
    kind = str(shown.get("type")) if shown and shown.get("type") else None
    params = raw_params if isinstance(raw_params := a.get("params"), dict) else {}
    stem = str(shown.get("stem")) if shown and isinstance(shown.get("stem"), str) else None
    picked = tuple(str(t) for t in a.get("picked") or () if isinstance(t, str))
    if kind == "true_false" or kind is None and given in ("T", "F") and not picked:
        if given in ("T", "F"):
            return Response(("True" if given == "T" else "False",), None, params, stem, "true_false")
    if picked:
        return Response(picked, None, params, stem, kind)
    if _LETTERS.match(given):
        choices = [c for c in (shown.get("choices") or ()) if isinstance(c, dict)] if shown else []
        indices = [ord(x) - ord("A") for x in given.split(",")]
        if choices and all(0 <= i < len(choices) for i in indices):
            return Response(tuple(str(choices[i].get("text")) for i in indices), None, params, stem, kind)
        return None
    return Response((), given, params, stem, kind or "numeric")


def _mapping(value: Any) -> Mapping[Any, Any]:
    """A JSON object of a statement, or an empty one when the field is missing or not an object."""
    return value if isinstance(value, Mapping) else {}


def _text(lang_map: Any) -> str | None:
    if isinstance(lang_map, Mapping):
        for value in lang_map.values():
            if isinstance(value, str):
                return value
    return None


def _params_of(iri: str) -> dict[str, Any]:
    """A templated instance's values from its IRI (``?name=value``), numbers read back as numbers."""
    out: dict[str, Any] = {}
    for name, value in parse_qsl(urlsplit(iri).query):
        try:
            number = float(value)
        except ValueError:
            out[name] = value
            continue
        out[name] = int(number) if number.is_integer() and "." not in value and "e" not in value.lower() else number
    return out


def response_of_statement(st: Mapping[str, Any]) -> Response | None:
    """The response of an xAPI answer statement: ``result.response`` read against the statement's own
    activity definition (the choices as shown, the numeric unit), never against the current bank."""
    result = _mapping(st.get("result"))
    raw = result.get("response")
    if not isinstance(raw, str) or not raw.strip():
        return None
    obj = _mapping(st.get("object"))
    definition = _mapping(obj.get("definition"))
    params = _params_of(str(obj.get("id") or ""))
    stem = _text(definition.get("description"))
    kind = definition.get("interactionType")
    if kind == "true-false":
        if raw not in ("true", "false"):
            return None
        return Response(("True" if raw == "true" else "False",), None, params, stem, "true_false")
    if kind == "choice":
        texts = {str(c.get("id")): _text(c.get("description")) for c in definition.get("choices") or ()
                 if isinstance(c, Mapping)}
        picked = [texts.get(i) for i in raw.split("[,]")]
        if not picked or any(t is None for t in picked):
            return None
        return Response(tuple(t for t in picked if t is not None), None, params, stem, None)
    if kind == "numeric":
        extensions = _mapping(definition.get("extensions"))
        unit = next((str(v) for k, v in extensions.items() if str(k).endswith("/unit") and isinstance(v, str)), "")
        typed = raw if unit.strip() in ("", "1") else f"{raw} {unit}"
        return Response((), typed, params, stem, "numeric")
    return None
