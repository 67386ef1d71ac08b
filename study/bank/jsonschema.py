"""JSON Schemas of the instructor formats, generated from the pydantic models so they cannot drift."""

from __future__ import annotations

import copy
from typing import Any

from study.bank.schema import Question, TopicMeta

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _strip_internal(schema: dict[str, Any]) -> dict[str, Any]:
    schema = copy.deepcopy(schema)
    defs = schema.get("$defs", {})
    for target in (schema, *defs.values()):
        props = target.get("properties", {})
        props.pop("source", None)
    defs.pop("SourceRef", None)
    return schema


def _plain_scalars_as_text(schema: dict[str, Any]) -> None:
    """The loader reads a plain scalar under a text key as its text (``tolerance: 0`` is "0", ``why: yes``
    is "yes"), where a YAML or JSON reader sees a number, a boolean or null: the schema accepts those there
    too, so lint and the schema agree on every field (the text rules themselves stay lint's)."""
    from study.bank.yamlsafe import PROSE_KEYS, RAW_TEXT_KEYS

    amounts = {"id", "topic", "concept", "other", "tolerance"}  # no sign: their text patterns start with a digit or a letter
    for target in (schema, *schema.get("$defs", {}).values()):
        props = target.get("properties", {})
        for key in (RAW_TEXT_KEYS | PROSE_KEYS) - {"objective"}:
            if key not in props:
                continue
            if key in amounts:
                other: dict[str, Any] = {"type": "number", "minimum": 0}
            elif key == "unit":
                other = {"type": "number"}
            else:
                other = {"type": ["number", "boolean", "null"]}
            props[key] = {"anyOf": [props[key], other], "description": props[key].get("description", "")
                          or f"{key}: text; a plain number or word is read as its text"}


def questions_schema() -> dict[str, Any]:
    q = _strip_internal(Question.model_json_schema())
    _plain_scalars_as_text(q)
    defs = q.pop("$defs", {})
    # YAML writers often leave objectives unquoted (2.1); the loader reads them as written.
    q["properties"]["objective"] = {
        "anyOf": [q["properties"]["objective"], {"type": "number"}],
        "description": "blueprint objective id, 1.1 to 3.4",
    }
    defs["Question"] = q
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": "https://example.invalid/study/questions.schema.json",
        "title": "study question file",
        "description": "A list of NCA-AIIO study questions. See questions/README.md.",
        "type": "object",
        "properties": {"questions": {"type": "array", "items": {"$ref": "#/$defs/Question"}}},
        "required": ["questions"],
        "additionalProperties": False,
        "$defs": defs,
    }


def topic_schema() -> dict[str, Any]:
    schema = _strip_internal(TopicMeta.model_json_schema())
    schema["$schema"] = SCHEMA_DIALECT
    schema["title"] = "study topic front matter"
    return schema
