"""Checking a lab without pydantic, for the first ``study lab ID --run`` of a case.

``study lab ID --run`` is typed like a shell command, so it must answer at once. Importing pydantic and
building the lab's models costs about twice what the whole command may take, so the quick path reads the
models' own core schemas, exported to ``shape.json`` by :mod:`study.lab.shape_export`, and checks the data
against them here. It is deliberately narrower than pydantic: wherever pydantic would coerce a value (``"5"``
for an int), reject it, or where the two might differ, :func:`check` raises :class:`Unsure` and the caller
falls back to the models, which give the real answer and the real error. So the quick path either returns
exactly ``Model.model_validate(data).model_dump(mode="json")`` or nothing; a test holds it to that over every
case of every lab and a set of hostile inputs.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from functools import cache
from pathlib import Path
from typing import Any

from study.lab.draw import derive_cluster, merge_gpu_defaults

SHAPE_FILE = Path(__file__).with_name("shape.json")
HOOKS = {"merge_gpu_defaults": merge_gpu_defaults, "derive_cluster": derive_cluster}
ASCII_BLANKS = " \t\n\r\f\v"
_DIGITS = re.compile(r"0|[1-9][0-9]{0,17}")


class Unsure(Exception):
    """The data is not plainly valid; let pydantic decide (and word the error)."""


@cache
def shapes() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHAPE_FILE.read_text(encoding="utf-8"))
    return data


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def check(root: str, data: Any) -> Any:
    """``data`` validated as the model ``root`` ("Lab" or "System") and dumped as JSON data, or :class:`Unsure`."""
    return _check(shapes()["roots"][root], data)


def _check(node: dict[str, Any], v: Any) -> Any:
    kind = node["type"]
    if kind == "model":
        return _model(node["name"], v)
    if kind == "default":  # a present value; a missing one is handled by the model
        return _check(node["schema"], v)
    if kind == "str":
        return _str(node, v)
    if kind == "int":
        if type(v) is str and _DIGITS.fullmatch(v):  # lax mode reads "41872" as 41872 (YAML quotes job ids)
            v = int(v)
        if type(v) is not int:
            raise Unsure
        return _bounded(node, v)
    if kind == "float":
        if type(v) not in (int, float) or not math.isfinite(v):
            raise Unsure
        return _bounded(node, float(v))
    if kind == "bool":
        if not node.get("strict") and type(v) is int and v in (0, 1):  # lax mode's 0/1 (a variable's value)
            return bool(v)
        if type(v) is not bool:
            raise Unsure
        return v
    if kind == "date":
        if type(v) is not dt.date:
            raise Unsure
        return v.isoformat()
    if kind == "any":
        return _plain(v)
    if kind == "literal":
        if not any(type(e) is type(v) and e == v for e in node["expected"]):
            raise Unsure
        return v
    if kind == "nullable":
        return None if v is None else _check(node["schema"], v)
    if kind == "list":
        if type(v) is not list or not node.get("min_length", 0) <= len(v) <= node.get("max_length", len(v)):
            raise Unsure
        return [_check(node["items_schema"], x) for x in v]
    if kind == "tuple":
        items = node["items_schema"]
        if type(v) not in (list, tuple) or len(v) != len(items):
            raise Unsure
        return [_check(s, x) for s, x in zip(items, v)]
    if kind == "dict":
        if type(v) is not dict:
            raise Unsure
        keys, values = node.get("keys_schema", {"type": "any"}), node.get("values_schema", {"type": "any"})
        out = {_check(keys, k): _check(values, x) for k, x in v.items()}
        if len(out) != len(v):  # two keys the same once stripped: pydantic keeps the last, say not sure
            raise Unsure
        return out
    if kind == "union":
        return _union(node["choices"], v)
    raise Unsure  # a node this file does not know (the export refuses them; an old shape.json might not)


def _str(node: dict[str, Any], v: Any) -> str:
    if type(v) is not str:
        raise Unsure
    if node.get("strip_whitespace"):
        v = v.strip(ASCII_BLANKS)
        if v and (v[0].isspace() or v[-1].isspace()):  # Unicode blanks: Python's and Rust's lists differ
            raise Unsure
    if not node.get("min_length", 0) <= len(v) <= node.get("max_length", len(v)):
        raise Unsure
    pattern = node.get("pattern")
    # A final newline is where Python's ``$`` and the Rust regex pydantic uses disagree.
    if pattern is not None and ("\n" in v or not _regex(pattern).search(v)):
        raise Unsure
    return v


def _bounded(node: dict[str, Any], v: float) -> Any:
    if ("ge" in node and not v >= node["ge"]) or ("gt" in node and not v > node["gt"]) \
            or ("le" in node and not v <= node["le"]) or ("lt" in node and not v < node["lt"]):
        raise Unsure
    return v


def _union(choices: list[dict[str, Any]], v: Any) -> Any:
    fits = []
    for choice in choices:
        try:
            fits.append(_check(choice, v))
        except Unsure:
            pass
    # pydantic's smart mode takes the choice that keeps the value's own type (an int stays an int in
    # ``int | float | str``); anything less clear-cut is left to it.
    exact = [f for f in fits if type(f) is type(v)]
    if len(exact) == 1:
        return exact[0]
    if len(fits) == 1 and not isinstance(v, (int, float, str)):
        return fits[0]
    raise Unsure


def _model(name: str, v: Any) -> dict[str, Any]:
    model = shapes()["models"][name]
    if "hook" in model:
        v = HOOKS[model["hook"]](v)
    if type(v) is not dict or not all(type(k) is str for k in v):
        raise Unsure
    left = dict(v)
    out: dict[str, Any] = {}
    for field, spec in model["fields"].items():
        alias = spec.get("alias")
        keys = [k for k in ((alias,) if alias and model["by_alias"] else ()) + ((field,) if not alias or model["by_name"] else ()) if k in left]
        if len(keys) > 1:
            raise Unsure
        schema = spec["schema"]
        if keys:
            value = _check(schema, left.pop(keys[0]))
        elif schema["type"] == "default":
            value = {"list": list, "dict": dict}[schema["factory"]]() if "factory" in schema else _plain(schema["default"])
        else:
            raise Unsure  # a required field is missing
        if not spec.get("exclude"):
            out[field] = value
    if left and model["extra"] != "ignore":
        raise Unsure
    return out


def _plain(v: Any) -> Any:
    """A copy of JSON-shaped data (what an ``Any`` field dumps as itself); anything else is not plain."""
    if v is None or type(v) in (str, bool, int):
        return v
    if type(v) is float and math.isfinite(v):
        return v
    if type(v) is list:
        return [_plain(x) for x in v]
    if type(v) is dict and all(type(k) is str for k in v):
        return {k: _plain(x) for k, x in v.items()}
    raise Unsure
