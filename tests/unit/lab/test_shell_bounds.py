"""The lab shell under hostile input (issue 33, items 8, 10, 11; issue 32 item 7; issue 34's missing test):
every line gives output or one line, with bash's exit status, and a damaged cache never breaks a run."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from study.cli import main
from study.lab.case import build_case
from study.lab.load import load_lab
from study.lab.quick import MAX_CACHE_FILES, cached_system
from study.lab.shell import run_line, run_status


@pytest.fixture(scope="module")
def xid79():
    return build_case(load_lab("xid79-off-the-bus"), 0).system


@pytest.mark.parametrize("pattern, said", [
    ("a{4294967296}", "grep: Regular expression too big"),
    ("a{1001}", "grep: Regular expression too big"),
    ("(" * 1000, "grep: pattern nested too deeply"),
    ("(" * 200 + "a" + ")" * 200, "grep: pattern nested too deeply"),
    ("a" * 1001, "grep: pattern too long"),
    ("a(b", "grep: Unmatched ( or \\("),
    ("((a{1000}){1000}){1000}", "grep: "),
], ids=lambda v: v[:16] if isinstance(v, str) else None)
def test_a_hostile_grep_pattern_is_one_grep_line_with_status_2(xid79, pattern, said):
    text, status = run_status(xid79, f"dmesg | grep -E '{pattern}'")
    assert text.startswith(said) and "\n" not in text
    assert status == 2


def test_a_catastrophic_backtracking_pattern_answers_on_long_lines(xid79):
    # (.*.*)*Z on a line without Z is exponential for a backtracking engine; RE2 is linear. No clock here:
    # the test would not finish at all with the old engine.
    assert run_line(xid79, "dmesg | grep -E '(.*.*)*Z'") == ""
    assert run_line(xid79, "dmesg | grep -E '(.*.*)*79'").count("79") >= 1
    assert run_line(xid79, "dmesg | grep -vE '(x+x+)+y'") == run_line(xid79, "dmesg")


def test_grep_still_means_what_grep_means(xid79):
    lines = run_line(xid79, "dmesg").split("\n")
    assert run_line(xid79, "dmesg | grep -i XID").split("\n") == [ln for ln in lines if "xid" in ln.lower()]
    assert run_line(xid79, "dmesg | grep Xid").split("\n") == [ln for ln in lines if "Xid" in ln]
    assert run_line(xid79, "dmesg | grep -v Xid").split("\n") == [ln for ln in lines if "Xid" not in ln]
    assert run_line(xid79, "dmesg | grep 'N.*M'").split("\n") == [ln for ln in lines if "NVRM" in ln
                                                                   or ("N" in ln and "M" in ln.split("N", 1)[1])]
    assert run_line(xid79, "dmesg | grep 'a+b'") == ""  # basic grep: + is a literal
    assert run_line(xid79, "dmesg | grep $'\udc9b'").startswith("grep: ")


@pytest.mark.parametrize("line, status", [
    ("nvidia-smi", 0), ("dmesg | grep nothing-matches-this", 0), ("help", 0), ("", 0),
    ("foo", 127), ("nvidia-smi --bogus", 127), ("nvidia-smi | sh", 127), ("dmesg | kubectl get", 127),
    ("nvidia-smi; rm -rf /", 2), ("nvidia-smi > f", 2), ('nvidia-smi "unclosed', 2), ("nvidia-smi ||| x", 2),
    ("| grep x", 2),
])
def test_run_exits_as_bash_would(line, status, capsys):
    assert main(["lab", "xid79-off-the-bus", "--run", line]) == status
    assert run_status(build_case(load_lab("xid79-off-the-bus"), 0).system, line)[1] == status


@pytest.mark.parametrize("line", ["dmesg | tail -n 0", "dmesg | tail -0", "dmesg | head -n 0", "dmesg | head -0"])
def test_zero_lines_of_head_or_tail_print_nothing(xid79, line):
    assert run_line(xid79, line) == ""
    assert run_line(xid79, line.replace("0", "1")) != ""


def test_plain_mode_escapes_what_the_learner_typed(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO("\x1b[2Jnvidia-smi\n\u202egpu\nquit\n"))
    main(["lab", "thermal-slowdown", "--plain", "--no-store", "--seed", "0"])
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out
    assert "bash: \\x1b[2Jnvidia-smi: command not found" in out and "\\u202egpu" in out


def test_run_escapes_a_surrogate_escaped_c1_byte():
    out = subprocess.run([sys.executable, "-m", "study", "lab", "xid79-off-the-bus", "--run", b"foo\x9b"],
                         capture_output=True, check=False)
    assert b"\x9b" not in out.stdout and b"foo\\x9b" in out.stdout and out.returncode == 127


@pytest.mark.parametrize("content", ["[]", '{"host": 3}', '{"host": {}}', '{"host": {"gpus": "x", "gpu_count": 1}}',
                                     "null", '"text"'])
def test_a_cache_file_of_the_wrong_shape_is_ignored(tmp_path, capsys, content):
    want = run_line(build_case(load_lab("power-cap"), 3).system, "nvidia-smi")
    assert main(["lab", "power-cap", "--run", "nvidia-smi", "--seed", "3"]) == 0
    files = list((tmp_path / "lab-cache").iterdir())
    assert len(files) == 1
    capsys.readouterr()
    files[0].write_text(content)
    assert main(["lab", "power-cap", "--run", "nvidia-smi", "--seed", "3"]) == 0
    assert capsys.readouterr().out.rstrip("\n") == want
    assert main(["lab", "power-cap", "--run", "nvidia-smi", "--seed", "3"]) == 0  # and rewritten whole
    assert capsys.readouterr().out.rstrip("\n") == want
    assert "gpu_count" in json.loads(next((tmp_path / "lab-cache").iterdir()).read_text())["host"]


def test_the_cache_keeps_a_bounded_number_of_files_newest_first(tmp_path):
    folder = tmp_path / "lab-cache"
    folder.mkdir()
    import os

    for k in range(MAX_CACHE_FILES + 20):
        old = folder / f"old-{k}.json"
        old.write_text("{}")
        os.utime(old, (1000 + k, 1000 + k))
    cached_system("power-cap", 5)
    names = {f.name for f in folder.iterdir()}
    assert len(names) == MAX_CACHE_FILES
    assert any(n.startswith("power-cap-") for n in names)
    assert "old-0.json" not in names and f"old-{MAX_CACHE_FILES + 19}.json" in names
