"""Small wording helpers shared by the commands and the app (standard library only)."""

from __future__ import annotations

import re
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import datetime as dt


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``count(1, "file")`` is "1 file", ``count(3, "file")`` "3 files": messages read as sentences."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural or noun + 's'}"


def whole_number(text: str) -> int | None:
    """``text`` as a whole number written in ASCII digits (``"42"``), else None. ``str.isdigit`` is no guard
    for ``int()``: it is true of '²', which int() refuses, and of a wall of digits, past the 4300 int() reads."""
    if not (text.isascii() and text.isdigit()) or len(text) > 4000:
        return None
    return int(text)


def read_date(text: str) -> dt.date:
    """An ISO date (``2027-01-15``), or a ValueError that says what is wrong: the shape, the month, or the
    day (``2027-13-45``: "month 13 is not 1 to 12"), not just what a date looks like."""
    import calendar
    import datetime as dt

    raw = text.strip()
    parts = raw.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or [len(p) for p in parts] != [4, 2, 2]:
        raise ValueError(f"{text!r} is not a date written YYYY-MM-DD, like 2027-01-15")
    year, month, day = (int(p) for p in parts)
    if year < 1:
        raise ValueError(f"{text!r}: year {year} is not a calendar year")
    if not 1 <= month <= 12:
        raise ValueError(f"{text!r}: month {month} is not 1 to 12")
    last = calendar.monthrange(year, month)[1]
    if not 1 <= day <= last:
        raise ValueError(f"{text!r}: day {day} is not 1 to {last} ({calendar.month_name[month]} {year} "
                         f"has {last} days)")
    return dt.date(year, month, day)


# --- Markdown to plain text (study quiz --plain, study preview, text reports) ------------------------------
#
# Screen readers read asterisks and backticks aloud, and a terminal wraps a long line wherever the width runs
# out ("quiz/zes"), so plain output strips the marks and wraps at words itself.

WIDTH = 79

_CODE = re.compile(r"`([^`\n]+)`")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>])")
_INLINE = (
    (re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)"), r"\1 <\2>"),              # [text](url)
    (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), r"\2"),                # **strong**, __strong__
    (re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=\S)\*(?![\w*])"), r"\1"),  # *emphasis*, not 2 * 3
    (re.compile(r"(?<![\w])_(?=[^\s_])([^_\n]+?)(?<=\S)_(?![\w])"), r"\1"),      # _emphasis_, not snake_case
)
_HOLD = re.compile("\x00(\\d+)\x00")
# Lines kept exactly as written: tables and code.
_VERBATIM = re.compile(r"^\s*(\||```|~~~)|^ {4}")
# A line that starts a block of its own: list items, quotes, headings.
_ITEM = re.compile(r"^(\s*)([-*+] |\d+[.)] |> ?|#{1,6} )")


def strip_inline(text: str) -> str:
    """Emphasis, code and link marks removed; the words stay. Code spans and backslash escapes are kept as
    written, and arithmetic such as ``2 * 3`` and names such as ``snake_case`` are left alone."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(1))
        return f"\x00{len(held) - 1}\x00"

    text = _ESCAPE.sub(hold, _CODE.sub(hold, text))
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return _HOLD.sub(lambda m: held[int(m.group(1))], text)


def plain_text(markdown: str, width: int | None = None) -> str:
    """Markdown as plain text: marks removed, prose re-flowed as Markdown would (an author's line break inside
    a paragraph is a space) and, with ``width``, wrapped at words. List items keep their marker with a
    hanging indent; headings lose their ``#``; tables and code keep their lines."""
    paragraphs = []
    for para in re.split(r"\n\s*\n", markdown.strip()):
        lines = para.splitlines()
        if any(_VERBATIM.match(line) for line in lines):
            fenced = any(line.lstrip().startswith(("```", "~~~")) for line in lines)
            paragraphs.append(_code_block(lines) if fenced else strip_inline(para))
            continue
        blocks: list[tuple[str, list[str]]] = []
        for line in lines:
            item = _ITEM.match(line)
            if item or not blocks:
                marker = "" if item is None else item.group(1) + item.group(2).strip()
                if item is not None and item.group(2).startswith("#"):
                    marker = ""  # a heading is a line of its own, without its hashes
                elif item is not None and item.group(2).startswith(">"):
                    marker = item.group(1)
                elif marker:
                    marker += " "
                blocks.append((marker, [line[item.end():] if item else line]))
            else:
                blocks[-1][1].append(line)
        out = []
        for marker, body in blocks:
            text = strip_inline(" ".join(part.strip() for part in body))
            out.append(fill(text, width, head=marker, indent=" " * len(marker)) if width else marker + text)
        paragraphs.append("\n".join(out))
    return "\n\n".join(paragraphs)


# A code block (a command's output in an exhibit) keeps its lines and columns exactly, behind a gutter that
# shows where it starts and ends; the fence marks themselves are Markdown, which a plain terminal does not read.
CODE_GUTTER = "│ "


def _code_block(lines: list[str]) -> str:
    return "\n".join(CODE_GUTTER + line for line in lines if not line.lstrip().startswith(("```", "~~~")))


def fill(text: str, width: int | None = WIDTH, *, head: str = "", indent: str = "  ") -> str:
    """``head`` + ``text`` wrapped at words (never inside one, nor at a hyphen of a command-line option),
    later lines indented by ``indent``. Text that already has lines of its own (a table, a list) is kept."""
    if "\n" in text or not width:
        return head + text
    return textwrap.fill(text, width, initial_indent=head, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def labelled(head: str, markdown: str, width: int = WIDTH, indent: int | None = None) -> str:
    """``Why: ...``: Markdown after a label, wrapped with a hanging indent; text of several paragraphs or
    with a list starts on the next line, indented as a block."""
    pad = " " * (len(head) if indent is None else indent)
    body = plain_text(markdown)
    if "\n" not in body:
        return fill(body, width, head=head, indent=pad)
    block = plain_text(markdown, width - len(pad) if len(pad) < width // 2 else width)
    return (head.rstrip() + "\n" if head.strip() else "") + textwrap.indent(block, pad)
