"""Class exam forms in the results (``study quiz --form``, issue 36.9): which form each answer was given in,
the forms a class's results hold, and ``study analyze --form NAME``'s choice of one form's answers.

An answer given in a form names it (its name and id) in the record of what was shown (a progress export's
``attempts[].shown.form``) or in its statement's context (the extension ``<base>/extensions/form``). Item
analysis is about one fixed test, as Moodle's is about one quiz: ``--form NAME`` keeps only that form's
answers, before the first-answer rule, so a question a learner practised before the exam counts with its
answer in the form. Without it, the report lists each form the results hold with its learners, questions and
mean mark, and says how to analyse it alone.
"""

from __future__ import annotations

import math
import re
import shlex
from array import array
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping


# Cheap tests on a file's text before any answer is looked at: most results hold no form at all.
EXPORT_MARK = '"form":'
STATEMENT_MARK = '/extensions/form"'


def form_of_attempt(attempt: Mapping[str, Any]) -> Mapping[str, Any] | None:
    shown = attempt.get("shown")
    form = shown.get("form") if isinstance(shown, dict) else None
    return form if isinstance(form, dict) and isinstance(form.get("name"), str) else None


def form_of_statement(statement: Mapping[str, Any]) -> Mapping[str, Any] | None:
    context = statement.get("context")
    extensions = context.get("extensions") if isinstance(context, dict) else None
    if not isinstance(extensions, dict):
        return None
    for key, value in extensions.items():
        if isinstance(key, str) and key.endswith("/extensions/form") and isinstance(value, dict) \
                and isinstance(value.get("name"), str):
            return value
    return None


# The default xAPI actor, ``<homePage>|<user>-<learner id>`` (study.analysis.results matches it the same way).
_ACTOR_LEARNER = re.compile(r"\|[^|@]*-([A-Za-z0-9]{6,64})$")


@dataclass
class _Seen:
    ids: set[str] = field(default_factory=set)
    questions: dict[str, int] = field(default_factory=dict)  # question id -> its column in each learner's row
    # learner -> one mark per question column (NaN: not answered): an answer met twice (a learner who sent a
    # progress export and xAPI statements) counts once, in 4 bytes a question rather than a dict entry each.
    rows: dict[str, array] = field(default_factory=dict)


@dataclass
class FormTally:
    """The forms met while reading, each with the mark of every learner on every question of it (read once
    per answer: a class is 100,000s of answers, so this keeps a row of floats per learner, not the answers)."""

    seen: dict[str, _Seen] = field(default_factory=dict)

    def add(self, form: Mapping[str, Any], learner: str, qid: str, mark: float) -> None:
        """One answer of ``learner`` (a progress export's learner id or file, an xAPI actor) in ``form``;
        the first one read for a question counts."""
        found = _ACTOR_LEARNER.search(learner)
        if found:  # the default actor names the store's learner id: one learner in both forms of export
            learner = found.group(1)
        entry = self.seen.get(form["name"])
        if entry is None:
            entry = self.seen[form["name"]] = _Seen()
        if isinstance(form.get("id"), str) and len(entry.ids) < 20:
            entry.ids.add(form["id"])
        column = entry.questions.setdefault(qid, len(entry.questions))
        row = entry.rows.get(learner)
        if row is None:
            row = entry.rows[learner] = array("f")
        if len(row) <= column:
            row.extend([math.nan] * (column + 1 - len(row)))
        if math.isnan(row[column]):
            row[column] = mark

    def summary(self) -> tuple[dict[str, Any], ...]:
        from study.untrusted import shown

        out = []
        for name, e in sorted(self.seen.items()):
            marks = [m for row in e.rows.values() for m in row if not math.isnan(m)]
            out.append({"name": shown(name, keep_newlines=False), "ids": sorted(e.ids), "learners": len(e.rows),
                        "questions": len(e.questions), "answers": len(marks),
                        "mean": round(100.0 * math.fsum(marks) / len(marks), 1) if marks else None})
        return tuple(out)


def form_lines(forms: tuple[dict[str, Any], ...], chosen: str | None) -> list[str]:
    """The report's lines about forms: the one analysed, or each one the results hold and how to take it alone."""
    out = []
    for f in forms:
        ids = f" (ids {', '.join(f['ids'])}: the form was edited between classes)" if len(f["ids"]) > 1 else \
            f" (id {f['ids'][0]})" if f["ids"] else ""
        figures = (f"{f['learners']} learner(s), {f['questions']} question(s), {f['answers']} answer(s), "
                   f"mean mark {f['mean']:g}%")
        if chosen is not None:
            if f["name"] == chosen:
                out.append(f"Form         {f['name']}{ids}: {figures}")
            continue
        out.append(f"Form         {f['name']}{ids}: {figures}; analyse it alone with --form {shlex.quote(f['name'])}")
    return out
