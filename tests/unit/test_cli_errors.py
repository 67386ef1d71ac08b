"""Command-line mistakes end in one ``study: error:`` line, exit 2 (issue 15, defects 9 and 13)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from study.cli import main


def _usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("study: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("minutes", ["nan", "inf", "-inf", "1e10", "0", "-5", "ten"])
def test_quiz_minutes_must_be_a_finite_positive_time(capsys, minutes) -> None:
    err = _usage_error(capsys, ["quiz", "--plain", "--no-store", "--minutes", minutes])
    assert "--minutes" in err


def test_a_mistyped_command_gets_a_suggestion(capsys) -> None:
    assert "did you mean stats?" in _usage_error(capsys, ["stat"])
    assert "did you mean exam?" in _usage_error(capsys, ["quiz", "--mode", "exm"])


def test_a_choice_far_from_any_lists_them(capsys) -> None:
    assert "choose from exam, practice, quiz" in _usage_error(capsys, ["quiz", "--mode", "zzzzzz"])


def test_catalog_help_is_help_not_the_table(capsys) -> None:
    for name in ("gpus", "models", "links"):
        assert main(["calc", name, "--help"]) == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: study calc {name} [--json]")
        assert "h100-sxm" not in out and "llama-2-70b" not in out


def test_a_reader_that_stops_early_is_not_a_failure() -> None:
    # `study calc gpus | head`: the pipe closes before the table is written.
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "study.cli", "calc", "gpus"], stdout=write,
                              stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})
    finally:
        os.close(write)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
