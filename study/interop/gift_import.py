"""GIFT questions turned into question dicts our loader accepts, with what could not be kept reported.

Types study has (single, choose-N, true/false, numeric) are converted; the rest (matching, short answer,
essay, description, partial credit other than a choose-N's even split) are reported with file:line:col and
skipped. Fields GIFT has no place for come from ``// study:`` comments when the file has them (our own
export writes them), from Moodle's ``// [id:] [tag:]`` comments and from the ``$CATEGORY`` path; otherwise a
default is used (difficulty 2) or the field is left out with a ``TODO(gift-import)`` comment so that lint
asks for it rather than the bank silently holding a guess.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from study.interop.gift_exhibit import exhibit_back
from study.bank.schema import ID_PATTERN, OBJECTIVE_PATTERN, TOLERANCE_PATTERN
from study.interop.gift_export import FREE_KEYS, UNIT_SENTENCE, nominal_tolerance, number
from study.interop.gift_syntax import Item, Loc, Problem, Text, parse, significant_digits

DEFAULT_DIFFICULTY = 2
SIMPLE_KEYS = ("objective", "difficulty", "topic", "concept", "verified", "volatile", "digits", "value")
_ID_RE = re.compile(ID_PATTERN)
_OBJ_RE = re.compile(OBJECTIVE_PATTERN)
_TOL_RE = re.compile(TOLERANCE_PATTERN)
MAX_SHORT_VALUE, MAX_TEXT_VALUE = 200, 2000
# An unescaped '[' cannot be inside an id or tag, so a scan stops at the next '[tag:' instead of running to
# the end of the line from every opening (quadratic on a long line of unclosed openings).
_MOODLE_ID_RE = re.compile(r"\[id:((?:\\]|[^\[\]\x00-\x1f])+)\]")
_MOODLE_TAG_RE = re.compile(r"\[tag:((?:\\]|[^\[\]<>`\x00-\x1f])*)\]")
_UNIT_SENTENCE_RE = re.compile(re.escape(UNIT_SENTENCE).replace(r"\{unit\}", r"(?P<unit>[^\s.][^\n]*?)") + r"$")


@dataclass
class Converted:
    """One importable question: the dict to write, where it came from, and what is missing from it."""

    data: dict[str, Any]
    loc: Loc
    todo: dict[str, str] = field(default_factory=dict)  # field -> why it is missing
    choice_todo: set[int] = field(default_factory=set)  # choices without a `why`
    comments: dict[str, str] = field(default_factory=dict)  # field -> end-of-line comment (a default used, an origin)


@dataclass
class ImportResult:
    questions: list[Converted] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    skipped: int = 0
    folded: int = 0
    multi: int = 0
    templated: int = 0


# --- text formats -------------------------------------------------------------------------------------------


class _HtmlToMarkdown(HTMLParser):
    """The handful of tags question text uses, as Markdown; other tags are dropped (and reported)."""

    INLINE = {"b": "**", "strong": "**", "i": "*", "em": "*", "code": "`"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.dropped: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in self.INLINE:
            self.out.append(self.INLINE[tag])
        elif tag == "br":
            self.out.append("\n")
        elif tag in ("p", "div"):
            self.out.append("\n\n")
        elif tag == "li":
            self.out.append("\n- ")
        elif tag in ("ul", "ol"):
            self.out.append("\n")
        elif tag == "a" and dict(attrs).get("href"):
            self.out.append("[")
            self.links.append(dict(attrs)["href"])
        elif tag not in ("span", "a"):
            self.dropped.add(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.INLINE:
            self.out.append(self.INLINE[tag])
        elif tag == "a" and self.links:
            self.out.append(f"]({self.links.pop()})")
        elif tag in ("p", "div", "ul", "ol"):
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        self.out.append(re.sub(r"[ \t\r\n]+", " ", data))


def to_markdown(piece: Text, notes: list[Problem]) -> str:
    text = piece.text
    if piece.format == "plain":
        return re.sub(r"([\\`*_\[\]<>])", r"\\\1", text)
    if piece.format == "markdown":
        return text
    if piece.format == "moodle" and not re.search(r"</?[A-Za-z][^<>]*>|&[#A-Za-z0-9]+;", text):
        return text  # Moodle auto-format without markup reads the same as Markdown
    parser = _HtmlToMarkdown()
    parser.feed(text)
    parser.close()
    if parser.dropped:
        notes.append(Problem(piece.loc, "note", "HTML tags without a Markdown equivalent were removed: "
                             + ", ".join(f"<{t}>" for t in sorted(parser.dropped))))
    out = "".join(parser.out)
    # Per line rather than re.sub(r"[ \t]*\n[ \t]*"), which rescans a long run of blanks from each of them.
    out = "\n".join(line.strip(" \t") for line in out.split("\n"))
    return re.sub(r"\n{3,}", "\n\n", out).strip()


# --- metadata -------------------------------------------------------------------------------------------


def read_metadata(comments: list[str], loc: Loc, notes: list[Problem]) -> dict[str, Any]:
    """``// study: key=value`` lines plus Moodle's ``[id:]`` and ``[tag:]``, as a dict of raw strings."""
    meta: dict[str, Any] = {"reference": [], "accept": [], "tags": [], "distractor-calc": []}
    for line in comments:
        for m in _MOODLE_ID_RE.finditer(line):
            meta.setdefault("moodle_id", m.group(1).replace("\\]", "]").strip())
        for m in _MOODLE_TAG_RE.finditer(line):
            tag = m.group(1).replace("\\]", "]").strip()
            if tag:
                meta["tags"].append(tag)
        if not line.startswith("study:"):
            continue
        rest = line[len("study:"):].strip()
        key, eq, value = rest.partition("=")
        if eq and key in FREE_KEYS:
            value = _uncomment(value)
            if _too_long(key, value, loc, notes):
                continue
            if key in ("reference", "accept", "distractor-calc"):
                meta[key].append(value)
            else:
                meta[key] = value
            continue
        for pair in rest.split():
            key, eq, value = pair.partition("=")
            if not eq or key not in SIMPLE_KEYS:
                notes.append(Problem(loc, "note", f"'// study: {_clip(pair)}' is not one of "
                                     f"{', '.join(k + '=' for k in (*SIMPLE_KEYS, *FREE_KEYS))}; ignored"))
                continue
            if _too_long(key, value, loc, notes):
                continue
            meta[key] = value
    return meta


def _too_long(key: str, value: str, loc: Loc, notes: list[Problem]) -> bool:
    """A unit, tolerance or id is short and a title or note is a line; bounding them keeps every later
    pattern's work small whatever a file holds."""
    limit = MAX_TEXT_VALUE if key in ("reference", "accept", "templated", "source", "calc", "distractor-calc") \
        else MAX_SHORT_VALUE
    if len(value) <= limit:
        return False
    notes.append(Problem(loc, "note", f"'// study: {key}=' has a {len(value):,}-character value (limit {limit}); "
                         "ignored"))
    return True


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _uncomment(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), value)


def objective_from_category(category: str, objectives: set[str]) -> str | None:
    """The objective a ``$CATEGORY`` path names: its last segment starting with a blueprint id (``.../2.1 ...``)."""
    path = category.strip()
    path = re.sub(r"^\$[a-z]+\$/", "", path)
    segments = [s.replace("\0", "/").strip() for s in path.replace("//", "\0").split("/")]
    for seg in reversed(segments):
        m = re.match(r"^(\d+\.\d+)(?:\s|$)", seg)
        if m and m.group(1) in objectives:
            return m.group(1)
    return None


def slug(text: str, limit: int = 60) -> str:
    out = re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")
    return out[:limit].rstrip("-")


# --- conversion -----------------------------------------------------------------------------------------


class Converter:
    def __init__(self, *, prefix: str, objectives: set[str], default_objective: str | None):
        self.prefix = prefix
        self.objectives = objectives
        self.default_objective = default_objective
        self.result = ImportResult()
        self.ids: set[str] = set()
        self.next_suffix: dict[str, int] = {}

    def problem(self, loc: Loc, kind: str, message: str) -> None:
        self.result.problems.append(Problem(loc, kind, message))

    def skip(self, item: Item, message: str, loc: Loc | None = None) -> None:
        self.result.skipped += 1
        self.problem(loc or item.loc, "skip", message)

    def md(self, piece: Text | None) -> str:
        if piece is None:
            return ""
        return to_markdown(piece, self.result.problems)

    def run(self, source: str) -> ImportResult:
        items, problems = parse(source)
        self.result.problems.extend(problems)
        category_objective: str | None = None
        for item in items:
            if item.kind == "category":
                category_objective = objective_from_category(item.category, self.objectives)
                continue
            converted = self.question(item, category_objective)
            if converted is not None:
                self.result.questions.append(converted)
        self.result.problems.sort(key=lambda p: (p.loc.line, p.loc.col))
        return self.result

    def question(self, item: Item, category_objective: str | None) -> Converted | None:
        kind = item.qtype
        if kind == "description":
            self.skip(item, "text without an answer block (a Moodle description): study has no such item")
            return None
        if kind == "essay":
            self.skip(item, "essay question ({} with no answers): study cannot grade free text")
            return None
        if kind == "match":
            self.skip(item, "matching question (=item -> match): study has no matching type")
            return None
        if kind == "shortanswer":
            self.skip(item, "short-answer question ({=text}): study grades typed numbers, not typed words "
                      "(for true/false write {T} or {F}: Moodle reads {true} as a short answer)")
            return None
        assert item.stem is not None
        stem = self.md(item.stem)
        if not stem:
            self.skip(item, "the question has no text")
            return None
        meta = read_metadata(item.comments, item.loc, self.result.problems)
        data: dict[str, Any] = {}
        conv = Converted(data, item.loc)
        self.objective(conv, meta, category_objective)
        self.difficulty(conv, meta)
        topic = meta.get("topic")
        if topic:
            if _ID_RE.match(topic):
                data["topic"] = topic
            else:
                self.problem(item.loc, "note", f"topic {topic!r} is not a valid id; left out")
        concept = meta.get("concept")
        if concept:
            if _ID_RE.match(concept):
                data["concept"] = concept
            else:
                self.problem(item.loc, "note", f"concept {concept!r} is not a valid id; left out")
        extras: list[str] = []  # feedback GIFT attaches to an answer where study has none: folded in
        explanation = self.md(item.general_feedback)
        if kind == "truefalse":
            data["type"] = "true_false"
            data["stem"] = stem
            data["answer"] = bool(item.truth)
            for fb in (item.tf_right_feedback, item.tf_wrong_feedback):
                if fb is not None and fb.text:
                    extras.append(self.md(fb))
        elif kind == "multichoice":
            data["stem"] = stem
            if not self.choices(item, conv):
                return None
        else:
            if not self.numeric(item, conv, meta, stem, extras):
                return None
        if extras:
            self.result.folded += 1
            self.problem(item.answer_loc or item.loc, "note",
                         "feedback on the answer folded into the explanation (study has one explanation per question)")
            explanation = "\n\n".join(x for x in (explanation, *extras) if x)
        if explanation:
            data["explanation"] = explanation
        else:
            conv.todo["explanation"] = "the teaching point shown after the answer (the GIFT question had no #### feedback)"
        tags = meta["tags"]
        if tags:
            data["tags"] = list(dict.fromkeys(tags))
        self.references(conv, meta)
        self.accepted(conv, meta)
        self.verified(conv, meta)
        if "templated" in meta:
            self.result.templated += 1
        if meta.get("source"):
            conv.comments["id"] = f"exported from {meta['source']}"
        volatile = meta.get("volatile")
        if volatile == "true":
            data["volatile"] = True
        exhibit_back(data, meta, item.loc, self.problem)
        # The id is made last so a question skipped half-way does not take one.
        conv.data = {"id": self.make_id(item, meta, stem), **data}
        # GIFT text has no templates: any brace in it is literal, written {{ }} so study does not read a
        # placeholder into it.
        text = conv.data.get("stem", "")
        if "{" in text or "}" in text:
            conv.data["stem"] = text.replace("{", "{{").replace("}", "}}")
        return conv

    # fields ---------------------------------------------------------------------------------------------

    def make_id(self, item: Item, meta: dict[str, Any], stem: str) -> str:
        wanted = meta.get("moodle_id") or ""
        if wanted and not _ID_RE.match(wanted):
            self.problem(item.loc, "note", f"id {wanted!r} is not a study id (lower case, digits, - _ .); "
                         "a cleaned-up one is used")
            wanted = slug(wanted, 80)
        if not wanted:
            base = item.title or " ".join(stem.split()[:8])
            wanted = f"{self.prefix}-{slug(base)}" if self.prefix else slug(base)
            wanted = wanted.strip("-._") or f"{self.prefix or 'gift'}-question"
        # Count on from the last suffix given to this base: counting from 2 each time made a file of many
        # same-titled questions quadratic (5,000 took 16 s).
        candidate, n = wanted[:80], self.next_suffix.get(wanted, 2)
        while candidate in self.ids:
            candidate = f"{wanted[:76]}-{n}"
            n += 1
        self.next_suffix[wanted] = n
        self.ids.add(candidate)
        return candidate

    def objective(self, conv: Converted, meta: dict[str, Any], category_objective: str | None) -> None:
        value = meta.get("objective")
        if value is not None and value not in self.objectives:
            self.problem(conv.loc, "note", f"objective {value!r} in the study: comment is not in the blueprint")
            value = None
        value = value or category_objective or self.default_objective
        if value:
            conv.data["objective"] = value
        else:
            conv.todo["objective"] = ('a blueprint objective such as "2.1" (the GIFT file names none; '
                                      "import with --objective to set one for the whole file)")

    def difficulty(self, conv: Converted, meta: dict[str, Any]) -> None:
        raw = meta.get("difficulty")
        if raw in ("1", "2", "3"):
            conv.data["difficulty"] = int(raw)
            return
        if raw is not None:
            self.problem(conv.loc, "note", f"difficulty {raw!r} is not 1, 2 or 3; {DEFAULT_DIFFICULTY} used")
        conv.data["difficulty"] = DEFAULT_DIFFICULTY
        conv.comments["difficulty"] = "GIFT has no difficulty: 2 (apply) assumed, check it"

    def references(self, conv: Converted, meta: dict[str, Any]) -> None:
        refs = []
        for raw in meta["reference"]:
            url, _, title = raw.partition(" ")
            if re.match(r"^https?://\S+$", url) and title.strip():
                refs.append({"title": title.strip(), "url": url})
            else:
                self.problem(conv.loc, "note", f"reference {raw!r} is not 'URL TITLE'; ignored")
        if refs:
            conv.data["references"] = refs
        else:
            conv.todo["references"] = "at least one {title, url} to check the facts against (GIFT has no references)"

    def accepted(self, conv: Converted, meta: dict[str, Any]) -> None:
        """``// study: accept=CODE REASON`` lines: lint warnings the author accepted, kept as written (lint
        checks the code and the reason when the converted file is linted)."""
        accepted = []
        for raw in meta["accept"]:
            code, _, reason = raw.partition(" ")
            # possible-twin:OTHER-ID accepts one pair (neither codes nor ids hold a colon).
            code, colon, other = code.partition(":")
            if code and reason.strip():
                accepted.append({"code": code, "reason": reason.strip(), **({"other": other} if colon else {})})
            else:
                self.problem(conv.loc, "note", f"accept {raw!r} is not 'CODE REASON'; ignored")
        if accepted:
            conv.data["accept"] = accepted

    def verified(self, conv: Converted, meta: dict[str, Any]) -> None:
        raw = meta.get("verified")
        if raw:
            try:
                conv.data["verified"] = dt.date.fromisoformat(raw)
                return
            except ValueError:
                self.problem(conv.loc, "note", f"verified {raw!r} is not a date like 2026-11-30; ignored")
        conv.todo["verified"] = "the date you checked the facts against the references (GIFT has no such date)"

    # answers --------------------------------------------------------------------------------------------

    def choices(self, item: Item, conv: Converted) -> bool:
        answers = item.answers
        right = [a for a in answers if a.weight > 0]
        partial = [a for a in right if a.weight < 100 - 1e-9] if item.single else []
        if item.single:
            full = [a for a in answers if a.weight >= 100 - 1e-9]
            if partial:
                self.skip(item, f"partial credit ({', '.join(f'{a.weight:g}%' for a in partial)}) in a single-answer "
                          "question: study grades all or nothing", partial[0].loc)
                return False
            if len(full) != 1:
                self.skip(item, f"{len(full)} answers give full credit: a study single-answer question has exactly one",
                          full[1].loc if len(full) > 1 else item.answer_loc)
                return False
            if any(a.weight > 100 + 1e-9 for a in answers):
                self.skip(item, "a weight above 100%", item.answer_loc)
                return False
            if any(a.weight < 0 for a in answers):
                self.problem(item.answer_loc or item.loc, "note",
                             "negative weights on wrong answers dropped: a wrong pick scores 0 in study")
            qtype = "single"
        else:
            if not right:
                self.skip(item, "no answer gives credit (every ~ has weight 0 or less)", item.answer_loc)
                return False
            even = 100.0 / len(right)
            if any(abs(a.weight - even) > 0.01 for a in right) or abs(sum(a.weight for a in right) - 100) > 0.05:
                split = "/".join(f"{a.weight:g}" for a in right)
                self.skip(item, f"partial credit split {split}%: study's choose-N needs N right answers of "
                          f"{percent_text(even)}% each", right[0].loc)
                return False
            if len(right) == len(answers):
                self.skip(item, "every answer is right: a study choose-N question needs at least one wrong choice",
                          item.answer_loc)
                return False
            if len(right) == 1:
                self.problem(item.answer_loc or item.loc, "note",
                             "multiple-answer question with one right answer imported as single-answer")
                qtype = "single"
            else:
                qtype = "multi"
                self.result.multi += 1
        conv.data["type"] = qtype
        if qtype == "multi":
            conv.data["choose"] = len(right)
        choices = []
        for i, a in enumerate(answers):
            choice: dict[str, Any] = {"text": self.md(a.text)}
            if a.weight > 0:
                choice["correct"] = True  # wrong choices leave `correct` out, as the bank's files do
            why = self.md(a.feedback)
            if why:
                choice["why"] = why
            else:
                conv.choice_todo.add(i)
            choices.append(choice)
        conv.data["choices"] = choices
        return True

    def numeric(self, item: Item, conv: Converted, meta: dict[str, Any], stem: str, extras: list[str]) -> bool:
        answers = item.answers
        if any(a.any_value and a.weight > 0 for a in answers):
            self.skip(item, "an answer * gives credit for any number", item.answer_loc)
            return False
        full = [a for a in answers if not a.any_value and a.weight >= 100 - 1e-9]
        partial = [a for a in answers if not a.any_value and 0 < a.weight < 100 - 1e-9]
        if partial:
            self.skip(item, f"partial credit ({', '.join(f'{a.weight:g}%' for a in partial)}) for a number: study "
                      "grades all or nothing", partial[0].loc)
            return False
        if len(full) != 1:
            self.skip(item, f"{len(full)} numbers get full credit: study has one right number per question",
                      full[1].loc if len(full) > 1 else item.answer_loc)
            return False
        right = full[0]
        assert right.value is not None and right.tolerance is not None
        value = right.value
        unit = meta.get("unit")
        m = _UNIT_SENTENCE_RE.search(stem)
        if m and (m.group("unit") == unit or (unit is None and _known_unit(m.group("unit")))):
            unit = m.group("unit")
            stem = stem[:m.start()].rstrip()
        if unit and not _known_unit(unit):
            self.problem(item.loc, "note", f"unit {unit!r} is not one study knows; lint will flag it")
        if not unit:
            unit = "1"
            conv.comments["unit"] = "GIFT numbers have no unit: a plain number ('1') assumed"
        tolerance = self.tolerance(item, meta, value, right.tolerance, unit)
        conv.data["type"] = "numeric"
        conv.data["stem"] = stem
        answer: dict[str, Any] = {"value": value, "unit": unit, "tolerance": tolerance}
        digits = meta.get("digits")
        if digits and digits.isdigit() and 1 <= int(digits) <= 8:
            answer["digits"] = int(digits)
        else:
            shown = min(8, max(3, significant_digits(right.literal)))
            if shown != 3:
                answer["digits"] = shown
        conv.data["answer"] = answer
        if right.feedback is not None and right.feedback.text:
            extras.append(self.md(right.feedback))
        distractors = []
        for a in answers:
            if a is right:
                continue
            if a.any_value or a.value is None:
                if a.feedback is not None and a.feedback.text:
                    extras.append(self.md(a.feedback))
                continue
            why = self.md(a.feedback)
            if not why:
                self.problem(a.loc, "note", f"wrong number {a.literal} has no feedback: dropped (a study distractor "
                             "needs a why)")
                continue
            if abs(a.value - value) <= nominal_tolerance(tolerance, value, unit) * (1 + 1e-9):
                self.problem(a.loc, "note", f"wrong number {a.literal} is inside the right answer's tolerance: dropped")
                continue
            distractors.append({"value": a.value, "why": why})
        if item.numeric_wrong_feedback is not None and item.numeric_wrong_feedback.text:
            extras.append(self.md(item.numeric_wrong_feedback))
        self.calc_back(item, meta, answer, distractors)
        if distractors:
            conv.data["distractors"] = distractors
        return True

    def calc_back(self, item: Item, meta: dict[str, Any], answer: dict[str, Any],
                  distractors: list[dict[str, Any]]) -> None:
        """A fixed numeric question's calculator expressions from ``// study: calc=`` and ``distractor-calc=``
        (``gift_export.calc_lines``): the number in the GIFT answer is what the expression gave, so it is kept
        only where the author had stated one too (``value=stated``, ``N+value``)."""
        calc = meta.get("calc")
        if calc:
            answer["calc"] = calc
            if meta.get("value") != "stated":
                del answer["value"]
        for raw in meta["distractor-calc"]:
            m = re.fullmatch(r"(\d{1,3})(\+value)? (\S.*)", raw)
            if m is None or not 1 <= int(m.group(1)) <= len(distractors):
                self.problem(item.loc, "note", f"'// study: distractor-calc={_clip(raw)}' names no wrong number of "
                             "this question; ignored")
                continue
            d = distractors[int(m.group(1)) - 1]
            d["calc"] = m.group(3)
            if not m.group(2):
                del d["value"]

    def tolerance(self, item: Item, meta: dict[str, Any], value: float, gift_tol: float, unit: str) -> str:
        stated = meta.get("tolerance")
        if stated and _TOL_RE.match(stated):
            try:
                nominal = nominal_tolerance(stated, value, unit)
            except (ValueError, ImportError):
                nominal = None
            # GIFT numbers carry 12 significant digits, so agreement to 1e-9 relative means the same tolerance.
            if nominal is not None and abs(nominal - gift_tol) <= 1e-9 * max(abs(nominal), gift_tol) + 1e-300:
                return stated
            self.problem(item.answer_loc or item.loc, "note", f"the GIFT tolerance \u00b1{number(gift_tol)} disagrees "
                         f"with the study: comment ({stated}); the GIFT one is used")
        return number(gift_tol)


def _known_unit(unit: str) -> bool:
    from study.calc.units import parse_unit

    try:
        parse_unit(unit)
    except ValueError:
        return False
    return True


def percent_text(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return text


def convert(source: str, *, prefix: str, objectives: set[str], default_objective: str | None = None) -> ImportResult:
    """GIFT ``source`` as importable questions plus the problems met on the way.

    ``prefix`` starts ids made up from titles or text; ``default_objective`` serves questions whose
    metadata and category name none.
    """
    return Converter(prefix=prefix, objectives=objectives, default_objective=default_objective).run(source)
