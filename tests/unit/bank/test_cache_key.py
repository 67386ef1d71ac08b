"""The in-process bank cache is keyed by absolute paths: a relative folder named again after a chdir is
another folder, and must be read (or refused) anew, not served from the cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.bank.bank import BankError, load_bank


def test_a_relative_bank_after_a_chdir_is_not_the_cached_one(tmp_path: Path, monkeypatch) -> None:
    shipped = Path(load_bank().questions[0].source.path).parent  # a real folder of questions
    first = tmp_path / "one"
    (first / "mine").mkdir(parents=True)
    (first / "mine" / "q.yaml").write_text((sorted(shipped.glob("*.yaml"))[0]).read_text(encoding="utf-8"),
                                           encoding="utf-8")
    monkeypatch.chdir(first)
    assert load_bank(questions=["mine"]).questions
    second = tmp_path / "two"
    second.mkdir()
    monkeypatch.chdir(second)
    with pytest.raises(BankError, match="no such question file or folder"):
        load_bank(questions=["mine"])
