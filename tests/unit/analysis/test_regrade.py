"""`study regrade`: a learner's stored answers to a question whose key was fixed are marked again, the
schedule replayed, and the original grade kept in the regrade history."""

from __future__ import annotations

import json

from study.bank import load_bank
from study.cli import main
from study.progress import open_store
from study.progress.regrades import regrade_history
from tests.unit.analysis.classgen import FLIP_ID, bank_text, record_learner, write_bank


def _learner(tmp_path, learner=25):
    flipped = write_bank(tmp_path / "flipped", flipped=True).parent
    db = tmp_path / "me.db"
    record_learner(db, load_bank(questions=[str(flipped)]), learner)
    fixed = write_bank(tmp_path / "fixed", flipped=False).parent
    return db, fixed


def _attempt(db, qid):
    with open_store(db, fuzz=False) as store:
        return store.history(qid)[0], store.item_state(qid), store.summaries().get(qid)


def test_a_fixed_key_regrades_the_learners_answer_and_keeps_the_old_grade(tmp_path, capsys):
    db, fixed = _learner(tmp_path)  # learner 25 knows the truth (True), marked wrong by the flipped key
    before, state_before, _ = _attempt(db, FLIP_ID)
    assert before.correct is False
    assert main(["--db", str(db), "regrade", "--questions", str(fixed)]) == 0
    out = capsys.readouterr().out
    assert f"{FLIP_ID}  answered" in out and "wrong -> right" in out and "1 answer(s) changed" in out
    after, state_after, summary = _attempt(db, FLIP_ID)
    assert after.correct is True and after.uid == before.uid
    # The schedule is replayed from the corrected outcome: a right answer is due later than a wrong one.
    assert state_after.due > state_before.due
    assert summary.correct == 1 and summary.last_correct is True
    with open_store(db, fuzz=False) as store:
        history = regrade_history(store, before.uid)
        others = [a for a in store.history() if a.item_id != FLIP_ID]
    assert [(h.old_correct, h.new_correct, h.item_id) for h in history] == [(False, True, FLIP_ID)]
    # Questions whose key did not change keep their grades; a second run changes nothing.
    assert all(regrade_history_empty(db, a.uid) for a in others)
    assert main(["--db", str(db), "regrade", "--questions", str(fixed)]) == 0
    assert "0 answer(s) changed" in capsys.readouterr().out


def regrade_history_empty(db, uid):
    with open_store(db, fuzz=False) as store:
        return regrade_history(store, uid) == []


def test_dry_run_changes_nothing_and_json_lists_the_change(tmp_path, capsys):
    db, fixed = _learner(tmp_path)
    assert main(["--db", str(db), "regrade", "--questions", str(fixed), "--dry-run", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["applied"] is False
    assert [(c["question"], c["was_correct"], c["now_correct"]) for c in data["changes"]] == [(FLIP_ID, False, True)]
    assert _attempt(db, FLIP_ID)[0].correct is False


def test_an_answer_to_a_reworded_question_keeps_its_grade(tmp_path, capsys):
    db, _ = _learner(tmp_path)
    reworded = tmp_path / "reworded"
    reworded.mkdir()
    text = bank_text(flipped=False).replace("An H100 SXM has 80 GB of HBM3.", "An H100 SXM has 80 GB of HBM2e.")
    (reworded / "generated.yaml").write_text(text, encoding="utf-8")
    assert main(["--db", str(db), "regrade", "--questions", str(reworded)]) == 0
    out = capsys.readouterr().out
    assert "0 answer(s) changed" in out and "1 asked differently" in out
    assert _attempt(db, FLIP_ID)[0].correct is False


def test_answers_to_questions_gone_from_the_bank_are_counted_in_a_sentence(tmp_path, capsys):
    db, _ = _learner(tmp_path)
    with open_store(db, fuzz=False) as store:
        answers = len(store.history())
    # The built-in bank has none of the generated questions. It said "N of questions no longer in the bank".
    assert main(["--db", str(db), "regrade", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.endswith(f"; {answers} answer(s) to questions no longer in the bank (grade kept)\n")
