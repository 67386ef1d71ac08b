"""Safe YAML reading that keeps positions and refuses what PyYAML lets through silently.

PyYAML's safe loader keeps the last of two duplicate keys, forgets where each value was written and expands
aliases without limit. Instructors need the opposite: every problem reported at its line and column. So we let
libyaml (CSafeLoader when available) compose a node tree, which is fast and never constructs objects, and build
plain Python values from the nodes ourselves: only scalars, lists and mappings; duplicate keys, object-building
tags and alias bombs become findings.
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
from functools import cached_property
from typing import Any, NamedTuple, Protocol

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

try:  # libyaml makes composing ~10x faster; fall back to pure Python where it is not built.
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the platform's PyYAML build
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

# A logical tree larger than this (after alias expansion) is refused: real question files are a few
# thousand nodes, a billion-laughs file is billions.
MAX_EXPANDED_NODES = 500_000
# A question file nests five levels; a limit far below Python's recursion limit makes "too deep" the same
# finding at the same place whoever calls the parser.
MAX_DEPTH = 64

# Keys whose scalar values are kept exactly as written, so `objective: 2.10` stays "2.10" and is not the
# float 2.1, and `id: 1e3` stays an id.
RAW_TEXT_KEYS = frozenset({"id", "objective", "topic", "concept", "other", "unit", "tolerance"})
# Prose keys keep plain scalars as text too: `why: yes` or `text: no` is a sentence, not YAML 1.1's boolean.
PROSE_KEYS = frozenset({"text", "why", "stem", "explanation", "title", "name", "calc"})

_TAG = "tag:yaml.org,2002:"
# YAML 1.2's booleans, as JSON Schema and editors read them; YAML 1.1's yes/no/on/off stay text, so
# `answer: no` is reported as not true or false instead of silently meaning false.
_BOOL = {"true": True, "false": False}


# Finding is a NamedTuple and Document a plain class, not dataclasses: importing dataclasses (with inspect) was
# 16 ms of every `study lab --run` that reads a lab file, where nothing else needs it.
class Finding(NamedTuple):
    """A problem with its 1-based position. ``code`` is a stable kebab-case name."""

    line: int
    column: int
    severity: str
    code: str
    message: str


class YamlProblem(Exception):
    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.message)
        self.finding = finding


def _pos(node: Node) -> tuple[int, int]:
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


def _problem(node: Node, code: str, message: str) -> YamlProblem:
    line, col = _pos(node)
    return YamlProblem(Finding(line, col, "error", code, message))


class Document:
    """Plain data plus the node tree it came from, to find positions of anything later."""

    def __init__(self, data: Any, root: Node | None, findings: list[Finding] | None = None, fatal: bool = False,
                 text: str = "") -> None:
        self.data = data
        self.root = root
        self.findings: list[Finding] = [] if findings is None else findings
        # No data could be built (syntax error, unsafe tag, alias bomb); otherwise findings are soft.
        self.fatal = fatal
        # The parsed text, to map positions inside multi-line values back to the file.
        self.text = text

    def __repr__(self) -> str:
        return f"Document(data={self.data!r}, findings={self.findings!r}, fatal={self.fatal})"

    @cached_property
    def line_starts(self) -> list[int]:
        return [0] + [m.end() for m in re.finditer("\n", self.text)]

    def _walk(self, path: tuple[Any, ...]) -> tuple[Node | None, Node | None]:
        """The node at ``path`` (None if the path runs out) and the deepest node reached on the way."""
        node = self.root
        reached = node
        for step in path:
            child: Node | None = None
            if isinstance(node, MappingNode):
                child = next((v for k, v in node.value if isinstance(k, ScalarNode) and k.value == step), None)
            elif isinstance(node, SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
                child = node.value[step]
            if child is None:
                return None, reached
            node = reached = child
        return node, reached

    def span(self, path: tuple[Any, ...]) -> tuple[int, int]:
        """First and last line (1-based) of the node at ``path``; (0, 0) if there is none."""
        node, _ = self._walk(path)
        if node is None:
            return 0, 0
        return node.start_mark.line + 1, node.end_mark.line + 1

    def position(self, path: tuple[Any, ...]) -> tuple[int, int]:
        """Line and column of the value at ``path`` (keys and list indexes); the nearest existing parent
        when the path runs out (a missing field is reported where its mapping starts)."""
        _, reached = self._walk(path)
        return _pos(reached) if reached is not None else (1, 1)

    def key_position(self, path: tuple[Any, ...], key: str) -> tuple[int, int]:
        """Position of a mapping *key* (for unknown-field findings, which point at the key itself)."""
        node, _ = self._walk(path)
        if isinstance(node, MappingNode):
            for k, _v in node.value:
                if isinstance(k, ScalarNode) and k.value == key:
                    return _pos(k)
        return self.position(path)

    def todo_position(self, path: tuple[Any, ...], key: str) -> tuple[int, int] | None:
        """Where a ``# TODO(...): key:`` comment stands in for the missing ``key`` of the mapping at ``path``
        (``study import`` leaves one where a field belongs), so the finding points at it; None if none does."""
        node, _ = self._walk(path)
        if not isinstance(node, MappingNode) or not self.text:
            return None
        indent = node.start_mark.column
        todo = re.compile(r"^ {%d}#\s*TODO\([^)]*\):\s*%s:" % (indent, re.escape(key)))
        rows = self.text.splitlines()
        for n in range(node.start_mark.line + 1, len(rows)):  # the first line may hold a "- " before the key
            row = rows[n]
            if todo.match(row):
                return n + 1, indent + 1
            stripped = row.lstrip(" ")
            # The mapping ends at the first line of content indented less than its keys.
            if stripped and not stripped.startswith("#") and len(row) - len(stripped) < indent:
                return None
        return None

    def text_position(self, path: tuple[Any, ...], offset: int) -> tuple[int, int]:
        """Line and column in the file of character ``offset`` of the text at ``path``, counted in the text
        with leading whitespace stripped (as the models keep it), so a problem inside a multi-line ``|`` or
        ``>`` value is reported on its own line, not where the value starts."""
        node, _ = self._walk(path)
        if not isinstance(node, ScalarNode) or not self.text:
            return self.position(path)
        value = node.value
        offset += len(value) - len(value.lstrip())
        # The character to find: the first non-blank one at or after the offset (blanks are folded away).
        target = next((k for k in range(max(offset, 0), len(value)) if not value[k].isspace()), None)
        start = _index(self.line_starts, node.start_mark)
        source = self.text[start:_index(self.line_starts, node.end_mark)]
        j = 0
        if node.style in ("|", ">"):
            j = source.find("\n") + 1  # past the header line with its indicators and comment
        elif node.style in ("'", '"'):
            j = 1
        found = j
        # Every non-blank character of the value is written, in order, in the source; blanks, line breaks and
        # indentation may differ (folding), so match the non-blank ones one by one.
        for k in range(0 if target is None else target + 1):
            ch = value[k]
            if ch.isspace():
                continue
            at = source.find(ch, j)
            if at < 0:  # an escape such as \u00e9 in a quoted value: the last match is close enough
                break
            found, j = at, at + 1
        return _line_col(self.line_starts, start + found)


class _Mark(Protocol):  # yaml.error.Mark and libyaml's yaml._yaml.Mark alike
    line: int
    column: int


def _index(line_starts: list[int], mark: _Mark) -> int:
    # libyaml's marks count lines and columns in characters; rebuild the character index from them.
    return line_starts[min(mark.line, len(line_starts) - 1)] + mark.column


def _line_col(line_starts: list[int], index: int) -> tuple[int, int]:
    line = bisect.bisect_right(line_starts, index) - 1
    return line + 1, index - line_starts[line] + 1


_PLAIN_TAGS = frozenset(_TAG + t for t in ("int", "float", "str", "bool", "null", "timestamp"))


_RESOLVER = yaml.resolver.Resolver()


def _implicit(node: ScalarNode) -> bool:
    """Whether YAML guessed the node's type from its text (no `!!tag` written)."""
    return not node.style and _RESOLVER.resolve(ScalarNode, node.value, (True, False)) == node.tag


def _int(value: str) -> int:
    text = value.replace("_", "")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    for prefix, base in (("0x", 16), ("0o", 8), ("0b", 2)):
        if digits.lower().startswith(prefix):
            return sign * int(digits[2:], base)
    if not digits.isdigit():
        raise ValueError(value)
    return sign * int(digits)


def _float(value: str) -> float:
    text = value.replace("_", "").lower()
    if text in (".inf", "+.inf"):
        return float("inf")
    if text == "-.inf":
        return float("-inf")
    if text == ".nan":
        return float("nan")
    return float(text)


def _scalar(node: ScalarNode) -> Any:
    tag = node.tag
    value = node.value
    if not tag.startswith(_TAG):
        raise _problem(node, "unsafe-tag", f"YAML tag '{_short_tag(tag)}' is not allowed: only plain values, lists and mappings")
    kind = tag[len(_TAG):]
    if kind == "str":
        return value
    if kind == "null":
        return None
    if kind == "timestamp":
        try:
            if len(value) == 10:
                return dt.date.fromisoformat(value)
            return dt.datetime.fromisoformat(value.replace("Z", "+00:00").replace(" ", "T", 1))
        except ValueError:
            return value
    convert = {"bool": lambda v: _BOOL[v.lower()], "int": _int, "float": _float}.get(kind)
    if convert is None:
        raise _problem(node, "unsafe-tag", f"YAML tag '!!{kind}' is not allowed: only plain values, lists and mappings")
    try:
        return convert(value)
    except (KeyError, ValueError):
        # YAML 1.1 reads `1:30` as the base-60 number 90: keep such a guess as the text the author wrote,
        # so the field's own check reports it; an explicit `!!int abc` is the author's own contradiction.
        if _implicit(node):
            return value
        raise _problem(node, "bad-scalar", f"{value!r} is not a valid '!!{kind}' value") from None


def _check_size(root: Node) -> None:
    """Refuse documents whose alias expansion would be huge, in time linear in the *unique* nodes."""
    sizes: dict[int, int] = {}
    seen_alias: list[Node] = []

    def size(node: Node) -> int:
        key = id(node)
        if key in sizes:
            seen_alias.append(node)
            return sizes[key]
        sizes[key] = 1  # guards recursive aliases
        if isinstance(node, SequenceNode):
            total = 1 + sum(size(child) for child in node.value)
        elif isinstance(node, MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in node.value)
        else:
            total = 1
        sizes[key] = total
        return total

    if size(root) > MAX_EXPANDED_NODES:
        culprit = seen_alias[0] if seen_alias else root
        raise _problem(
            culprit,
            "alias-bomb",
            f"aliases of the anchor here expand the document beyond {MAX_EXPANDED_NODES:,} values (a 'billion laughs' file?)",
        )


def _build(node: Node, soft: list[Finding], raw: bool = False, depth: int = 0) -> Any:
    """Plain data from a node. Recoverable problems (duplicate keys) go to ``soft`` and building goes on,
    so one file reports all of them; unsafe tags stop the build."""
    if depth > MAX_DEPTH:
        raise _problem(node, "too-deep", f"lists and mappings nest more than {MAX_DEPTH} levels deep here")
    if isinstance(node, ScalarNode):
        if raw and not node.style and node.tag in _PLAIN_TAGS:
            return node.value
        return _scalar(node)
    if isinstance(node, SequenceNode):
        if node.tag != _TAG + "seq":
            raise _problem(node, "unsafe-tag", f"YAML tag '{_short_tag(node.tag)}' is not allowed: only plain values, lists and mappings")
        return [_build(child, soft, depth=depth + 1) for child in node.value]
    if isinstance(node, MappingNode):
        if node.tag not in (_TAG + "map", _TAG + "omap"):
            raise _problem(node, "unsafe-tag", f"YAML tag '{_short_tag(node.tag)}' is not allowed: only plain values, lists and mappings")
        out: dict[Any, Any] = {}
        first_at: dict[Any, Node] = {}
        for key_node, value_node in node.value:
            if key_node.tag == _TAG + "merge":
                raise _problem(key_node, "unsupported-yaml", "merge keys (<<) are not supported: write the fields out")
            if not isinstance(key_node, ScalarNode):
                raise _problem(key_node, "wrong-type", "a mapping key must be a plain name")
            key = _scalar(key_node)
            if key in first_at:
                line, _ = _pos(first_at[key])
                soft.append(
                    _problem(
                        key_node,
                        "duplicate-key",
                        f"duplicate key {key!r} (first at line {line}); YAML would silently keep only the last one",
                    ).finding
                )
                continue
            first_at[key] = key_node
            out[key] = _build(value_node, soft, raw=key in RAW_TEXT_KEYS or key in PROSE_KEYS, depth=depth + 1)
        return out
    raise _problem(node, "yaml-syntax", "unexpected YAML node")  # pragma: no cover


def _mark_position(exc: yaml.MarkedYAMLError) -> tuple[int, int]:
    mark = exc.problem_mark or exc.context_mark
    # An unclosed quote or bracket runs to the end of the file; the useful place is where it was opened.
    if exc.context_mark is not None and "end of stream" in (exc.problem or ""):
        mark = exc.context_mark
    if mark is None:
        return 1, 1
    return mark.line + 1, mark.column + 1


_KEY_RE = re.compile(r"^(\s*)(?:-\s+)?([^\s#'\"{\[][^:#]*?):(?:\s|$)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


_BLOCK_HEADER = re.compile(r"^(\s*)(?:-\s+)?([^\s#'\"][^:#]*?):\s*[|>][-+0-9]*\s*(?:#.*)?$")


def _block_scalar_line(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, str] | None:
    """A line dedented out of a ``key: |`` block: YAML ends the block there and reads the line as a key
    without a colon ("could not find expected ':'", reported on the line after). The 0-based line of the
    dedented text and the hint, or None."""
    ctx = exc.context_mark
    if ctx is None or "could not find expected ':'" not in (exc.problem or ""):
        return None
    rows = text.splitlines()
    if not 0 <= ctx.line < len(rows):
        return None
    here = _indent(rows[ctx.line])
    for n in range(ctx.line - 1, -1, -1):
        row = rows[n]
        if not row.strip():
            continue
        header = _BLOCK_HEADER.match(row)
        if header:
            body = [r for r in rows[n + 1:ctx.line] if r.strip()]
            width = min((_indent(r) for r in body), default=_indent(row) + 2)
            if here < width:
                return ctx.line, (f"this line is indented {here} spaces, less than the text of {header.group(2).strip()!r}"
                                  f" (a '|' or '>' block from line {n + 1}, indented {width}): YAML ends the text "
                                  f"above it; indent it to {width} like the rest of the text")
            return None
        if _indent(row) < here or (_indent(row) == here and _KEY_RE.match(row)):
            return None  # another key or item at this level: not inside a block
    return None


def _item_hint(rows: list[str], line: int) -> str | None:
    """A list item (``- text: ...``) dedented from the items above it: name where its siblings are."""
    row = rows[line]
    here = _indent(row)
    for above in reversed(rows[:line]):
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        if above.lstrip().startswith("- ") and _indent(above) > here:
            return (f"this item is indented {here} spaces, but the items of the list above are at {_indent(above)}: "
                    f"indent it to {_indent(above)} like them")
        if _indent(above) <= here:
            return None
    return None


def _syntax_hint(text: str, exc: yaml.MarkedYAMLError) -> str | None:
    """What an author most likely got wrong, for the two parser complaints that say nothing useful:
    a line indented unlike its siblings, and text with ': ' in it that YAML takes for a new key."""
    mark = exc.problem_mark
    if mark is None:
        return None
    rows = text.splitlines()
    if not 0 <= mark.line < len(rows):
        return None
    row = rows[mark.line]
    problem = exc.problem or ""
    if "mapping values are not allowed" in problem:
        key = _KEY_RE.match(row)
        if key and mark.column > key.end():
            return (f"the value of {key.group(2).strip()!r} contains ': ', which YAML reads as the start of another "
                    f"key: put the text in quotes (\"...\"), or use a '|' block for longer text")
        above = next((r for r in reversed(rows[:mark.line]) if r.strip() and not r.lstrip().startswith("#")), "")
        if key and _indent(row) > _indent(above):
            return (f"this key is indented {_indent(row)} spaces, more than the line above ({_indent(above)}), so YAML "
                    f"reads it as part of that line's value: indent it like its siblings")
        return ("YAML reads this line as a new key inside the text of the line above: check that this line is "
                "indented like its siblings, and quote text that contains ': '")
    if not ("expected '-' indicator" in problem or "expected key" in problem or "expected <block end>" in problem):
        return None
    here = _indent(row)
    prior = next((r for r in reversed(rows[:mark.line]) if r.strip() and not r.lstrip().startswith("#")), None)
    ctx = exc.context_mark
    what = "item" if row.lstrip().startswith("-") else "key"
    if what == "item" and (item := _item_hint(rows, mark.line)):
        return item
    if ctx is not None and ctx.line < mark.line and here != ctx.column and rows[ctx.line].strip():
        return (f"this {what} is indented {here} spaces, but the list or mapping it continues (from line "
                f"{ctx.line + 1}) is at {ctx.column}: indent it like its siblings")
    if prior is not None and _indent(prior) > here:
        return (f"this {what} is indented {here} spaces, less than the line above ({_indent(prior)}): if it belongs "
                f"with that line, indent it to {_indent(prior)} like its siblings")
    return f"this {what} is not indented like its siblings: check its indentation against the lines around it"


# Distinct nodes a file may hold, counted as the parser streams them, before any tree is built: a 6 MB file
# of three million integers took 1.8 GB and a minute to compose before ``_check_size`` could refuse it. The
# largest question file of the bank is about 3,000 nodes; each composed node costs some 300 bytes.
MAX_NODES = 200_000


def _count_nodes(text: str) -> Finding | None:
    """A finding at the node past ``MAX_NODES``, read from libyaml's event stream in constant memory; None
    when the file is within the limit. Only a text long enough to hold that many nodes is streamed twice."""
    if len(text) <= MAX_NODES:
        return None  # every node takes at least one character, so this text cannot exceed the limit
    count = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent, yaml.AliasEvent)):
            count += 1
            if count > MAX_NODES:
                start = event.start_mark  # libyaml marks every event; the stubs allow None
                line, col = (start.line + 1, start.column + 1) if start is not None else (1, 1)
                return Finding(line, col, "error", "too-large",
                               f"the file holds more than {MAX_NODES:,} values (lists, mappings and scalars); "
                               "a question file is a few thousand: split it, or is it not a question file?")
    return None


def parse_yaml(text: str) -> Document:
    """Parse one YAML document. Problems come back as findings, never as exceptions."""
    try:
        too_large = _count_nodes(text)
        if too_large is not None:
            return Document(None, None, [too_large], fatal=True)
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        line, col = _mark_position(exc)
        problem = exc.problem or str(exc)
        dedented = _block_scalar_line(text, exc)
        if dedented is not None:
            column = _indent(text.splitlines()[dedented[0]]) + 1
            return Document(None, None, [Finding(dedented[0] + 1, column, "error", "yaml-syntax",
                                                 f"{dedented[1]} (YAML: {problem})")], fatal=True)
        context = ""
        if exc.context:
            started = f" started at line {exc.context_mark.line + 1}" if exc.context_mark else ""
            context = f" ({exc.context}{started})"
        message = f"YAML syntax: {problem}{context}"
        hint = _syntax_hint(text, exc)
        if hint:
            message = f"{hint} (YAML: {problem})"
        return Document(None, None, [Finding(line, col, "error", "yaml-syntax", message)], fatal=True)
    except yaml.YAMLError as exc:
        return Document(None, None, [Finding(1, 1, "error", "yaml-syntax", f"YAML: {exc}")], fatal=True)
    if root is None:
        return Document(None, None, [Finding(1, 1, "error", "empty-file", "the file is empty")], fatal=True)
    soft: list[Finding] = []
    try:
        if "&" in text:  # aliases need anchors; most files have none, so skip the extra pass
            _check_size(root)
        data = _build(root, soft)
    except YamlProblem as exc:
        return Document(None, root, [exc.finding], fatal=True)
    except RecursionError:
        return Document(None, root, [Finding(*_pos(root), "error", "too-deep", "the document nests too deeply: lists or mappings inside each other hundreds of levels deep")], fatal=True)
    return Document(data, root, soft, text=text)


def decode_utf8(raw: bytes) -> tuple[str | None, Finding | None]:
    """Text of a file, or a finding pointing at the first byte that is not UTF-8."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        byte = raw[exc.start]
        try:  # most such files come from Windows editors: name the character the author typed
            raw.decode("cp1252")
            typed = f", {bytes([byte]).decode('cp1252')!r} in Windows-1252"
        except UnicodeDecodeError:
            typed = ""
        return None, Finding(line, col, "error", "not-utf8",
                             f"the file is not UTF-8 (byte 0x{byte:02x}{typed}): save it as UTF-8 in your editor")
