"""Near-duplicate questions anywhere in the bank: two items that test one fact with nearly one wording.

A learner who has seen one answers the other from memory, so an exam drawing both scores the fact twice
(Haladyna, Downing and Rodriguez 2002, guideline 3: keep the content of each item independent of the others).
Each question is reduced to its stem plus its key (the fact it tests) and every pair is scored with
rapidfuzz's ``token_set_ratio`` (word order and extra words cost nothing, so a reworded stem around one key
still scores high). A blocking step (``candidate_pairs``) scores only pairs that share a rare word, so the
cost grows with the number of questions, not with its square. This runs only in ``study lint`` and ``study bank
stats``, never when the app starts.

The threshold comes from measured pairs (December 2026, the bank before this cleanup: 427 comparable questions,
90,951 pairs): median 44, 99th percentile 55, 99.9th 62, maximum 92. Every pair at 69 or more was read by
hand. From 74 up all were one fact asked twice (d3-mig-01/-12 92, d1-serving-09/d2-sizing-memory-compute-04
79, d1-solutions-01/d2-dgx-systems-03 75, d2-storage-for-ai-01/-07 75, d2-cluster-components-07/
d3-dc-management-04 74); between 72 and 74 two of five were (d1-train-infer-12/d2-gpu-selection-02 72.3),
below 72 most shared a topic but asked different things. Hence 72. The audit's own duplicate pairs were
reworded around one fact and scored only 52 to 63 (d1-serving-07/-12 63, d1-mlops-12/d1-swstack-07 62,
d1-gpu-features-01/d2-gpu-selection-05 60, d2-dgx-systems-01/d1-solutions-03 55, d1-aie-04/
d3-gpu-virtualization-04 57): 4,471 pairs (the top 5%) score 52 or more, so no threshold on wording finds
them without burying a reviewer. This check catches the copy-and-edit duplicate; a same-fact paraphrase still
needs a reader.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from study.bank.load import Diagnostic
from study.bank.schema import Question

THRESHOLD = 72.0
# Numeric and templated items are left out: calculator scenarios share boilerplate stems ("A team has ...
# GPUs") while testing different arithmetic, and their keys are numbers, not facts.
_SPACE_RE = re.compile(r"\s+")


def fingerprint(q: Question) -> str:
    """The text two questions share when they test one fact: the stem and the key, lower-cased."""
    keys = [c.text for c in q.choices or () if c.correct]
    if q.type == "true_false":
        keys = ["true" if q.answer is True else "false"]
    return _SPACE_RE.sub(" ", " ".join([q.stem, *keys]).lower().replace("`", "")).strip()


def comparable(q: Question) -> bool:
    return q.type != "numeric" and not q.is_templated and q.source is not None


# Blocking: only questions that share a distinctive word are scored. A word in more than BLOCK_SHARE of the
# questions (or BLOCK_MIN, whichever is larger) is common vocabulary and opens no block, and each question is
# scored against at most CANDIDATES others, those sharing the rarest words with it (summed inverse document
# frequency). On the shipped bank every pair scoring 70 or more by brute force is among the candidates
# (tests/unit/bank/test_item_flaws.py holds this), and a bank of 10,000 templated look-alikes costs seconds,
# not the minutes a full matrix of token_set_ratio would.
BLOCK_SHARE = 0.10
BLOCK_MIN = 40
CANDIDATES = 30
_TOKEN_RE = re.compile(r"[a-z0-9][a-z0-9+.-]*[a-z0-9]")


def _tokens(text: str) -> set[str]:
    from study.bank.item_flaws import STOPWORDS

    return {t for t in _TOKEN_RE.findall(text) if len(t) >= 3 and t not in STOPWORDS}


def candidate_pairs(texts: Sequence[str]) -> set[tuple[int, int]]:
    """Index pairs (i < j) worth scoring: they share a word that few questions use."""
    import math

    n = len(texts)
    token_sets = [_tokens(t) for t in texts]
    postings: dict[str, list[int]] = {}
    for i, toks in enumerate(token_sets):
        for tok in toks:
            postings.setdefault(tok, []).append(i)
    limit = max(BLOCK_MIN, int(BLOCK_SHARE * n))
    weight = {tok: math.log(n / len(ids)) for tok, ids in postings.items() if 1 < len(ids) <= limit}
    pairs: set[tuple[int, int]] = set()
    for i, toks in enumerate(token_sets):
        score: dict[int, float] = {}
        for tok in toks:
            w = weight.get(tok)
            if w is None:
                continue
            for j in postings[tok]:
                if j != i:
                    score[j] = score.get(j, 0.0) + w
        best = sorted(score, key=lambda j: (-score[j], j))[:CANDIDATES]
        pairs.update((min(i, j), max(i, j)) for j in best)
    return pairs


def scored_pairs(questions: Sequence[Question], threshold: float = THRESHOLD) -> list[tuple[float, Question, Question]]:
    """Every candidate pair at or above ``threshold``, highest first; each pair once."""
    from rapidfuzz import fuzz

    qs = [q for q in questions if comparable(q)]
    texts = [fingerprint(q) for q in qs]
    out = []
    for i, j in candidate_pairs(texts):
        score = fuzz.token_set_ratio(texts[i], texts[j], score_cutoff=threshold)
        if score >= threshold:
            out.append((float(score), qs[i], qs[j]))
    out.sort(key=lambda t: (-t[0], t[1].id, t[2].id))
    return out


def near_duplicate_findings(questions: Sequence[Question], threshold: float = THRESHOLD) -> list[Diagnostic]:
    """A warning at each question of a near-duplicate pair, naming the other with its file:line."""
    out = []
    for score, a, b in scored_pairs(questions, threshold):
        for this, other in ((a, b), (b, a)):
            src, osrc = this.source, other.source
            assert src is not None and osrc is not None
            out.append(Diagnostic(
                src.path, src.line, src.column, "warning", "near-duplicate",
                f"{this.id} and {other.id} ({osrc.path}:{osrc.line}) test one fact in nearly one wording "
                f"(similarity {score:.0f} of 100, threshold {threshold:g}): merge them, or vary what one asks",
            ))
    return out
