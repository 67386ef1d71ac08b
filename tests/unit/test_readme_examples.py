"""Every command example in README.md runs as written (issue 20: the piped quiz example failed).

The README is read at test time, so an example added later is covered without touching this file. Each
```console block is one test (xdist spreads them); its ``$`` lines run in order, in-process through
``study.cli.main``, in a fresh directory holding a copy of the built-in content and questions (so
``study new`` and relative paths such as ``questions/...`` work without touching the checkout) and with a
store that already has a little history (one missed question, so ``--pick missed`` has something). A block
without ``$`` lines is a set-up recipe: each of its lines is a command. Output lines printed under a
command in the README must appear in its output.
"""

from __future__ import annotations

import codecs
import contextlib
import datetime as dt
import io
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

# (pattern in the command, why it is not run here). Everything else is run.
SKIPS: tuple[tuple[str, str], ...] = (
    ("python3 -m venv", "creates a virtual environment and installs packages: the set-up, not an example"),
    (r"(^|&& )study$", "opens the full-screen app (covered by the Pilot and tmux tests)"),
    ("study serve", "serves the app on a port (tests/tui covers it)"),
    ("pip install", "installs an LRS from the network"),
    ("ralph ", "configures a learning record store that is not installed here"),
    ("ralph_server.py", "starts a network LRS (tests/lrs runs it on 127.0.0.1 in its own tests)"),
    ("RALPH_", "environment for the LRS set-up above"),
    ("study sync", "talks to a network LRS (tests/lrs covers it against a local one)"),
    ("--lrs ", "reads from a network LRS (tests/lrs covers it)"),
)

# Exit codes the README documents for a command (pattern -> accepted codes); the rest must exit 0.
EXIT_CODES: tuple[tuple[str, set[int]], ...] = (
    ("study lint questions/", {1}),  # "one error per TODO still to write" after `study new`
    ("study bank stats", {0, 1}),  # "exit 1 if a target is missed"
)

# What a person types at a prompt the example opens (pattern -> (stdin, whether it is a terminal)).
STDIN: tuple[tuple[str, tuple[str, bool]], ...] = (
    ("--mode exam --resume", ("", False)),  # end of input submits the resumed exam
    ("--mode exam", (":quit\n", False)),  # leave it for the --resume example that follows
    ("study reset", ("yes\n", True)),  # it asks only a person at a terminal
    ("--form midterm-a.yaml", ("A\n" * 10, False)),  # the learner picks A throughout, then end of input submits
)


class _Typed(io.StringIO):
    """Lines a person types; ``tty`` says whether they come from a terminal."""

    def __init__(self, text: str, tty: bool) -> None:
        super().__init__(text)
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _blocks() -> list[tuple[int, list[tuple[str, list[str]]]]]:
    """(line number, [(command, output lines shown under it)]) for each console block."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(README.read_text().splitlines(), 1):
        if line.strip().startswith("```console"):
            current, start = [], number
            continue
        if current is not None and line.strip() == "```":
            if not any(cmd.startswith("$ ") for cmd in current):
                current = [f"$ {cmd}" for cmd in current if cmd.strip()]
            commands: list[tuple[str, list[str]]] = []
            for row in current:
                if row.startswith("$ "):
                    commands.append((row[2:].strip(), []))
                elif commands and row.strip():
                    commands[-1][1].append(row)
            blocks.append((start, commands))
            current = None
            continue
        if current is not None:
            current.append(line)
    return blocks


BLOCKS = _blocks()


def _skip_reason(command: str) -> str | None:
    for pattern, why in SKIPS:
        if re.search(pattern, command):
            return why
    return None


def _first(table, command, default):
    for pattern, value in table:
        if pattern in command:
            return value
    return default


def test_the_readme_has_examples_and_every_skip_is_used():
    commands = [c for _n, block in BLOCKS for c, _o in block]
    assert len(commands) >= 30
    unused = [p for p, _w in SKIPS if p != "study serve" and not any(re.search(p, c) for c in commands)]
    assert not unused, f"skips that match no README command any more: {unused}"


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A directory like a checkout (content/, questions/), the data root pointed at it, and a store with
    a little history."""
    from study import paths
    from study.progress import Attempt, open_store

    for part in ("content", "questions"):
        shutil.copytree(ROOT / part, tmp_path / part)
    monkeypatch.setattr(paths, "_data_root", lambda: tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    db = tmp_path / "progress.db"
    monkeypatch.setenv("STUDY_DB", str(db))
    from study.bank import load_bank

    bank = load_bank()
    now = dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=2)
    with open_store(db) as store:
        for k, q in enumerate(bank.questions[:3]):
            store.record_attempt(Attempt(q.id, bank.content_hash(q.id), {}, "A", k != 0, 30.0, "practice",
                                         at=now + dt.timedelta(minutes=k)))
    return tmp_path


def _run(command: str, cwd: Path, monkeypatch) -> tuple[int, str, str]:
    from study.cli import main

    words = shlex.split(command, comments=True)
    stdin, tty = _first(STDIN, command, ("", False))
    if "|" in words:  # printf '...' | study ...
        cut = words.index("|")
        assert words[0] == "printf", f"only printf pipes are understood: {command}"
        stdin = codecs.decode(words[1], "unicode_escape")
        words = words[cut + 1:]
    target = None
    if ">" in words:
        cut = words.index(">")
        target, words = words[cut + 1], words[:cut]
    if words[0] == "export":
        for pair in words[1:]:
            key, _, value = pair.partition("=")
            monkeypatch.setenv(key, value)
        return 0, "", ""
    # "[--objective 2.1]" marks an optional part: the example runs without it.
    text = " ".join(words)
    words = shlex.split(re.sub(r"\[[^\]]*\]", "", text))
    assert words[0] == "study", f"not a study command: {command}"
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", _Typed(stdin, tty))
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(words[1:])
        except SystemExit as exc:  # --help exits through argparse
            code = exc.code if isinstance(exc.code, int) else 0
    if target is not None:
        (cwd / target).write_text(out.getvalue())
    return code, out.getvalue(), err.getvalue()


def _prepare(command: str, cwd: Path) -> None:
    """Files an example reads that a learner or instructor would have from elsewhere."""
    if "import moodle.gift" in command and not (cwd / "moodle.gift").exists():
        shutil.copy(cwd / "bank.gift", cwd / "moodle.gift")  # what Moodle gives back from the GIFT export
    if re.search(r"study analyze results/", command) and not (cwd / "results").exists():
        from study.cli import main

        (cwd / "results").mkdir()
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["export", "--format", "json", str(cwd / "results" / "learner1.json")]) == 0


@pytest.mark.parametrize("line, commands", BLOCKS, ids=[f"README.md:{n}" for n, _c in BLOCKS])
def test_readme_block_runs_as_written(line, commands, sandbox, monkeypatch):
    if commands and commands[0][0].startswith("mkdir my-bank"):
        # The instructor walk-through builds its own bank and class in order: its own test runs it.
        pytest.skip("the walk-through is run as written by tests/unit/analysis/test_readme_walkthrough.py")
    ran = 0
    for command, shown in commands:
        if _skip_reason(command):
            continue
        _prepare(command, sandbox)
        code, out, err = _run(command, sandbox, monkeypatch)
        allowed = _first(EXIT_CODES, command, {0})
        assert code in allowed, f"README.md:{line}: `{command}` exited {code}:\n{err[-2000:]}"
        assert "Traceback" not in err
        assert not re.search(r"is not a choice|cannot read .* as a number|the question asks for", err + out), (
            f"README.md:{line}: `{command}` gave an answer the question refuses:\n{err[-2000:]}")
        squeezed = " ".join(out.split())
        for row in shown:
            assert " ".join(row.split()) in squeezed, f"README.md:{line}: `{command}` no longer prints {row!r}"
        ran += 1
    if not ran:
        pytest.skip("every command of this block is in SKIPS: " + "; ".join(
            sorted({_skip_reason(c) or "" for c, _o in commands})))
