"""``study analyze`` end to end: learners' answers recorded in real stores, exported with ``study export``
(progress JSON and xAPI), analysed, checked against the hand-computed fixture of test_stats."""

from __future__ import annotations

import json
import math
import os

import pytest

from study.analysis.report import random_guess_score
from study.bank import load_bank
from study.cli import main

from .conftest import export_learner
from .test_stats import FIXTURE, moodle_items


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.fixture(scope="module")
def qids(bank):
    """Four real questions of the built-in bank: single, multi, true/false and numeric."""
    return [next(q.id for q in bank.questions if q.type == t) for t in ("single", "multi", "true_false", "numeric")]


def _answers(row, qids, *, practice_first: bool):
    """The fixture row as exam answers; every wrong one retried right an hour later (not a first answer), and
    optionally an earlier wrong practice answer to q1, which only --mode exam leaves out."""
    answers = [(q, bool(c), "exam", 10 + k) for k, (q, c) in enumerate(zip(qids, row))]
    answers += [(q, True, "practice", 70 + k) for k, (q, c) in enumerate(zip(qids, row)) if not c]
    if practice_first:
        answers.insert(0, (qids[0], False, "practice", 0))
    return answers


@pytest.fixture
def exports(tmp_path, qids):
    d = tmp_path / "class"
    d.mkdir()
    for n, row in enumerate(FIXTURE):
        export_learner(d, f"learner{n}", _answers(row, qids, practice_first=n == 0))
    return d


def run_json(capsys, *argv):
    code = main(["analyze", *argv, "--json"])
    out = capsys.readouterr()
    data = json.loads(out.out)
    # Exit 1 exactly when a question looks broken; too few answers alone is not a finding.
    broken = [q["id"] for q in data["questions"] if q["flags"] and "too few responses" not in q["flags"]]
    assert code == (1 if broken else 0), out.err
    return data


def test_exam_answers_give_the_hand_computed_figures(exports, qids, capsys):
    data = run_json(capsys, str(exports), "--mode", "exam", "--min-responses", "6")
    assert data["learners"] == 6 and data["files"] == 6
    t = data["test"]
    # As in test_stats.test_test_figures_by_hand: totals 4 3 2 2 1 2 out of 4.
    assert t["attempts"] == 6 and t["complete"] is True
    assert t["mean"] == pytest.approx(100 * 7 / 12) and t["median"] == pytest.approx(50)
    assert t["sd"] == pytest.approx(100 * math.sqrt(16 / 15) / 4)
    assert t["skewness"] == pytest.approx((11 / 15) / (16 / 15) ** 1.5)
    assert t["kurtosis"] == pytest.approx(450 / 768)
    assert t["cic"] == pytest.approx(100 / 12)
    assert t["error_ratio"] == pytest.approx(100 * math.sqrt(11 / 12))
    by_id = {q["id"]: q for q in data["questions"]}
    for qid, ref in zip(qids, moodle_items(FIXTURE)):
        q = by_id[qid]
        assert q["responses"] == q["rest_responses"] == 6
        assert q["facility"] == pytest.approx(float(ref["facility"]))
        assert q["sd"] == pytest.approx(ref["sd"])
        assert q["discrimination"] == pytest.approx(ref["discrimination"])
        assert q["discriminative_efficiency"] == pytest.approx(ref["efficiency"])
        assert q["intended_weight"] == pytest.approx(25)
    # q1 by hand (test_stats.test_question_one_by_hand): facility 5/6, DI 29.28, DE 100%.
    assert by_id[qids[0]]["discrimination"] == pytest.approx(29.277, abs=1e-3)


def test_all_modes_take_the_earlier_practice_answer_first(exports, qids, capsys):
    data = run_json(capsys, str(exports))
    q1 = next(q for q in data["questions"] if q["id"] == qids[0])
    # Learner 0's first answer to q1 is now the wrong practice one: 4 of 6 right.
    assert q1["facility"] == pytest.approx(100 * 4 / 6)


def test_xapi_exports_give_the_same_figures(tmp_path, qids, exports, capsys):
    d = tmp_path / "lrs"
    d.mkdir()
    for n, row in enumerate(FIXTURE):
        export_learner(d, f"learner{n}", _answers(row, qids, practice_first=n == 0), fmt="xapi")
    from_json = run_json(capsys, str(exports), "--mode", "exam")
    from_xapi = run_json(capsys, *sorted(str(p) for p in d.glob("*.jsonl")), "--mode", "exam")
    assert from_xapi["test"] == pytest.approx(from_json["test"])
    key = {q["id"]: q for q in from_json["questions"]}
    for q in from_xapi["questions"]:
        assert q == pytest.approx(key[q["id"]])


def test_guess_scores_and_locations_come_from_the_bank(exports, qids, bank, capsys):
    data = run_json(capsys, str(exports), "--mode", "exam")
    by_id = {q["id"]: q for q in data["questions"]}
    single, multi, tf, numeric = (bank.question(q) for q in qids)
    assert by_id[single.id]["random_guess"] == pytest.approx(100 / len(single.choices))
    n, k = len(multi.choices), multi.choose or sum(c.correct for c in multi.choices)
    assert by_id[multi.id]["random_guess"] == pytest.approx(100 / math.comb(n, k))
    assert by_id[tf.id]["random_guess"] == 50
    assert by_id[numeric.id]["random_guess"] == pytest.approx(100 / (1 + len(numeric.distractors)))
    # Over all modes a numeric question was mostly typed: nothing to guess among.
    assert next(q for q in run_json(capsys, str(exports))["questions"] if q["id"] == numeric.id)["random_guess"] is None
    assert random_guess_score(numeric, "all") is None
    for q in (single, multi, tf, numeric):
        assert by_id[q.id]["location"] == f"{q.source.path}:{q.source.line}"
        assert by_id[q.id]["type"] == q.type


def test_too_few_responses_is_the_only_flag_below_the_minimum(exports, capsys):
    data = run_json(capsys, str(exports), "--mode", "exam")  # 6 learners, default minimum 10
    assert data["min_responses"] == 10
    assert all(q["flags"] == ["too few responses"] for q in data["questions"])


def test_table_lists_flagged_questions_first_with_their_location(tmp_path, qids, bank, capsys):
    d = tmp_path / "class"
    d.mkdir()
    extra = next(q for q in bank.questions if q.id not in qids)
    for n, row in enumerate(FIXTURE):
        # q2 discriminates negatively (its rest scores fall as its marks rise); a fifth question all get right.
        answers = _answers(row, qids, practice_first=False) + [(extra.id, True, "exam", 30)]
        export_learner(d, f"learner{n}", answers)
    # Questions that look broken are findings: exit 1, as lint does.
    assert main(["analyze", str(d), "--mode", "exam", "--min-responses", "5"]) == 1
    out = capsys.readouterr().out
    assert "Learners     6  questions 5  answered per learner 5.0" in out
    check = out[out.index("Check these questions"):]
    # Run from the repository: locations relative to it, each under its question.
    shown = os.path.relpath(extra.source.path)
    assert not shown.startswith(("/", "..")), shown
    assert f"  {extra.id}: facility over 95%\n    {shown}:{extra.source.line}\n" in check
    assert f"  {qids[1]}: negative discrimination\n" in check
    table = out[:out.index("Check these questions")]
    assert table.index(extra.id) < table.index(qids[0]) and table.index(qids[1]) < table.index(qids[0])
    assert max(len(line) for line in out.splitlines()) <= 80


def test_errors_exit_1_with_the_location_and_usage_mistakes_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "study-progress", "version": 1, "attempts": [{"correct": true}]}')
    assert main(["analyze", str(bad)]) == 1
    assert capsys.readouterr().err.strip() == f"study: error: {bad}: attempt 1: \"item_id\" must be a question id"
    empty = tmp_path / "empty.json"
    empty.write_text('{"format": "study-progress", "version": 1, "attempts": []}')
    assert main(["analyze", str(empty)]) == 1
    assert "no answers" in capsys.readouterr().err
    assert main(["analyze", str(empty), "--min-responses", "0"]) == 2
    with pytest.raises(SystemExit) as exc:
        main(["analyze", str(empty), "--mode", "homework"])
    assert exc.value.code == 2


def test_a_bank_that_cannot_load_is_one_line_exit_1(exports, tmp_path, capsys):
    assert main(["analyze", str(exports), "--content", str(tmp_path / "nowhere")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("study: error: cannot load the question bank: ") and "blueprint.yaml" in err
    assert len(err.splitlines()) == 1


def test_nothing_flagged_says_so(exports, capsys):
    assert main(["analyze", str(exports), "--mode", "exam", "--flagged"]) == 0  # all "few" at 6 learners
    out = capsys.readouterr().out
    assert "No question looks broken" in out and "6 question(s)" not in out
    assert "4 question(s) have fewer than 10 first answers" in out


def test_learners_sharing_a_login_are_told_apart_and_a_shared_actor_is_warned(tmp_path, qids, monkeypatch, capsys):
    """The lab case: every learner is ``root``. Default actors keep them apart; one --actor for all is one
    learner, said on stderr."""
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    own, shared = tmp_path / "own", tmp_path / "shared"
    own.mkdir()
    shared.mkdir()
    for n, row in enumerate(FIXTURE):
        answers = _answers(row, qids, practice_first=False)
        export_learner(own, f"l{n:02d}", answers, fmt="xapi", actor=None)
        export_learner(shared, f"l{n:02d}", answers, fmt="xapi", actor="https://study-nca-aiio.invalid|root")
    capsys.readouterr()
    data = run_json(capsys, str(own), "--mode", "exam")
    assert data["learners"] == len(FIXTURE) and data["warnings"] == []
    assert main(["analyze", str(shared)]) == 0
    out = capsys.readouterr()
    assert "Learners     1 " in out.out
    assert out.err == (f"study: warning: {len(FIXTURE)} files share the actor https://study-nca-aiio.invalid|root; "
                       "they are counted as one learner — give each learner their own --actor\n")


def test_two_backups_of_one_store_are_one_learner(tmp_path, qids, capsys):
    from .conftest import T0  # noqa: F401 - the stores' clock

    d = tmp_path / "class"
    d.mkdir()
    for n, row in enumerate(FIXTURE):
        export_learner(d, f"learner{n}", _answers(row, qids, practice_first=False))
    # learner0 practises more and backs up again into the same folder: its exam answers are in both files.
    from study.progress import Attempt, open_store
    import datetime as dt

    with open_store(d / "learner0.db", fuzz=False) as store:
        store.record_attempt(Attempt(qids[0], "h", {}, "B", False, 5.0, "practice", None,
                                     dt.datetime(2026, 12, 1, tzinfo=dt.timezone.utc)))
    assert main(["--db", str(d / "learner0.db"), "export", str(d / "learner0-later.json")]) == 0
    capsys.readouterr()
    assert main(["analyze", str(d), "--mode", "exam", "--json", "--min-responses", "6"]) == 1  # q2 discr<0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert data["learners"] == 6 and data["files"] == 7
    # The hand-computed exam figures of the fixture, unchanged by the second backup.
    assert data["test"]["cic"] == pytest.approx(100 / 12)
    assert "learner0-later.json" in out.err and "learner0.json" in out.err and "one learner" in out.err


def test_a_store_given_instead_of_an_export_says_what_to_run(tmp_path, qids, capsys, monkeypatch):
    export_learner(tmp_path, "l00", [(qids[0], True, "exam", 1)])
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["analyze", "l00.db"]) == 1
    assert capsys.readouterr().err == ("study: error: l00.db is a progress store, not an export: run "
                                       "`study --db l00.db export l00.json` first\n")


def test_learners_reports_show_beside_the_questions_figures(exports, qids, capsys):
    """A learner reports a problem in the app; it travels in their export and `study analyze` shows it with
    that question's figures (text and JSON), once even when two backups of the store are given."""
    from study.progress import open_store
    from study.progress.reports import add_report

    with open_store(exports / "learner2.db") as store:
        add_report(store, qids[1], "wrong-key", "both DCGM and nvidia-smi are right", context="results")
        add_report(store, qids[1], "unclear", context="review")
    assert main(["--db", str(exports / "learner2.db"), "export", "--format", "json",
                 str(exports / "learner2.json"), "--force"]) == 0
    capsys.readouterr()
    data = run_json(capsys, str(exports), "--mode", "exam", "--min-responses", "6")
    by_id = {q["id"]: q for q in data["questions"]}
    assert [(r["kind"], r["text"]) for r in by_id[qids[1]]["reports"]] == [
        ("wrong-key", "both DCGM and nvidia-smi are right"), ("unclear", "")]
    assert by_id[qids[0]]["reports"] == [] and list(data["reports"]) == [qids[1]]
    assert main(["analyze", str(exports), "--mode", "exam", "--min-responses", "6"]) == 1  # q2 discr<0: a finding
    out = capsys.readouterr().out
    section = out.split("Reported by learners (2 reports)")[1]
    assert f"{qids[1]}: unclear 1, wrong-key 1 (n 6, facility" in section
    assert "wrong-key in results: both DCGM and nvidia-smi are right" in section
    (exports / "learner2-again.json").write_bytes((exports / "learner2.json").read_bytes())
    again = run_json(capsys, str(exports), "--mode", "exam", "--min-responses", "6")
    assert len(again["reports"][qids[1]]) == 2


def test_reports_are_read_from_the_end_of_an_export_without_parsing_it_all():
    from study.analysis.learner_reports import reports_of_export

    doc = {"format": "study-progress", "attempts": [], "settings": {"reports": [{"item_id": "no", "kind": "x"}]},
           "reports": [{"uid": "u1", "item_id": "q1", "kind": "unclear", "text": "] } \"reports\": ["}]}
    for text in (json.dumps(doc), json.dumps(doc, indent=2)):
        assert [r["uid"] for r in reports_of_export(text, {"attempts": []})] == ["u1"]
    del doc["reports"]
    assert reports_of_export(json.dumps(doc), {"attempts": []}) == []
