"""Entries in a questions folder that are named like question files but are not regular files are reported,
one finding each, never read (a FIFO would block) and never skipped without a word."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from study.bank import load_bank
from study.bank.lint import lint
from study.bank.watch import QUESTION, Root, scan

GOOD = Path(__file__).resolve().parents[2] / "data" / "lint" / "dupe" / "duplicate_id_a.yaml"

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks (POSIX)")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "good.yaml").write_text(GOOD.read_text())
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    (tmp_path / "dangling.yaml").symlink_to("nowhere.yaml")
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "folder.yaml").mkdir()
    return tmp_path


def test_each_special_entry_gets_a_finding_and_the_good_file_still_loads(folder: Path) -> None:
    bank = load_bank(questions=[folder])
    assert [q.id for q in bank.questions] == ["lint-dup-id"]
    found = {Path(d.path).name: (d.severity, d.code, d.message) for d in bank.diagnostics}
    assert set(found) == {"loop.yaml", "dangling.yaml", "pipe.yaml", "folder.yaml"}
    assert all(code == "not-a-file" for _, code, _ in found.values())
    assert "loops back on itself" in found["loop.yaml"][2]
    assert "does not exist" in found["dangling.yaml"][2]
    assert "FIFO" in found["pipe.yaml"][2]
    assert found["folder.yaml"][0] == "warning" and "folder" in found["folder.yaml"][2]


def test_lint_of_the_folder_reports_them_and_fails(folder: Path) -> None:
    result = lint([folder], with_calc=False)
    # The good file's question is a bank question's twin (possible-twin); beside the point here.
    warnings = [d for d in result.diagnostics if d.severity == "warning" and d.code != "possible-twin"]
    assert result.errors == 3 and len(warnings) == 1


def test_a_fifo_given_by_name_is_reported_not_opened(folder: Path) -> None:
    result = lint([folder / "pipe.yaml"], with_calc=False)
    assert [(d.code, Path(d.path).name) for d in result.diagnostics] == [("not-a-file", "pipe.yaml")]


def test_the_live_reload_scan_does_not_walk_through_linked_folders(tmp_path: Path) -> None:
    # A link to the parent folder was followed until the OS refused (~40 levels, a copy of every file at
    # each); two such links made the walk exponential. The loader's rglob never followed them.
    (tmp_path / "q.yaml").write_text(GOOD.read_text())
    (tmp_path / "up").symlink_to(".")
    found = scan([Root(tmp_path, QUESTION, (".yaml", ".yml"))])
    assert list(found) == [str(tmp_path / "q.yaml")]


def test_the_disk_cache_survives_a_symlink_loop_given_as_the_questions(folder: Path, tmp_path: Path) -> None:
    # Path.resolve() raised RuntimeError on the loop in the cache's fingerprint, before the bank could say why.
    from study.bank.bank import BankError
    from study.bank.cache import load_bank_cached

    with pytest.raises(BankError, match="no such question file"):
        load_bank_cached(questions=[str(folder / "loop.yaml")], directory=tmp_path / "cache")
