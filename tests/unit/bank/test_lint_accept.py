"""`accept: [{code, reason}]` on a question accepts its lint warnings of that code with a reason (issue 23
§2: unit-bits-bytes on a question that asks for GB/s on purpose). The same shape as the item-flaw checks'
mechanism, so these tests hold for either implementation."""

from __future__ import annotations

from study.bank.lint import lint

QUESTION = """questions:
  - id: {qid}
    objective: "2.1"
    difficulty: 2
    type: numeric
    stem: An InfiniBand NDR port moves 400 Gb/s. How many GB/s is that, as a storage vendor quotes it?
    answer:
      calc: "link('ib-ndr').per_direction"
      unit: GB/s
    distractors:
      - value: 400
        why: Bits were taken for bytes.
      - value: 100
        why: Divided by four.
      - value: 25
        why: Divided by sixteen.
{accept}    explanation: 400 Gb/s is 50 GB/s.
    references:
      - title: NVIDIA ConnectX-7
        url: https://www.nvidia.com/en-us/networking/ethernet-adapters/
    verified: 2026-11-30
"""


def _lint(tmp_path, accept: str, qid: str = "accept-gbs"):
    path = tmp_path / "q.yaml"
    path.write_text(QUESTION.format(qid=qid, accept=accept), encoding="utf-8")
    return [d for d in lint([path]).diagnostics]


def test_the_bits_bytes_warning_fires_without_an_acceptance(tmp_path):
    assert "unit-bits-bytes" in {d.code for d in _lint(tmp_path, "")}


def test_an_acceptance_with_a_reason_silences_that_warning(tmp_path):
    accept = "    accept:\n      - code: unit-bits-bytes\n        reason: The question asks for GB/s on purpose.\n"
    found = _lint(tmp_path, accept)
    assert not [d for d in found if d.code in ("unit-bits-bytes", "unused-accept")], [str(d) for d in found]


def test_an_acceptance_needs_a_reason(tmp_path):
    found = _lint(tmp_path, "    accept:\n      - code: unit-bits-bytes\n")
    assert any(d.severity == "error" and "reason" in d.message for d in found), [str(d) for d in found]
