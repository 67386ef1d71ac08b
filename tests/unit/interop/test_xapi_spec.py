"""An xAPI 1.0.3 statement validator written from the specification (adlnet/xAPI-Spec, xAPI-Data.md), kept apart
from the exporter so the export is checked against the spec's words rather than against its own code; and the
tests that show the validator rejects what the spec forbids (a validator that accepts everything proves nothing).

Section numbers below are those of xAPI-Data.md. Where the spec says SHOULD, the validator enforces the
recommendation too when the exporter promises it (arrays for context activities, durations to 0.01 s, a time
zone on timestamps).
"""

from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any
from urllib.parse import urlsplit

import pytest

# 2.4: the statement's properties; actor, verb and object are required (2.2.s2.b3).
STATEMENT_KEYS = {"id", "actor", "verb", "object", "result", "context", "timestamp", "stored", "authority",
                  "version", "attachments"}
AGENT_KEYS = {"objectType", "name", "mbox", "mbox_sha1sum", "openid", "account"}
IFI_KEYS = ("mbox", "mbox_sha1sum", "openid", "account")
ACTIVITY_KEYS = {"objectType", "id", "definition"}
DEFINITION_KEYS = {"name", "description", "type", "moreInfo", "extensions", "interactionType",
                   "correctResponsesPattern", "choices", "scale", "source", "target", "steps"}
RESULT_KEYS = {"score", "success", "completion", "response", "duration", "extensions"}
SCORE_KEYS = {"scaled", "raw", "min", "max"}
CONTEXT_KEYS = {"registration", "instructor", "team", "contextActivities", "revision", "platform", "language",
                "statement", "extensions"}
CONTEXT_ACTIVITY_KEYS = {"parent", "grouping", "category", "other"}
# 2.4.4.1.s8 and s15: interaction types and the component lists each may carry.
COMPONENT_LISTS = {
    "choice": {"choices"}, "sequencing": {"choices"}, "likert": {"scale"}, "matching": {"source", "target"},
    "performance": {"steps"}, "true-false": set(), "fill-in": set(), "long-fill-in": set(), "numeric": set(),
    "other": set(),
}

# 4.4: UUIDs in standard string form, RFC 4122 variant (the "variant 2" of the spec's wording).
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$")
# 4.5: ISO 8601 combined date and time; RFC 3339 profile with a zone (SHOULD*, enforced here).
TIMESTAMP_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")
# 4.6: ISO 8601:2004 4.4.3.2 durations (PnYnMnDTnHnMnS, or PnW alone); the alternative format is not allowed.
_N = r"\d+(?:\.\d+)?"
DURATION_RE = re.compile(rf"^P(?:(?:{_N}Y)?(?:{_N}M)?(?:{_N}D)?(?:T(?=\d)(?:{_N}H)?(?:{_N}M)?(?:{_N}S)?)?|{_N}W)$")
# RFC 5646 language tag, best effort as 2.2.s4.b7 allows: language, script, region, variants.
LANG_RE = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z]{4})?(?:-(?:[A-Za-z]{2}|\d{3}))?(?:-(?:[A-Za-z0-9]{5,8}|\d[A-Za-z0-9]{3}))*$")
MAILTO_RE = re.compile(r"^mailto:[^@\s]+@[^@\s]+\.[^@\s]+$")
NUMBER_RE = r"-?\d+(?:\.\d+)?"
NUMERIC_RANGE_RE = re.compile(rf"^(?:({NUMBER_RE})?\[:\]({NUMBER_RE})?|({NUMBER_RE}))$")


class Invalid(AssertionError):
    pass


def _fail(path: str, why: str) -> None:
    raise Invalid(f"{path}: {why}")


def is_iri(value: Any) -> bool:
    """Absolute IRI: a scheme, then something, no spaces or characters RFC 3987 excludes (2.2.s4.b1.b8)."""
    if not isinstance(value, str) or not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$", value):
        return False
    if re.search(r"[\s<>\"{}|\\^`]", value):
        return False
    parts = urlsplit(value)
    return parts.scheme not in ("http", "https") or bool(parts.netloc)


def check_lang_map(value: Any, path: str) -> None:
    if not isinstance(value, dict) or not value:
        _fail(path, "a language map must be a non-empty object")
    for tag, text in value.items():
        if not LANG_RE.match(tag):
            _fail(path, f"{tag!r} is not an RFC 5646 language tag")
        if not isinstance(text, str):
            _fail(path, "language map values are strings")


def check_extensions(value: Any, path: str) -> None:
    if not isinstance(value, dict) or not value:
        _fail(path, "extensions must be a non-empty object")
    for key in value:
        if not is_iri(key):
            _fail(path, f"extension key {key!r} is not an IRI (4.1.s3.b1)")


def check_no_nulls(value: Any, path: str = "statement") -> None:
    """2.2.s4.b1.b1: no null anywhere except inside extensions; 2.2.s2.b1: no empty objects."""
    if value is None:
        _fail(path, "null value")
    if isinstance(value, dict):
        if not value:
            _fail(path, "empty object")
        for k, v in value.items():
            if k != "extensions":
                check_no_nulls(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_no_nulls(v, f"{path}[{i}]")


def check_agent(agent: Any, path: str) -> None:
    """2.4.2.1 and 2.4.2.3: exactly one inverse functional identifier."""
    if not isinstance(agent, dict):
        _fail(path, "an Agent is an object")
    extra = set(agent) - AGENT_KEYS
    if extra:
        _fail(path, f"properties not allowed on an Agent: {sorted(extra)}")
    if agent.get("objectType", "Agent") != "Agent":
        _fail(path, "objectType must be Agent")
    ifis = [k for k in IFI_KEYS if k in agent]
    if len(ifis) != 1:
        _fail(path, f"an Agent needs exactly one inverse functional identifier, has {ifis}")
    if "mbox" in agent and not (isinstance(agent["mbox"], str) and MAILTO_RE.match(agent["mbox"])):
        _fail(path, "mbox must be a mailto IRI")
    if "mbox_sha1sum" in agent and not re.match(r"^[0-9a-f]{40}$", str(agent["mbox_sha1sum"])):
        _fail(path, "mbox_sha1sum must be a hex SHA-1")
    if "openid" in agent and not is_iri(agent["openid"]):
        _fail(path, "openid must be a URI")
    if "account" in agent:
        acc = agent["account"]
        if not isinstance(acc, dict) or set(acc) != {"homePage", "name"}:
            _fail(path, "an account has exactly homePage and name (2.4.2.4)")
        home = urlsplit(acc["homePage"]) if isinstance(acc["homePage"], str) else None
        if home is None or home.scheme not in ("http", "https") or not home.netloc or not is_iri(acc["homePage"]):
            _fail(path, "account.homePage must be an IRL")
        if not isinstance(acc["name"], str) or not acc["name"]:
            _fail(path, "account.name must be a non-empty string")


def check_components(defn: dict, path: str) -> set[str]:
    itype = defn.get("interactionType")
    ids: set[str] = set()
    for key in ("choices", "scale", "source", "target", "steps"):
        if key not in defn:
            continue
        if key not in COMPONENT_LISTS.get(itype, set()):
            _fail(path, f"{key} is not a component list of interactionType {itype!r}")
        comps = defn[key]
        if not isinstance(comps, list):
            _fail(path, f"{key} must be an array")
        seen: set[str] = set()
        for i, c in enumerate(comps):
            if not isinstance(c, dict) or set(c) - {"id", "description"} or "id" not in c:
                _fail(f"{path}.{key}[{i}]", "a component has an id and an optional description")
            if not isinstance(c["id"], str) or not c["id"] or re.search(r"\s", c["id"]):
                _fail(f"{path}.{key}[{i}]", "component ids are non-empty strings without whitespace (s16.b2)")
            if c["id"] in seen:
                _fail(f"{path}.{key}", f"duplicate component id {c['id']!r} (s16.b1)")
            seen.add(c["id"])
            if "description" in c:
                check_lang_map(c["description"], f"{path}.{key}[{i}].description")
        ids |= seen
    return ids


def check_response_format(itype: str, value: Any, choice_ids: set[str], path: str) -> None:
    """2.4.4.1.s10: the response pattern formats, which the learner's response in result follows too."""
    if not isinstance(value, str):
        _fail(path, "a response pattern is a string")
    if itype == "true-false":
        if value not in ("true", "false"):
            _fail(path, f"true-false takes 'true' or 'false', not {value!r}")
    elif itype in ("choice", "sequencing"):
        items = value.split("[,]")
        if any(not item for item in items):
            _fail(path, f"empty item in {value!r} (no delimiter for a single item)")
        if choice_ids and set(items) - choice_ids:
            _fail(path, f"{value!r} names ids that are not among the choices {sorted(choice_ids)}")
        if itype == "choice" and len(set(items)) != len(items):
            _fail(path, f"repeated id in {value!r}")
    elif itype == "numeric":
        m = NUMERIC_RANGE_RE.match(value)
        if not m:
            _fail(path, f"numeric takes a number or min[:]max, not {value!r}")
        low, high = m.group(1), m.group(2)
        if low is not None and high is not None and float(low) > float(high):
            _fail(path, f"range {value!r} has min above max")


def check_activity(act: Any, path: str) -> dict:
    if not isinstance(act, dict):
        _fail(path, "an Activity is an object")
    extra = set(act) - ACTIVITY_KEYS
    if extra:
        _fail(path, f"properties not allowed on an Activity: {sorted(extra)}")
    if act.get("objectType", "Activity") != "Activity":
        _fail(path, "objectType must be Activity when present")
    if not is_iri(act.get("id")):
        _fail(path, f"Activity id {act.get('id')!r} is not an absolute IRI")
    defn = act.get("definition")
    if defn is None:
        return {}
    if not isinstance(defn, dict):
        _fail(path, "definition is an object")
    extra = set(defn) - DEFINITION_KEYS
    if extra:
        _fail(f"{path}.definition", f"properties not allowed: {sorted(extra)}")
    for key in ("name", "description"):
        if key in defn:
            check_lang_map(defn[key], f"{path}.definition.{key}")
    if "type" in defn and not is_iri(defn["type"]):
        _fail(f"{path}.definition.type", "must be an IRI")
    if "moreInfo" in defn and not is_iri(defn["moreInfo"]):
        _fail(f"{path}.definition.moreInfo", "must be an IRL")
    if "extensions" in defn:
        check_extensions(defn["extensions"], f"{path}.definition.extensions")
    interaction_keys = {"interactionType", "correctResponsesPattern", "choices", "scale", "source", "target", "steps"}
    if defn.get("type") == "http://adlnet.gov/expapi/activities/cmi.interaction" or interaction_keys & set(defn):
        itype = defn.get("interactionType")
        if itype not in COMPONENT_LISTS:
            _fail(f"{path}.definition", f"interaction activities need a valid interactionType, not {itype!r} (s13.b1)")
        ids = check_components(defn, f"{path}.definition")
        if "correctResponsesPattern" in defn:
            pats = defn["correctResponsesPattern"]
            if not isinstance(pats, list):
                _fail(f"{path}.definition.correctResponsesPattern", "must be an array of strings")
            for i, pat in enumerate(pats):
                check_response_format(itype, pat, ids, f"{path}.definition.correctResponsesPattern[{i}]")
    return defn


def check_score(score: Any, path: str) -> None:
    """2.4.5.1: scaled in [-1, 1], min < max, raw within [min, max]; all numbers, never strings or booleans."""
    if not isinstance(score, dict):
        _fail(path, "score is an object")
    extra = set(score) - SCORE_KEYS
    if extra:
        _fail(path, f"properties not allowed: {sorted(extra)}")
    for key, val in score.items():
        if isinstance(val, bool) or not isinstance(val, (int, float)):
            _fail(f"{path}.{key}", f"must be a number, not {val!r}")
    if "scaled" in score and not -1 <= score["scaled"] <= 1:
        _fail(f"{path}.scaled", f"{score['scaled']} is outside [-1, 1]")
    if "min" in score and "max" in score and not score["min"] < score["max"]:
        _fail(path, "min must be less than max")
    if "raw" in score:
        if "min" in score and score["raw"] < score["min"]:
            _fail(f"{path}.raw", "below min")
        if "max" in score and score["raw"] > score["max"]:
            _fail(f"{path}.raw", "above max")


def check_duration(value: Any, path: str) -> None:
    if not isinstance(value, str) or not DURATION_RE.match(value) or value in ("P", "PT"):
        _fail(path, f"{value!r} is not an ISO 8601 duration")
    seconds = re.search(r"(\d+(?:\.(\d+))?)S$", value)
    if seconds and seconds.group(2) and len(seconds.group(2)) > 2:
        _fail(path, f"{value!r} is more precise than 0.01 s (4.6.s1.b2)")


def check_timestamp(value: Any, path: str, now: dt.datetime | None = None) -> None:
    if not isinstance(value, str) or not TIMESTAMP_RE.match(value):
        _fail(path, f"{value!r} is not an ISO 8601 timestamp with a time zone")
    when = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    if when > (now or dt.datetime.now(dt.timezone.utc)):
        _fail(path, "a provider must not use a future time (2.4.7.s3.b4)")


def check_result(result: Any, path: str, defn: dict) -> None:
    if not isinstance(result, dict):
        _fail(path, "result is an object")
    extra = set(result) - RESULT_KEYS
    if extra:
        _fail(path, f"properties not allowed: {sorted(extra)}")
    if "score" in result:
        check_score(result["score"], f"{path}.score")
    for key in ("success", "completion"):
        if key in result and not isinstance(result[key], bool):
            _fail(f"{path}.{key}", "must be a boolean")
    if "duration" in result:
        check_duration(result["duration"], f"{path}.duration")
    if "extensions" in result:
        check_extensions(result["extensions"], f"{path}.extensions")
    if "response" in result:
        if not isinstance(result["response"], str):
            _fail(f"{path}.response", "must be a string")
        itype = defn.get("interactionType")
        if itype:
            ids = {c["id"] for c in defn.get("choices", ())}
            check_response_format(itype, result["response"], ids, f"{path}.response")


def check_statement_ref(ref: Any, path: str) -> None:
    """2.4.4.3: a Statement Reference is ``objectType`` ``StatementRef`` and the ``id`` (a UUID) of a statement."""
    if not isinstance(ref, dict) or ref.get("objectType") != "StatementRef":
        _fail(path, "a Statement Reference has objectType StatementRef")
    extra = set(ref) - {"objectType", "id"}
    if extra:
        _fail(path, f"properties not allowed on a StatementRef: {sorted(extra)}")
    if not (isinstance(ref.get("id"), str) and UUID_RE.match(ref["id"])):
        _fail(f"{path}.id", "a StatementRef names a statement by its UUID")


VOIDED = "http://adlnet.gov/expapi/verbs/voided"


def check_context(ctx: Any, path: str, object_is_activity: bool) -> None:
    if not isinstance(ctx, dict):
        _fail(path, "context is an object")
    extra = set(ctx) - CONTEXT_KEYS
    if extra:
        _fail(path, f"properties not allowed: {sorted(extra)}")
    if "registration" in ctx and not (isinstance(ctx["registration"], str) and UUID_RE.match(ctx["registration"])):
        _fail(f"{path}.registration", "must be a UUID")
    if "instructor" in ctx:
        check_agent(ctx["instructor"], f"{path}.instructor")
    for key in ("revision", "platform"):
        if key in ctx:
            if not object_is_activity:
                _fail(f"{path}.{key}", "only allowed when the object is an Activity (2.4.6.s4)")
            if not isinstance(ctx[key], str):
                _fail(f"{path}.{key}", "must be a string")
    if "language" in ctx and not (isinstance(ctx["language"], str) and LANG_RE.match(ctx["language"])):
        _fail(f"{path}.language", "must be an RFC 5646 tag")
    if "extensions" in ctx:
        check_extensions(ctx["extensions"], f"{path}.extensions")
    if "statement" in ctx:
        check_statement_ref(ctx["statement"], f"{path}.statement")
    if "contextActivities" in ctx:
        acts = ctx["contextActivities"]
        if not isinstance(acts, dict):
            _fail(f"{path}.contextActivities", "must be an object")
        extra = set(acts) - CONTEXT_ACTIVITY_KEYS
        if extra:
            _fail(f"{path}.contextActivities", f"keys must be parent, grouping, category or other, not {sorted(extra)}")
        for key, value in acts.items():
            if not isinstance(value, list):
                _fail(f"{path}.contextActivities.{key}", "send an array of Activities (2.4.6.2.s4.b5)")
            for i, act in enumerate(value):
                check_activity(act, f"{path}.contextActivities.{key}[{i}]")


def validate_statement(st: Any, now: dt.datetime | None = None) -> None:
    """Raise :class:`Invalid` naming the first rule of the spec that ``st`` breaks."""
    if not isinstance(st, dict):
        _fail("statement", "must be an object")
    check_no_nulls(st)
    extra = set(st) - STATEMENT_KEYS
    if extra:
        _fail("statement", f"properties not allowed: {sorted(extra)}")
    for key in ("actor", "verb", "object"):
        if key not in st:
            _fail("statement", f"{key} is required (2.2.s2.b3)")
    if "id" in st and not (isinstance(st["id"], str) and UUID_RE.match(st["id"])):
        _fail("statement.id", f"{st['id']!r} is not a UUID in standard form")
    check_agent(st["actor"], "statement.actor")
    verb = st["verb"]
    if not isinstance(verb, dict) or set(verb) - {"id", "display"} or not is_iri(verb.get("id")):
        _fail("statement.verb", "a verb has an IRI id and an optional display")
    if "display" in verb:
        check_lang_map(verb["display"], "statement.verb.display")
    obj = st["object"]
    object_is_activity = isinstance(obj, dict) and obj.get("objectType", "Activity") == "Activity"
    if verb.get("id") == VOIDED:
        # 2.3.2: a voiding statement's object is a StatementRef naming the voided statement's id.
        check_statement_ref(obj, "statement.object")
        if "result" in st:
            _fail("statement.result", "this exporter's voids carry no result")
        defn: dict = {}
    elif not object_is_activity:
        _fail("statement.object", "this exporter writes Activities as objects, StatementRefs only to void")
    else:
        defn = check_activity(obj, "statement.object")
    if "result" in st:
        check_result(st["result"], "statement.result", defn)
    if "context" in st:
        check_context(st["context"], "statement.context", object_is_activity)
    if "timestamp" in st:
        check_timestamp(st["timestamp"], "statement.timestamp", now)
    if "version" in st and not re.match(r"^1\.0\.\d+$", str(st["version"])):
        _fail("statement.version", "must start with 1.0.")


# --- the validator's own tests: it must reject what the spec forbids ---------------------------------------

GOOD = {
    "id": "fd41c918-b88b-4b20-a0a5-a4c32391aaa0",
    "actor": {"objectType": "Agent", "mbox": "mailto:learner@example.com"},
    "verb": {"id": "http://adlnet.gov/expapi/verbs/answered", "display": {"en-US": "answered"}},
    "object": {
        "objectType": "Activity",
        "id": "https://example.com/questions/q1",
        "definition": {
            "description": {"en": "How many?"},
            "type": "http://adlnet.gov/expapi/activities/cmi.interaction",
            "interactionType": "choice",
            "correctResponsesPattern": ["golf[,]tetris"],
            "choices": [{"id": "golf", "description": {"en": "Golf"}}, {"id": "tetris"}, {"id": "chess"}],
        },
    },
    "result": {"score": {"scaled": 0.5, "raw": 1, "min": 0, "max": 2}, "success": False, "completion": True,
               "response": "golf", "duration": "PT4H35M59.14S"},
    "context": {"registration": "ec531277-b57b-4c15-8d91-d292c5b2b8f7",
                "contextActivities": {"parent": [{"id": "https://example.com/quiz"}]},
                "platform": "p", "language": "en"},
    "timestamp": "2015-11-18T12:17:00+00:00",
}


def _broken(path: str, value: Any) -> dict:
    st = copy.deepcopy(GOOD)
    *parents, last = path.split(".")
    node = st
    for p in parents:
        node = node[int(p)] if isinstance(node, list) else node[p]
    if value is _DELETE:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return st


_DELETE = object()


def test_the_spec_examples_are_valid() -> None:
    validate_statement(GOOD)
    # Appendix C style definitions and the numeric range forms of 2.4.4.1.s10.
    for pattern in ("4[:]", "[:]4", "1.5[:]2.5", "-3[:]-1", "7"):
        st = _broken("object.definition", {"type": "http://adlnet.gov/expapi/activities/cmi.interaction",
                                           "interactionType": "numeric", "correctResponsesPattern": [pattern]})
        st["result"]["response"] = "2"
        validate_statement(st)
    for duration in ("PT0S", "PT42.5S", "P3Y1M29DT4H35M59.14S", "P4W", "PT1234S", "P3Y"):
        validate_statement(_broken("result.duration", duration))
    validate_statement(_broken("actor", {"account": {"homePage": "http://www.example.com", "name": "1625378"}}))


@pytest.mark.parametrize("path,value,why", [
    ("actor", _DELETE, "actor is required"),
    ("verb", _DELETE, "verb is required"),
    ("object", _DELETE, "object is required"),
    ("id", "not-a-uuid", "UUID"),
    ("id", "fd41c918b88b4b20a0a5a4c32391aaa0", "UUID"),
    ("actor", {"objectType": "Agent"}, "exactly one inverse functional identifier"),
    ("actor", {"mbox": "mailto:a@example.com", "account": {"homePage": "http://x.org", "name": "a"}}, "exactly one"),
    ("actor.mbox", "learner@example.com", "mailto"),
    ("actor", {"account": {"homePage": "www.example.com", "name": "a"}}, "homePage"),
    ("actor", {"account": {"homePage": "http://example.com", "name": ""}}, "account.name"),
    ("verb.id", "answered", "IRI"),
    ("verb.display", {"english": "answered"}, "language tag"),
    ("object.id", "questions/q1", "absolute IRI"),
    ("object.id", "https://example.com/a b", "absolute IRI"),
    ("object.definition.interactionType", "multiple-choice", "valid interactionType"),
    ("object.definition.correctResponsesPattern", "golf", "array"),
    ("object.definition.correctResponsesPattern", ["golf,tetris"], "not among the choices"),
    ("object.definition.correctResponsesPattern", ["golf[,]"], "empty item"),
    ("object.definition.choices", [{"id": "golf"}, {"id": "golf"}], "duplicate component id"),
    ("object.definition.choices", [{"id": "a b"}], "whitespace"),
    ("object.definition.scale", [{"id": "x"}], "not a component list"),
    ("object.definition.name", {"en": 5}, "values are strings"),
    ("object.definition.name", "How many?", "language map"),
    ("object.definition.extensions", {"unit": "GB"}, "not an IRI"),
    ("result.score.scaled", 1.5, "outside [-1, 1]"),
    ("result.score.scaled", -1.01, "outside [-1, 1]"),
    ("result.score.scaled", "0.5", "must be a number"),
    ("result.score.raw", 3, "above max"),
    ("result.score.raw", -1, "below min"),
    ("result.score.min", 2, "less than max"),
    ("result.success", "true", "boolean"),
    ("result.response", "checkers", "not among the choices"),
    ("result.response", 1, "string"),
    ("result.duration", "42.5", "ISO 8601 duration"),
    ("result.duration", "PT", "ISO 8601 duration"),
    ("result.duration", "P4W1D", "ISO 8601 duration"),
    ("result.duration", "PT1H30", "ISO 8601 duration"),
    ("result.duration", "P0000-00-00T00:00:42", "ISO 8601 duration"),
    ("result.duration", "PT1.234S", "0.01 s"),
    ("result.grade", "A", "not allowed"),
    ("context.registration", "abc", "UUID"),
    ("context.contextActivities", {"course": [{"id": "https://example.com/c"}]}, "parent, grouping"),
    ("context.contextActivities", {"parent": {"id": "https://example.com/quiz"}}, "array"),
    ("context.contextActivities", {"parent": [{"id": "quiz"}]}, "absolute IRI"),
    ("context.language", "english", "RFC 5646"),
    ("timestamp", "2015-11-18 12:17", "timestamp"),
    ("timestamp", "2015-11-18T12:17:00", "time zone"),
    ("timestamp", "2999-01-01T00:00:00Z", "future"),
    ("result.completion", None, "null"),
    ("context", {}, "empty object"),
    ("stored_by", "me", "not allowed"),
])
def test_the_validator_rejects_what_the_spec_forbids(path: str, value: Any, why: str) -> None:
    with pytest.raises(Invalid, match=re.escape(why)):
        validate_statement(_broken(path, value))


@pytest.mark.parametrize("itype,pattern,response", [
    ("true-false", "true", "yes"),
    ("true-false", "True", "false"),
    ("numeric", "1[:]2", "about 3"),
    ("numeric", "5[:]2", "3"),
    ("numeric", "1e3[:]2e3", "1500"),
])
def test_the_validator_checks_response_formats_per_interaction_type(itype: str, pattern: str, response: str) -> None:
    st = _broken("object.definition", {"type": "http://adlnet.gov/expapi/activities/cmi.interaction",
                                       "interactionType": itype, "correctResponsesPattern": [pattern]})
    st["result"]["response"] = response
    with pytest.raises(Invalid):
        validate_statement(st)


VOID = {
    "id": "0b6e1f0c-3b8e-5a43-9a3c-1f5d0e3c2a11",
    "actor": {"objectType": "Agent", "mbox": "mailto:learner@example.com"},
    "verb": {"id": VOIDED, "display": {"en-US": "voided"}},
    "object": {"objectType": "StatementRef", "id": "fd41c918-b88b-4b20-a0a5-a4c32391aaa0"},
}


def test_a_void_names_the_statement_by_a_statement_ref() -> None:
    validate_statement(VOID)  # the spec's own example of 2.3.2, with an id
    for obj, why in [({"objectType": "Activity", "id": "https://example.com/q"}, "objectType StatementRef"),
                     ({"objectType": "StatementRef", "id": "not-a-uuid"}, "by its UUID"),
                     ({"objectType": "StatementRef", "id": VOID["object"]["id"], "definition": {"a": 1}}, "not allowed")]:
        with pytest.raises(Invalid, match=why):
            validate_statement(dict(VOID, object=obj))
    with pytest.raises(Invalid, match="StatementRefs only to void"):
        validate_statement(dict(GOOD, object=VOID["object"]))
    with pytest.raises(Invalid, match="by its UUID"):
        validate_statement(dict(GOOD, context=dict(GOOD["context"], statement={"objectType": "StatementRef",
                                                                                "id": "x"})))


def test_revision_and_platform_need_an_activity_object() -> None:
    st = copy.deepcopy(GOOD)
    check_context(st["context"], "context", object_is_activity=True)
    with pytest.raises(Invalid, match="only allowed when the object is an Activity"):
        check_context(st["context"], "context", object_is_activity=False)
