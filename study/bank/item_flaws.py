"""Item-writing flaws that let a learner find the key from the wording alone.

The checks follow the guidelines of Haladyna, Downing and Rodriguez (2002), "A review of multiple-choice
item-writing guidelines for classroom assessment", Applied Measurement in Education 15(3), 309-333: keep the
options about equal in length (guideline 23), avoid "all of the above" and "none of the above" (25, 26),
avoid clues to the right answer such as specific determiners (never, always), clang associations with the stem
(choices that echo the stem's words) and grammatical inconsistencies (31), and keep the options homogeneous so
no single one stands out (22). A key that is simply the extreme figure where the stem asks for the most or the
least is the numeric form of the same clue.

Each check is a heuristic and reports a *warning* at the question's line. A question that is right as written
accepts the code in its YAML with a reason (``accept: [{code: ..., reason: ...}]``, see schema.Accept). The
thresholds below were set by reading every finding on the shipped bank (481 questions, December 2026): each
was tuned until what it reported was a flaw a reviewer agreed with, not a style preference.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from study.bank.load import Diagnostic
from study.bank.schema import Choice, Question

# A key this many times the length of the longest distractor stands out (Haladyna's guideline 23); below
# MIN_LONG_KEY characters a difference in length is a few words and tells nothing.
LONGEST_KEY_RATIO = 1.6
MIN_LONG_KEY = 50

ABSOLUTES = ("only", "always", "never", "every", "none", "all", "no other")
# "All-reduce" is a collective, not an absolute.
_ABSOLUTE_RE = re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ABSOLUTES) + r")\b(?!-)", re.I)
# Hedges that make a statement hard to argue with: the tell of a key written with more care than its foils.
QUALIFIERS = ("usually", "typically", "often", "generally", "in most cases", "may", "can help", "depends", "depending", "tends to", "where possible")
_QUALIFIER_RE = re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in QUALIFIERS) + r")\b", re.I)
_ALL_NONE_RE = re.compile(r"\b(?:all|none|both|neither)\s+of\s+(?:the\s+)?(?:above|these|those|options|answers)\b", re.I)

# Words that carry no topic: a stem and a key sharing them is no clue.
STOPWORDS = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "been", "being", "but", "by", "can", "could", "do", "does", "for", "from", "has", "have", "how", "if", "in", "into", "is", "it", "its", "of", "on", "or", "so", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up", "use", "used", "uses", "using", "was", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with", "would", "you", "your", "not", "no", "more", "most", "less", "least", "one", "two", "three", "each", "per", "via", "also", "other", "only", "all", "any", "some", "many", "much", "very", "same", "new", "its", "it's", "which", "what", "whose", "best", "most", "first", "team", "teams", "company", "needs", "need", "want", "wants", "should", "must", "may", "might", "than", "before", "after", "about", "over", "under", "between", "gpu", "gpus", "nvidia", "data", "model", "models", "system", "systems"]
)
_WORD_RE = re.compile(r"[a-z][a-z0-9+-]*[a-z0-9]|[a-z]")

SUPERLATIVE_RE = re.compile(
    r"\b(?:largest|smallest|fastest|slowest|highest|lowest|greatest|least|most|biggest|maximum|minimum|best|cheapest|longest|shortest)\b",
    re.I,
)
# A figure with a unit: the unit's family decides which figures are compared with each other.
_FIGURE_RE = re.compile(
    r"(?<![\w.])(\d+(?:,\d{3})*(?:\.\d+)?)\s*(k|K|M|G|T|P)?(i?B/s|b/s|bit/s|B|W|kW|MW|Hz|GHz|FLOPS|TFLOPS|PFLOPS|%)(?![A-Za-z])"
)
_PREFIX = {None: 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}


@dataclass(frozen=True)
class Flaw:
    code: str
    message: str


@functools.lru_cache(maxsize=65536)
def _words(text: str) -> frozenset[str]:
    """Distinctive words of ``text``; cached, as lint asks for each stem twice (common words, stem echo)."""
    out = set()
    for w in _WORD_RE.findall(text.lower().replace("`", "")):
        if len(w) < 4 or w in STOPWORDS:
            continue
        # Plural and simple verb forms meet their stem ("partitions" and "partition"), keeping 4 letters.
        if w[-1] == "s":
            if w.endswith("ies") and len(w) >= 7:
                w = w[:-3] + "y"
            elif w.endswith("es") and len(w) >= 6:
                w = w[:-2]
            elif len(w) >= 5:
                w = w[:-1]
        out.add(w)
    return frozenset(out)


def _split(q: Question) -> tuple[list[Choice], list[Choice]]:
    choices = list(q.choices or ())
    return [c for c in choices if c.correct], [c for c in choices if not c.correct]


def longest_key(q: Question) -> Flaw | None:
    keys, foils = _split(q)
    if not keys or len(foils) < 2:
        return None
    shortest_key = min(len(k.text) for k in keys)
    longest_foil = max(len(f.text) for f in foils)
    if shortest_key >= MIN_LONG_KEY and shortest_key >= LONGEST_KEY_RATIO * longest_foil:
        what = "the key is" if len(keys) == 1 else "every key is"
        return Flaw("longest-key", f"{what} at least {shortest_key / longest_foil:.1f} times as long as any distractor ({shortest_key} against {longest_foil} characters): a learner can pick the longest option; make the options about equal in length")
    return None


def qualified_key(q: Question) -> Flaw | None:
    keys, foils = _split(q)
    if len(keys) != 1 or len(foils) < 2:
        return None
    hedge = _QUALIFIER_RE.search(keys[0].text)
    if hedge and not any(_QUALIFIER_RE.search(f.text) for f in foils) and sum(bool(_ABSOLUTE_RE.search(f.text)) for f in foils) >= 1:
        return Flaw("longest-key", f"the key is the only qualified option ({hedge.group(0)!r}) among distractors that speak in absolutes: the careful wording marks it; qualify a distractor or state the key plainly")
    return None


def absolute_distractors(q: Question) -> Flaw | None:
    keys, foils = _split(q)
    if not keys or len(foils) < 2:
        return None
    if any(_ABSOLUTE_RE.search(k.text) for k in keys):
        return None
    marked = [m.group(0).lower() for f in foils if (m := _ABSOLUTE_RE.search(f.text))]
    if len(marked) >= 2:
        return Flaw("absolute-distractors", f"{len(marked)} distractors use absolute words ({', '.join(sorted(set(marked)))}) and the key none: test-wise learners rule them out unread; reword them or put an absolute in the key")
    return None


def absolute_false(q: Question) -> Flaw | None:
    if q.type != "true_false" or q.answer is not False:
        return None
    m = _ABSOLUTE_RE.search(q.stem)
    if m:
        return Flaw("absolute-false", f"a statement keyed false rests on the absolute {m.group(0)!r}: learners guess False from the word alone; make the error a specific fact, not an overstatement")
    return None


def all_none_of_the_above(q: Question) -> Flaw | None:
    for c in q.choices or ():
        m = _ALL_NONE_RE.search(c.text)
        if m:
            return Flaw("all-none-of-the-above", f"option {c.text.strip()!r} uses {m.group(0)!r}: it tests recognising a partial answer, not the knowledge; replace it with a plausible distractor")
    return None


def stem_echo(q: Question, common: frozenset[str] = frozenset()) -> Flaw | None:
    """The key repeats a distinctive stem word that no distractor repeats (a clang association).

    ``common`` holds words too frequent in the bank to be distinctive (see ``common_words``)."""
    keys, foils = _split(q)
    if len(keys) != 1 or len(foils) < 2:
        return None
    shared = (_words(keys[0].text) & _words(q.stem)) - common
    if len(shared) < 2:  # most keys: no need to read the distractors
        return None
    shared -= set().union(*(_words(f.text) for f in foils))
    # One shared word is often the topic itself ("Which MIG profile...": "MIG 1g.10gb"); two or more that no
    # distractor has is the key paraphrasing the stem.
    if len(shared) >= 2:
        return Flaw("stem-echo", f"the key repeats the stem's words {', '.join(repr(w) for w in sorted(shared))} and no distractor does: the key can be matched to the stem without knowing the answer; use the words in a distractor too, or reword the key")
    return None


def common_words(questions: Iterable[Question], share: float = 0.04) -> frozenset[str]:
    """Words in more than ``share`` of the stems: the bank's shared vocabulary, no clue when echoed."""
    qs = list(questions)
    if not qs:
        return frozenset()
    seen: dict[str, int] = {}
    for q in qs:
        for w in _words(q.stem):
            seen[w] = seen.get(w, 0) + 1
    return frozenset(w for w, n in seen.items() if n > share * len(qs))


def _figures(text: str) -> dict[str, list[float]]:
    """Figures in ``text`` by unit family, scaled to one base (GB and TB both to bytes)."""
    out: dict[str, list[float]] = {}
    for m in _FIGURE_RE.finditer(text):
        number, prefix, unit = m.groups()
        value = float(number.replace(",", ""))
        if unit in ("kW", "MW", "GHz"):
            prefix, unit = unit[0], unit[1:]
        if unit.endswith("FLOPS") and unit != "FLOPS":
            prefix, unit = unit[0], "FLOPS"
        if unit.startswith("i"):
            unit = unit[1:]
        out.setdefault(unit, []).append(value * _PREFIX.get(prefix, 1.0))
    return out


def extreme_value(q: Question) -> Flaw | None:
    keys, foils = _split(q)
    if len(keys) != 1 or len(foils) < 2:
        return None
    if not SUPERLATIVE_RE.search(q.stem):
        return None
    per_choice = [(c, _figures(c.text)) for c in [*keys, *foils]]
    families = set.intersection(*(set(f) for _c, f in per_choice))
    for family in sorted(families):
        best = {id(c): max(f[family]) for c, f in per_choice}
        key_value = best[id(keys[0])]
        others = [best[id(f)] for f in foils]
        if key_value > max(others) or key_value < min(others):
            side = "largest" if key_value > max(others) else "smallest"
            return Flaw("extreme-value", f"every option prints a figure in {family} and the stem asks for an extreme: the key is simply the {side} figure; drop the figures from the options or make the extreme a wrong answer")
    return None


# Vowel sounds in lower-case words ("a unified", "an hour"); initialisms are handled in _takes_an.
_VOWEL_SOUND = re.compile(r"^(?:[aeio]|u(?!ni|se|sa|ti|ro)|hou|hon|8|11|18)", re.I)


def _takes_an(word: str) -> bool:
    word = word.lstrip("`*\"'(")
    if not word:
        return False
    # Initialisms read letter by letter: "an NVMe", "an SM", "a GPU", "a DPU".
    if len(word) > 1 and word[:2].isupper():
        return word[0] in "AEFHILMNORSX"
    return bool(_VOWEL_SOUND.match(word))


def grammatical_cue(q: Question) -> Flaw | None:
    keys, foils = _split(q)
    if len(keys) != 1 or len(foils) < 2:
        return None
    m = re.search(r"\b(a|an)\s*[:?.]?\s*$", q.stem.strip(), re.I)
    if not m:
        return None
    wants_an = m.group(1).lower() == "an"

    def fits(c: Choice) -> bool:
        first = c.text.split()
        return bool(first) and _takes_an(first[0]) == wants_an

    if fits(keys[0]) and not any(fits(f) for f in foils):
        return Flaw("grammatical-cue", f"the stem ends in {m.group(1)!r}, which fits only the key's first word: move the article into the options")
    return None


CHECKS = (longest_key, qualified_key, absolute_distractors, absolute_false, all_none_of_the_above, extreme_value, grammatical_cue)


def question_flaws(q: Question, common: frozenset[str] = frozenset()) -> list[Flaw]:
    """Every flaw of one question (each check at most once)."""
    out = [f for check in CHECKS if (f := check(q))]
    echo = stem_echo(q, common)
    if echo:
        out.append(echo)
    seen: set[str] = set()
    first = []
    for f in out:
        if f.code not in seen:
            seen.add(f.code)
            first.append(f)
    return first


def flaw_findings(questions: Sequence[Question], common: frozenset[str] | None = None) -> list[Diagnostic]:
    """Warnings at each question's line; ``common`` defaults to the common words of ``questions``."""
    if common is None:
        common = common_words(questions)
    out: list[Diagnostic] = []
    for q in questions:
        src = q.source
        if src is None:
            continue
        out.extend(Diagnostic(src.path, src.line, src.column, "warning", f.code, f.message) for f in question_flaws(q, common))
    return out
