"""Where ``study new question`` puts a skeleton, under which id, and how it joins a file without losing a byte.

A new question goes into the folder of its objective's domain (the folder that already holds that domain's
questions), into the file named after its topic, or else the file holding most of the objective's questions.
Its id follows the ids of that file (``d2-facility-requirements-11`` after ``-10``) and is checked against the
whole bank. An existing file is only ever appended to: the text before the new question stays byte for byte,
comments included, and the result is parsed before anything is written.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterable

from study.authoring.skeleton import FILE_HEADER, SkeletonSpec, render_question
from study.bank.bank import Bank
from study.bank.load import slugify

_NUMBERED = re.compile(r"^(?P<prefix>.+?)-(?P<n>\d+)$")


class AuthoringError(ValueError):
    """Bad input to an authoring command: one line, with a location when there is one."""


def did_you_mean(word: str, options: Iterable[str], n: int = 3) -> str:
    near = difflib.get_close_matches(word, list(options), n=n, cutoff=0.6)
    return f"; did you mean {' or '.join(near)}?" if near else ""


def resolve_objective(bank: Bank, given: str) -> str:
    """A blueprint objective id from ``2.6`` (or a word of its title, when only one title has it)."""
    ids = bank.blueprint.objective_ids()
    text = given.strip()
    if text in ids:
        return text
    by_title = [o.id for d in bank.blueprint.domains for o in d.objectives if text and text.casefold() in o.title.casefold()]
    if len(by_title) == 1 and not re.match(r"^[\d.]+$", text):
        return by_title[0]
    hint = did_you_mean(text, ids)
    if not hint and len(by_title) > 1:
        hint = f"; objectives with {text!r} in their title: {', '.join(by_title)}"
    raise AuthoringError(f"unknown objective {given!r} (the blueprint has {ids[0]} to {ids[-1]}){hint}")


def resolve_topic(bank: Bank, given: str) -> str:
    ids = [t.id for t in bank.topics]
    if given in ids:
        return given
    raise AuthoringError(f"unknown topic {given!r}: no file in content/topics/ has that id{did_you_mean(given, ids)}")


def topics_for(bank: Bank, objective: str) -> tuple[str, ...]:
    """Topics that teach ``objective``, the one most questions of the objective cite first."""
    cited = Counter(q.topic for q in bank.questions if q.objective == objective and q.topic)
    listed = [t.id for t in bank.topics if objective in t.meta.objectives]
    return tuple(sorted(listed, key=lambda t: (-cited.get(t, 0), t)))


def _resolved(path: str) -> Path:
    return Path(path).resolve()


def domain_folder(bank: Bank, domain: str, questions_root: Path) -> Path:
    """The folder that holds most of the domain's questions; ``d<N>`` under the bank when it has none."""
    parents = Counter(_resolved(q.source.path).parent for q in bank.questions if q.domain == domain and q.source)
    if parents:
        return parents.most_common(1)[0][0]
    existing = sorted(p for p in questions_root.glob(f"d{domain}-*") if p.is_dir())
    return existing[0] if existing else questions_root / f"d{domain}"


def default_target(bank: Bank, objective: str, topic: str | None, questions_root: Path) -> Path:
    folder = domain_folder(bank, objective.split(".")[0], questions_root)
    if topic:
        return folder / f"{topic}.yaml"
    files = Counter(
        _resolved(q.source.path) for q in bank.questions
        if q.objective == objective and q.source and _resolved(q.source.path).parent == folder
    )
    if files:
        return files.most_common(1)[0][0]
    return folder / f"objective-{objective.replace('.', '-')}.yaml"


def _ids_in(text: str) -> list[str]:
    """Question ids written in a file, read leniently: a file being edited may not validate yet."""
    from study.bank.yamlsafe import parse_yaml

    doc = parse_yaml(text)
    items = doc.data.get("questions") if isinstance(doc.data, dict) else None
    return [str(i["id"]) for i in items or () if isinstance(i, dict) and i.get("id") is not None]


def _series_of(text: str, objective: str, topic: str | None) -> list[str]:
    """The ids of the file's questions on the same topic (when given) or objective: the series a new one
    continues. A file often holds several topics; naming a monitoring question after the file's first DPU
    question would make the id lie about what it asks."""
    from study.bank.yamlsafe import parse_yaml

    doc = parse_yaml(text)
    items = doc.data.get("questions") if isinstance(doc.data, dict) else None
    items = [i for i in items or () if isinstance(i, dict) and i.get("id") is not None]
    if topic:
        same = [str(i["id"]) for i in items if str(i.get("topic") or "") == topic]
        if same:
            return same
    return [str(i["id"]) for i in items if str(i.get("objective") or "") == objective]


def fresh_id(bank_ids: Iterable[str], file_ids: list[str], fallback_prefix: str, domain: str | None = None) -> str:
    """The next id in the file's own series (``prefix-NN``), unused anywhere in the bank or the file.

    A series named for another domain (``d1-...`` when the question is in domain 2) is not continued: the id
    would then claim the wrong domain."""
    taken = set(bank_ids) | set(file_ids)
    prefixes = Counter(m.group("prefix") for i in file_ids if (m := _NUMBERED.match(i))
                       and not (domain and re.match(r"^d\d+-", m.group("prefix"))
                                and not m.group("prefix").startswith(f"d{domain}-")))
    prefix = prefixes.most_common(1)[0][0] if prefixes else fallback_prefix
    numbers = [m for i in taken if (m := _NUMBERED.match(i)) and m.group("prefix") == prefix]
    width = max([2, *(len(m.group("n")) for m in numbers)])
    n = max([0, *(int(m.group("n")) for m in numbers)]) + 1
    while f"{prefix}-{n:0{width}d}" in taken:
        n += 1
    return f"{prefix}-{n:0{width}d}"


@dataclass(frozen=True)
class Placement:
    """How the question joins its file: the text to add and the line its ``- id:`` lands on."""

    path: Path
    exists: bool
    addition: str
    id_line: int


def _append_point(path: Path, text: str) -> tuple[int, str]:
    """The dash column of the file's ``questions:`` list and the separator to put before the new item.

    Refuses (AuthoringError) what appending cannot extend safely: a file that does not parse, a flow-style
    list ``[...]``, or a list followed by other content."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from study.bank.yamlsafe import parse_yaml

    doc = parse_yaml(text)
    if doc.fatal or doc.root is None:
        f = doc.findings[0]
        raise AuthoringError(f"{path}:{f.line}:{f.column}: cannot add a question: {f.message}")
    root = doc.root
    value = None
    if isinstance(root, MappingNode):
        value = next((v for k, v in root.value if isinstance(k, ScalarNode) and k.value == "questions"), None)
    if value is None:
        raise AuthoringError(f"{path}:{root.start_mark.line + 1}:1: cannot add a question: the file has no `questions:` list")
    where = f"{path}:{value.start_mark.line + 1}:{value.start_mark.column + 1}"
    if isinstance(value, SequenceNode) and value.flow_style:
        raise AuthoringError(f"{where}: cannot add a question to a `[...]` list; write it as a block list")
    if isinstance(value, ScalarNode) and value.tag.endswith(":null"):
        column = 2
    elif isinstance(value, SequenceNode):
        column = value.start_mark.column
    else:
        raise AuthoringError(f"{where}: cannot add a question: `questions` is not a list")
    rest = text[value.end_mark.index:]
    if any(line.strip() and not line.strip().startswith("#") for line in rest.splitlines()):
        raise AuthoringError(f"{where}: cannot add a question: something follows the `questions:` list")
    sep = "" if text.endswith("\n") else "\n"
    if isinstance(value, SequenceNode) and value.value:
        sep += "\n"  # a blank line between questions, as the shipped files have
    return column, sep


def place(path: Path, spec: SkeletonSpec) -> Placement:
    """The skeleton for ``spec`` as an addition to ``path`` (new or existing), checked to parse as intended."""
    if path.exists():
        if path.is_dir():
            raise AuthoringError(f"{path}: is a folder; give a question file")
        try:
            # newline="": see the file's own line endings, to append in the same ones.
            with open(path, encoding="utf-8", newline="") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise AuthoringError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
        if not text.strip():
            addition = FILE_HEADER + render_question(spec)
        else:
            column, sep = _append_point(path, text)
            addition = sep + render_question(spec, column)
        before, exists = text, True
    else:
        if not path.parent.is_dir():
            raise AuthoringError(f"{path.parent}: no such folder")
        before, addition, exists = "", FILE_HEADER + render_question(spec), False
    if "\r\n" in before:
        addition = addition.replace("\n", "\r\n")  # keep a Windows file's line endings uniform
    combined = before + addition
    ids_before = _ids_in(before) if before.strip() else []
    ids_after = _ids_in(combined)
    if ids_after != [*ids_before, spec.qid]:
        # Never write a file the new question would garble; say so instead.
        raise AuthoringError(f"{path}: appending would not give a well-formed list of questions; add it by hand (`study new question ... --out -` prints it)")
    id_line = combined[: combined.index(f"- id: {spec.qid}")].count("\n") + 1
    return Placement(path, exists, addition, id_line)


def write(placement: Placement) -> None:
    """Append to an existing file, or create a new one; never replace a file."""
    mode = "a" if placement.exists else "x"
    with open(placement.path, mode, encoding="utf-8", newline="") as fh:
        fh.write(placement.addition)


def plan(
    bank: Bank,
    *,
    qtype: str,
    objective: str,
    topic: str | None,
    difficulty: int | None,
    target: Path,
) -> SkeletonSpec:
    """The skeleton's content for ``target``: a fresh id in the file's series, and the objective's details."""
    obj = bank.blueprint.objective(objective)
    file_ids: list[str] = []
    series: list[str] = []
    if target.is_file():
        try:
            text = target.read_text(encoding="utf-8")
            file_ids, series = _ids_in(text), _series_of(text, objective, topic)
        except (OSError, UnicodeDecodeError):
            file_ids = []
    domain = objective.split(".")[0]
    # No question of this topic or objective in the file yet: the topic names the series, else the file
    # when it is new or holds no other series, else the objective.
    if topic:
        stem = slugify(topic)
    elif not file_ids:
        stem = slugify(target.stem) or "question"
    else:
        stem = f"objective-{objective.replace('.', '-')}"
    fallback = stem if re.match(rf"^d{domain}-", stem) else f"d{domain}-{stem}"
    taken = [q.id for q in bank.questions] + file_ids
    qid = fresh_id(taken, series, fallback, domain)
    return SkeletonSpec(
        qtype=qtype,
        qid=qid,
        objective=objective,
        objective_title=obj.title,
        topic=topic,
        topic_hint=() if topic else topics_for(bank, objective),
        difficulty=difficulty,
    )
