"""Load the blueprint, topic cards and question files into an immutable ``Bank``.

A broken file never stops the rest from loading: its problems become ``Diagnostic`` objects that travel with
the bank, so ``study lint`` prints them and the app shows them. Only questions and cards without errors are
served to learners.
"""

from __future__ import annotations

import difflib
import errno
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Sequence

from pydantic import ValidationError

from study.bank.schema import (
    PLACEHOLDER_RE,
    Accept,
    Blueprint,
    Card,
    Choice,
    Distractor,
    NumericAnswer,
    Range,
    Reference,
    Question,
    SourceRef,
    Topic,
    TopicMeta,
)
from study.bank.yamlsafe import Document, Finding, decode_utf8, parse_yaml

QUESTION_SUFFIXES = (".yaml", ".yml")
CARD_MAX_LINES = 40


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding, ordered by file, line and column so output is stable."""

    path: str
    line: int
    column: int
    severity: str
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.code} {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


# Every field name a question file can use, for "did you mean" on an unknown one.
KNOWN_FIELDS = sorted({
    name for model in (Question, Choice, NumericAnswer, Distractor, Reference, Range, Accept)
    for name in model.model_fields if name != "source"
} | {"questions"})


def _diag(path: str, finding: Finding) -> Diagnostic:
    return Diagnostic(path, finding.line, finding.column, finding.severity, finding.code, finding.message)


# --- pydantic errors to findings -------------------------------------------------------------------------

def _is_branch(step: Any) -> bool:
    # pydantic names union members in `loc`: type names such as 'bool', 'NumericAnswer', 'list[...]'.
    return isinstance(step, str) and (step[:1].isupper() or "[" in step or step in ("bool", "int", "float", "str"))


def _branch_name(step: str) -> str:
    # 'function-after[_has_answer(), NumericAnswer]' names the model NumericAnswer.
    if step.startswith("function-"):
        return step.rsplit(",", 1)[-1].strip(" ]")
    return step


def _branch_matches(node: Any, branch: str) -> bool:
    if isinstance(node, bool):
        return branch == "bool"
    if isinstance(node, dict):
        return branch[:1].isupper()
    if isinstance(node, list):
        return branch.startswith("list")
    return branch in ("int", "float", "str")


def _walk(data: Any, loc: Sequence[Any]) -> tuple[tuple[Any, ...], tuple[Any, ...] | None, bool]:
    """Split a pydantic ``loc`` into the real data path and where a union branch was chosen.

    Returns (path, path-at-branch or None, branch matches the data's shape)."""
    path: list[Any] = []
    node = data
    at_branch: tuple[Any, ...] | None = None
    matches = True
    for step in loc:
        # A key the data really has is a path step even when it looks like a type name (`Explanation:`,
        # a parameter `N`); only what is not in the data can be pydantic naming a union branch.
        is_key = isinstance(node, dict) and step in node
        if not is_key and _is_branch(step):
            if at_branch is None:
                at_branch = tuple(path)
                matches = _branch_matches(node, _branch_name(step))
            continue
        path.append(step)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
    return tuple(path), at_branch, matches


def _describe(loc: tuple[Any, ...]) -> str:
    out = ""
    for step in loc:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "the question"


def validation_findings(
    exc: ValidationError, data: Any, doc: Document, base: tuple[Any, ...]
) -> list[Finding]:
    findings: dict[tuple[int, int, str, str], Finding] = {}
    errors = exc.errors()
    # Prefer errors from the union branch that matches the data's shape; drop the others' noise.
    cleaned = [(err, *_walk(data, err["loc"])) for err in errors]
    matched_prefixes = {at for _, _, at, ok in cleaned if at is not None and ok}
    cleaned = [c for c in cleaned if not (c[2] is not None and not c[3] and c[2] in matched_prefixes)]
    # `explantion:` is one mistake, not an unknown field plus a missing `explanation`: pair a misspelt key
    # with the required field it most resembles in the same mapping, and report it once.
    missing = {path for err, path, _, _ in cleaned if err["type"] == "missing" and path}
    meant: dict[tuple[Any, ...], str] = {}
    for err, path, _, _ in cleaned:
        if err["type"] == "extra_forbidden" and path:
            here = [str(m[-1]) for m in missing if m[:-1] == path[:-1]]
            close = difflib.get_close_matches(str(path[-1]), here, n=1, cutoff=0.75)
            if close:
                meant[path] = close[0]
                missing.discard(path[:-1] + (close[0],))
    for err, path, _at_branch, _matches in cleaned:
        kind = err["type"]
        where = _describe(path)
        if kind == "missing" and path and path not in missing:
            continue  # reported with the misspelt key
        if kind == "extra_forbidden" and path:
            field_name = path[-1]
            line, col = doc.key_position(base + path[:-1], str(field_name))
            guess = meant.get(path) or next(iter(difflib.get_close_matches(
                str(field_name).lower(), KNOWN_FIELDS, n=1, cutoff=0.75)), None)
            hint = f"; did you mean {guess!r}?" if guess and guess != field_name else ""
            code, msg = "unknown-field", f"unknown field {field_name!r} in {_describe(path[:-1])}{hint}"
        elif kind == "missing":
            line, col = doc.todo_position(base + path[:-1], str(path[-1])) or doc.position(base + path[:-1])
            code, msg = "missing-field", f"missing required field {_describe(path)!r}"
        else:
            line, col = doc.position(base + path)
            code = "wrong-type" if kind.endswith("_type") or kind.endswith("_parsing") else "invalid-value"
            if kind == "string_too_short":
                code, msg = "empty-text", f"{where} is empty"
            elif path and path[-1] == "difficulty" and kind in ("less_than_equal", "greater_than_equal", "int_parsing", "int_type"):
                code, msg = "invalid-value", f"difficulty must be 1, 2 or 3, found {_get(data, path)!r}"
            elif path and path[-1] == "type" and kind == "literal_error":
                code, msg = "invalid-value", f"type {_get(data, path)!r} is not one of single, multi, true_false, numeric"
            elif kind == "param_range":
                code, msg = "bad-range", f"{where}: {err['msg']}"
            elif kind == "too_short" and path and path[-1] == "references":
                code, msg = "missing-reference", "give at least one reference (title and url)"
            elif kind == "too_short":
                code, msg = "empty-list", f"{where} must not be empty"
            elif kind == "string_pattern_mismatch" and path and path[-1] == "tolerance":
                code, msg = "bad-tolerance", f"tolerance {_get(data, path)!r} is not like '2%' or '0.5 GB'"
            elif kind == "string_pattern_mismatch" and path and (
                    path[-1] == "objective" or (len(path) >= 2 and path[-2] == "objectives")):
                code, msg = "unknown-objective", f"objective {_get(data, path)!r} is not a blueprint id like '2.1'"
            elif kind == "string_pattern_mismatch" and path and path[-1] in ("id", "topic"):
                code, msg = "bad-id", f"{where} {_get(data, path)!r} must be lower case letters, digits, '-', '_' or '.'"
            elif kind.startswith("bool"):
                value = _get(data, path)
                quoted = isinstance(value, str) and value.lower() in ("true", "false")
                said = (f"answer {value!r} must be true or false for a true_false question" if path[-1:] == ("answer",)
                        else f"{where} must be true or false, found {value!r}")
                code, msg = "wrong-type", said + (": write it without quotes" if quoted else "")
            elif kind == "string_pattern_mismatch" and path and path[-1] == "url":
                value = _get(data, path)
                code, msg = ("empty-text", f"{where} is empty") if value == "" else (
                    "invalid-value", f"{where} {value!r} is not a web address like https://docs.nvidia.com/...")
            elif path and path[-1] == "verified" and kind.startswith(("date", "datetime")):
                code, msg = "invalid-value", f"verified {_get(data, path)!r} is not a date like 2026-11-30"
            else:
                msg = f"{where}: {err['msg']}"
        # Several missing fields share the mapping's position and each must be reported; any other
        # complaint is shown once per position, because a value matching no union branch gets one
        # complaint per branch.
        key = (line, col, code, msg if code == "missing-field" else "")
        if key not in findings:
            findings[key] = Finding(line, col, "error", code, msg)
    return list(findings.values())


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


# --- structural checks the models cannot express ---------------------------------------------------------


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def question_findings(q: Question, raw: dict[str, Any], doc: Document, base: tuple[Any, ...]) -> list[Finding]:
    """Checks on one valid-shaped question that need its type: correct counts, answers, placeholders."""
    out: list[Finding] = []

    def at(path: tuple[Any, ...], code: str, message: str, severity: str = "error") -> None:
        line, col = doc.position(base + path)
        out.append(Finding(line, col, severity, code, message))

    if q.type in ("single", "multi"):
        if not q.choices:
            at(("type",), "missing-choices", f"a {q.type} question needs `choices`")
        else:
            n_correct = sum(c.correct for c in q.choices)
            if len(q.choices) < 2:
                at(("choices",), "too-few-choices", "give at least two choices")
            if q.type == "single" and n_correct != 1:
                at(("choices",), "single-correct-count", f"a single-answer question needs exactly one correct choice, found {n_correct}")
            if q.type == "multi":
                if q.choose is None:
                    at(("type",), "missing-choose", "a multi question needs `choose` (how many choices are correct)")
                elif n_correct != q.choose:
                    at(("choose",), "multi-correct-count", f"choose is {q.choose} but {n_correct} choices are marked correct")
                elif q.choose >= len(q.choices):
                    at(("choose",), "multi-correct-count", f"choose is {q.choose} but there are only {len(q.choices)} choices")
            seen: dict[str, int] = {}
            for i, c in enumerate(q.choices):
                key = _norm(c.text)
                if key in seen:
                    at(("choices", i, "text"), "duplicate-choice", f"choice text repeats choice {seen[key] + 1}")
                else:
                    seen[key] = i
        if q.answer is not None:
            at(("answer",), "unexpected-answer", f"a {q.type} question marks answers with `correct: true` on choices, not `answer`")
    else:
        if q.choices:
            at(("choices",), "unexpected-choices", f"a {q.type} question has no `choices`")
    if q.type != "multi" and q.choose is not None:
        at(("choose",), "unexpected-choose", "`choose` only applies to multi questions")
    if q.type == "true_false" and not isinstance(q.answer, bool):
        at(("answer",) if "answer" in raw else ("type",), "missing-answer", "a true_false question needs `answer: true` or `answer: false`")
    if q.type == "numeric":
        if q.answer is None or isinstance(q.answer, bool):
            at(("answer",) if "answer" in raw else ("type",), "missing-answer", "a numeric question needs `answer` with `value` or `calc`, and `unit`")
    if q.distractors and q.type != "numeric":
        at(("distractors",), "unexpected-distractors", "`distractors` only apply to numeric questions; use choices")

    params = q.params or {}
    used: set[str] = set()
    for match in PLACEHOLDER_RE.finditer(q.stem):
        name = match.group(1)
        if name is None or name.startswith("="):
            continue
        used.add(name)
        if name not in params:
            line, col = doc.text_position(base + ("stem",), match.start())
            out.append(Finding(line, col, "error", "undefined-placeholder", f"placeholder {{{name}}} is not a declared parameter"))
    return out


def content_hash(payload: dict[str, Any]) -> str:
    text = json.dumps(payload, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def question_hash(q: Question) -> str:
    data = q.model_dump(include={"type", "stem", "choices", "choose", "answer", "params", "distractors"})
    return content_hash(data)


# --- files ---------------------------------------------------------------------------------------------


# ``{= ...}`` expressions in one text: each is compiled, checked and evaluated for every draw, so a stem of
# 20,000 of them took a minute and a half. The bank's busiest stem has a handful.
MAX_PLACEHOLDERS = 50


def _too_many_placeholders(item: dict[str, Any], doc: Document, base: tuple[Any, ...]) -> Finding | None:
    """Counted before the question is validated or any expression compiled."""
    stem = item.get("stem")
    if not isinstance(stem, str) or stem.count("{=") <= MAX_PLACEHOLDERS:
        return None
    line, col = doc.position(base + ("stem",))
    return Finding(line, col, "error", "too-many-placeholders",
                   f"the stem holds {stem.count('{='):,} {{= ...}} expressions; at most {MAX_PLACEHOLDERS} are "
                   "allowed in one text")


def load_question_file(path: Path, shown: str | None = None) -> tuple[list[Question], list[Diagnostic]]:
    shown = shown or str(path)
    special = not_a_regular_file(path, shown)
    if special is not None:
        return [], [special]
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        return [], [Diagnostic(shown, 1, 1, "error", "unreadable", f"cannot read: {exc.strerror}")]
    text, bad = decode_utf8(raw_bytes)
    if bad:
        return [], [_diag(shown, bad)]
    assert text is not None
    if not text.strip():
        return [], [Diagnostic(shown, 1, 1, "error", "empty-file", "the file is empty")]
    doc = parse_yaml(text)
    if doc.fatal:
        return [], [_diag(shown, f) for f in doc.findings]
    data = doc.data
    if not isinstance(data, dict) or "questions" not in data:
        line, col = doc.position(())
        what = type(data).__name__ if not isinstance(data, dict) else "a mapping without `questions`"
        return [], [Diagnostic(shown, line, col, "error", "not-a-mapping", f"expected a mapping with a `questions:` list, found {what}")]
    extra = [k for k in data if k != "questions"]
    diags: list[Diagnostic] = [_diag(shown, f) for f in doc.findings]
    for k in extra:
        line, col = doc.key_position((), str(k))
        diags.append(Diagnostic(shown, line, col, "error", "unknown-field", f"unknown top-level field {k!r}"))
    items = data["questions"]
    if not isinstance(items, list):
        line, col = doc.position(("questions",))
        return [], diags + [Diagnostic(shown, line, col, "error", "wrong-type", "`questions` must be a list")]
    questions: list[Question] = []
    for i, item in enumerate(items):
        base = ("questions", i)
        line, col = doc.position(base)
        if not isinstance(item, dict):
            diags.append(Diagnostic(shown, line, col, "error", "wrong-type", f"question {i + 1} is not a mapping"))
            continue
        crowded = _too_many_placeholders(item, doc, base)
        if crowded is not None:
            diags.append(_diag(shown, crowded))
            continue
        try:
            q = Question.model_validate({**item, "source": SourceRef(path=shown, line=line, column=col)})
        except ValidationError as exc:
            diags.extend(_diag(shown, f) for f in validation_findings(exc, item, doc, base))
            continue
        problems = question_findings(q, item, doc, base)
        diags.extend(_diag(shown, f) for f in problems)
        first, last = doc.span(base)
        # A duplicate key inside the question makes its content ambiguous: do not serve it.
        soft_inside = any(first <= f.line <= last for f in doc.findings)
        if not soft_inside and not any(f.severity == "error" for f in problems):
            questions.append(q)
    return questions, diags


_FRONT_RE = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?", re.S | re.M)
# The title, then an optional ``{#anchor}`` split off in Python: a lazy title followed by optional blanks
# rescanned a run of blanks from each of its characters (quadratic; 2 s on a 10,000-blank heading).
_HEADING_RE = re.compile(r"^##[ \t]+(.+)$")
_ANCHOR_RE = re.compile(r"[a-z0-9][a-z0-9._-]*")


def _heading_parts(text: str) -> tuple[str, str | None]:
    """``"Title {#anchor}"`` -> ("Title", "anchor"); without a well-formed anchor, (text, None)."""
    t = text.rstrip(" \t")
    at = t.rfind("{#")
    if at > 0 and t.endswith("}") and _ANCHOR_RE.fullmatch(t, at + 2, len(t) - 1):
        title = t[:at]
        if title[-1] in " \t" and title.strip(" \t"):  # blanks between a non-empty title and the anchor
            return title.strip(), t[at + 2:-1]
    return text.strip(), None
# A card's recall prompt: the first non-blank line under its heading, written `? question`.
_PROMPT_RE = re.compile(r"^\?[ \t]+(\S.*?)[ \t]*$")


def split_prompt(body_lines: list[str]) -> tuple[str | None, list[str]]:
    """The card's recall prompt (or None) and the body lines without it."""
    for i, line in enumerate(body_lines):
        if not line.strip():
            continue
        match = _PROMPT_RE.match(line)
        if match:
            return match.group(1), body_lines[i + 1:]
        break
    return None, body_lines


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def load_topic_file(path: Path, shown: str | None = None) -> tuple[Topic | None, list[Diagnostic]]:
    shown = shown or str(path)
    try:
        text, bad = decode_utf8(path.read_bytes())
    except OSError as exc:
        return None, [Diagnostic(shown, 1, 1, "error", "unreadable", f"cannot read: {exc.strerror}")]
    if bad:
        return None, [_diag(shown, bad)]
    assert text is not None
    match = _FRONT_RE.match(text)
    if not match:
        return None, [Diagnostic(shown, 1, 1, "error", "missing-front-matter", "a topic file starts with YAML front matter between '---' lines")]
    doc = parse_yaml(match.group(1))
    # Front matter starts on line 2 of the file.
    if doc.findings:  # even a duplicate key: the topic's identity would be ambiguous
        return None, [Diagnostic(shown, f.line + 1, f.column, f.severity, f.code, f.message) for f in doc.findings]
    if not isinstance(doc.data, dict):
        return None, [Diagnostic(shown, 2, 1, "error", "not-a-mapping", "front matter must be a mapping")]
    try:
        meta = TopicMeta.model_validate(doc.data)
    except ValidationError as exc:
        return None, [
            Diagnostic(shown, f.line + 1, f.column, f.severity, f.code, f.message)
            for f in validation_findings(exc, doc.data, doc, ())
        ]
    diags: list[Diagnostic] = []
    body_start_line = text[: match.end()].count("\n") + 1
    lines = text[match.end():].splitlines()
    intro: list[str] = []
    sections: list[tuple[int, str, str | None, list[str]]] = []
    in_fence = False
    for offset, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        heading = None if in_fence else _HEADING_RE.match(line)
        if heading:
            sections.append((body_start_line + offset, *_heading_parts(heading.group(1)), []))
        elif sections:
            sections[-1][3].append(line)
        else:
            intro.append(line)
    cards: list[Card] = []
    seen: dict[str, int] = {}
    for line_no, title, explicit, body_lines in sections:
        slug = explicit or slugify(title)
        card_id = f"{meta.id}/{slug}"
        prompt, body_lines = split_prompt(body_lines)
        body = "\n".join(body_lines).strip()
        if card_id in seen:
            diags.append(Diagnostic(shown, line_no, 1, "error", "duplicate-id", f"card id {card_id!r} repeats the card at line {seen[card_id]}"))
            continue
        seen[card_id] = line_no
        if not body:
            diags.append(Diagnostic(shown, line_no, 1, "error", "empty-card", f"card {title!r} has no text"))
            continue
        if prompt is None:
            # Review asks the prompt before showing the card; without one the card cannot be recalled.
            diags.append(Diagnostic(shown, line_no, 1, "error", "missing-prompt", f"card {title!r} needs a recall prompt: a first line '? question' under its heading"))
        n_lines = body.count("\n") + 1
        if n_lines > CARD_MAX_LINES:
            diags.append(Diagnostic(shown, line_no, 1, "warning", "card-too-long", f"card {title!r} has {n_lines} lines; keep a card to one screen ({CARD_MAX_LINES} lines)"))
        cards.append(
            Card(
                id=card_id,
                topic=meta.id,
                title=title,
                body=body,
                prompt=prompt,
                objectives=tuple(meta.objectives),
                source=SourceRef(path=shown, line=line_no, column=1),
            )
        )
    if not sections:
        diags.append(Diagnostic(shown, body_start_line, 1, "error", "no-cards", "a topic needs at least one '## ' section (a card)"))
    topic = Topic(meta=meta, intro="\n".join(intro).strip(), cards=tuple(cards), source=SourceRef(path=shown, line=1, column=1))
    if path.stem != meta.id:
        diags.append(Diagnostic(shown, 2, 1, "warning", "file-name", f"topic id {meta.id!r} differs from the file name {path.stem!r}"))
    return topic, diags


def load_blueprint(path: Path) -> Blueprint:
    text, bad = decode_utf8(path.read_bytes())
    if bad or text is None:
        raise ValueError(f"{path}: not UTF-8")
    doc = parse_yaml(text)
    if doc.findings:
        f = doc.findings[0]
        raise ValueError(f"{path}:{f.line}:{f.column}: {f.message}")
    return Blueprint.model_validate(doc.data)


def iter_files(roots: Iterable[Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Files with one of ``suffixes`` under ``roots``. Entries so named that are not regular files (a folder
    ``x.yaml``, a FIFO, a looping or dangling symlink) are listed too, so the loader reports them instead
    of skipping them without a word; see ``not_a_regular_file``."""
    out: list[Path] = []
    for root in roots:
        if root.is_dir():
            out.extend(p for p in root.rglob("*") if p.suffix in suffixes and not p.name.startswith("."))
        elif root.suffix in suffixes and (root.is_file() or os.path.lexists(root)):
            out.append(root)
    return sorted(set(out))


def not_a_regular_file(path: Path, shown: str) -> Diagnostic | None:
    """Why ``path`` is no file to read, found without opening it (opening a FIFO would wait for a writer)."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            why = "is a symbolic link that loops back on itself: skipped"
        elif path.is_symlink():
            why = "is a symbolic link to a file that does not exist: skipped"
        else:
            why = f"cannot be read: {exc.strerror}"
        return Diagnostic(shown, 1, 1, "error", "not-a-file", why)
    if stat.S_ISDIR(mode):
        return Diagnostic(shown, 1, 1, "warning", "not-a-file",
                          "is a folder named like a file: the files inside it are read, the name is misleading")
    if not stat.S_ISREG(mode):
        return Diagnostic(shown, 1, 1, "error", "not-a-file", "is not a regular file (a FIFO, socket or device): skipped")
    return None
