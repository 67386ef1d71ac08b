"""A backup that passes the import check can always be used afterwards (issue 19, defect 9).

Each case here used to import and break study later: an exam saved at ``index: 999`` was an IndexError on
``--resume``, a 2099 deadline locked the learner out of new exams, ``answers: []`` and alerts holding a string
crashed the quiz, ``stability: -5`` made FSRS compute with complex numbers, an integer of 5,000 digits was a
ValueError from Python's int limit. Now each is refused in one line and the store is left as it was; and a
session that is damaged in the store anyway is set aside by ``study quiz --resume`` in one line.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest

from study.cli import main
from study.progress import Attempt, Rating, open_store
from study.progress.transfer import ImportFormatError
from study.quiz import build_exam
from study.quiz.session import QuizSession, SessionError
from study.quiz.saved_state import read_saved_session

from .conftest import NOW, blueprint, question, topic

T = dt.timedelta
TABLES = ("attempts", "reviews", "sessions", "items", "settings", "item_totals", "activity", "reports")


def rows(path: Path) -> dict[str, list[tuple]]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        conn.close()


def _bank():
    from study.bank import Bank

    return Bank(blueprint=blueprint(), questions=(question("a1", "1.1"), question("a2", "1.2", "true_false"),
                                                 question("b1", "2.1"), question("b2", "2.1", "numeric", distractors=3)),
                topics=(topic("t1", ["1.1"], ["intro"]),))


@pytest.fixture(scope="module")
def backup(tmp_path_factory) -> dict:
    """A real export: answers, a reviewed card, and an exam in progress (its saved state)."""
    path = tmp_path_factory.mktemp("source") / "p.db"
    with open_store(path, fuzz=False) as s:
        for k in range(3):
            s.record_attempt(Attempt(f"q{k}", "h", {}, "B", k % 2 == 0, 30.0, "quiz", None, NOW + T(hours=k)))
        s.review_card("t1/intro", "h", Rating.Good, 8, NOW)
        session = build_exam(_bank(), seed=4, count=3, minutes=10, store=s, now=NOW + T(days=1), session_id="open")
        session.answer("A", now=NOW + T(days=1, seconds=5))
        data = s.export_data()
    assert any(x["id"] == "open" and x["state_json"] for x in data["sessions"])
    return data


@pytest.fixture
def held(tmp_path) -> Path:
    path = tmp_path / "held.db"
    with open_store(path, fuzz=False) as s:
        s.record_attempt(Attempt("mine", "h", {}, "A", True, 20.0, "quiz", None, NOW))
        s.review_card("t9/x", "h", Rating.Hard, 5, NOW)
    return path


def _with_state(backup: dict, change) -> dict:
    data = copy.deepcopy(backup)
    row = next(s for s in data["sessions"] if s["id"] == "open")
    state = json.loads(row["state_json"])
    change(state)
    row["state_json"] = json.dumps(state)
    return data


def _with_card(backup: dict, **values) -> dict:
    data = copy.deepcopy(backup)
    card = next(i for i in data["items"] if i["item_id"] == "t1/intro")["card"]
    card.update(values)
    return data


def _late_deadline(state):
    state["deadline"] = "2099-01-01T00:00:00+00:00"


def _future_start(state):
    state["started_at"] = "2099-01-01T00:00:00+00:00"
    state["deadline"] = "2099-01-01T00:10:00+00:00"
    state["mark"] = state["started_at"]


STATES = {
    "index 999": (lambda st: st.update(index=999), "index 999 is not a question"),
    "index -1": (lambda st: st.update(index=-1), "index -1"),
    "index true": (lambda st: st.update(index=True), "index True"),
    "answers []": (lambda st: st.update(answers=[]), "answers must be a list of 3"),
    "answer a number": (lambda st: st["answers"].__setitem__(0, 5), "answer 1"),
    "answer Z": (lambda st: st["answers"].__setitem__(0, "Z"), "answer 1"),
    "answer of 300 chars": (lambda st: st["answers"].__setitem__(0, "A" * 300), "answer 1"),
    "alerts a string": (lambda st: st.update(alerts="soon"), "alerts must be a list"),
    "alerts of strings": (lambda st: st.update(alerts=["x"]), "alerts must be a list"),
    "fired a dict": (lambda st: st.update(fired={}), "fired must be a list"),
    "flags short": (lambda st: st.update(flags=[False]), "flags must be a list"),
    "seconds nan-ish": (lambda st: st.update(seconds=[-1, 0, 0]), "seconds must be numbers"),
    "recorded 77": (lambda st: st.update(recorded=[77]), "recorded"),
    "deadline 2099": (_late_deadline, "is not within 10 minutes of the start"),
    "start 2099": (_future_start, "starts in the future"),
    "minutes 1e9": (lambda st: st.update(minutes=1e9), "minutes"),
    "status odd": (lambda st: st.update(status="paused"), "status"),
    "target 500": (lambda st: st.update(target_percent=500), "target_percent"),
}

CARDS = {
    "stability -5": ({"stability": -5.0}, "stability -5"),
    "stability nan": ({"stability": float("nan")}, "stability"),
    "difficulty 11": ({"difficulty": 11.0}, "difficulty 11"),
    "difficulty 0.5": ({"difficulty": 0.5}, "difficulty 0.5"),
    "state 7": ({"state": 7}, "state 7"),
    "state true": ({"state": True}, "state True"),
    "step 99": ({"step": 99}, "step"),
    "no difficulty": ({"difficulty": None}, "needs both"),
    "card_id text": ({"card_id": "12"}, "card_id"),
}


@pytest.mark.parametrize("replace", [False, True], ids=["merge", "replace"])
@pytest.mark.parametrize("case", list(STATES))
def test_a_saved_exam_that_could_not_resume_is_refused(backup, held, case, replace):
    change, message = STATES[case]
    data = _with_state(backup, change)
    before = rows(held)
    with open_store(held, fuzz=False) as s, pytest.raises(ImportFormatError) as info:
        s.import_data(data, read_session=read_saved_session, replace=replace)
    assert message in str(info.value) and "\n" not in str(info.value)
    assert rows(held) == before


@pytest.mark.parametrize("case", list(CARDS))
def test_an_fsrs_card_out_of_the_schedulers_ranges_is_refused(backup, held, case):
    values, message = CARDS[case]
    before = rows(held)
    with open_store(held, fuzz=False) as s, pytest.raises(ImportFormatError) as info:
        s.import_data(_with_card(backup, read_session=read_saved_session, **values), replace=True)
    assert message in str(info.value) and "\n" not in str(info.value)
    assert rows(held) == before


def test_the_session_rows_deadline_must_be_its_states(backup, held):
    data = copy.deepcopy(backup)
    row = next(s for s in data["sessions"] if s["id"] == "open")
    row["deadline"] = "2099-01-01T00:00:00+00:00"
    with open_store(held, fuzz=False) as s, pytest.raises(ImportFormatError) as info:
        s.import_data(data, read_session=read_saved_session)
    assert "deadline is not the deadline of its saved state" in str(info.value)


def test_the_real_backup_still_imports_and_resumes(backup, tmp_path):
    with open_store(tmp_path / "fresh.db", fuzz=False) as s:
        s.import_data(backup, read_session=read_saved_session, replace=True)
        sid, state, deadline = s.active_session("exam")
        session = QuizSession.from_json(state, _bank())
        assert sid == "open" and session.count == 3 and session.answers[0] is not None
        assert deadline == session.deadline


@pytest.mark.parametrize("number", ["9" * 5000, "NaN", "Infinity", "1e999"], ids=["5000 digits", "NaN", "Infinity",
                                                                                  "1e999"])
def test_a_number_without_bound_is_one_line_from_study_import(backup, held, tmp_path, capsys, number):
    file = tmp_path / "backup.json"
    text = json.dumps(backup)
    assert '"seconds": 30.0' in text
    file.write_text(text.replace('"seconds": 30.0', f'"seconds": {number}', 1))
    before = rows(held)
    assert main(["--db", str(held), "import", str(file)]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error: ") and "Exceeds the limit" not in line and "number" in line
    assert rows(held) == before


# -- a session damaged in the store anyway: one line, set aside, never a traceback ---------------------------


def _store_with_damaged_exam(path: Path, change) -> str:
    with open_store(path, fuzz=False) as s:
        session = build_exam(_bank(), seed=4, count=3, minutes=10, store=s, now=dt.datetime.now(dt.timezone.utc))
        state = json.loads(session.to_json())
        change(state)
        s.save_session(session.id, "exam", json.dumps(state), deadline=session.deadline)
        return session.id


@pytest.mark.parametrize("case", ["index 999", "answers []", "alerts a string", "answer a number"])
def test_from_json_turns_every_damage_into_a_session_error(case):
    state = json.loads(build_exam(_bank(), seed=4, count=3, minutes=10, now=NOW).to_json())
    STATES[case][0](state)
    with pytest.raises(SessionError, match="damaged"):
        QuizSession.from_json(json.dumps(state))


@pytest.mark.parametrize("text", ["[]", "null", '{"version": 1}', '{"version": 1, "instances": 5}', "{",
                                  '{"version": ' + "1" * 5000 + "}"],
                         ids=["list", "null", "no instances", "instances 5", "broken", "5000-digit version"])
def test_from_json_of_anything_is_a_session_error(text):
    with pytest.raises(SessionError):
        QuizSession.from_json(text)


def test_quiz_resume_of_a_damaged_exam_is_one_line_and_sets_it_aside(tmp_path, capsys, monkeypatch):
    db = tmp_path / "p.db"
    _store_with_damaged_exam(db, STATES["index 999"][0])
    # The quiz command module first: imported after study.commands.bank_for is patched, it would bind the
    # patch at import, and monkeypatch would "restore" the patch, leaking it into every later test.
    import study.commands.quiz  # noqa: F401

    monkeypatch.setattr("study.commands.quiz.bank_for", lambda args: _bank())
    monkeypatch.setattr("study.commands.bank_for", lambda args: _bank())
    code = main(["--db", str(db), "quiz", "--plain", "--mode", "exam", "--resume"])
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert code != 0 and line.startswith("study: error: the unfinished exam cannot be resumed")
    assert "index 999" in line
    with open_store(db, fuzz=False) as s:
        assert s.active_session("exam") is None  # set aside: a new exam can start


def test_a_saved_exam_starting_in_the_future_is_refused_by_that_rule_alone(backup, held):
    # The session row's deadline follows the state's, so no other rule (the deadline check) refuses it first.
    data = _with_state(backup, _future_start)
    row = next(s for s in data["sessions"] if s["id"] == "open")
    row["deadline"] = json.loads(row["state_json"])["deadline"]
    before = rows(held)
    with open_store(held, fuzz=False) as s, pytest.raises(ImportFormatError) as info:
        s.import_data(data, read_session=read_saved_session)
    assert "starts in the future" in str(info.value)
    assert rows(held) == before
