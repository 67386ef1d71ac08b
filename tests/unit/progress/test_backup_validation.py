"""A hostile or broken backup is refused whole, in one line, before anything is written (issue 15, defect 8).

Each case used to import "successfully" and break the store afterwards, or end in a traceback. The store
already holding data is compared row for row after every refusal.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from study.cli import main
from study.progress import Attempt, Rating, open_store
from study.progress.stats import compute_stats
from study.progress.transfer import ImportFormatError
from study.quiz import build_exam
from study.quiz.session import QuizSession
from study.quiz.saved_state import read_saved_session

from .conftest import NOW

T = dt.timedelta
TABLES = ("attempts", "reviews", "sessions", "items", "settings", "item_totals", "activity", "reports")


def rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read apart from the store under test."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        conn.close()


@pytest.fixture(scope="module")
def backup(tmp_path_factory) -> dict:
    """A real export: answers, a card review, a finished exam with its report, an exam in progress with its
    state, settings; plus the schema-6 extras (a report, an attempt's shown question) an export may carry."""
    from study.bank import Bank

    from .conftest import blueprint, question, topic

    bank = Bank(blueprint=blueprint(), questions=(question("a1", "1.1"), question("a2", "1.2", "true_false"),
                                                 question("b1", "2.1")), topics=(topic("t1", ["1.1"], ["intro"]),))
    path = tmp_path_factory.mktemp("source") / "p.db"
    with open_store(path, fuzz=False) as s:
        for k in range(6):
            s.record_attempt(Attempt(f"q{k % 3}", "h", {"k": k}, "B", k % 2 == 0, 30 + 10 * k, "exam", "done",
                                     NOW + T(hours=k)))
        s.review_card("t1/intro", "h", Rating.Good, 8, NOW)
        s.finish_session("done", json.dumps({"score": 50.0, "correct": 3, "total": 6}), at=NOW + T(hours=7))
        build_exam(bank, seed=4, count=2, minutes=10, store=s, now=NOW + T(days=1), session_id="open")
        s.set_setting("desired_retention", 0.9)
        s.set_setting("daily_goal", 25)
        s.set_setting("exam_date", "2027-01-15")
        data = s.export_data()
    data["attempts"][0]["shown_json"] = json.dumps({"stem": "s", "options": ["c0", "c1"]})
    data["reports"] = [{"uid": "r1", "item_id": "q1", "content_hash": "h", "kind": "unclear", "text": "which GPU?",
                        "context": "", "session_id": None, "at": "2026-11-30T12:00:00+00:00"}]
    return data


@pytest.fixture
def held(tmp_path) -> Path:
    """A store with its own history, which no refused import may touch."""
    path = tmp_path / "held.db"
    with open_store(path, fuzz=False) as s:
        for k in range(4):
            s.record_attempt(Attempt(f"mine{k}", "h", {}, "A", True, 20.0, "quiz", None, NOW - T(days=k)))
        s.review_card("t9/x", "h", Rating.Hard, 5, NOW)
        s.set_setting("daily_goal", 40)
    return path


def test_the_unspoiled_backup_imports_and_everything_in_it_reads_back(backup, tmp_path):
    path = tmp_path / "fresh.db"
    with open_store(path, fuzz=False) as s:
        added = s.import_data(backup, read_session=read_saved_session, replace=True)
        assert added["attempts"] == 6 and added["reports"] == 1 and added["items"] == len(backup["items"])
        sid, state, _deadline = s.active_session("exam")
        assert sid == "open" and QuizSession.from_json(state).count == 2
        assert s.exam_history()[0].report["total"] == 6
        assert s.settings()["desired_retention"] == 0.9
        shown = s._query("SELECT shown_json FROM attempts WHERE uid = ?", (backup["attempts"][0]["uid"],))
        assert json.loads(shown[0][0])["options"] == ["c0", "c1"]
        assert s._query("SELECT kind, text FROM reports") == [("unclear", "which GPU?")]


def _set(data: dict, path: tuple, value) -> dict:
    data = copy.deepcopy(data)
    *parents, last = path
    target = data
    for key in parents:
        target = target[key]
    if value is _DELETE:
        del target[last]
    else:
        target[last] = value
    return data


_DELETE = object()


def _deep(levels: int):
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


def _open_session_index(data: dict) -> int:
    return next(i for i, s in enumerate(data["sessions"]) if s["id"] == "open")


HOSTILE = [
    # settings the app would trip over later
    (("settings", "desired_retention"), "abc", '"settings.desired_retention" must be a number'),
    (("settings", "desired_retention"), 5, "desired_retention"),
    (("settings", "daily_goal"), "20", '"settings.daily_goal" must be a whole number'),
    (("settings", "exam_date"), "next spring", "not a date like 2027-01-15"),
    (("settings",), [], '"settings" must be an object'),
    # sessions
    (("sessions", 0, "report_json"), "not json", 'session 0: "report_json" not JSON text'),
    (("sessions", 0, "report_json"), "[1, 2]", "must be a JSON object"),
    (("sessions", "OPEN", "state_json"), '{"version": 1}', "not a session the quiz can resume"),
    (("sessions", 0, "started_at"), _DELETE, '"started_at" missing'),
    # items
    (("items", 0, "card"), {"x": 1}, "not an FSRS card"),
    (("items", 0, "kind"), "topic", '"kind"'),
    # attempts: shapes, types, constraints
    (("attempts", 0), "an answer", "attempt 0: must be an object"),
    (("attempts", 1), 7, "attempt 1: must be an object"),
    (("attempts", 0, "at"), "yesterday", 'attempt 0: "at" not a date and time'),
    (("attempts", 0, "at"), "9999-12-31T23:00:00-05:00", "outside 2000-2099"),
    (("attempts", 0, "seconds"), "abc", '"seconds" must be a number'),
    (("attempts", 0, "seconds"), -1, "greater than or equal to 0"),
    (("attempts", 0, "seconds"), float("nan"), '"seconds"'),
    (("attempts", 0, "rating"), 7, "less than or equal to 4"),
    (("attempts", 0, "correct"), 1, "must be true or false"),
    (("attempts", 0, "correct"), _DELETE, '"correct" missing'),
    (("attempts", 0, "mode"), "cram", '"mode"'),
    (("attempts", 0, "params"), {"deep": _deep(100)}, "nested more than 32 levels"),
    (("attempts", 0, "shown_json"), "{broken", "not JSON text"),
    (("attempts",), {}, '"attempts" must be a list'),
    (("reviews", 0, "rating"), 7, "review 0"),
    (("reports",), [{"uid": "r", "item_id": "q", "kind": "rant", "at": "2026-11-30T12:00:00+00:00"}], "report 0"),
    # the envelope
    (("version",), "1", "not a whole number"),
    (("version",), True, "not a whole number"),
    (("version",), 2, "newer than this study reads"),
    (("version",), 0, "does not exist"),
    (("format",), "anki", "not a study progress export"),
]


def _hostile(backup: dict, path: tuple, value) -> dict:
    if "OPEN" in path:
        path = tuple(_open_session_index(backup) if p == "OPEN" else p for p in path)
    return _set(backup, path, value)


@pytest.mark.parametrize("replace", [False, True], ids=["merge", "replace"])
@pytest.mark.parametrize("path, value, message", HOSTILE, ids=[f"{'.'.join(map(str, p))}={str(v)[:20]}"
                                                             for p, v, _ in HOSTILE])
def test_a_hostile_backup_is_refused_and_the_store_is_unchanged(backup, held, path, value, message, replace):
    data = _hostile(backup, path, value)
    before = rows(held)
    with open_store(held, fuzz=False) as s, pytest.raises(ImportFormatError) as info:
        s.import_data(data, read_session=read_saved_session, replace=replace)
    assert message in str(info.value) and "\n" not in str(info.value)
    assert rows(held) == before


def test_rows_that_break_the_stores_constraints_are_counted_not_dropped(backup, held):
    data = copy.deepcopy(backup)
    for k in (1, 3, 4):
        data["attempts"][k]["seconds"] = -5
    before = rows(held)
    with open_store(held) as s, pytest.raises(ImportFormatError) as info:
        s.import_data(data, read_session=read_saved_session)
    text = str(info.value)
    assert text.startswith('attempt 1: "seconds" ') and "(and 2 more problems)" in text
    assert "nothing was imported" in text
    assert rows(held) == before


@pytest.mark.parametrize("case", ["desired_retention", "report_json", "card", "version", "nested 100k deep"])
def test_the_import_command_says_one_line_and_changes_nothing(backup, held, tmp_path, capsys, case):
    file = tmp_path / "backup.json"
    if case == "nested 100k deep":
        file.write_text('{"format": "study-progress", "version": 1, "attempts": ' + "[" * 100_000 + "]" * 100_000
                        + "}")
    else:
        spoil = {"desired_retention": (("settings", "desired_retention"), "abc"),
                 "report_json": (("sessions", 0, "report_json"), "not json"),
                 "card": (("items", 0, "card"), {"x": 1}),
                 "version": (("version",), "1")}[case]
        file.write_text(json.dumps(_hostile(backup, *spoil)))
    before = rows(held)
    for extra in ([], ["--replace"]):
        assert main(["--db", str(held), "import", str(file), *extra]) == 1
        (line,) = capsys.readouterr().err.strip().splitlines()
        assert line.startswith("study: error:")
        assert rows(held) == before


# -- property: whatever JSON comes in, a result or one ImportFormatError, and a refusal changes nothing ------

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2, 10**12), st.floats(allow_nan=True),
                     st.text(max_size=12), st.sampled_from(["2026-11-30T10:00:00+00:00", "9999-01-01", "exam",
                                                            "{}", '{"version": 1}', "card", "1"]))
_json = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                     max_leaves=8)


@st.composite
def _mutated(draw, base: dict) -> dict:
    """The real backup with a few values anywhere in it replaced, removed, or the whole of it replaced."""
    if draw(st.integers(0, 9)) == 0:
        return draw(_json)
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 2))):
        target = data
        while True:  # walk down to a random value; containers are never empty on the way
            key = draw(st.sampled_from(list(target) if isinstance(target, dict) else range(len(target))))
            child = target[key]
            if not (isinstance(child, (dict, list)) and child) or draw(st.integers(0, 4)) == 0:
                break
            target = child
        if isinstance(target, dict) and draw(st.integers(0, 4)) == 0:
            del target[key]
        elif draw(st.booleans()):
            target[key] = draw(_json)
        else:  # same JSON type, odd value: what the checks must judge on meaning, not shape
            target[key] = draw(_like(target[key]))
    return data


def _like(value):
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.sampled_from([0, -1, 1, 4, 5, 10**12, 2**63])
    if isinstance(value, float):
        return st.floats(allow_nan=True, allow_infinity=True)
    if isinstance(value, str):
        return st.sampled_from(["", "x", "2026-11-30T10:00:00+00:00", "1999-12-31T23:59:59Z", "2100-01-01", "{}",
                                '{"version": 1}', "null", "[]", "exam", "card", "question", "\x00", "é" * 300])
    return st.just(value)


def test_property_any_backup_gives_a_result_or_one_error(backup, tmp_path_factory):
    path = tmp_path_factory.mktemp("property") / "held.db"
    outcome = {"refused": 0, "imported": 0}
    with open_store(path, fuzz=False) as store:
        store.record_attempt(Attempt("mine", "h", {}, "A", True, 20.0, "quiz", None, NOW))

        # derandomize: the same examples on every run, so CI is stable; the figures below say they vary
        @settings(max_examples=100, deadline=None, database=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
        @given(data=_mutated(backup), replace=st.booleans())
        def check(data, replace):
            before = rows(path)
            try:
                store.import_data(data, read_session=read_saved_session, replace=replace)
            except ImportFormatError as exc:
                assert "\n" not in str(exc)
                outcome["refused"] += 1
                assert rows(path) == before
                return
            outcome["imported"] += 1
            # what was let in must read back: the schedule, the settings, the exams, a resume
            compute_stats(store, _EMPTY_BANK, NOW)
            active = store.active_session("exam")
            if active:
                QuizSession.from_json(active[1])
            store.import_data(backup, read_session=read_saved_session, replace=True)  # a known state for the next example

        check()
    assert outcome["refused"] > 20 and outcome["imported"] > 5, outcome


def _empty_bank():
    from study.bank import Bank

    from .conftest import blueprint

    return Bank(blueprint=blueprint(), questions=(), topics=())


_EMPTY_BANK = _empty_bank()
