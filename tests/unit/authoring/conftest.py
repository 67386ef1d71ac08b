from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from study import paths
from study.bank import clear_cache


@pytest.fixture(autouse=True)
def _fresh_bank_cache():
    # Tests write question files under tmp paths; a bank cached by another test must not hide them.
    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def content_dir(tmp_path: Path) -> Path:
    """The real blueprint with no topics: counts then come only from the questions a test writes."""
    root = tmp_path / "content"
    (root / "topics").mkdir(parents=True)
    shutil.copy(paths.blueprint_path(), root / "blueprint.yaml")
    return root


@pytest.fixture
def tf_question():
    """A valid true/false question as YAML list item text."""
    return _tf_question


# Distinct facts, so that questions made in one test are not near-duplicates of each other for lint.
_FACTS = ("Liquid cooling removes heat through a coolant loop", "A rack's power budget limits its GPU servers",
          "InfiniBand carries the compute fabric traffic", "Object storage suits large training datasets",
          "MIG partitions one GPU into isolated instances", "NVLink connects GPUs inside one server")


def _tf_question(qid: str, objective: str, difficulty: int = 2) -> str:
    fact = _FACTS[sum(map(ord, qid)) % len(_FACTS)]
    return f"""  - id: {qid}
    objective: "{objective}"
    difficulty: {difficulty}
    type: true_false
    stem: "{fact} ({qid})."
    answer: true
    explanation: Because it says so.
    references:
      - {{title: A source, url: "https://example.org/{qid}"}}
    verified: 2026-11-30
"""
