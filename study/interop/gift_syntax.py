"""GIFT text, read and written the way Moodle's ``qformat_gift`` reads and writes it.

Reading follows Moodle's importer rather than a grammar of our own, because a GIFT file means whatever Moodle
makes of it: questions are separated by blank lines, every line is trimmed, ``//`` lines are comments, the
answer block runs from the first ``{`` to the first ``}``, ``####`` starts the general feedback, the first
``#`` of an answer starts its feedback, and the type follows from the answer block (``#`` numeric, ``~``
multiple choice, ``=`` with ``->`` matching, ``T``/``F`` true/false, else short answer). Where Moodle would
silently do something odd (a second answer block, text before the first ``~``) we report it instead.

Escapes are tracked by position rather than by substituting placeholders, so text that happens to contain
Moodle's placeholder strings survives, and every piece keeps its file:line:col.
"""

from __future__ import annotations

import bisect
import re
from decimal import Decimal
from dataclasses import dataclass, field

FORMATS = ("markdown", "html", "plain", "moodle")
ESCAPABLE = "\\~=#{}:n"
_WEIGHT_RE = re.compile(r"%(-?\d+(?:\.\d*)?)%")
# One way to match each number (not \d+\.?\d*, where the two digit runs can split a long run n ways, so a
# failed fullmatch on 20,000 digits and a letter took seconds).
_NUMBER_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
# Longer than any number, range or number:tolerance; the number patterns never see more than this.
MAX_NUMBER_TEXT = 200
_FORMAT_RE = re.compile(r"\[(markdown|html|plain|moodle)\]")
_TRIM = " \t\n\r\0\x0b"  # PHP trim(), which Moodle applies to lines and pieces


# --- writing ----------------------------------------------------------------------------------------------


def escape(text: str) -> str:
    """Text as GIFT needs it: control characters escaped, newlines as ``\\n`` so a text is one line.

    Newlines are escaped (as Moodle's exporter does) because Moodle trims every line and ends a question at
    a blank line, which would destroy Markdown paragraphs and indentation.
    """
    out = text.replace("\\", "\\\\")
    for ch in "~=#{}:":
        out = out.replace(ch, "\\" + ch)
    return out.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def escape_piece(text: str) -> str:
    """An answer or feedback text: escaped, and protected from being read as a ``[format]`` prefix."""
    out = escape(text)
    return "[markdown]" + out if _FORMAT_RE.match(out) else out


# --- reading ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loc:
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.line}:{self.col}"


@dataclass(frozen=True)
class Problem:
    """``kind`` is ``error`` (malformed GIFT), ``skip`` (valid GIFT study cannot hold) or ``note`` (kept, lossily)."""

    loc: Loc
    kind: str
    message: str


@dataclass
class Text:
    text: str
    format: str  # one of FORMATS; the question's own format when the piece has no prefix
    loc: Loc


@dataclass
class Answer:
    marker: str  # "=" or "~" (or "" for a numeric answer written without "=")
    weight: float  # percent; Moodle's fraction x 100
    text: Text
    feedback: Text | None
    loc: Loc
    # numeric answers only
    value: float | None = None
    tolerance: float | None = None
    literal: str = ""  # the number as written, for its significant digits
    any_value: bool = False  # "*": matches every response


@dataclass
class Item:
    """One block of the file: a ``$CATEGORY`` switch or a question of any GIFT type."""

    kind: str  # "category" or "question"
    loc: Loc
    comments: list[str] = field(default_factory=list)
    category: str = ""
    title: str | None = None
    qtype: str = ""  # multichoice, truefalse, numerical, shortanswer, match, essay, description
    stem: Text | None = None
    general_feedback: Text | None = None
    answers: list[Answer] = field(default_factory=list)
    single: bool = True
    truth: bool | None = None
    tf_wrong_feedback: Text | None = None
    tf_right_feedback: Text | None = None
    numeric_wrong_feedback: Text | None = None
    answer_loc: Loc | None = None


class _Block:
    """A question's lines joined as Moodle joins them, with a map back to file positions and escapes."""

    def __init__(self, segments: list[tuple[int, int, str]]):
        # segments: (file line, 1-based column of the first kept character, trimmed text)
        self.text = "\n".join(s[2] for s in segments)
        self._starts: list[int] = []
        self._where: list[tuple[int, int]] = []
        offset = 0
        for line, col, part in segments:
            self._starts.append(offset)
            self._where.append((line, col))
            offset += len(part) + 1
        self.escaped = bytearray(len(self.text))  # 1 where a character belongs to an escape pair
        i, n = 0, len(self.text)
        while i < n:
            if self.text[i] == "\\" and i + 1 < n and self.text[i + 1] in ESCAPABLE:
                self.escaped[i] = self.escaped[i + 1] = 1
                i += 2
            else:
                i += 1

    def loc(self, offset: int) -> Loc:
        k = max(0, bisect.bisect_right(self._starts, offset) - 1)
        line, col = self._where[k]
        return Loc(line, col + offset - self._starts[k])

    def special(self, i: int, ch: str) -> bool:
        return self.text[i] == ch and not self.escaped[i]

    def find(self, ch: str, start: int, end: int) -> int:
        for i in range(start, end):
            if self.special(i, ch):
                return i
        return -1

    def find_all(self, chars: str, start: int, end: int) -> list[int]:
        return [i for i in range(start, end) if self.text[i] in chars and not self.escaped[i]]

    def find_seq(self, seq: str, start: int, end: int, last: bool = False) -> int:
        hits = [
            i for i in range(start, end - len(seq) + 1)
            if self.text.startswith(seq, i) and not any(self.escaped[i:i + len(seq)])
        ]
        if not hits:
            return -1
        return hits[-1] if last else hits[0]

    def trim(self, start: int, end: int) -> tuple[int, int]:
        while start < end and self.text[start] in _TRIM:
            start += 1
        while end > start and self.text[end - 1] in _TRIM and not self.escaped[end - 1]:
            end -= 1
        return start, end

    def raw(self, start: int, end: int) -> str:
        return self.text[start:end]


def unescape(raw: str) -> str:
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "\\" and i + 1 < n and raw[i + 1] in ESCAPABLE:
            nxt = raw[i + 1]
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _text(block: _Block, start: int, end: int, default_format: str, raw: str | None = None) -> Text:
    """A piece of text: trimmed, its ``[format]`` prefix read, escapes undone, and where it starts.

    ``raw`` replaces the block's text between ``start`` and ``end`` (the missing-word stem); cutting raw text
    only at unescaped control characters means no escape pair is ever split.
    """
    start, end = block.trim(start, end)
    loc = block.loc(start)
    if raw is None:
        raw = block.raw(start, end)
    raw = raw.strip(_TRIM)
    fmt = default_format
    m = _FORMAT_RE.match(raw)
    if m:
        fmt = m.group(1)
        raw = raw[m.end():].strip(_TRIM)
    return Text(unescape(raw).strip(_TRIM), fmt, loc)


def split_blocks(source: str) -> list[tuple[Loc, list[str], _Block]]:
    """Blank-line separated blocks: (where the block starts, its comment lines, its other lines)."""
    if source.startswith("\ufeff"):
        source = source[1:]
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[tuple[Loc, list[str], _Block]] = []
    comments: list[str] = []
    segments: list[tuple[int, int, str]] = []
    first: Loc | None = None

    def flush() -> None:
        nonlocal comments, segments, first
        if segments or comments:
            assert first is not None
            blocks.append((first, comments, _Block(segments)))
        comments, segments, first = [], [], None

    for number, line in enumerate(lines, start=1):
        stripped = line.strip(_TRIM)
        if not stripped:
            flush()
            continue
        lead = len(line) - len(line.lstrip(_TRIM))
        if first is None:
            first = Loc(number, lead + 1)
        if stripped.startswith("//"):
            comments.append(stripped[2:].strip())
            continue
        segments.append((number, lead + 1, stripped))
    flush()
    return blocks


# Questions one import reads: a 3.2 MB file of 100,000 questions became a 115 MB question file in 39 s, far
# more than the bank's loader reads from one file. A Moodle category export is tens to hundreds.
MAX_GIFT_QUESTIONS = 2_000


class TooManyQuestions(ValueError):
    """The file holds more questions than one import converts; ``loc`` is where the one past the limit starts."""

    def __init__(self, loc: Loc) -> None:
        super().__init__(f"the file holds more than {MAX_GIFT_QUESTIONS:,} questions (the one past the limit starts "
                         f"at line {loc.line}); split it into files of at most {MAX_GIFT_QUESTIONS:,} and import each")
        self.loc = loc


def parse(source: str) -> tuple[list[Item], list[Problem]]:
    """Every block of a GIFT file as an :class:`Item`, and the problems found; a bad block never stops the rest.
    More than ``MAX_GIFT_QUESTIONS`` questions raise :class:`TooManyQuestions` as soon as the one past is met."""
    items: list[Item] = []
    problems: list[Problem] = []
    questions = 0
    for _start, comments, block in split_blocks(source):
        if not block.text:
            continue  # a block of comments only
        if not block.text.startswith("$CATEGORY:"):
            questions += 1
            if questions > MAX_GIFT_QUESTIONS:
                raise TooManyQuestions(block.loc(0))
        item = _parse_block(block, comments, problems)
        if item is not None:
            items.append(item)
    return items, problems


def _parse_block(block: _Block, comments: list[str], problems: list[Problem]) -> Item | None:
    text = block.text
    n = len(text)
    here = block.loc(0)
    if text.startswith("$CATEGORY:"):
        first_nl = text.find("\n")
        end = n if first_nl < 0 else first_nl
        if first_nl >= 0:
            problems.append(Problem(block.loc(first_nl + 1), "error",
                                    "text after a $CATEGORY line belongs to no question: put a blank line after the category"))
        return Item("category", here, comments, category=unescape(text[10:end]).strip(_TRIM))
    item = Item("question", here, comments)
    pos = 0
    if text.startswith("::"):
        close = block.find_seq("::", 2, n)
        if close < 0:
            problems.append(Problem(here, "error", "the title opened with :: is not closed with ::"))
            return None
        item.title = unescape(text[2:close]).strip(_TRIM)
        pos = close + 2
    opening = block.find("{", pos, n)
    closing = block.find("}", pos, n)
    if opening < 0 and closing < 0:
        item.qtype = "description"
        item.stem = _text(block, pos, n, "moodle")
        return item
    if opening < 0 or (closing >= 0 and closing < opening):
        problems.append(Problem(block.loc(closing), "error", "} without a { before it (write \\} for a literal brace)"))
        return None
    if closing < 0:
        problems.append(Problem(block.loc(opening), "error",
                                "{ is not closed: no } before the blank line that ends the question"))
        return None
    extra = block.find_all("{}", closing + 1, n)
    if extra:
        problems.append(Problem(block.loc(extra[0]), "error",
                                f"a second {text[extra[0]]} after the answer block: a GIFT question has one answer block "
                                "(write \\{ or \\} for a literal brace)"))
        return None
    item.answer_loc = block.loc(opening)
    if block.trim(closing + 1, n)[0] < n:
        # Text after the answers: Moodle puts a blank where they were ("missing word" questions).
        item.stem = _text(block, pos, n, "moodle", raw=text[pos:opening] + "_____" + text[closing + 1:])
    else:
        item.stem = _text(block, pos, opening, "moodle")
    fmt = item.stem.format
    a_start, a_end = block.trim(opening + 1, closing)
    gf = block.find_seq("####", a_start, a_end, last=True)
    if gf >= 0:
        item.general_feedback = _text(block, gf + 4, a_end, fmt)
        a_start, a_end = block.trim(a_start, gf)
    if a_start >= a_end:
        item.qtype = "essay"
        return item
    if block.special(a_start, "#"):
        item.qtype = "numerical"
        return item if _numeric(block, item, a_start + 1, a_end, fmt, problems) else None
    if block.find("~", a_start, a_end) >= 0:
        item.qtype = "multichoice"
        return item if _multichoice(block, item, a_start, a_end, fmt, problems) else None
    if block.find("=", a_start, a_end) >= 0 and block.find_seq("->", a_start, a_end) >= 0:
        item.qtype = "match"
        return item
    hash_at = block.find("#", a_start, a_end)
    head_s, head_e = block.trim(a_start, hash_at if hash_at >= 0 else a_end)
    head = block.raw(head_s, head_e)
    if head in ("T", "TRUE", "F", "FALSE"):
        item.qtype = "truefalse"
        item.truth = head in ("T", "TRUE")
        if hash_at >= 0:
            second = block.find("#", hash_at + 1, a_end)
            item.tf_wrong_feedback = _text(block, hash_at + 1, second if second >= 0 else a_end, fmt)
            if second >= 0:
                item.tf_right_feedback = _text(block, second + 1, a_end, fmt)
        return item
    item.qtype = "shortanswer"
    return item


def _weighted(block: _Block, start: int, end: int) -> tuple[float | None, int]:
    m = _WEIGHT_RE.match(block.text, start, end)
    if m and not any(block.escaped[m.start():m.end()]):
        return float(m.group(1)), m.end()
    return None, start


def _split_feedback(block: _Block, start: int, end: int, fmt: str) -> tuple[Text, Text | None]:
    hash_at = block.find("#", start, end)
    if hash_at < 0:
        return _text(block, start, end, fmt), None
    return _text(block, start, hash_at, fmt), _text(block, hash_at + 1, end, fmt)


def _multichoice(block: _Block, item: Item, start: int, end: int, fmt: str, problems: list[Problem]) -> bool:
    markers = block.find_all("~=", start, end)
    lead_s, lead_e = block.trim(start, markers[0])
    if lead_s < lead_e:
        problems.append(Problem(block.loc(lead_s), "error", "text before the first ~ or = in the answers"))
        return False
    item.single = any(block.text[m] == "=" for m in markers)
    for k, m in enumerate(markers):
        stop = markers[k + 1] if k + 1 < len(markers) else end
        marker = block.text[m]
        body = m + 1
        if marker == "=":
            weight = 100.0  # Moodle reads no weight after "=" in a multiple-choice question
        else:
            w, body = _weighted(block, body, stop)
            weight = 0.0 if w is None else w
        text, feedback = _split_feedback(block, body, stop, fmt)
        item.answers.append(Answer(marker, weight, text, feedback, block.loc(m)))
    if len(item.answers) < 2:
        problems.append(Problem(block.loc(start), "error", "a multiple-choice question needs at least two answers"))
        return False
    for a in item.answers:
        if not a.text.text:
            problems.append(Problem(a.loc, "error", f"answer {a.marker} has no text"))
            return False
    return True


def _numeric(block: _Block, item: Item, start: int, end: int, fmt: str, problems: list[Problem]) -> bool:
    tilde = block.find("~", start, end)
    if tilde >= 0:
        _, feedback = _split_feedback(block, tilde + 1, end, fmt)
        item.numeric_wrong_feedback = feedback
        end = tilde
    cuts = block.find_all("=", start, end)
    pieces: list[tuple[str, int, int]] = []
    first_s, first_e = block.trim(start, cuts[0] if cuts else end)
    if first_s < first_e:
        pieces.append(("", first_s, first_e))
    for k, c in enumerate(cuts):
        pieces.append(("=", c + 1, cuts[k + 1] if k + 1 < len(cuts) else end))
    if not pieces:
        problems.append(Problem(block.loc(start), "error", "a numeric question {#...} needs at least one number"))
        return False
    for marker, s, e in pieces:
        s, e = block.trim(s, e)
        w, s = _weighted(block, s, e)
        value_text, feedback = _split_feedback(block, s, e, fmt)
        literal = value_text.text
        answer = Answer(marker, 100.0 if w is None else w, value_text, feedback, block.loc(s), literal=literal)
        if len(literal) > MAX_NUMBER_TEXT:
            problems.append(Problem(value_text.loc, "error", f"a {len(literal):,}-character answer is not a number "
                                    f"(limit {MAX_NUMBER_TEXT} characters)"))
            return False
        if literal == "*":
            answer.any_value = True
        elif ".." in literal:
            lo, _, hi = literal.partition("..")
            if not (_NUMBER_RE.fullmatch(lo.strip()) and _NUMBER_RE.fullmatch(hi.strip())):
                problems.append(Problem(value_text.loc, "error", f"{literal!r} is not a range like 3.141..3.142"))
                return False
            low, high = Decimal(lo.strip()), Decimal(hi.strip())
            if low > high:
                problems.append(Problem(value_text.loc, "error", f"range {literal!r} has its low end above its high end"))
                return False
            # Decimal keeps 3.141..3.142 as 3.1415 +/- 0.0005 rather than 3.1414999999999997.
            answer.value, answer.tolerance = float((low + high) / 2), float((high - low) / 2)
            answer.literal = max(lo.strip(), hi.strip(), key=_significant)
        else:
            number, colon, tol = literal.partition(":")
            if not _NUMBER_RE.fullmatch(number.strip()) or (colon and not _NUMBER_RE.fullmatch(tol.strip())):
                problems.append(Problem(value_text.loc, "error",
                                        f"{literal!r} is not a number, number:tolerance or low..high"))
                return False
            answer.value = float(number)
            answer.tolerance = abs(float(tol)) if colon else 0.0
            answer.literal = number.strip()
        item.answers.append(answer)
    return True


def _significant(literal: str) -> int:
    """Significant digits of a number as written (``1822`` -> 4, ``0.0005`` -> 1, ``3.1415`` -> 5)."""
    mantissa = re.split(r"[eE]", literal.lstrip("+-"))[0]
    digits = mantissa.replace(".", "").lstrip("0")
    if "." not in mantissa:
        digits = digits.rstrip("0") or digits
    return max(1, len(digits))


significant_digits = _significant
