"""Item-writing flaw checks: each flags a flawed item and passes a clean one; ``accept`` needs a reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from study.bank import item_flaws as F
from study.bank.lint import lint
from study.bank.near_duplicates import near_duplicate_findings
from study.bank.schema import Accept, Question, SourceRef
from study.bank.stats import item_flaw_counts


def q(stem: str, key: str, *foils: str, type: str = "single", answer=None, line: int = 1, qid: str = "x-01", **extra) -> Question:
    data = {
        "id": qid, "objective": "1.1", "difficulty": 2, "type": type, "stem": stem,
        "explanation": "Because.", "references": [{"title": "Ref", "url": "https://docs.nvidia.com/"}],
        "verified": "2026-12-01", "source": SourceRef(path="t.yaml", line=line), **extra,
    }
    if type == "true_false":
        data["answer"] = answer
    else:
        data["choices"] = [{"text": key, "correct": True, "why": "Right."}] + [{"text": f, "why": "Wrong."} for f in foils]
    return Question.model_validate(data)


def codes(question: Question, common: frozenset[str] = frozenset()) -> set[str]:
    return {f.code for f in F.question_flaws(question, common)}


def test_longest_key_flags_a_key_far_longer_than_every_distractor():
    flawed = q("Which tool packs GPU-optimised containers?",
               "NGC, NVIDIA's catalogue of GPU-optimised containers, models and Helm charts, tested for each release",
               "Docker Hub", "PyPI", "Conda")
    clean = q("Which tool packs GPU-optimised containers?", "NGC catalogue", "Docker Hub", "PyPI index", "Conda forge")
    assert "longest-key" in codes(flawed)
    assert "longest-key" not in codes(clean)


def test_a_qualified_key_among_absolute_distractors_is_flagged():
    flawed = q("What does MIG do to memory?", "It usually gives each instance its own memory slice",
               "It always shares one memory pool", "It only works on one instance", "It moves memory to the CPU")
    clean = q("What does MIG do to memory?", "It gives each instance its own memory slice",
              "It shares one memory pool", "It works on one instance", "It moves memory to the CPU")
    assert "longest-key" in codes(flawed)
    assert "longest-key" not in codes(clean)


def test_absolute_words_in_distractors_but_not_the_key():
    flawed = q("What does DCGM Exporter do?", "It exposes GPU metrics to Prometheus",
               "It always restarts failed GPUs", "It only runs on Windows", "It stores logs in the cloud")
    balanced = q("What does DCGM Exporter do?", "It exposes GPU metrics to Prometheus for every GPU",
                 "It always restarts failed GPUs", "It only runs on Windows", "It stores logs in the cloud")
    one = q("What does DCGM Exporter do?", "It exposes GPU metrics to Prometheus",
            "It always restarts failed GPUs", "It runs on Windows", "It stores logs in the cloud")
    assert "absolute-distractors" in codes(flawed)
    assert "absolute-distractors" not in codes(balanced)
    assert "absolute-distractors" not in codes(one)


def test_a_false_statement_built_on_an_absolute():
    assert "absolute-false" in codes(q("MIG is always enabled on every A100.", "", type="true_false", answer=False))
    assert "absolute-false" not in codes(q("MIG is enabled by default on an A100.", "", type="true_false", answer=False))
    # A true absolute is a fact, not a tell.
    assert "absolute-false" not in codes(q("Every H100 SXM has HBM3.", "", type="true_false", answer=True))


@pytest.mark.parametrize("option", ["All of the above", "None of these", "Both of the above"])
def test_all_or_none_of_the_above(option):
    assert "all-none-of-the-above" in codes(q("Which is a DPU?", "BlueField-3", "ConnectX-7", option))
    assert "all-none-of-the-above" not in codes(q("Which is a DPU?", "BlueField-3", "ConnectX-7", "Quantum-2"))


def test_stem_echo_needs_two_distinctive_words_no_distractor_shares():
    stem = "Which service keeps container images patched for enterprise support?"
    flawed = q(stem, "A service with patched container images", "Slurm", "NCCL", "DCGM")
    shared = q(stem, "A service with patched container images", "A public service of patched container images", "NCCL", "DCGM")
    assert "stem-echo" in codes(flawed)
    assert "stem-echo" not in codes(shared)
    # Words common across the bank are the shared vocabulary, not a clue.
    assert "stem-echo" not in codes(flawed, frozenset({"patched", "container", "service"}))


def test_extreme_value_when_the_key_is_the_biggest_figure():
    stem = "Which GPU has the most memory bandwidth?"
    flawed = q(stem, "H200 at 4.8 TB/s", "L40S at 864 GB/s", "L4 at 300 GB/s", "A100 at 2 TB/s")
    middle = q(stem, "A100 at 2 TB/s", "L40S at 864 GB/s", "L4 at 300 GB/s", "H200 at 4.8 TB/s")
    no_figures = q(stem, "H200", "L40S", "L4", "A100")
    no_superlative = q("Which GPU uses HBM3e?", "H200 at 4.8 TB/s", "L40S at 864 GB/s", "L4 at 300 GB/s", "A100 at 2 TB/s")
    assert "extreme-value" in codes(flawed)
    for clean in (middle, no_figures, no_superlative):
        assert "extreme-value" not in codes(clean)


def test_units_are_scaled_before_comparing():
    # 900 GB/s is less than 1.8 TB/s although 900 > 1.8.
    item = q("Which link is the fastest?", "NVLink 5 at 1.8 TB/s", "PCIe at 128 GB/s", "NVLink 4 at 900 GB/s")
    assert "extreme-value" in codes(item)


def test_an_article_that_fits_only_the_key():
    flawed = q("A BlueField DPU offloads networking and storage from the host. It is an", "infrastructure processor",
               "GPU", "switch", "cable")
    clean = q("A BlueField DPU offloads networking and storage from the host. It is an", "infrastructure processor",
              "GPU", "accelerator for storage", "cable")
    assert "grammatical-cue" in codes(flawed)
    assert "grammatical-cue" not in codes(clean)


def test_initialisms_are_read_letter_by_letter():
    assert F._takes_an("NVMe") and F._takes_an("SM") and not F._takes_an("GPU") and not F._takes_an("DPU")
    assert F._takes_an("accelerator") and not F._takes_an("unified") and F._takes_an("hour")


def test_near_duplicates_name_both_locations():
    a = q("What is the largest number of MIG instances one H100 can be split into?", "Seven", "Four", "Eight", line=3, qid="a-01")
    b = q("What is the largest number of MIG instances one H200 can be split into?", "Seven", "Four", "Two", line=40, qid="b-01")
    other = q("Which fabric connects DGX nodes in a SuperPOD?", "InfiniBand", "PCIe", "USB", line=80, qid="c-01")
    found = near_duplicate_findings([a, b, other])
    assert {(d.line, d.code) for d in found} == {(3, "near-duplicate"), (40, "near-duplicate")}
    assert "t.yaml:40" in next(d.message for d in found if d.line == 3)
    assert "t.yaml:3" in next(d.message for d in found if d.line == 40)


def test_accept_needs_a_known_code_and_a_reason():
    assert Accept(code="stem-echo", reason="the product name is the answer").code == "stem-echo"
    with pytest.raises(ValidationError, match="unknown warning code"):
        Accept(code="stem-echoes", reason="a reason long enough")
    with pytest.raises(ValidationError):
        Accept(code="stem-echo", reason="")


BANK_FILE = """\
questions:
  - id: zz-flaw-01
    objective: "1.1"
    difficulty: 2
    type: single
    stem: Which of the three fictional links in the lab rig is rated the fastest?
    choices:
      - text: Link Q at 1.8 TB/s
        correct: true
        why: Most.
      - text: Link R at 900 GB/s
        why: Less.
      - text: Link S at 64 GB/s
        why: Less.
    explanation: 1.8 TB/s is 1,800 GB/s.
    references:
      - title: H200
        url: https://www.nvidia.com/en-us/data-center/h200/
    verified: 2026-12-01
{accept}
"""


def _lint_file(tmp_path: Path, accept: str) -> list:
    path = tmp_path / f"q{len(accept)}.yaml"
    path.write_text(BANK_FILE.format(accept=accept), encoding="utf-8")
    return [d for d in lint([path], with_calc=False).diagnostics]


def test_lint_reports_a_flaw_at_the_question_line_and_accept_drops_it(tmp_path):
    found = _lint_file(tmp_path, "")
    assert [(d.line, d.code, d.severity) for d in found] == [(2, "extreme-value", "warning")]
    accepted = "    accept:\n      - code: extreme-value\n        reason: the item drills reading TB/s against GB/s"
    assert _lint_file(tmp_path, accepted) == []


def test_an_accept_the_check_no_longer_needs_is_reported(tmp_path):
    stale = "    accept:\n      - code: stem-echo\n        reason: kept from an older wording of the stem"
    found = _lint_file(tmp_path, stale)
    assert {d.code for d in found} == {"extreme-value", "accept-unused"}


def test_an_unknown_accept_code_is_a_lint_error(tmp_path):
    bad = "    accept:\n      - code: made-up\n        reason: some reason that is long"
    found = _lint_file(tmp_path, bad)
    assert any(d.severity == "error" and "made-up" in d.message for d in found)


def test_stats_count_open_and_accepted_flaws():
    flawed = q("Which GPU has the most memory bandwidth?", "H200 at 4.8 TB/s", "L40S at 864 GB/s", "L4 at 300 GB/s", qid="s-01")
    kept = q("Which GPU has the most memory bandwidth?", "H200 at 4.8 TB/s", "L40S at 864 GB/s", "L4 at 300 GB/s", qid="s-02",
             line=30, accept=[{"code": "extreme-value", "reason": "deliberately a recall of the ranking"}],
             **{})
    counts = item_flaw_counts([flawed])
    assert counts["extreme-value"] == {"open": 1, "accepted": 0}
    # The two are near-duplicates of each other too; accept only covers the code it names.
    counts = item_flaw_counts([kept])
    assert counts["extreme-value"] == {"open": 0, "accepted": 1}


def test_the_shipped_bank_has_no_open_item_flaw():
    from study.bank.bank import load_bank

    counts = item_flaw_counts(list(load_bank().questions))
    assert {c: n["open"] for c, n in counts.items() if n["open"]} == {}


def test_blocking_keeps_every_pair_near_the_threshold_on_the_shipped_bank():
    # The blocking step must not hide a duplicate that the full matrix would report.
    from rapidfuzz import fuzz, process

    from study.bank.bank import load_bank
    from study.bank.near_duplicates import THRESHOLD, candidate_pairs, comparable, fingerprint

    texts = [fingerprint(q) for q in load_bank().questions if comparable(q)]
    matrix = process.cdist(texts, texts, scorer=fuzz.token_set_ratio, score_cutoff=THRESHOLD - 2, workers=1)
    close = {(i, j) for i in range(len(texts)) for j in range(i + 1, len(texts)) if matrix[i][j] >= THRESHOLD - 2}
    assert close, "the shipped bank has pairs near the threshold, so this test can fail"
    assert close - candidate_pairs(texts) == set()


def test_look_alike_templates_open_no_block():
    # Thousands of questions that differ only in a number share every word: no word is distinctive.
    from study.bank.near_duplicates import candidate_pairs

    texts = [f"scenario {n}: pick the interconnect for all-reduce traffic between servers variant {n}" for n in range(2000)]
    assert candidate_pairs(texts) == set()


def test_templated_questions_sharing_a_stem_template_are_not_near_duplicates():
    # Two items drawn from one template ("{gpu}" varies) read alike by design: each draw asks about another
    # GPU, so near-duplicate leaves templated items out. Without params the same texts are one fact twice.
    stem = "How many MIG instances can one {gpu} be split into at most, in the largest layout NVIDIA lists?"
    params = {"params": {"gpu": ["H100", "H200", "A100"]}}
    a = q(stem, "Seven", "Four", "Eight", "Two", line=3, qid="tpl-a", **params)
    b = q(stem.replace("at most", "as a maximum"), "Seven", "Four", "Eight", "Three", line=40, qid="tpl-b", **params)
    assert a.is_templated and b.is_templated
    assert near_duplicate_findings([a, b]) == []
    plain = [x.model_copy(update={"params": None}) for x in (a, b)]
    assert {d.line for d in near_duplicate_findings(plain)} == {3, 40}
