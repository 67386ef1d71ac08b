"""Which answer each group of learners chose (Moodle's "structural analysis of responses"), the marks
regraded against the current key, and the hint that names a likely wrong key.

For each question: every response class (each choice; for numbers the right answer, each distractor's
mistake, and anything else) with its count and share among the learners whose response is known, and its
share in the top and bottom thirds of those learners ranked by their *rest score* (their proportion right on
the other questions they answered, the same rest score the discrimination index uses). A third is the
``n // 3`` learners with the highest (lowest) rest scores *and everyone tied with the last of them*: cutting
a tie in the order the files were read would make the hint depend on file names, so a group can be larger
than a third, and its size is reported.

The wrong-key hint: when a wrong response draws more of the top third than the key does, the strongest
learners disagree with the key. With a flipped true/false key that is exactly what happens, and the
negative discrimination alone does not say which answer they chose.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Mapping, Sequence

import numpy as np

from study.analysis.answers import Response
from study.analysis.rekey import OTHER, RIGHT, Bucket, Keys, buckets_of, classify, mark_now

if TYPE_CHECKING:
    from study.bank.schema import Question


@dataclass(frozen=True)
class ResponseRow:
    response: str  # the choice's text, or for numbers: right, the distractor's mistake, other
    correct: bool
    count: int
    share: float  # % of the learners whose response is known
    top: int  # of the top third by rest score
    bottom: int


@dataclass(frozen=True)
class ResponseTable:
    known: int  # learners whose first response is known (read from the attempt or statement as shown)
    top_size: int  # learners in the top third, ties at its edge included (0: too few ranked learners)
    bottom_size: int
    rows: tuple[ResponseRow, ...]
    hint: str | None  # "the key may be wrong: ...", None when the top third agrees with the key
    key_location: str | None  # file:line of the key in the bank (of the first key the hint names, if any)
    culprits: tuple[Culprit, ...] = ()  # what the hint names, each with its own line

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        for row in out["rows"]:
            row["share_top"] = 100 * row["top"] / self.top_size if self.top_size else None
            row["share_bottom"] = 100 * row["bottom"] / self.bottom_size if self.bottom_size else None
        return out


def regrade_marks(marks: np.ndarray, questions: Sequence[str], given: Mapping[tuple[int, int], Response],
                  known: Mapping[str, Question], keys: Keys) -> tuple[np.ndarray, dict[str, int]]:
    """The marks with every readable response graded against the current key, and per question how many
    marks that changed."""
    out = np.array(marks, dtype=float, copy=True)
    changed: dict[str, int] = {}
    for (row, col), response in given.items():
        question = known.get(questions[col])
        if question is None:
            continue
        now = mark_now(question, response, keys)
        if now is not None and now != out[row, col]:
            out[row, col] = now
            changed[questions[col]] = changed.get(questions[col], 0) + 1
    return out, changed


def rest_scores(marks: np.ndarray) -> np.ndarray:
    """``rest[l, q]``: learner l's proportion right on the questions other than q; NaN when q is unanswered
    or nothing else is."""
    answered = ~np.isnan(marks)
    x = np.where(answered, marks, 0.0)
    total = x.sum(axis=1, keepdims=True)
    n = answered.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        rest = (total - x) / (n - 1)
    return np.where(answered & (n > 1), rest, np.nan)


def _third_rows(column: np.ndarray, rows: list[int]) -> tuple[set[int], set[int]]:
    ranked = [r for r in rows if not np.isnan(column[r])]
    third = len(ranked) // 3
    if third == 0:
        return set(), set()
    order = sorted(column[r] for r in ranked)
    low, high = order[third - 1], order[-third]
    top = {r for r in ranked if column[r] >= high}
    bottom = {r for r in ranked if column[r] <= low}
    if top & bottom:  # everyone tied: no one is stronger than anyone else
        return set(), set()
    return top, bottom


# The evidence a hint needs (stated in `study analyze --help` and the README, as Moodle states its
# thresholds): a top third of at least HINT_MIN_STRONG learners, a wrong response chosen by at least half of
# them, and by at least HINT_MARGIN more of them than chose the least-chosen key. With two or three strong
# learners, or a one-learner lead, a right key was accused on 6 of 8 questions of a weak group.
HINT_MIN_STRONG = 5
HINT_MARGIN = 2
HINT_RULE = (f"a hint needs at least {HINT_MIN_STRONG} learners in the top third, a wrong response chosen by at "
             f"least half of them and by at least {HINT_MARGIN} more of them than the least-chosen key")


@dataclass(frozen=True)
class Culprit:
    """One response a hint names: a key the strong learners reject, or a distractor they pick."""

    response: str
    role: str  # "key" (marked right, rejected) or "distractor" (marked wrong, chosen)
    top: int
    location: str | None  # file:line of the choice (or of ``answer:``) in the bank
    value: str | None = None  # a number's value with its unit (a range for a templated question), else None


def _culprits(buckets: list[Bucket], top: dict[str, int], third: int) -> list[tuple[Bucket, str]]:
    right = [b for b in buckets if b.correct]
    wrong = [b for b in buckets if not b.correct and b.key != OTHER]
    if not right or not wrong or third < HINT_MIN_STRONG:
        return []
    key_top = min(top.get(b.key, 0) for b in right)
    chosen = [b for b in wrong
              if 2 * top.get(b.key, 0) >= third and top.get(b.key, 0) >= key_top + HINT_MARGIN]
    if not chosen:
        return []
    lead = max(top.get(b.key, 0) for b in chosen)
    # A key is named when the strong learners reject it: under half chose it, and the chosen distractor
    # outdraws it by the margin; a choose-two's other, right key (chosen by all of them) is not accused.
    rejected = [b for b in right if 2 * top.get(b.key, 0) < third and top.get(b.key, 0) + HINT_MARGIN <= lead]
    return [(b, "key") for b in rejected] + [(b, "distractor") for b in chosen]


def numeric_values(question: Question, bucket: Bucket, answers: Sequence[tuple[int, Response]],
                   keys: Keys) -> str | None:
    """The value a numeric response class stands for, as the learners were asked it: the key's or the
    distractor's value in each learner's instance, with its unit (``140 GB``); a templated question's values
    differ by learner, so it is their range (``14 GB to 26 GB (each learner's numbers)``). None for a choice,
    for ``other``, or when no instance can be built."""
    if question.type != "numeric" or bucket.key == OTHER:
        return None
    from study.quiz.instance import format_value

    why = (question.distractors or ())[bucket.index].why if bucket.index is not None else None
    values: dict[str, float] = {}
    for _row, response in answers:
        inst = keys.instance(question, response.params)
        num = inst.numeric if inst is not None else None
        if num is None:
            continue
        value = num.value if why is None else next((v for v, w in num.distractors if w == why), None)
        if value is not None:
            values[format_value(value, num.unit, num.digits)] = value
    if not values:
        return None
    if len(values) == 1:
        return next(iter(values))
    (lo, _), (hi, _) = min(values.items(), key=lambda kv: kv[1]), max(values.items(), key=lambda kv: kv[1])
    return f"{lo} to {hi} (each learner's numbers)"


def _label(question: Question, bucket: Bucket, value: str | None, role: str) -> str:
    if question.type != "numeric":
        return bucket.label
    if role == "key":
        return value or "the key's value"
    # The value first: the instructor compares it with the key; the mistake's text says how it arises.
    return f"{value}, the mistake \"{bucket.label}\"" if value else f"the mistake \"{bucket.label}\""


def _hint(question: Question, named: list[tuple[Bucket, str]], top: dict[str, int], third: int,
          values: Mapping[str, str | None]) -> str | None:
    if not named:
        return None
    chose = " and ".join(f"{_label(question, b, values.get(b.key), r)} ({top.get(b.key, 0)} of {third})"
                         for b, r in named if r == "distractor")
    text = f"the key may be wrong: the strongest learners chose {chose}"
    keys = [b for b, r in named if r == "key"]
    if keys and question.type != "true_false":  # a true/false key is one line; naming False adds nothing
        text += ", not the key " + " and ".join(
            f"{_label(question, b, values.get(b.key), 'key')} ({top.get(b.key, 0)} of {third})" for b in keys)
    return text


def response_tables(marks: np.ndarray, questions: Sequence[str], given: Mapping[tuple[int, int], Response],
                    known: Mapping[str, Question], keys: Keys, *, min_responses: int) -> dict[str, ResponseTable]:
    """The response table of every question in the bank that has a known response; ``marks`` are the
    regraded ones, so the thirds rank learners by what the current key says."""
    rest = rest_scores(marks)
    by_col: dict[int, list[tuple[int, Response]]] = {}
    for (row, col), response in given.items():
        by_col.setdefault(col, []).append((row, response))
    locations = _KeyLocations()
    out: dict[str, ResponseTable] = {}
    for col, answers in sorted(by_col.items()):
        question = known.get(questions[col])
        if question is None:
            continue
        answers.sort(key=lambda pair: pair[0])
        top_rows, bottom_rows = _third_rows(rest[:, col], [r for r, _ in answers])
        buckets = buckets_of(question)
        count: dict[str, int] = {}
        top: dict[str, int] = {}
        bottom: dict[str, int] = {}
        for row, response in answers:
            for key in dict.fromkeys(classify(question, response, keys)):
                count[key] = count.get(key, 0) + 1
                top[key] = top.get(key, 0) + (row in top_rows)
                bottom[key] = bottom.get(key, 0) + (row in bottom_rows)
        if question.type != "numeric" and count.get(OTHER):
            buckets.append(Bucket(OTHER, "other (not a current choice)", False))
        known_n = len(answers)
        rows = tuple(ResponseRow(b.label if b.key != RIGHT else "right", b.correct, count.get(b.key, 0),
                                 100 * count.get(b.key, 0) / known_n, top.get(b.key, 0), bottom.get(b.key, 0))
                     for b in buckets)
        named = _culprits(buckets, top, len(top_rows)) if known_n >= min_responses else []
        values = {b.key: numeric_values(question, b, answers, keys) for b, _role in named}
        hint = _hint(question, named, top, len(top_rows), values)
        culprits = tuple(Culprit(b.label if b.key != RIGHT else "right", role, top.get(b.key, 0),
                                 locations.of(question, b), values.get(b.key)) for b, role in named)
        first_key = next((c.location for c in culprits if c.role == "key"), None)
        out[question.id] = ResponseTable(known_n, len(top_rows), len(bottom_rows), rows, hint,
                                         first_key or locations.of(question), culprits)
    return out


def key_location(question: Question) -> str | None:
    """file:line of ``question``'s key, for a question no response table was made for."""
    return _KeyLocations().of(question)


class _KeyLocations:
    """file:line of each question's key (``answer:``, or the first ``correct: true`` choice), read once per
    file with the same YAML reader the bank uses, so the line is the one the loader saw."""

    def __init__(self) -> None:
        self._docs: dict[str, Any] = {}

    def of(self, question: Question, bucket: Bucket | None = None) -> str | None:
        """The key's line, or with ``bucket`` that response's own line: a choice's ``correct:`` (its first
        line when it has none), a numeric distractor's entry, a true/false's ``answer:``."""
        src = question.source
        if src is None:
            return None
        from study.bank.yamlsafe import parse_yaml

        if src.path not in self._docs:
            try:
                self._docs[src.path] = parse_yaml(Path(src.path).read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, ValueError):
                self._docs[src.path] = None
        doc = self._docs[src.path]
        items = doc.data.get("questions") if doc is not None and isinstance(doc.data, dict) else None
        if not isinstance(items, list):
            return f"{src.path}:{src.line}"
        for i, item in enumerate(items):
            if isinstance(item, dict) and item.get("id") == question.id:
                base: tuple[Any, ...] = ("questions", i)
                if bucket is not None and bucket.index is not None and question.type in ("single", "multi"):
                    return f"{src.path}:{doc.key_position(base + ('choices', bucket.index), 'correct')[0]}"
                if bucket is not None and bucket.index is not None and question.type == "numeric":
                    return f"{src.path}:{doc.position(base + ('distractors', bucket.index))[0]}"
                if question.type in ("single", "multi"):
                    k = next((k for k, c in enumerate(question.choices or ()) if c.correct), None)
                    if k is not None:
                        return f"{src.path}:{doc.key_position(base + ('choices', k), 'correct')[0]}"
                if "answer" in item:
                    return f"{src.path}:{doc.key_position(base, 'answer')[0]}"
        return f"{src.path}:{src.line}"
