"""An instructor's own bank reaches every command that reads questions (issue 36.7): `study stats` and `study
preview ID` take --questions, and `study regrade --questions` no longer says "no longer in the bank" of the
built-in questions a learner also answered, which were only left out of the bank it was given."""

from __future__ import annotations

import json

from study.bank import load_bank
from study.cli import main
from study.progress import Attempt, open_store
from tests.unit.analysis.classgen import FLIP_ID, SINGLE_IDS, T0, record_learner, write_bank


def _bank_dir(tmp_path):
    return write_bank(tmp_path / "mine", flipped=False).parent


def test_stats_reads_the_bank_given_with_questions(tmp_path, capsys):
    mine = _bank_dir(tmp_path)
    db = tmp_path / "me.db"
    record_learner(db, load_bank(questions=[str(mine)]), 25)
    assert main(["--db", str(db), "stats", "--json", "--questions", str(mine)]) == 0
    stats = json.loads(capsys.readouterr().out)
    # Every question of this six-question bank was answered, so only the topic cards are new; with the
    # built-in bank its hundreds of questions are new too.
    cards = len(load_bank(questions=[str(mine)]).cards)
    assert stats["new_items"] == cards
    assert main(["--db", str(db), "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["new_items"] > cards + 100


def test_stats_with_a_bank_that_does_not_load_is_one_error_line(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "me.db"), "stats", "--questions", str(tmp_path / "nowhere")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("study: error: cannot load the question bank") and "\n" not in err


def test_preview_finds_an_id_in_the_bank_given_with_questions(tmp_path, capsys):
    mine = _bank_dir(tmp_path)
    assert main(["preview", FLIP_ID, "--questions", str(mine)]) == 0
    assert "An H100 SXM has 80 GB of HBM3." in capsys.readouterr().out
    assert main(["preview", FLIP_ID]) == 2  # not in the built-in bank
    assert f"no question {FLIP_ID!r} in the bank" in capsys.readouterr().err


def test_regrade_names_builtin_answers_as_outside_the_given_bank_not_gone(tmp_path, capsys):
    mine = _bank_dir(tmp_path)
    db = tmp_path / "me.db"
    record_learner(db, load_bank(questions=[str(mine)]), 25)
    builtin = load_bank()
    shipped = sorted(q.id for q in builtin.questions)[0]
    with open_store(db, fuzz=False) as store:
        store.record_attempt(Attempt(shipped, builtin.content_hash(shipped), {}, "A", True, 20.0, "practice",
                                     at=T0))
    assert main(["--db", str(db), "regrade", "--questions", str(mine), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "no longer in the bank" not in out
    assert out.endswith("; 1 answer(s) to questions outside the bank given with --questions, 1 of them built-in "
                        "(grade kept; regrade without --questions for those)\n")
    # Without --questions the generated ones are the ones outside, and they are in no bank study ships.
    assert main(["--db", str(db), "regrade", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(f"; {len(SINGLE_IDS) + 2} answer(s) to questions no longer in the bank (grade kept)\n")
