"""Writes ``study/lab/shape.json``: the lab models' pydantic core schemas as plain data for :mod:`study.lab.shape`.

The quick path of ``study lab ID --run`` checks a lab without pydantic (whose import and model building cost
more than the whole command may take). It reads this export of the models' own schemas rather than a second,
hand-kept description of them. Only the schema features the interpreter understands are written; any other
(a new validator, a constraint it does not know) makes the export fail, so the models cannot grow a rule the
quick path silently skips. A test keeps the committed file equal to a fresh export.

    python -m study.lab.shape_export   # rewrite study/lab/shape.json after editing study/lab/schema.py
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from study.lab.draw import derive_cluster, merge_gpu_defaults

SHAPE_FILE = Path(__file__).with_name("shape.json")

# The functions a ``mode="before"`` validator may call, by the name the interpreter knows them by.
HOOKS = {"merge_gpu_defaults": merge_gpu_defaults, "derive_cluster": derive_cluster}

# Per node type, the keys an export may carry (beside "type"); the values of "metadata" and "ref" are not
# rules (JSON-schema hints and pydantic's own bookkeeping) and are dropped.
DROPPED = {"metadata", "ref"}
KEYS: dict[str, set[str]] = {
    "str": {"pattern", "min_length", "max_length", "strip_whitespace"},
    "int": {"ge", "gt", "le", "lt"},
    "float": {"ge", "gt", "le", "lt"},
    "bool": {"strict"},
    "date": set(),
    "any": set(),
    "literal": {"expected"},
    "nullable": {"schema"},
    "list": {"items_schema", "min_length", "max_length"},
    "tuple": {"items_schema"},
    "dict": {"keys_schema", "values_schema"},
    "union": {"choices"},
    "default": {"schema", "default", "default_factory", "default_factory_takes_data"},
    "function-before": {"function", "schema"},
    "model": {"cls", "schema", "config", "custom_init", "root_model"},
}
INERT_CONFIG = {"str_strip_whitespace"}
CONFIG_KEYS = {"extra_fields_behavior", "title", "validate_by_alias", "validate_by_name"}
FIELD_KEYS = {"type", "schema", "metadata", "validation_alias", "serialization_alias", "serialization_exclude"}


class ExportError(ValueError):
    """The models use a schema feature :mod:`study.lab.shape` does not check."""


def _fail(where: str, what: str) -> ExportError:
    return ExportError(f"{where}: {what}; teach study/lab/shape.py to check it, then export again")


def _node(schema: dict[str, Any], models: dict[str, Any], where: str) -> dict[str, Any]:
    kind = schema.get("type")
    if kind not in KEYS:
        raise _fail(where, f"schema node {kind!r}")
    unknown = set(schema) - KEYS[kind] - DROPPED - {"type"}
    if unknown:
        raise _fail(where, f"{kind} with {sorted(unknown)}")
    out: dict[str, Any] = {"type": kind}
    if kind == "model":
        return _model(schema, models, where)
    for key, value in schema.items():
        if key in DROPPED or key == "type":
            continue
        if key in ("schema", "items_schema", "keys_schema", "values_schema") and isinstance(value, dict):
            out[key] = _node(value, models, f"{where}.{key}")
        elif key == "items_schema":  # a tuple's positions
            out[key] = [_node(v, models, f"{where}[{i}]") for i, v in enumerate(value)]
        elif key == "choices":
            if any(isinstance(c, tuple) for c in value):
                raise _fail(where, "a tagged union choice")
            out[key] = [_node(c, models, f"{where}|{i}") for i, c in enumerate(value)]
        elif key == "default_factory":
            if value not in (list, dict) or schema.get("default_factory_takes_data"):
                raise _fail(where, f"default_factory {value!r}")
            out["factory"] = value.__name__
        elif key == "default_factory_takes_data":
            continue
        elif key == "default":
            out[key] = _dumped_default(value, schema["schema"], where)
        elif key == "function":
            hook = next((name for name, fn in HOOKS.items() if _calls(value, fn)), None)
            if value.get("type") != "no-info" or hook is None:
                raise _fail(where, f"before-validator {value.get('function')!r}")
            out["hook"] = hook
        elif key == "pattern":
            out[key] = value if isinstance(value, str) else value.pattern
        else:
            out[key] = _plain(value, where)
    return out


def _calls(function: dict[str, Any], hook: Any) -> bool:
    """Whether a validator is a one-line call of ``hook`` (its code calls ``hook`` by name and nothing else)."""
    code = getattr(getattr(function.get("function"), "__func__", function.get("function")), "__code__", None)
    return code is not None and code.co_names == (hook.__name__,)


def _model(schema: dict[str, Any], models: dict[str, Any], where: str) -> dict[str, Any]:
    if schema.get("custom_init") or schema.get("root_model"):
        raise _fail(where, "a model with its own __init__ or a root model")
    # A config value that changes nothing (``str_strip_whitespace=False``) is not a rule.
    config = {k: v for k, v in schema.get("config", {}).items() if not (k in INERT_CONFIG and v is False)}
    if set(config) - CONFIG_KEYS:
        raise _fail(where, f"model config {sorted(set(config) - CONFIG_KEYS)}")
    name = schema["cls"].__name__
    inner = schema["schema"]
    hook = None
    if inner.get("type") == "function-before":
        hook = _node({**inner, "schema": {"type": "any"}}, models, where)["hook"]
        inner = inner["schema"]
    if inner.get("type") != "model-fields" or inner.get("computed_fields") or set(inner) - {"type", "fields", "model_name", "computed_fields"}:
        raise _fail(where, f"model {name} with {sorted(set(inner))}")
    if name in models:
        return {"type": "model", "name": name}
    models[name] = None  # claimed before its fields, so a model that contains itself ends
    fields = {}
    for field, spec in inner["fields"].items():
        if set(spec) - FIELD_KEYS:
            raise _fail(f"{where}.{field}", f"field with {sorted(set(spec) - FIELD_KEYS)}")
        entry: dict[str, Any] = {"schema": _node(spec["schema"], models, f"{name}.{field}")}
        alias = spec.get("validation_alias")
        if alias is not None:
            if not isinstance(alias, str):
                raise _fail(f"{name}.{field}", "an alias path or choice")
            entry["alias"] = alias
        if spec.get("serialization_exclude"):
            entry["exclude"] = True
        fields[field] = entry
    models[name] = {
        "fields": fields,
        "extra": config.get("extra_fields_behavior", "ignore"),
        "by_name": bool(config.get("validate_by_name")),
        "by_alias": config.get("validate_by_alias", True),
        **({"hook": hook} if hook else {}),
    }
    return {"type": "model", "name": name}


def _dumped_default(value: Any, schema: dict[str, Any], where: str) -> Any:
    """A default as pydantic's serializer writes it: defaults are not validated, so ``power_w: float = 71``
    holds the int 71, which the float serializer dumps as 71.0."""
    inner = schema["schema"] if schema.get("type") == "nullable" else schema
    if inner.get("type") == "float" and type(value) is int:
        return float(value)
    return _plain(value, where)


def _plain(value: Any, where: str) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v, where) for v in value]
    if hasattr(value, "model_dump"):  # a model as a default (``ecc: Ecc = Ecc()``) dumps as its fields
        return value.model_dump(mode="json")
    if isinstance(value, dt.date):
        raise _fail(where, "a date default")
    raise _fail(where, f"a value of type {type(value).__name__}")


def export_models(roots: dict[str, Any]) -> dict[str, Any]:
    """The shape of each root model (by the name the quick path asks for it) and of every model inside."""
    models: dict[str, Any] = {}
    shapes = {name: _node(cls.__pydantic_core_schema__, models, name) for name, cls in roots.items()}
    return {"roots": shapes, "models": models}


def export() -> dict[str, Any]:
    from study.lab.schema import Lab, System

    return export_models({"Lab": Lab, "System": System})


def render() -> str:
    """The export as JSON with one model per line: a schema edit shows in a diff as the model it changed."""
    data = export()
    models = ",\n".join(f"  {json.dumps(name)}: {json.dumps(model)}" for name, model in data["models"].items())
    return '{"roots": %s,\n "models": {\n%s\n }\n}\n' % (json.dumps(data["roots"]), models)


def main() -> int:
    SHAPE_FILE.write_text(render(), encoding="utf-8")
    print(f"wrote {SHAPE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
