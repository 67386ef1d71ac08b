"""Every worked step shows every number it uses (issue 20 §2): a step whose formula names an input
(``seq_len``, ``batch``, ``layers``, ``kv_heads``, ``efficiency``...) shows that input's value in its
substituted text, so no derivation reads "2 x layers x kv_heads x ... = seq_len 131,072, batch 4 = 271 GB"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from study.calc import call
from study.calc.formulas._common import n, q
from study.calc.registry import FUNCTIONS, _ensure_loaded

CASES = json.loads((Path(__file__).with_name("calc_cases.json")).read_text())

# One call per formula the published cases do not cover, with a model where the formula can take one (the
# model supplies the attention shape, the numbers most easily left out of a step).
EXAMPLES: list[tuple[str, dict]] = [
    ("activation-memory", {"seq_len": "4096", "model": "llama-2-70b", "batch": "2", "tp": "8"}),
    ("allgather-time", {"bytes": "1 GB", "gpus": "8", "link": "nvlink-4", "efficiency": "0.8"}),
    ("allreduce-time", {"bytes": "1 GB", "gpus": "8", "link": "pcie-gen4-x16"}),
    ("allreduce-time", {"bytes": "2 GB", "gpus": "16", "link": "ib-ndr", "efficiency": "0.7"}),
    ("checkpoint-size", {"model": "llama-2-70b"}),
    ("checkpoint-write-time", {"bandwidth": "10 GB/s", "model": "llama-2-70b"}),
    ("cost", {"price": "2.5", "gpus": "8", "days": "3"}),
    ("decode-time", {"model": "llama-2-70b", "seq_len": "4096", "batch": "8", "gpu": "h100-sxm", "tp": "4"}),
    ("gpu-hours", {"gpus": "64", "days": "10"}),
    ("gpus-needed", {"model": "llama-2-70b", "gpu": "h100-sxm", "seq_len": "131072", "batch": "4"}),
    ("kv-cache", {"seq_len": "8192", "model": "llama-2-70b", "batch": "4", "tp": "8"}),
    ("max-batch", {"seq_len": "4096", "model": "llama-2-70b", "gpu": "h100-sxm", "tp": "8"}),
    ("prefill-time", {"prompt_len": "2048", "model": "llama-2-70b", "batch": "4", "gpu": "h100-sxm", "tp": "8"}),
    ("ridge-point", {"gpu": "h100-sxm"}),
    ("storage-read-time", {"bandwidth": "5 GB/s", "model": "llama-2-70b", "gpus": "8"}),
    ("tokens-per-second", {"model": "llama-2-70b", "seq_len": "2048", "batch": "16", "gpu": "h100-sxm", "tp": "8"}),
    ("transfer-time", {"bytes": "10 GB", "link": "pcie-gen5-x16"}),
    ("ttft", {"prompt_len": "1024", "model": "llama-2-70b", "gpu": "h100-sxm"}),
]

CALLS = [(c["function"], {k.replace("-", "_"): v for k, v in c["args"].items()}) for c in CASES] + EXAMPLES


def test_every_formula_has_a_call_here():
    _ensure_loaded()
    assert set(FUNCTIONS) <= {f for f, _ in CALLS}


# Inputs that are quantities show with their unit ("3.35 TB/s"), the others as plain numbers.
UNITS = {"bytes": "B", "memory": "B", "bandwidth": "B/s"}


def _shown(name: str, value) -> list[str]:
    return [n(value)] + ([q(value, UNITS[name])] if name in UNITS else [])


def _numeric(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@pytest.mark.parametrize("fname, args", CALLS, ids=[f"{f}-{i}" for i, (f, _) in enumerate(CALLS)])
def test_a_step_shows_the_inputs_its_formula_names(fname, args):
    result = call(fname, **args)
    numbers = {k: v for k, v in result.inputs.items() if _numeric(v)}
    missing = []
    for step in result.steps:
        # "bytes(dtype)" is a function of another input, not the input "bytes".
        named = set(re.findall(r"[a-z][a-z_]*[a-z](?![a-z_(])", step.formula))
        for name in sorted(named & set(numbers)):
            if not any(text in step.substituted for text in _shown(name, numbers[name])):
                missing.append(f"{step.label}: {name}={n(numbers[name])} not in {step.substituted!r}")
    assert not missing, missing


def test_the_pcie_step_says_the_quoted_figure_is_both_directions():
    step = call("allreduce-time", bytes="1 GB", gpus="8", link="pcie-gen4-x16").steps[0]
    text = f"{step.formula} = {step.substituted} = {step.outcome}"
    assert "16 GT/s x 16 lanes x 128/130 / 8" in step.substituted
    assert "64 GB/s both ways" in step.substituted and step.outcome == "31.5 GB/s per direction"
    assert "one direction of the link = 64" not in text


def test_the_gpus_needed_kv_step_shows_the_attention_shape():
    steps = call("gpus-needed", model="llama-2-70b", gpu="h100-sxm", seq_len="131072", batch="4").steps
    kv = next(s for s in steps if s.label == "KV cache")
    assert kv.substituted == "2 x 80 x 8 x 128 x 131,072 x 4 x 2 B"
