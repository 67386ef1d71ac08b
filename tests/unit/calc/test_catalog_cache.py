"""The catalog's parsed copy in the user cache: used when it matches the file's bytes, ignored when damaged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from study import paths
from study.calc import specs


@pytest.fixture()
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    catalog = tmp_path / "specs"
    shutil.copytree(paths.specs_dir(), catalog)
    cache = tmp_path / "cache"
    monkeypatch.setenv("STUDY_CALC_CACHE", str(cache))
    return catalog, cache


def _memory(catalog: Path) -> float:
    return specs.load(catalog).gpu("h100-sxm").memory_bytes


def test_the_second_load_reads_the_copy_and_an_edit_is_read_afresh(folders, monkeypatch) -> None:
    catalog, cache = folders
    first = _memory(catalog)
    assert sorted(p.name.split("-")[0] for p in cache.iterdir()) == ["gpus", "interconnects", "models"]

    import yaml

    calls = []
    real = yaml.load
    monkeypatch.setattr(yaml, "load", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert _memory(catalog) == first and calls == []  # from the copies

    gpus = catalog / "gpus.yaml"
    gpus.write_text(gpus.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert _memory(catalog) == first and calls == [1]  # the edited file is parsed, the others still copied


@pytest.mark.parametrize("damage", [b"{not json", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b"x" * 4_000_001])
def test_a_damaged_copy_is_ignored_and_replaced(folders, damage: bytes) -> None:
    catalog, cache = folders
    first = _memory(catalog)
    for copy in cache.iterdir():
        copy.write_bytes(damage)
    assert _memory(catalog) == first
    assert all(copy.stat().st_size < 4_000_000 and copy.read_bytes()[:1] == b"{" for copy in cache.iterdir())


def test_an_unwritable_cache_only_costs_speed(folders, monkeypatch) -> None:
    catalog, cache = folders
    cache.write_text("a file where the folder should be", encoding="utf-8")
    assert _memory(catalog) > 0


def test_no_cache_at_all_when_switched_off(folders, monkeypatch) -> None:
    catalog, cache = folders
    monkeypatch.setenv("STUDY_CALC_CACHE", "")
    assert _memory(catalog) > 0 and not cache.exists()
