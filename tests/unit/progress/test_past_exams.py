"""Past exams from the store (issue 37 §2): each finished exam's saved report reads back as the Report it was
(study.quiz.past), a damaged one is named, and `study stats --exam` lists them and reopens one."""

from __future__ import annotations

import json

import pytest

from study.cli import main
from study.progress import open_store
from study.quiz.past import find_past_exam, past_exams, report_from_dict


@pytest.fixture(scope="module")
def real_bank():
    from study.bank import load_bank

    return load_bank()


def take_exam(bank, store, seed: int, right: int):
    from study.quiz import build_exam

    session = build_exam(bank, seed, 6, store=store)
    for i in range(6):
        c = session.current
        wrong = next((label for label in c.labels if label not in c.correct_labels), "1 GB")
        session.answer(c.expected if i < right else wrong)
        if i == 1:
            session.flag()
        if i < 4:  # the last question is left blank: unanswered, graded wrong
            session.next()
        else:
            break
    session.submit()
    return session.report


def test_a_stored_report_reads_back_as_the_report_it_was(tmp_path, real_bank):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        report = take_exam(real_bank, store, 3, right=2)
        [exam] = past_exams(store)
    assert exam.number == 1 and exam.session_id == report.session_id and exam.report is not None
    back = exam.report
    # The stored report rounds seconds to a tenth; everything else is as it was.
    assert back.to_dict() == report.to_dict()
    assert [q.choices for q in back.questions] == [q.choices for q in report.questions]
    assert back.questions[1].flagged and not back.questions[-1].answered


def test_a_report_saved_before_choices_and_skips_were_kept_still_reads(tmp_path, real_bank):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        report = take_exam(real_bank, store, 3, right=2)
    old = report.to_dict()
    for key in ("skipped", "new_to_you"):
        del old[key]
    for q in old["questions"]:
        del q["choices"]
    back = report_from_dict(old)
    assert back.correct == report.correct and back.skipped == 0 and back.new_to_you is None
    assert all(q.choices == () for q in back.questions)


@pytest.mark.parametrize("damage, says", [
    ([], "not a table"),
    ({"session_id": "s", "correct": "3", "total": 5, "target_percent": 70}, "'correct'"),
    ({"session_id": "s", "correct": 3, "total": 5, "target_percent": 70, "questions": {}}, "'questions'"),
    ({"session_id": "s", "correct": 3, "total": 5, "target_percent": 70, "questions": [{"id": "q", "correct": 1}]},
     "question 1: 'correct'"),
    ({"session_id": "s", "correct": 3, "total": 5, "target_percent": 70,
      "questions": [{"id": "q", "correct": True, "references": [["only a title"]]}]}, "question 1: a reference"),
    ({"session_id": "s", "correct": 3, "total": 5, "target_percent": 70, "seconds": -1}, "'seconds'"),
])
def test_a_damaged_report_raises_one_line_naming_what(damage, says):
    with pytest.raises(ValueError, match=None) as err:
        report_from_dict(damage)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_an_exam_is_found_by_number_last_or_session_id(tmp_path, real_bank):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        a = take_exam(real_bank, store, 1, right=1)
        b = take_exam(real_bank, store, 2, right=3)
        exams = past_exams(store)
    assert [e.session_id for e in exams] == [a.session_id, b.session_id]
    assert find_past_exam(exams, "1").session_id == a.session_id
    assert find_past_exam(exams, "last").session_id == b.session_id
    assert find_past_exam(exams, "-2").session_id == a.session_id
    assert find_past_exam(exams, b.session_id).number == 2
    for bad in ("0", "3", "-3", "soon"):
        with pytest.raises(LookupError):
            find_past_exam(exams, bad)
    with pytest.raises(LookupError, match="no exam has been taken"):
        find_past_exam([], "1")


def test_study_stats_exam_lists_and_reopens_past_exams(tmp_path, capsys, real_bank):
    db = tmp_path / "p.db"
    assert main(["--db", str(db), "stats", "--exam"]) == 0
    assert "No exam taken yet" in capsys.readouterr().out
    with open_store(db, fuzz=False) as store:
        first = take_exam(real_bank, store, 1, right=1)
        second = take_exam(real_bank, store, 2, right=3)
    assert main(["--db", str(db), "stats", "--exam"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[0] == "1" and f"({first.correct}/6)" in out[0]
    assert out[1].split()[0] == "2" and f"({second.correct}/6)" in out[1]
    assert main(["--db", str(db), "stats", "--exam", "1"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Exam 1 (") and first.session_id in text
    assert f"Score: {first.correct}/6" in text
    # Every question with its id and outcome, the right answer under each one missed.
    for q in first.questions:
        outcome = "right" if q.correct else ("unanswered" if not q.answered else "wrong")
        assert f"Q{q.position} {outcome} [{q.id}, objective {q.objective}]" in text
    assert text.count("    right: ") == sum(not q.correct for q in first.questions)
    assert main(["--db", str(db), "stats", "--exam", "last", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["session_id"] == second.session_id and data["number"] == 2 and data["correct"] == second.correct
    assert main(["--db", str(db), "stats", "--exam", "--json"]) == 0
    assert [e["number"] for e in json.loads(capsys.readouterr().out)] == [1, 2]


@pytest.mark.parametrize("which", ["3", "0", "next"])
def test_study_stats_a_missing_exam_is_one_line(tmp_path, capsys, real_bank, which):
    db = tmp_path / "p.db"
    with open_store(db, fuzz=False) as store:
        take_exam(real_bank, store, 1, right=1)
    assert main(["--db", str(db), "stats", "--exam", which]) == 2
    err = capsys.readouterr().err
    assert err.startswith("study: error: --exam: no exam") and err.count("\n") == 1


def test_study_stats_a_damaged_exam_is_one_line(tmp_path, capsys, real_bank):
    db = tmp_path / "p.db"
    with open_store(db, fuzz=False) as store:
        r = take_exam(real_bank, store, 1, right=1)
        store._conn.execute("UPDATE sessions SET report_json = '{\"questions\": 3}' WHERE id = ?", (r.session_id,))
    assert main(["--db", str(db), "stats", "--exam"]) == 0
    assert "damaged report" in capsys.readouterr().out
    assert main(["--db", str(db), "stats", "--exam", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("study: error: exam 1 (") and "damaged" in err and err.count("\n") == 1
