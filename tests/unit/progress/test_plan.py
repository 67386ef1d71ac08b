"""Today's plan: reviews due today, new questions on the weakest objectives, minutes at the learner's pace,
and whether the new questions a day reach every unseen one before the exam date."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from study.cli import main
from study.progress import Attempt, Rating
from study.progress import plan as planmod
from study.progress.plan import compute_plan, measured_pace

from .conftest import NOW

T = dt.timedelta


def answer(store, item, correct=True, at=NOW, seconds=30.0, mode="practice"):
    store.record_attempt(Attempt(item, "h", {}, "A", correct, seconds, mode, None, at))


def test_without_history_the_stated_defaults_set_the_pace(store, bank):
    pace = measured_pace(store)
    assert (pace.seconds_per_answer, pace.seconds_per_rating) == (120.0, 20.0) and not pace.measured
    p = compute_plan(store, bank, NOW)
    assert p.new_questions == 4  # the whole unseen bank fits in the daily goal of 20
    assert p.minutes == 4 * 2
    assert p.on_track is None and "exam date" in p.on_track_text


def test_the_pace_is_the_median_of_the_learners_own_answers_and_ratings(store):
    for k in range(planmod.PACE_MIN_SAMPLES):
        answer(store, f"q{k}", True, NOW - T(days=2, minutes=k), seconds=40.0 + k)
        store.review_card(f"c{k}", "h", Rating.Good, 8.0 + (k % 3), NOW - T(days=2, minutes=k))
    answer(store, "lunch", True, NOW - T(days=2, hours=1), seconds=3 * 3600)  # an answer left open: capped
    pace = measured_pace(store)
    assert pace.seconds_per_answer == pytest.approx(45.0)
    assert pace.seconds_per_rating == pytest.approx(9.0)
    assert pace.answers_measured == 11 and pace.ratings_measured == 10


def test_reviews_due_today_and_the_goal_shape_the_day(store, bank):
    store.set_setting("daily_goal", 3)
    answer(store, "a1", False, NOW - T(hours=2))  # due a minute later: a review today
    store.review_card("t1/intro", "h", Rating.Again, 10.0, NOW - T(hours=2))
    p = compute_plan(store, bank, NOW)
    assert (p.review_cards, p.review_questions) == (1, 1)
    assert p.answered_today == 1
    assert p.new_questions == 3 - 1 - 1
    assert p.minutes == 5  # (1 question review + 1 new) x 120 s + 1 card x 20 s = 260 s, rounded up
    assert p.summary() == "2 reviews, 1 new question on " + p.new_by_objective[0].objective + ", about 5 min"


def test_new_questions_follow_study_next_and_respect_the_new_a_day_cap(store, bank):
    store.set_setting("new_per_day", 2)
    p = compute_plan(store, bank, NOW)
    assert p.new_questions == 2
    assert sum(o.questions for o in p.new_by_objective) == 2
    assert len(p.new_by_objective) == 2  # at most half on one objective while others have unseen ones
    from study.progress.stats import compute_stats

    ranked = [s.objective for s in compute_stats(store, bank, NOW).readiness.study_next]
    assert [o.objective for o in p.new_by_objective] == [o for o in ranked if o in
                                                          {x.objective for x in p.new_by_objective}]


def test_suspended_questions_are_not_planned(store, bank):
    from study.progress.control import suspend

    for qid in ("a1", "a2", "b1"):
        suspend(store, qid, NOW)
    p = compute_plan(store, bank, NOW)
    assert p.new_questions == 1 and p.unseen_questions == 1


@pytest.mark.parametrize("days, per_day, on_track", [(10, 1, True), (3, 1, False), (2, 2, True)])
def test_on_track_means_every_unseen_question_is_reached_before_the_exam(store, bank, days, per_day, on_track):
    store.set_setting("exam_date", (NOW.date() + T(days=days)).isoformat())
    store.set_setting("new_per_day", per_day)
    p = compute_plan(store, bank, NOW)
    assert p.days_left == days and p.unseen_questions == 4
    assert p.on_track is on_track
    assert p.on_track_text.startswith("On track" if on_track else "Not on track")


def test_study_plan_prints_the_days_to_the_exam(tmp_path, capsys):
    db = str(tmp_path / "p.db")
    when = (dt.date.today() + T(days=30)).isoformat()
    assert main(["--db", db, "settings", "exam_date", when]) == 0
    capsys.readouterr()
    assert main(["--db", db, "plan"]) == 0
    out = capsys.readouterr().out
    assert f"Exam in 30 days ({when})." in out and "Today: " in out and "about" in out
    assert main(["--db", db, "plan", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["days_left"] == 30 and data["on_track"] is True and data["method"] == planmod.PLAN_METHOD


def test_study_suspend_bury_and_unsuspend(tmp_path, capsys):
    from study.bank import load_bank

    qid = load_bank().questions[0].id
    db = str(tmp_path / "p.db")
    assert main(["--db", db, "suspend", qid]) == 0
    assert f"suspended question {qid}" in capsys.readouterr().out
    assert main(["--db", db, "suspend", "--list", "--json"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)] == [qid]
    assert main(["--db", db, "unsuspend", qid]) == 0
    assert "is back" in capsys.readouterr().out
    assert main(["--db", db, "bury", qid, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["buried_until"]
    assert main(["--db", db, "suspend", "--list"]) == 0
    assert "buried until" in capsys.readouterr().out


@pytest.mark.parametrize("cmd", ["suspend", "unsuspend", "bury"])
def test_an_unknown_id_is_one_line(tmp_path, capsys, cmd):
    assert main(["--db", str(tmp_path / "p.db"), cmd, "no-such-id"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("study: error: no card or question with id 'no-such-id' (ids are in the question and topic files,"
                   " and on screen in the app; `study preview ID` shows a question)")
    assert main(["--db", str(tmp_path / "p.db"), cmd]) == 2



@pytest.mark.parametrize("typed, first", [("d1-mlops-3", "d1-mlops-03"), ("D1-MLOPS-03", "d1-mlops-03"),
                                          ("d1-mlop-03", "d1-mlops-03")])
def test_a_mistyped_id_is_answered_with_the_nearest_ids(tmp_path, capsys, typed, first):
    # Issue 37 §3: `no card or question with id 'd1-mlops-3'` left the learner to guess the zero.
    assert main(["--db", str(tmp_path / "p.db"), "suspend", typed]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"study: error: no card or question with id {typed!r}; did you mean {first}")
    assert err.endswith("?") and "\n" not in err and err.count("d1-mlops-") <= 1 + 3  # the id typed and three at most


def test_nearest_ids_leave_out_what_is_not_close():
    from study.progress.control import nearest_ids

    ids = ["d1-mlops-03", "d1-mlops-13", "d2-dpu-03", "fx/nested"]
    assert nearest_ids("d1-mlops-3", ids) == ["d1-mlops-03", "d1-mlops-13"]
    assert nearest_ids("no-such-id", ids) == []
    assert nearest_ids("FX/Nested", ids) == ["fx/nested"]


def test_a_day_with_nothing_planned_says_why(store, bank):
    # It always said "your goal is met", also with the goal unmet and nothing left to start.
    from dataclasses import replace

    store.set_setting("new_per_day", 0)
    p = compute_plan(store, bank, NOW)
    assert p.summary() == "Nothing planned for today: the new-items-a-day limit is reached and nothing is due"
    idle = replace(p, daily_goal=5)
    assert replace(idle, answered_today=5).summary() == "Nothing planned for today: your goal is met and nothing is due"
    assert replace(idle, unseen_questions=0).summary() == ("Nothing planned for today: no question is left unseen "
                                                          "and nothing is due")


def test_plan_ends_the_nothing_planned_line_with_one_full_stop(tmp_path, capsys):
    empty = tmp_path / "empty.yaml"
    empty.write_text("questions:\n", encoding="utf-8")
    assert main(["--db", str(tmp_path / "p.db"), "plan", "--questions", str(empty)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Today: Nothing planned for today: no question is left unseen and nothing is due. " in out


def test_days_to_see_the_bank_are_rounded_up():
    # 25 unseen at 10 a day take 3 days (the third day sees the last 5), not 2: with two days left the
    # learner is not on track, though 25 / 10 = 2.5 floors to 2 (issue 37, a surviving mutation).
    on_track, text = planmod._on_track(2, 25, 10)
    assert on_track is False
    assert text.startswith("Not on track") and "in 3 days" in text and "the exam is in 2 days" in text
    assert planmod._on_track(3, 25, 10)[0] is True


def test_a_day_of_new_questions_is_shared_by_objectives_of_equal_need():
    # At most half of a day's new questions on one objective while another has unseen ones: 10 go 5 and 5,
    # not all 10 on the first objective of the order (issue 37, a surviving mutation).
    assert planmod._spread(10, ["o1", "o2"], {"o1": 20, "o2": 20}) == [("o1", 5), ("o2", 5)]
    # An odd count rounds the cap up, and an objective that runs dry leaves the rest to the next.
    assert planmod._spread(5, ["o1", "o2"], {"o1": 20, "o2": 20}) == [("o1", 3), ("o2", 2)]
    assert planmod._spread(10, ["o1", "o2"], {"o1": 2, "o2": 20}) == [("o1", 2), ("o2", 8)]
    # With only one objective left unseen, the cap gives way rather than leaving the day's goal unused.
    assert planmod._spread(10, ["o1", "o2"], {"o1": 20}) == [("o1", 10)]
