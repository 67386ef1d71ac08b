import pytest


@pytest.fixture(autouse=True)
def _lab_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDY_LAB_CACHE", str(tmp_path / "lab-cache"))
