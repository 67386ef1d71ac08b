"""What the learner was shown when answering, kept with the attempt (``attempts.shown_json``).

An exported record of an answer (an xAPI statement) must say what was asked and answered at that moment: the
bank may be reworded or its choices reordered later, and the shuffle is gone once the session ends. So each
attempt keeps the stem as shown, the choices in the order shown with a stable identity, the numeric key, and
the version of ``study`` that asked. A choice's identity is a hash of its text as shown: it does not depend
on the author's order or on the shuffle, and an edited choice is a different choice.
"""

from __future__ import annotations

import hashlib
from typing import Any

SHOWN_VERSION = 1


def choice_key(text: str) -> str:
    """``c`` + 10 hex digits of the SHA-256 of the choice's text (an xAPI choice id: no ``[,]`` in it)."""
    return "c" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def shown_record(inst: Any, objective_title: str = "", form: dict[str, str] | None = None) -> dict[str, Any]:
    """The JSON-ready record of ``inst`` (a :class:`~study.quiz.instance.Instance`) as it was asked; ``form``:
    the class exam form it was asked in (``study.quiz.form``), which every export of the answer then names."""
    from study import __version__

    record: dict[str, Any] = {
        "v": SHOWN_VERSION,
        "type": inst.type,
        "objective": inst.objective,
        "objective_title": objective_title,
        "difficulty": inst.difficulty,
        "stem": inst.stem,
        "templated": bool(inst.params),
        "choices": [{"id": choice_key(o.text), "text": o.text, "correct": bool(o.correct)} for o in inst.options],
        "platform": f"study {__version__}",
    }
    if inst.numeric is not None:
        key = inst.numeric
        record["numeric"] = {"value": key.value, "unit": key.unit, "tolerance": key.tolerance, "digits": key.digits}
    if form:
        record["form"] = {"name": str(form["name"]), "id": str(form["id"])}
    return record


def shown_instance(record: dict[str, Any], qid: str) -> Any:
    """An :class:`Instance` rebuilt from a record, enough to read a typed number the way the grader did."""
    from study.quiz.instance import Instance, NumericKey, Option

    num = record.get("numeric")
    return Instance(
        qid=qid, objective=str(record.get("objective", "")), domain="", type=str(record["type"]),
        difficulty=int(record.get("difficulty") or 0), stem=str(record.get("stem", "")),
        options=tuple(Option(str(c["text"]), bool(c.get("correct"))) for c in record.get("choices") or ()),
        numeric=NumericKey(float(num["value"]), str(num["unit"]), str(num.get("tolerance", "2%")),
                           int(num.get("digits", 3))) if num else None,
    )
