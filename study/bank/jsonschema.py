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


def questions_schema() -> dict[str, Any]:
    q = _strip_internal(Question.model_json_schema())
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
