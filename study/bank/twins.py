"""Twins: two questions that test one fact in different words, so the first answered gives the second away.

Professional test assembly calls them enemy items and never puts two on one form. ``near_duplicates`` finds
the copy-and-edit kind by wording; a twin written afresh around the same fact scores 52-63 there, inside the
crowd of unrelated pairs. What two twins share is *what they test*: the key's content, the rare terms of the
stem and the key, the explanation's teaching point. So each question becomes a TF-IDF vector of those fields
(each field's term weights normalised, then summed with ``FIELD_WEIGHTS``; distractors are left out, as a
foil says what the fact is not), and a pair is proposed when its cosine is at least ``FLOOR`` and within
``RATIO`` of the closer of the two questions' best matches: a twin is a question's nearest neighbour or nearly
as near (a group of three DOCA questions has each one's second match a twin too), while the floor drops
nearest neighbours that are only the least unrelated.

The figures come from the audit's ten pairs (issue 35) on the bank before any concept was marked (474
comparable questions): ``bench/twins.py`` prints the recall on them and the candidates per question. Numeric
templated items are left out as in ``near_duplicates``: they are variants of one calculation by design.

A proposed pair is a finding (``possible-twin``) unless the two share a ``concept`` (they are twins, and the
quiz keeps them apart), or one of them accepts ``possible-twin`` naming the other (read, and not twins).
This runs in ``study lint`` and ``study bank stats`` only, never when the app starts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from study.bank.load import Diagnostic
from study.bank.schema import Question

CODE = "possible-twin"
FIELD_WEIGHTS = {"key": 1.0, "stem": 1.0, "explanation": 1.5, "why": 0.5}
FLOOR = 0.425
RATIO = 0.9
# The audit's ten pairs (issue 35), on which FLOOR and RATIO were set; bench/twins.py and a test measure them.
AUDIT_PAIRS = (
    ("d1-mlops-07", "d1-solutions-21"),
    ("d2-gpu-selection-08", "d1-gpu-features-04"),
    ("d1-train-infer-03", "d1-train-infer-18"),
    ("d3-dc-management-12", "d2-cluster-components-02"),
    ("d2-dpu-bluefield-12", "d2-dpu-bluefield-04"),
    ("d1-solutions-20", "d1-solutions-17"),
    ("d3-monitoring-stack-11", "d3-gpu-monitoring-metrics-02"),
    ("d1-swstack-10", "d3-orchestration-scheduling-06"),
    ("d3-dc-management-09", "d2-ai-networking-requirements-08"),
    ("d1-gpu-features-01", "d2-gpu-selection-05"),
)
MIN_SHARED = 2
# Below this many questions the IDF cannot tell a rare term from a common one (in a file of twelve, every
# shared word looks rare), so a small bank linted alone gets no proposals; the figures were set on 474.
MIN_COMPARABLE = 100
# A bank of look-alikes (thousands of one template) would otherwise pair every question with every other.
MAX_PER_QUESTION = 2

# Product names keep their inner punctuation (Run:ai, nvidia-smi, DCGM_FI_PROF_SM_ACTIVE, NVLink-C2C).
_TERM_RE = re.compile(r"[a-z0-9][a-z0-9_:+.-]*[a-z0-9+]|[a-z0-9]")
_SPELLING = (("utiliz", "utilis"), ("optimiz", "optimis"), ("virtualiz", "virtualis"))


def _term(word: str) -> str:
    for us, uk in _SPELLING:
        word = word.replace(us, uk)
    # A plural meets its singular ("quotas", "quota"); "ss" (access) and short words (MIGs is rare) stay.
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The content words of ``text``: lower case, without the stop words the item-flaw checks skip."""
    from study.bank.item_flaws import STOPWORDS

    words = _TERM_RE.findall(text.lower().replace("`", ""))
    return [_term(w) for w in words if len(w) >= 2 and w not in STOPWORDS]


def _surface(term: str, text: str) -> str:
    """The word as written for a term ("kubernetes", not the term "kubernete")."""
    return next((w for w in _TERM_RE.findall(text.replace("`", "")) if _term(w) == term), term)


def comparable(q: Question) -> bool:
    return not q.is_templated and q.source is not None


def fields(q: Question) -> dict[str, str]:
    """What the question tests, by field: its key (a true statement is its own key), stem, explanation and
    the key's ``why``."""
    keys = [c.text for c in q.choices or () if c.correct]
    whys = [c.why for c in q.choices or () if c.correct]
    if q.type == "true_false" and q.answer is True:
        keys = [q.stem]
    elif q.type == "numeric" and q.answer is not None and not isinstance(q.answer, bool) and q.answer.value is not None:
        keys = [f"{q.answer.value:g} {q.answer.unit}"]
    return {"key": " ".join(keys), "stem": q.stem, "explanation": q.explanation, "why": " ".join(whys)}


@dataclass(frozen=True)
class TwinPair:
    a: Question
    b: Question
    score: float
    shared: tuple[str, ...]  # the terms that weigh most in the score, for the reader


def _vectors(questions: Sequence[Question]) -> list[dict[str, float]]:
    """Unit-length TF-IDF vectors: per field, 1 + log(count) times a smoothed IDF, normalised, weighted."""
    per_field = [{name: terms(text) for name, text in fields(q).items()} for q in questions]
    n = len(questions)
    df: dict[str, int] = {}
    for doc in per_field:
        for t in set().union(*doc.values()):
            df[t] = df.get(t, 0) + 1
    idf = {t: math.log((n + 1) / (k + 1)) + 1.0 for t, k in df.items()}
    out = []
    for doc in per_field:
        vec: dict[str, float] = {}
        for name, words in doc.items():
            counts: dict[str, int] = {}
            for w in words:
                counts[w] = counts.get(w, 0) + 1
            # A term of one question alone can make it like no other; left in, it would only dilute the
            # score of a long explanation against a short one.
            part = {w: (1.0 + math.log(c)) * idf[w] for w, c in counts.items() if df[w] > 1}
            norm = math.sqrt(sum(v * v for v in part.values()))
            for w, v in part.items():
                vec[w] = vec.get(w, 0.0) + FIELD_WEIGHTS[name] * v / norm
        norm = math.sqrt(sum(v * v for v in vec.values())) or 1.0
        out.append({w: v / norm for w, v in vec.items()})
    return out


def _cosine(u: dict[str, float], v: dict[str, float]) -> float:
    if len(v) < len(u):
        u, v = v, u
    return sum(x * v[w] for w, x in u.items() if w in v)


def _shares(u: dict[str, float], v: dict[str, float]) -> bool:
    """At least MIN_SHARED terms in common: in a small bank one shared word ("memory") can carry a score."""
    return sum(w in v for w in u) >= MIN_SHARED


def candidate_pairs(questions: Sequence[Question]) -> list[TwinPair]:
    """The pairs the method proposes, highest score first, before concepts and accepts are looked at."""
    from study.bank.near_duplicates import candidate_pairs as blocks

    qs = [q for q in questions if comparable(q)]
    if len(qs) < max(2, MIN_COMPARABLE):
        return []
    vectors = _vectors(qs)
    # Only pairs that share a rare word are scored (near_duplicates' blocking: linear in the bank, not its
    # square); on the shipped bank every pair the full matrix proposes is among them (a test holds this).
    texts = [" ".join(fields(q).values()).lower() for q in qs]
    scored = {(i, j): _cosine(vectors[i], vectors[j]) for i, j in blocks(texts)}
    best = [0.0] * len(qs)
    for (i, j), s in scored.items():
        best[i], best[j] = max(best[i], s), max(best[j], s)
    passed = sorted(((s, i, j) for (i, j), s in scored.items()
                     if s >= FLOOR and s >= RATIO * min(best[i], best[j]) and _shares(vectors[i], vectors[j])),
                    key=lambda t: (-t[0], qs[t[1]].id, qs[t[2]].id))
    taken = [0] * len(qs)
    out = []
    for s, i, j in passed:
        if taken[i] >= MAX_PER_QUESTION and taken[j] >= MAX_PER_QUESTION:
            continue
        taken[i] += 1
        taken[j] += 1
        a, b = sorted((qs[i], qs[j]), key=lambda q: q.id)
        weights = {w: x * vectors[j][w] for w, x in vectors[i].items() if w in vectors[j]}
        top = sorted(weights, key=lambda w: (-weights[w], w))[:4]
        shared = tuple(_surface(t, texts[i]) for t in top)
        out.append(TwinPair(a, b, round(s, 3), shared))
    return out


def accepted_pair(a: Question, b: Question) -> bool:
    """One of the two accepts ``possible-twin`` naming the other: a reader found them distinct."""
    return any(e.code == CODE and e.other == y.id for x, y in ((a, b), (b, a)) for e in x.accept)


def marked(pair: TwinPair) -> bool:
    """The pair is dealt with: the two share a concept, or one accepts the other as distinct."""
    same = pair.a.concept is not None and pair.a.concept == pair.b.concept
    return same or accepted_pair(pair.a, pair.b)


def twin_findings(questions: Sequence[Question]) -> list[Diagnostic]:
    """A warning at each question of a proposed pair that is not marked, naming the other with its file:line."""
    out = []
    for pair in candidate_pairs(questions):
        if marked(pair):
            continue
        for this, other in ((pair.a, pair.b), (pair.b, pair.a)):
            src, osrc = this.source, other.source
            assert src is not None and osrc is not None
            out.append(Diagnostic(
                src.path, src.line, src.column, "warning", CODE,
                f"{this.id} and {other.id} ({osrc.path}:{osrc.line}) may test one fact (score {pair.score:.2f}; "
                f"shared: {', '.join(pair.shared)}): give both the same `concept:` if one gives the other away, "
                f"or accept {CODE} with `other: {other.id}` and a reason",
            ))
    return out


def marking_findings(questions: Sequence[Question], wanted: set[str] | None = None) -> list[Diagnostic]:
    """What is wrong or worth knowing about the marks themselves.

    - ``unknown-question`` (error): an accept's ``other`` names no question in the bank (or the question
      itself), so it excuses nothing and a typo would hide the pair it meant.
    - ``concept-objectives`` (info): one concept across objectives. The quiz draws one of the group, so one
      objective gives up a question on that form; and two questions of one fact may mean one is filed under
      the wrong objective. Once per concept, at its first question (of the ``wanted`` files when given), so
      a bank of many groups does not print every member.
    """
    # A concept named once is not reported: a misspelt id leaves its twin pair open, which possible-twin
    # reports, and a bank linted alone (--questions) may hold one member of a group on purpose.
    ids = {q.id for q in questions}
    groups: dict[str, list[Question]] = {}
    out: list[Diagnostic] = []
    for q in questions:
        if q.concept is not None:
            groups.setdefault(q.concept, []).append(q)
        for e in q.accept:
            if (e.other is not None and (e.other not in ids or e.other == q.id) and q.source is not None
                    and (wanted is None or q.source.path in wanted)):
                what = "this question itself" if e.other == q.id else "no question in the bank"
                out.append(Diagnostic(q.source.path, q.source.line, q.source.column, "error", "unknown-question",
                                      f"{q.id} accepts {e.code} with other: {e.other}, which is {what}"))
    for concept, members in groups.items():
        objectives = sorted({m.objective for m in members})
        placed = [m for m in members if m.source is not None and (wanted is None or m.source.path in wanted)]
        if len(objectives) > 1 and placed:
            m = min(placed, key=lambda x: (x.source.path, x.source.line))  # type: ignore[union-attr]
            src = m.source
            assert src is not None
            others = ", ".join(f"{o.id} ({o.objective})" for o in members if o is not m)
            out.append(Diagnostic(src.path, src.line, src.column, "info", "concept-objectives",
                                  f"concept {concept!r} spans objectives {', '.join(objectives)}: {m.id} "
                                  f"({m.objective}) shares it with {others}; a form holds one of them"))
    return out
