"""A regraded answer in xAPI (issue 36.6): a statement never changes under its id (xAPI 1.0.3, Data 2.3.1), so
the export voids the statements of the old grade (verb ``voided``, a ``StatementRef`` to each: Data 2.3.2) and
sends the answer and its exam's verdict again under new ids; the analysis of the files counts the new grade,
whichever file holds the void and in whichever order the files are read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from study.analysis.results import load_results
from study.cli import main
from study.progress import open_store
from study.progress.regrades import regrade_history
from tests.unit.analysis.classgen import FLIP_ID, take_exam, write_bank

try:  # the validator lives beside this file; a package __init__ there would make the import relative
    from .test_xapi_spec import VOIDED, validate_statement
except ImportError:
    from test_xapi_spec import VOIDED, validate_statement

ACTOR = "l15@example.com"


def export(db: Path, bank: Path, target: Path) -> list[dict]:
    assert main(["--db", str(db), "export", "--format", "xapi", "--actor", ACTOR, "--questions", str(bank),
                 str(target)]) == 0
    return [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]


def verb(st: dict) -> str:
    return st["verb"]["id"].rsplit("/", 1)[1]


@pytest.fixture
def regraded(tmp_path: Path, capsys) -> tuple[Path, list[dict], list[dict], Path]:
    flipped = write_bank(tmp_path / "flipped", flipped=True).parent
    fixed = write_bank(tmp_path / "fixed", flipped=False).parent
    db = tmp_path / "me.db"
    take_exam(db, flipped)
    before = export(db, flipped, tmp_path / "before.jsonl")
    assert main(["--db", str(db), "regrade", "--questions", str(fixed)]) == 0
    capsys.readouterr()
    after = export(db, fixed, tmp_path / "after.jsonl")
    return db, before, after, fixed


def test_the_old_statements_are_voided_and_the_new_grade_has_new_ids(regraded, tmp_path, capsys) -> None:
    db, before, after, fixed = regraded
    old_flip = next(s for s in before if s["object"]["id"].endswith(f"/questions/{FLIP_ID}"))
    old_failed = next(s for s in before if verb(s) == "failed")
    old_completed = next(s for s in before if verb(s) == "completed")
    assert old_flip["result"]["success"] is False and not any(verb(s) == "passed" for s in before)

    voids = [s for s in after if s["verb"]["id"] == VOIDED]
    assert sorted(v["object"]["id"] for v in voids) == sorted([old_flip["id"], old_failed["id"], old_completed["id"]])
    assert all(v["object"]["objectType"] == "StatementRef" for v in voids)
    for st in after:
        validate_statement(st)
    # Nothing already sent changes under its id: each statement of the first export is in the second as it
    # was, or voided there.
    by_id = {s["id"]: s for s in after}
    voided = {v["object"]["id"] for v in voids}
    assert all(by_id[s["id"]] == s for s in before if s["id"] not in voided)
    assert not voided & {s["id"] for s in after if s["verb"]["id"] != VOIDED}
    # The regraded answer and the exam's new verdict, under ids never used before.
    new_flip = next(s for s in after if s["object"]["id"].endswith(f"/questions/{FLIP_ID}"))
    assert new_flip["id"] not in {s["id"] for s in before}
    assert new_flip["result"]["success"] is True and new_flip["result"]["score"]["scaled"] == 1.0
    assert new_flip["context"]["statement"] == {"objectType": "StatementRef", "id": old_flip["id"]}
    passed = next(s for s in after if verb(s) == "passed")
    completed = next(s for s in after if verb(s) == "completed")
    assert passed["result"]["score"]["raw"] == completed["result"]["score"]["raw"] == 5
    assert completed["id"] != old_completed["id"] and not any(verb(s) == "failed" for s in after)
    # The void is found by a query on the course or on the question (related_activities).
    flip_void = next(v for v in voids if v["object"]["id"] == old_flip["id"])
    assert flip_void["context"]["contextActivities"]["other"][0]["id"] == old_flip["object"]["id"]
    assert flip_void["context"]["registration"] == old_flip["context"]["registration"]
    # Exported again: the very same statements, so an LRS stores them once.
    assert export(db, fixed, tmp_path / "again.jsonl") == after
    assert "3 voiding statements for regrades" in capsys.readouterr().err


def test_a_copy_of_the_store_regraded_later_sends_the_same_statements(tmp_path: Path, capsys) -> None:
    # A copy (another machine, a restored file) regraded at another time must not conflict in the LRS with
    # what the first copy sent: an LRS compares every property, the timestamp included (Data 2.3.1).
    flipped = write_bank(tmp_path / "flipped", flipped=True).parent
    fixed = write_bank(tmp_path / "fixed", flipped=False).parent
    db = tmp_path / "me.db"
    take_exam(db, flipped)
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    assert main(["--db", str(db), "regrade", "--questions", str(fixed)]) == 0
    assert main(["--db", str(copy), "regrade", "--questions", str(fixed)]) == 0
    with open_store(db) as a, open_store(copy) as b:  # two regrades, at two times (microseconds apart at least)
        assert [r.at for r in regrade_history(a)] != [r.at for r in regrade_history(b)]
    assert export(db, fixed, tmp_path / "a.jsonl") == export(copy, fixed, tmp_path / "b.jsonl")


@pytest.mark.parametrize("order", ["before-first", "after-first"])
def test_the_analysis_counts_the_new_grade_whatever_the_order_of_the_files(regraded, tmp_path, order) -> None:
    _db, _before, _after, _fixed = regraded
    files = [tmp_path / "before.jsonl", tmp_path / "after.jsonl"]
    if order == "after-first":
        files.reverse()
    old = load_results([tmp_path / "before.jsonl"])
    both = load_results(files)
    new = load_results([tmp_path / "after.jsonl"])
    col = old.questions.index(FLIP_ID)
    assert old.marks[0, col] == 0.0
    for results in (both, new):
        assert results.learners == old.learners and results.questions == old.questions
        assert results.marks[0, results.questions.index(FLIP_ID)] == 1.0
        assert results.answers == 6  # the voided answer is not an answer read
    assert any("1 xAPI answer statement(s) voided" in s for s in both.skipped)
