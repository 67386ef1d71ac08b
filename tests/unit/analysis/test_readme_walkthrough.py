"""The README's instructor walk-through, run command by command in an empty folder: write, lint, preview,
a class answers and exports, analyze names the flipped key and its line, the key is fixed, analyze regrades,
and a learner's `study regrade` marks their own answer again."""

from __future__ import annotations

import io
import os
import re
import shlex
from pathlib import Path

from study.bank import load_bank
from study.bank.bank import clear_cache
from study.cli import main
from tests.unit.analysis.classgen import bank_text, record_learner

README = Path(__file__).resolve().parents[3] / "README.md"


def walkthrough() -> list[list[str]]:
    text = README.read_text(encoding="utf-8")
    section = text.split("### From a new question to a regrade", 1)[1]
    block = re.search(r"```console\n(.*?)```", section, flags=re.S).group(1)
    lines = [re.split(r"\s{2,}#\s", line[2:], maxsplit=1)[0] for line in block.splitlines() if line.startswith("$ ")]
    return [shlex.split(line) for line in lines]


def test_the_walkthrough_runs_as_written(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(var, str(tmp_path / var.lower()))
    steps = walkthrough()
    assert [s[1] if s[0] == "study" else s[0] for s in steps] == [
        "mkdir", "new", "lint", "preview", "quiz", "export", "analyze", "analyze", "analyze", "regrade"]

    def study(argv, db=None, stdin=""):
        if db is not None:
            monkeypatch.setenv("STUDY_DB", str(db))
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        clear_cache(keep_parses=True)  # each command is a process of its own: a bank edited since is read anew
        code = main(argv[1:])
        return code, capsys.readouterr()

    mkdir, new, lint, preview, quiz, export, analyze, book, again, regrade = steps
    for d in mkdir[1:]:
        os.makedirs(d)
    # Write: the skeleton lints with one error per TODO; the instructor writes the questions (one true/false
    # key flipped by mistake: the truth is True, the file says false).
    code, _ = study(new)
    assert code == 0
    bank_file = Path(new[new.index("--out") + 1])
    assert "TODO" in bank_file.read_text()
    assert study(lint)[0] == 1
    bank_file.write_text(bank_text(flipped=True), encoding="utf-8")
    code, out = study(lint)
    assert code == 0 and "0 errors" in out.err, out.out + out.err
    code, out = study(preview)
    assert code == 0 and "An H100 SXM has 80 GB of HBM3." in out.out
    # The class: alice takes the exam in plain mode (picking A throughout: True for the true/false), 29 more
    # learners of known ability through the same quiz engine; each exports with the README's line.
    alice = tmp_path / "alice.db"
    code, _ = study(quiz, db=alice, stdin="A\n" * 6)
    assert code == 0
    bank = load_bank(questions=["my-bank"])
    learners = {"alice": alice}
    for n in range(29):
        db = tmp_path / f"learner{n:02d}.db"
        record_learner(db, bank, n)
        learners[f"learner{n:02d}"] = db
    for name, db in learners.items():
        argv = [arg.replace("alice", name) for arg in export]
        assert study(argv, db=db)[0] == 0
    assert len(list(Path("class").glob("*.json"))) == 30
    # Analyze: the flipped key is named, with the line it is on.
    code, out = study(analyze)
    assert code == 1
    hint = re.search(r"the key may be wrong: the strongest learners chose True \((\d+) of (\d+)\)", out.out)
    # Every learner of the top group (a third, and those tied with its last) chose the truth.
    assert hint and int(hint.group(1)) == int(hint.group(2)) >= 10, out.out
    where = re.search(r"chose True.*\n\s+key at (my-bank/memory\.yaml):(\d+)", out.out)
    assert where, out.out
    lines = bank_file.read_text().splitlines()
    key_line = int(where.group(2))
    assert lines[key_line - 1].strip() == "answer: false"
    code, out = study(book)
    assert code == 1 and "Gradebook" in out.out
    assert len(Path("grades.csv").read_text().splitlines()) == 31  # a header and 30 learners
    # Fix the key where it said, analyze again: every response is regraded against it.
    lines[key_line - 1] = lines[key_line - 1].replace("false", "true")
    bank_file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = study(again)
    assert code == 0 and "Regraded" in out.out and "key may be wrong" not in out.out
    # Alice's own store: her True was marked wrong, and is right now.
    code, out = study(regrade, db=alice)
    assert code == 0 and "gen-flip" in out.out and "wrong -> right" in out.out and "1 answer(s) changed" in out.out
