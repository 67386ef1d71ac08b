"""A real learning record store (Ralph) on a free loopback port, started once per test module."""

from __future__ import annotations

from pathlib import Path

import pytest

from .ralph_server import PASSWORD, USER, Lrs, free_port, start  # noqa: F401 (re-exported for the tests)


@pytest.fixture(scope="module")
def ralph(tmp_path_factory: pytest.TempPathFactory):
    pytest.importorskip("ralph", reason="Ralph LRS is not installed (pip install -e '.[test]' brings it)")
    pytest.importorskip("uvicorn", reason="uvicorn is not installed")
    try:
        lrs = start(tmp_path_factory.mktemp("ralph"))
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield lrs
    lrs.stop()


@pytest.fixture
def credentials(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STUDY_LRS_USER", USER)
    monkeypatch.setenv("STUDY_LRS_PASSWORD", PASSWORD)
    monkeypatch.delenv("STUDY_LRS_TOKEN", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
