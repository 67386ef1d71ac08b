"""``study analyze --group NAME --groups FILE``: only the learners of one group.

The groups file is JSON, ``{"group name": ["member", ...], ...}``. A member is a learner as the results
name them: an xAPI actor (``alice@example.com`` or ``mailto:alice@example.com``, an account's name, or
``homePage|name``) or a progress export file (its path, or just its file name).
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

from study.analysis.results import Responses, ResultsError
from study.inputs import MAX_JSON_INPUT, InputFileError, read_bounded


def read_groups(path: str | os.PathLike[str]) -> dict[str, list[str]]:
    label = str(path)
    try:
        raw = read_bounded(Path(path), MAX_JSON_INPUT)
        data = json.loads(raw.decode("utf-8"))
    except InputFileError as exc:
        raise ResultsError(str(exc)) from None
    except UnicodeDecodeError:
        raise ResultsError(f"{label}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ResultsError(f"{label}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, list) and all(isinstance(m, str) for m in v) for k, v in data.items()
    ):
        raise ResultsError(f"{label}: a groups file is a JSON object of group names to lists of learners "
                           "(actors or result files)")
    return data


def _names(label: str) -> set[str]:
    """Every way a groups file may name the learner the results call ``label``."""
    names = {label}
    if label.startswith("mailto:"):
        names.add(label[len("mailto:"):])
    if "|" in label:
        names.add(label.rsplit("|", 1)[-1])
    path = Path(label)
    names.add(path.name)
    try:
        names.add(str(path.resolve()))
    except (OSError, RuntimeError):
        pass
    return names


def _member_forms(member: str) -> set[str]:
    forms = {member.strip()}
    try:
        forms.add(str(Path(member).resolve()))
    except (OSError, RuntimeError):
        pass
    return forms


class UnknownGroup(ResultsError):
    """``--group`` names no group of the file: a mistake in the command line (exit 2), not in the results."""


def only_group(responses: Responses, groups: dict[str, list[str]], name: str, label: str) -> Responses:
    """``responses`` restricted to the learners of group ``name``; an unknown group is an error, and each
    member that matches no learner of the results is a warning (a typo, or a learner who sent nothing, was
    dropped silently before)."""
    if name not in groups:
        known = ", ".join(sorted(groups)) or "none"
        raise UnknownGroup(f"{label}: no group {name!r} (groups: {known})")
    names = [_names(lr) for lr in responses.learners]
    unmatched = [m for m in groups[name] if not any(_member_forms(m) & n for n in names)]
    wanted: set[str] = set().union(*(_member_forms(m) for m in groups[name])) if groups[name] else set()
    rows = [r for r, n in enumerate(names) if n & wanted]
    new_row = {r: n for n, r in enumerate(rows)}
    warnings = responses.warnings
    if unmatched:
        shown = ", ".join(repr(m) for m in unmatched[:10]) + (f" and {len(unmatched) - 10} more"
                                                              if len(unmatched) > 10 else "")
        warnings += (f"{label}: {len(unmatched)} member(s) of group {name!r} match no learner in the results "
                     f"(no file or actor of that name): {shown}",)
    return replace(
        responses,
        learners=tuple(responses.learners[r] for r in rows),
        marks=responses.marks[rows, :],
        given={(new_row[r], c): v for (r, c), v in responses.given.items() if r in new_row},
        warnings=warnings,
    )
