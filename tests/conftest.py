from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _isolated_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test ever touches the developer's real progress store (nor their catalog cache)."""
    monkeypatch.setenv("STUDY_CALC_CACHE", str(tmp_path_factory.getbasetemp() / "calc-cache"))
    if "STUDY_DB" not in os.environ or not os.environ["STUDY_DB"].startswith(str(tmp_path_factory.getbasetemp())):
        monkeypatch.setenv("STUDY_DB", str(tmp_path_factory.mktemp("store") / "progress.db"))
