"""`study lint --questions DIR` checks the bank that `--questions DIR` uses, alone: a copied built-in file
is not a duplicate-id error there, as it is when linted beside the built-in bank."""

from __future__ import annotations

import shutil

from study import paths
from study.cli import main


def test_a_copied_bank_lints_clean_alone_and_as_duplicates_beside_the_built_in(tmp_path, capsys):
    source = paths.questions_dir() / "d1-essential-ai" / "ai-adoption-drivers.yaml"
    shutil.copy(source, tmp_path / "mine.yaml")
    assert main(["lint", str(tmp_path)]) == 1
    assert "duplicate-id" in capsys.readouterr().out
    assert main(["lint", "--questions", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "12 questions" in captured.err and "0 errors" in captured.err


def test_a_bank_alone_still_reports_its_own_duplicates(tmp_path, capsys):
    source = paths.questions_dir() / "d1-essential-ai" / "ai-adoption-drivers.yaml"
    shutil.copy(source, tmp_path / "one.yaml")
    shutil.copy(source, tmp_path / "two.yaml")
    assert main(["lint", "--questions", str(tmp_path)]) == 1
    assert "duplicate-id" in capsys.readouterr().out


def test_paths_and_questions_together_are_a_usage_error(tmp_path, capsys):
    assert main(["lint", str(tmp_path), "--questions", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("study: error:")
    assert main(["lint", "--questions", str(tmp_path / "nope")]) == 2
