"""The twin finder (issue 35.2) and the checks on concepts and accepted pairs (35.1).

Twins test one fact in different words; the finder proposes them from what they test, a shared concept or an
accept naming the other question silences a pair, and lint checks the marks themselves."""

from __future__ import annotations

import numpy as np
import pytest
from pydantic import ValidationError

from study.bank import twins as T
from study.bank.bank import load_bank
from study.bank.lint import lint
from study.bank.schema import Accept, Question, SourceRef

REF = [{"title": "Ref", "url": "https://docs.nvidia.com/"}]


def q(qid: str, stem: str, key: str, *foils: str, explanation: str = "Because.", line: int = 1, **extra) -> Question:
    return Question.model_validate({
        "id": qid, "objective": extra.pop("objective", "1.6"), "difficulty": 2, "type": "single", "stem": stem,
        "choices": [{"text": key, "correct": True, "why": extra.pop("why", key)}] + [{"text": f, "why": "Wrong."} for f in foils],
        "explanation": explanation, "references": REF, "verified": "2026-12-07",
        "source": SourceRef(path="t.yaml", line=line), **extra,
    })


# Two reworded questions on one fact (Run:ai's quotas), and filler on other facts so the IDF means something.
RUNAI_A = dict(stem="Five teams share one Kubernetes cluster and need guaranteed GPU quotas, fair sharing of idle "
               "GPUs and fractional GPUs for notebooks. Which NVIDIA software is built for this?",
               key="NVIDIA Run:ai", explanation="Run:ai pools GPUs across teams on Kubernetes: quotas, over-quota "
               "borrowing, preemption and fractional GPUs.")
RUNAI_B = dict(stem="Which NVIDIA product adds per-project GPU quotas, borrowing of idle GPUs beyond the quota and "
               "fractional GPU sharing to a Kubernetes cluster?", key="NVIDIA Run:ai",
               explanation="Run:ai's scheduler gives each project a quota and lets it borrow idle GPUs.")
FILLER = [
    ("Which library runs all-reduce across GPUs?", "NCCL", "NCCL implements collectives such as all-reduce over NVLink and InfiniBand."),
    ("What does DOCA program?", "BlueField DPUs", "DOCA is the SDK for BlueField DPUs and SuperNICs."),
    ("Which network carries out-of-band management?", "The BMC network", "The BMC has its own port and works when the OS hangs."),
    ("Which format did Blackwell add to Tensor Cores?", "FP4", "Blackwell's second-generation Transformer Engine adds FP4."),
    ("What does MIG partition?", "One GPU into isolated instances", "MIG gives each instance its own memory and SMs."),
    ("Which tool deploys apps to edge sites?", "Fleet Command", "Fleet Command deploys containers from a cloud console to edge locations."),
    ("What predicts LLM decode speed?", "Memory bandwidth", "Decode reads every weight per token, so it is bandwidth-bound."),
    ("What do two BCM head nodes give?", "High availability", "The passive head takes over when the active one fails."),
]


@pytest.fixture(autouse=True)
def _small_banks_are_compared(monkeypatch):
    # These banks are a dozen questions with made-up filler; the shipped-bank tests below use the real IDF.
    monkeypatch.setattr(T, "MIN_COMPARABLE", 0)


def small_bank(**marks) -> list[Question]:
    a = q("runai-a", RUNAI_A["stem"], RUNAI_A["key"], "DCGM Exporter", "GPU Operator", explanation=RUNAI_A["explanation"],
          line=1, **marks.get("a", {}))
    b = q("runai-b", RUNAI_B["stem"], RUNAI_B["key"], "Fleet Command", "AI Workbench", explanation=RUNAI_B["explanation"],
          line=40, **marks.get("b", {}))
    rest = [q(f"filler-{i}", s, k, "Something else", "Another thing", explanation=e, line=80 + 40 * i)
            for i, (s, k, e) in enumerate(FILLER)]
    return [a, b, *rest]


def test_a_reworded_twin_is_proposed_and_an_unrelated_question_is_not():
    pairs = {(p.a.id, p.b.id) for p in T.candidate_pairs(small_bank())}
    assert ("runai-a", "runai-b") in pairs
    assert not any("filler" in a and "filler" in b for a, b in pairs)


def test_lint_warns_at_both_questions_naming_the_other():
    found = [d for d in T.twin_findings(small_bank()) if "runai" in d.message]
    assert {(d.line, d.code, d.severity) for d in found} == {(1, "possible-twin", "warning"), (40, "possible-twin", "warning")}
    assert "t.yaml:40" in next(d.message for d in found if d.line == 1)
    assert "run:ai" in next(d.message for d in found if d.line == 1).lower()


def test_a_shared_concept_silences_the_pair_and_different_concepts_do_not():
    same = small_bank(a={"concept": "runai-quotas"}, b={"concept": "runai-quotas"})
    differ = small_bank(a={"concept": "runai-quotas"}, b={"concept": "runai-fractions"})
    assert not [d for d in T.twin_findings(same) if "runai" in d.message]
    assert [d for d in T.twin_findings(differ) if "runai" in d.message]


def test_an_accept_naming_the_other_silences_that_pair_only():
    distinct = {"accept": [{"code": "possible-twin", "other": "runai-b", "reason": "one asks for quotas, one for fractions"}]}
    assert not [d for d in T.twin_findings(small_bank(a=distinct)) if "runai" in d.message]
    elsewhere = {"accept": [{"code": "possible-twin", "other": "filler-0", "reason": "read against the NCCL question"}]}
    assert [d for d in T.twin_findings(small_bank(a=elsewhere)) if "runai" in d.message]
    # The pair's accept is not the code for the whole question: other checks' acceptance is unchanged.
    assert "possible-twin" not in small_bank(a=distinct)[0].accepted_codes


def test_a_possible_twin_accept_names_the_other_and_no_other_code_does():
    assert Accept(code="possible-twin", other="d1-x-01", reason="read, and distinct").other == "d1-x-01"
    with pytest.raises(ValidationError, match="names the other question"):
        Accept(code="possible-twin", reason="read, and distinct")
    with pytest.raises(ValidationError, match="belongs to accept possible-twin"):
        Accept(code="stem-echo", other="d1-x-01", reason="the product name is the answer")


def test_marks_that_point_nowhere_are_reported():
    bank = small_bank(a={"accept": [{"code": "possible-twin", "other": "runai-c", "reason": "a typo in the id"}]},
                      b={"accept": [{"code": "possible-twin", "other": "runai-b", "reason": "names itself"}]})
    found = {(d.line, d.code, d.severity) for d in T.marking_findings(bank)}
    assert found == {(1, "unknown-question", "error"), (40, "unknown-question", "error")}


def test_a_concept_across_objectives_is_reported_once_as_information():
    bank = small_bank(a={"concept": "runai", "objective": "1.7"}, b={"concept": "runai"})
    found = [d for d in T.marking_findings(bank)]
    assert [(d.line, d.code, d.severity) for d in found] == [(1, "concept-objectives", "info")]
    assert "1.6, 1.7" in found[0].message and "runai-b (1.6)" in found[0].message
    # Linting the other question's file alone reports it there.
    b = bank[1].model_copy(update={"source": SourceRef(path="u.yaml", line=40)})
    found = T.marking_findings([bank[0], b, *bank[2:]], wanted={"u.yaml"})
    assert [(d.path, d.line) for d in found] == [("u.yaml", 40)]
    assert T.marking_findings(small_bank(a={"concept": "runai"}, b={"concept": "runai"})) == []


def test_a_bank_of_look_alikes_proposes_at_most_a_few_candidates_per_question():
    # Groups of one template share every word with each other: without a cap a group of 20 gives 190 pairs.
    # Each pair takes a place among the first MAX_PER_QUESTION of one of its two questions, so the total is
    # bounded by MAX_PER_QUESTION per question.
    bank = [q(f"look-{g}-{n}", f"Scenario {n}: which fabric carries all-reduce between servers in pod zeta{g}?",
              f"InfiniBand NDR via ConnectX-7 in hall omega{g}", "NVLink", "PCIe", line=1 + 20 * g + n,
              explanation=f"Scale out between the servers of pod zeta{g} in hall omega{g}.")
            for g in range(30) for n in range(20)]
    pairs = T.candidate_pairs(bank)
    assert pairs, "the groups are look-alikes, so the finder proposes pairs inside them"
    assert len(pairs) <= T.MAX_PER_QUESTION * len(bank)
    assert all(p.a.id.split("-")[1] == p.b.id.split("-")[1] for p in pairs)


@pytest.fixture(scope="module")
def shipped() -> list[Question]:
    return list(load_bank().questions)


def test_a_small_bank_alone_gets_no_proposals(monkeypatch):
    # In a file of a dozen questions every shared word looks rare: no proposal means nothing there.
    monkeypatch.setattr(T, "MIN_COMPARABLE", 100)
    assert T.candidate_pairs(small_bank()) == []


def test_the_method_finds_nine_of_the_audit_pairs_at_one_candidate_per_question(shipped):
    # Issue 35's measure, on the raw proposals (concepts and accepts are not looked at).
    pairs = T.candidate_pairs(shipped)
    found = {frozenset((p.a.id, p.b.id)) for p in pairs}
    assert sum(frozenset(pair) in found for pair in T.AUDIT_PAIRS) >= 9
    assert 2 * len(pairs) / sum(T.comparable(q) for q in shipped) <= 1.0


def test_blocking_keeps_every_pair_the_full_matrix_proposes(shipped):
    # Scoring only pairs that share a rare word must not lose a pair that scoring every pair would propose.
    qs = [x for x in shipped if T.comparable(x)]
    vectors = T._vectors(qs)
    vocab = sorted({w for v in vectors for w in v})
    col = {w: k for k, w in enumerate(vocab)}
    m = np.zeros((len(qs), len(vocab)))
    for i, v in enumerate(vectors):
        for w, x in v.items():
            m[i, col[w]] = x
    s = m @ m.T
    np.fill_diagonal(s, -1.0)
    best = s.max(axis=1)
    full = {frozenset((qs[i].id, qs[j].id)) for i in range(len(qs)) for j in range(i + 1, len(qs))
            if s[i, j] >= T.FLOOR and s[i, j] >= T.RATIO * min(best[i], best[j])
            and T._shares(vectors[i], vectors[j])}
    proposed = {frozenset((p.a.id, p.b.id)) for p in T.candidate_pairs(shipped)}
    assert len(full) > 100, "the shipped bank has many proposals, so this test can fail"
    # The per-question cap may drop a few of a large group's pairs; the blocking drops none.
    capped = {pair for pair in full - proposed
              if any(sum(x in other for other in proposed) >= T.MAX_PER_QUESTION for x in pair)}
    assert full - proposed == capped


def test_the_shipped_bank_has_no_open_twin_and_no_broken_mark(shipped):
    assert [str(d) for d in T.twin_findings(shipped)] == []
    assert [str(d) for d in T.marking_findings(shipped) if d.severity != "info"] == []


def test_lint_keeps_information_out_of_the_findings(tmp_path):
    # A concept across objectives is a note: a clean bank still has no diagnostics, and --strict passes.
    body = "\n".join(f"""  - id: zz-note-{i}
    concept: zz-shared
    objective: "{obj}"
    difficulty: 1
    type: true_false
    stem: Zeta widgets number {i} are purple on Tuesdays in the lab.
    answer: true
    explanation: A made-up fact for the test.
    references:
      - {{title: Ref, url: "https://docs.nvidia.com/"}}
    verified: 2026-12-07""" for i, obj in ((1, "1.1"), (2, "1.2")))
    path = tmp_path / "notes.yaml"
    path.write_text("questions:\n" + body + "\n", encoding="utf-8")
    result = lint([path], with_calc=False)
    assert [d.code for d in result.notes] == ["concept-objectives"]
    assert [d for d in result.diagnostics if d.code == "concept-objectives"] == []


def test_lint_reports_a_new_file_twinned_with_the_bank(tmp_path):
    path = tmp_path / "new.yaml"
    path.write_text("""questions:
  - id: zz-twin-01
    objective: "1.6"
    difficulty: 1
    type: single
    stem: Which NVIDIA product gives teams GPU quotas, lets them borrow idle GPUs over quota and shares fractional GPUs on Kubernetes?
    choices:
      - {text: "NVIDIA Run:ai", correct: true, why: "Its scheduler does quotas, borrowing and fractions."}
      - {text: NVIDIA Fleet Command, why: Fleet Command deploys to edge sites.}
      - {text: NVIDIA AI Workbench, why: AI Workbench is a developer tool.}
      - {text: NVIDIA Base Command Manager, why: BCM provisions clusters.}
    explanation: Run:ai pools GPUs across teams on Kubernetes with quotas, over-quota borrowing and fractional GPUs.
    references:
      - {title: NVIDIA Run:ai documentation, url: "https://run-ai-docs.nvidia.com/"}
    verified: 2026-12-07
""", encoding="utf-8")
    found = [d for d in lint([path], with_calc=False).diagnostics if d.code == "possible-twin"]
    assert found and all(d.path.endswith("new.yaml") and d.line == 2 for d in found)
    assert any("d1-solutions-21" in d.message or "d1-mlops-07" in d.message for d in found)


def test_templated_questions_are_not_proposed_as_twins():
    # Draws of one template test one calculation with other numbers, by design; like near-duplicate, the
    # finder leaves templated items out. The same pair without params is proposed (test above).
    params = {"params": {"teams": [3, 5, 6]}}
    bank = small_bank(a=params, b=params)
    assert bank[0].is_templated and bank[1].is_templated
    assert not [p for p in T.candidate_pairs(bank) if {p.a.id, p.b.id} == {"runai-a", "runai-b"}]
