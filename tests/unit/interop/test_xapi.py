"""``study export --format xapi``: a store filled by real quiz sessions, exported, and every statement checked
against the spec (``test_xapi_spec.validate_statement``) and against values worked out by hand from the fixture
bank (``tests/data/xapi/questions.yaml``), never from the exporter's own output."""

from __future__ import annotations

import argparse
import datetime as dt
import json
import uuid
from pathlib import Path

import pytest

from study.bank import Bank, load_bank
from study.progress import Attempt, open_store
from study.quiz.instance import LABELS, instantiate
from study.quiz.grade import AnswerError, grade_answer
from study.quiz.session import QuizSession
from study.interop import xapi

try:  # the validator lives beside this file; a package __init__ there would make the import relative
    from .test_xapi_spec import validate_statement
except ImportError:
    from test_xapi_spec import validate_statement

DATA = Path(__file__).resolve().parents[2] / "data" / "xapi" / "questions.yaml"
UTC = dt.timezone.utc
# Two days ago to the second: statement times must be in the past (a provider must not send future times).
T0 = (dt.datetime.now(UTC) - dt.timedelta(days=2)).replace(microsecond=0)
S = dt.timedelta(seconds=1)
BASE = xapi.DEFAULT_BASE
ALICE = {"objectType": "Agent", "mbox": "mailto:alice@example.com"}

SINGLE, MULTI, TF, FIXED, TEMPLATED = ("xapi-single-01", "xapi-multi-02", "xapi-tf-03", "xapi-fixed-04",
                                       "xapi-templated-05")


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank(questions=[DATA])


def letters(inst, question, authored: tuple[int, ...]) -> str:
    """The letters the learner sees for the choices the author wrote at positions ``authored``."""
    texts = {question.choices[i].text for i in authored}
    return ",".join(LABELS[k] for k, o in enumerate(inst.options) if o.text in texts)


def option_letter(inst, text: str) -> str:
    return next(LABELS[k] for k, o in enumerate(inst.options) if o.text == text)


def run(session: QuizSession, answers: dict[int, str], start: dt.datetime, submit: dt.datetime | None) -> None:
    for k, value in answers.items():
        session.goto(k, now=start + (10 * k + 1) * S)
        try:
            session.answer(value, now=start + (10 * k + 8) * S)
        except AnswerError:
            # "2 s" for a size is refused now; a store written before that holds it as a wrong answer.
            session.answers[k] = value
            session._record(k, grade_answer(session.instances[k], value), start + (10 * k + 8) * S)
    if submit is not None:
        session.submit(now=submit)


class Recorded:
    """What the fixture did, so tests can state what each statement must say."""

    def __init__(self, bank: Bank, db: Path) -> None:
        self.db = db
        q = {x.id: x for x in bank.questions}
        order = [SINGLE, MULTI, TF, FIXED, TEMPLATED]
        with open_store(db, fuzz=False) as store:
            # p1: untimed practice, submitted: choice letters are mapped back through the session report.
            insts = [instantiate(q[i], "p1") for i in order]
            self.p1_billions = insts[4].params["billions"]
            s = QuizSession(insts, mode="practice", started_at=T0, store=store, session_id="p1")
            run(s, {0: letters(insts[0], q[SINGLE], (2,)), 1: letters(insts[1], q[MULTI], (0, 1)), 2: "F",
                    3: "130.4 GiB", 4: "2 s"}, T0, T0 + 120 * S)
            # e1: timed exam, failed: one right out of five, the templated question left unanswered.
            t1 = T0 + dt.timedelta(hours=1)
            insts = [instantiate(q[i], "e1", as_choice=True) for i in order]
            e = QuizSession(insts, mode="exam", started_at=t1, minutes=10, store=store, session_id="e1")
            run(e, {0: letters(insts[0], q[SINGLE], (0,)), 1: letters(insts[1], q[MULTI], (0, 2)), 2: "T",
                    3: option_letter(insts[3], "70 GB")}, t1, t1 + 200 * S)
            # A store written before blanks stopped being attempts holds one for the unanswered question.
            store.record_attempt(Attempt(TEMPLATED, insts[4].content_hash, dict(insts[4].params), "", False, 0.0,
                                         "exam", "e1", t1 + 200 * S, uid="e1-blank-uid"))
            self.e1_seconds = 200
            # e2: timed exam, passed: all five right; the templated question has no distractors, so it is typed.
            t2 = T0 + dt.timedelta(hours=2)
            insts = [instantiate(q[i], "e2", as_choice=True) for i in order]
            self.e2_billions = insts[4].params["billions"]
            e = QuizSession(insts, mode="exam", started_at=t2, minutes=10, store=store, session_id="e2")
            run(e, {0: letters(insts[0], q[SINGLE], (2,)), 1: letters(insts[1], q[MULTI], (0, 2)), 2: "F",
                    3: option_letter(insts[3], "140 GB"), 4: f"{2 * self.e2_billions} GB"}, t2, t2 + 65.5 * S)
            # p2: timed practice left unfinished: its saved state keeps the order the choices were shown in.
            t3 = T0 + dt.timedelta(hours=3)
            insts = [instantiate(q[i], "p2") for i in (SINGLE, FIXED)]
            s = QuizSession(insts, mode="practice", started_at=t3, minutes=10, store=store, session_id="p2")
            run(s, {0: letters(insts[0], q[SINGLE], (1,)), 1: "1.4e11"}, t3, None)
            # p3: untimed practice left unfinished: no session state says which choice "B" was; only the
            # attempt's own record of the picked text does.
            t4 = T0 + dt.timedelta(hours=4)
            insts = [instantiate(q[SINGLE], "p3")]
            self.p3_authored = next(k for k, c in enumerate(q[SINGLE].choices) if c.text == insts[0].options[1].text)
            s = QuizSession(insts, mode="practice", started_at=t4, store=store, session_id="p3")
            run(s, {0: "B"}, t4, None)
            # An answer to a question since deleted from the bank.
            self.gone_at = T0 + dt.timedelta(hours=5, milliseconds=250)
            store.record_attempt(Attempt("xapi-gone-06", "h0", {}, "C", True, 12.345, "practice", None,
                                         self.gone_at, uid="gone-uid"))
            self.data = store.export_data()


@pytest.fixture(scope="module")
def recorded(bank: Bank, tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    return Recorded(bank, tmp_path_factory.mktemp("xapi") / "progress.db")


def without_shown(data: dict) -> dict:
    """The export as a store before schema 6 wrote it: no record of the question as shown."""
    import copy

    data = copy.deepcopy(data)
    for a in data["attempts"]:
        a.pop("shown", None)
    return data


@pytest.fixture(scope="module")
def statements(recorded: Recorded, bank: Bank) -> list[dict]:
    """Statements described from the bank, as for answers recorded before schema 6 kept what was shown."""
    sts, _ = xapi.build_statements(without_shown(recorded.data), bank, ALICE)
    return sts


@pytest.fixture(scope="module")
def shown_statements(recorded: Recorded, bank: Bank) -> list[dict]:
    """Statements described from what each answer recorded it was shown (schema 6 on)."""
    sts, _ = xapi.build_statements(recorded.data, bank, ALICE)
    return sts


def answers(statements: list[dict], qid: str, session: str | None) -> list[dict]:
    reg = str(uuid.uuid5(xapi.NAMESPACE, f"registration|{session}")) if session else None
    return [s for s in statements if s["object"]["id"].split("?")[0] == f"{BASE}/questions/{qid}"
            and s["context"].get("registration") == reg]


def one(statements: list[dict], qid: str, session: str | None) -> dict:
    found = answers(statements, qid, session)
    assert len(found) == 1, found
    return found[0]


# --- validity -------------------------------------------------------------------------------------------------


def test_every_statement_is_valid_by_the_spec(statements: list[dict]) -> None:
    assert statements
    for st in statements:
        validate_statement(st)
    assert len({s["id"] for s in statements}) == len(statements)


def test_one_statement_per_answer_and_the_verdicts_of_finished_sessions(recorded: Recorded, statements) -> None:
    verbs = [s["verb"]["id"].rsplit("/", 1)[1] for s in statements]
    # 5 + 5 + 5 + 2 + 1 + 1 answers, of which one exam question was never answered.
    assert len(recorded.data["attempts"]) == 19
    assert verbs.count("answered") == 18 and verbs.count("attempted") == 1
    # p1 (practice): completed; e1: completed + failed; e2: completed + passed; p2, p3 unfinished: nothing.
    assert verbs.count("completed") == 3 and verbs.count("failed") == 1 and verbs.count("passed") == 1
    assert [s["timestamp"] for s in statements] == sorted(s["timestamp"] for s in statements)


# --- questions as interactions --------------------------------------------------------------------------------


def test_choice_questions_use_the_authors_order_whatever_order_the_learner_saw(statements) -> None:
    st = one(statements, SINGLE, "p1")
    defn = st["object"]["definition"]
    assert defn["interactionType"] == "choice"
    assert [c["id"] for c in defn["choices"]] == ["a", "b", "c", "d"]
    assert defn["choices"][2]["description"] == {"en": "The InfiniBand compute fabric"}
    assert defn["correctResponsesPattern"] == ["c"]
    assert st["result"]["response"] == "c" and st["result"]["success"] is True
    multi = one(statements, MULTI, "p1")
    assert multi["object"]["definition"]["correctResponsesPattern"] == ["a[,]c"]
    assert multi["result"]["response"] == "a[,]b" and multi["result"]["success"] is False
    # The exam's shuffled letters are mapped through its report, the unfinished timed practice through its state.
    assert one(statements, SINGLE, "e1")["result"]["response"] == "a"
    assert one(statements, MULTI, "e1")["result"]["response"] == "a[,]c"
    assert one(statements, SINGLE, "p2")["result"]["response"] == "b"


def test_an_unsaved_practice_answer_is_mapped_through_the_texts_the_attempt_kept(recorded, statements) -> None:
    st = one(statements, SINGLE, "p3")
    assert st["result"]["response"] == xapi.choice_id(recorded.p3_authored)
    assert st["result"]["extensions"] == {f"{BASE}/extensions/given": "B"}


def test_an_older_export_without_picked_texts_has_no_response_but_keeps_the_letter(recorded, bank) -> None:
    data = without_shown(recorded.data)
    for a in data["attempts"]:
        a.pop("picked", None)  # as exported before schema 5
    sts, _ = xapi.build_statements(data, bank, ALICE)
    st = one(sts, SINGLE, "p3")
    assert "response" not in st["result"]
    assert st["result"]["extensions"] == {f"{BASE}/extensions/given": "B"}
    # Sessions that kept their order or report still map without the attempt's texts.
    assert one(sts, SINGLE, "e1")["result"]["response"] == "a"
    assert one(sts, SINGLE, "p2")["result"]["response"] == "b"


def test_true_false(statements) -> None:
    st = one(statements, TF, "p1")
    assert st["object"]["definition"]["interactionType"] == "true-false"
    assert st["object"]["definition"]["correctResponsesPattern"] == ["false"]
    assert st["result"]["response"] == "false" and st["result"]["success"] is True
    assert one(statements, TF, "e1")["result"]["response"] == "true"


def test_numeric_answers_carry_the_tolerance_range_in_the_answers_unit(statements) -> None:
    st = one(statements, FIXED, "p1")
    defn = st["object"]["definition"]
    assert defn["interactionType"] == "numeric"
    # 140 GB +- 2 % = 137.2 .. 142.8 GB.
    assert defn["correctResponsesPattern"] == ["137.2[:]142.8"]
    assert defn["extensions"][f"{BASE}/extensions/unit"] == "GB"
    # 130.4 GiB typed: 130.4 x 2^30 B = 140.0159... GB.
    assert float(st["result"]["response"]) == pytest.approx(130.4 * 2**30 / 1e9, rel=1e-9)
    assert st["result"]["success"] is True
    # In the exam the number was picked among distractors: the response is the picked value, not its letter.
    assert one(statements, FIXED, "e1")["result"]["response"] == "70"
    # A bare 1.4e11 was graded as bytes (140 GB): the response is that reading.
    assert float(one(statements, FIXED, "p2")["result"]["response"]) == pytest.approx(140.0)


def test_a_templated_question_is_an_instance_with_its_own_range(recorded: Recorded, statements) -> None:
    b = recorded.p1_billions
    st = one(statements, TEMPLATED, "p1")
    assert st["object"]["id"] == f"{BASE}/questions/{TEMPLATED}?billions={b}"
    defn = st["object"]["definition"]
    # FP16 weights: 2 bytes x b billion parameters = 2b GB, tolerance 0.5 GB.
    low, high = defn["correctResponsesPattern"][0].split("[:]")
    assert (float(low), float(high)) == pytest.approx((2 * b - 0.5, 2 * b + 0.5))
    assert f"{b}-billion-parameter" in defn["description"]["en"]
    other = [a["id"] for a in st["context"]["contextActivities"]["other"]]
    assert f"{BASE}/questions/{TEMPLATED}" in other and f"{BASE}/objectives/2.1" in other
    # "2 s" is a time, not a size: graded wrong, and no number in GB to report.
    assert "response" not in st["result"] and st["result"]["success"] is False
    assert st["result"]["extensions"] == {f"{BASE}/extensions/given": "2 s"}
    e2 = one(statements, TEMPLATED, "e2")
    assert float(e2["result"]["response"]) == pytest.approx(2 * recorded.e2_billions)
    assert e2["result"]["success"] is True


def test_an_unanswered_exam_question_is_attempted_not_answered(statements) -> None:
    st = one(statements, TEMPLATED, "e1")
    assert st["verb"]["id"] == "http://adlnet.gov/expapi/verbs/attempted"
    assert st["result"]["success"] is False and st["result"]["completion"] is False
    assert "response" not in st["result"] and "extensions" not in st["result"]


def test_answer_scores_durations_times_and_context(statements) -> None:
    st = one(statements, SINGLE, "p1")
    assert st["result"]["score"] == {"scaled": 1.0, "raw": 1, "min": 0, "max": 1}
    # The first question is on screen from the start, T0, until answered at T0 + 8 s (see run()).
    assert st["result"]["duration"] == "PT8S"
    assert st["timestamp"] == (T0 + 8 * S).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    ctx = st["context"]["contextActivities"]
    assert [a["id"] for a in ctx["parent"]] == [f"{BASE}/practice"]
    assert [a["id"] for a in ctx["grouping"]] == [BASE]
    assert ctx["grouping"][0]["definition"]["type"] == "http://adlnet.gov/expapi/activities/course"
    assert one(statements, SINGLE, "e1")["context"]["contextActivities"]["parent"][0]["id"] == f"{BASE}/exam"
    for s in statements:
        score = s["result"].get("score")
        if score:
            assert score["scaled"] == pytest.approx(score["raw"] / score["max"])


# --- sessions ---------------------------------------------------------------------------------------------------


def session_statements(statements, session: str) -> dict[str, dict]:
    reg = str(uuid.uuid5(xapi.NAMESPACE, f"registration|{session}"))
    return {s["verb"]["id"].rsplit("/", 1)[1]: s for s in statements
            if s["context"].get("registration") == reg and s["object"]["id"] in (f"{BASE}/exam", f"{BASE}/practice")}


def test_a_failed_exam(recorded: Recorded, statements) -> None:
    got = session_statements(statements, "e1")
    assert set(got) == {"completed", "failed"}
    for st in got.values():
        assert st["object"]["definition"]["type"] == "http://adlnet.gov/expapi/activities/assessment"
        # 1 right of 5 against the engine's 70 % target.
        assert st["result"]["score"] == {"scaled": 0.2, "raw": 1, "min": 0, "max": 5}
        assert st["result"]["success"] is False and st["result"]["completion"] is True
        assert st["result"]["duration"] == "PT3M20S"
        assert st["timestamp"] == (T0 + dt.timedelta(hours=1, seconds=200)).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def test_a_passed_exam_and_a_completed_practice(statements) -> None:
    got = session_statements(statements, "e2")
    assert set(got) == {"completed", "passed"}
    assert got["passed"]["result"]["score"] == {"scaled": 1.0, "raw": 5, "min": 0, "max": 5}
    assert got["passed"]["result"]["success"] is True and got["passed"]["result"]["duration"] == "PT1M5.5S"
    practice = session_statements(statements, "p1")
    assert set(practice) == {"completed"}
    # p1: right on single, true/false and the GiB answer; wrong on multi and "2 s".
    assert practice["completed"]["result"]["score"] == {"scaled": 0.6, "raw": 3, "min": 0, "max": 5}
    assert "success" not in practice["completed"]["result"]


def test_registration_is_one_uuid_per_session(statements) -> None:
    regs = {}
    for sid in ("p1", "e1", "e2", "p2", "p3"):
        found = {s["context"]["registration"] for s in answers(statements, SINGLE, sid)}
        assert len(found) == 1
        regs[sid] = found.pop()
        assert uuid.UUID(regs[sid]).version == 5
    assert len(set(regs.values())) == 5


# --- identity ----------------------------------------------------------------------------------------------------


def test_two_exports_are_identical_so_an_lrs_stores_them_once(recorded: Recorded, bank: Bank) -> None:
    with open_store(recorded.db, fuzz=False) as store:
        again = store.export_data()
    first, _ = xapi.build_statements(recorded.data, bank, ALICE)
    second, _ = xapi.build_statements(again, bank, ALICE)
    assert xapi.to_jsonl(first) == xapi.to_jsonl(second)
    for st in first:
        assert uuid.UUID(st["id"]).version == 5


def test_another_actor_gets_other_statement_ids(recorded: Recorded, bank: Bank, statements) -> None:
    bob = xapi.parse_actor("bob@example.com")
    other, _ = xapi.build_statements(recorded.data, bank, bob)
    assert not {s["id"] for s in other} & {s["id"] for s in statements}
    # ...but the same registrations: the sittings are the same.
    assert {s["context"].get("registration") for s in other} == {s["context"].get("registration") for s in statements}


def test_a_question_gone_from_the_bank_is_still_exported(recorded: Recorded, bank: Bank) -> None:
    smaller = Bank(blueprint=bank.blueprint, questions=tuple(q for q in bank.questions if q.id != TF), topics=())
    sts, summary = xapi.build_statements(without_shown(recorded.data), smaller, ALICE)
    for st in sts:
        validate_statement(st)
    assert summary.missing == {TF, "xapi-gone-06"} and summary.missing_answers == 4
    gone = one(sts, "xapi-gone-06", None)
    assert gone["object"] == {"objectType": "Activity", "id": f"{BASE}/questions/xapi-gone-06",
                              "definition": {"name": {"en": "question xapi-gone-06"},
                                             "type": "http://adlnet.gov/expapi/activities/question"}}
    assert gone["result"]["success"] is True and gone["result"]["duration"] == "PT12.35S"
    assert gone["timestamp"] == recorded.gone_at.strftime("%Y-%m-%dT%H:%M:%S.250Z")
    assert "registration" not in gone["context"]
    # What the exam report still knows: the stem as shown and the objective.
    tf = one(sts, TF, "e1")
    assert tf["object"]["definition"]["description"] == {"en": "Every machine learning system is a deep learning system."}
    assert tf["context"]["contextActivities"]["other"][0]["id"] == f"{BASE}/objectives/1.3"


# --- formats -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seconds,text", [
    (42.5, "PT42.5S"), (0, "PT0S"), (0.004, "PT0S"), (3902, "PT1H5M2S"), (3600, "PT1H"), (59.999, "PT1M"),
    (61.25, "PT1M1.25S"), (12.345, "PT12.35S"),
])
def test_iso_durations(seconds: float, text: str) -> None:
    assert xapi.iso_duration(seconds) == text


@pytest.mark.parametrize("value,text", [(137.2, "137.2"), (140.0, "140"), (2.8e-7, "0.00000028"),
                                        (1.5e15, "1500000000000000"), (-0.5, "-0.5"), (0.1 + 0.2, "0.3")])
def test_numbers_in_patterns_are_plain_decimals(value: float, text: str) -> None:
    assert xapi.number_text(value) == text


# --- actor and the command ---------------------------------------------------------------------------------------


def test_actor_forms() -> None:
    assert xapi.parse_actor("Alice.Smith@Example.COM") == {"objectType": "Agent", "mbox": "mailto:Alice.Smith@example.com"}
    assert xapi.parse_actor("mailto:a@b.org") == {"objectType": "Agent", "mbox": "mailto:a@b.org"}
    assert xapi.parse_actor("https://lms.example.edu|alice") == {
        "objectType": "Agent", "account": {"homePage": "https://lms.example.edu", "name": "alice"}}


@pytest.mark.parametrize("bad", ["alice", "alice@", "alice@localhost", "a b@example.com", "|alice",
                                 "lms.example.edu|alice", "https://lms.example.edu|", "ftp://x.org|a"])
def test_malformed_actors_are_refused(bad: str) -> None:
    with pytest.raises(xapi.ActorError):
        xapi.parse_actor(bad)


def test_default_actor_is_the_local_user_and_the_learner_id_on_the_bases_site(monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "alice")
    assert xapi.default_actor(BASE, "0123456789ab") == {
        "objectType": "Agent", "account": {"homePage": "https://study-nca-aiio.invalid", "name": "alice-0123456789ab"}}


def _one_answer_store(path: Path) -> Path:
    with open_store(path, fuzz=False) as store:
        store.record_attempt(Attempt("xapi-gone-06", "h0", {}, "C", True, 12.0, "practice", None, T0,
                                     uid=f"uid-{path.stem}"))
    return path


def _export_default(db: Path, capsys, actor: str | None = None) -> list[dict]:
    args = argparse.Namespace(db=str(db), file="-", actor=actor, format="xapi", questions=[str(DATA)])
    assert xapi.export_command(args) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_learners_sharing_a_login_get_their_own_default_actor(tmp_path: Path, monkeypatch, capsys) -> None:
    """A lab where every learner is ``root``: each store is its own learner, and stays the same one."""
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    first, second = _one_answer_store(tmp_path / "l01.db"), _one_answer_store(tmp_path / "l02.db")
    a1, b = _export_default(first, capsys), _export_default(second, capsys)
    a2 = _export_default(first, capsys)
    ids = []
    for db, sts in ((first, a1), (second, b)):
        with open_store(db) as store:
            learner = store.get_setting(xapi.LEARNER_ID_SETTING)
        assert isinstance(learner, str) and len(learner) == 12 and int(learner, 16) >= 0
        assert {json.dumps(s["actor"]) for s in sts} == {json.dumps(
            {"objectType": "Agent", "account": {"homePage": "https://study-nca-aiio.invalid", "name": f"root-{learner}"}})}
        ids.append(learner)
    assert ids[0] != ids[1]
    # Exported again: the same actor and so the same statement ids, which an LRS stores once.
    assert a2 == a1
    # --actor still wins.
    assert {s["actor"]["mbox"] for s in _export_default(first, capsys, "ann@example.com")} == {"mailto:ann@example.com"}


def test_a_restored_backup_and_an_existing_id_keep_the_learner(tmp_path: Path, monkeypatch, capsys) -> None:
    import getpass

    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    original = _one_answer_store(tmp_path / "old.db")
    with open_store(original) as store:
        store.set_setting(xapi.LEARNER_ID_SETTING, "kept-by-hand")  # not one of ours, but not ours to replace
    before = _export_default(original, capsys)
    assert before[0]["actor"]["account"]["name"] == "root-kept-by-hand"
    with open_store(original) as store:
        backup = store.export_data()
    with open_store(tmp_path / "new-machine.db") as store:
        store.import_data(backup)
    assert _export_default(tmp_path / "new-machine.db", capsys) == before


def command(recorded: Recorded, file: str | None, actor: str | None = None) -> argparse.Namespace:
    return argparse.Namespace(db=str(recorded.db), file=file, actor=actor, format="xapi", questions=[str(DATA)])


def test_command_writes_one_statement_per_line(recorded: Recorded, tmp_path: Path, capsys) -> None:
    out = tmp_path / "statements.jsonl"
    assert xapi.export_command(command(recorded, str(out), "alice@example.com")) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    err = capsys.readouterr().err
    assert f"exported {len(lines)} xAPI statements (19 answers, 3 finished sessions) to {out}" in err
    assert "1 answer to 1 question no longer in the bank (xapi-gone-06)" in err
    # Only the templated "2 s" (wrong kind of number); p3's "B" is mapped through the attempt's picked text.
    assert "1 answer exported without result.response" in err
    for line in lines:
        validate_statement(json.loads(line))
    assert xapi.export_command(command(recorded, "-", "alice@example.com")) == 0
    assert capsys.readouterr().out == out.read_text(encoding="utf-8")


def test_command_refuses_a_malformed_actor_with_a_usage_error(recorded: Recorded, tmp_path: Path, capsys) -> None:
    out = tmp_path / "never.jsonl"
    assert xapi.export_command(command(recorded, str(out), "not-an-email")) == 2
    err = capsys.readouterr().err
    assert err.startswith("study: error: --actor 'not-an-email':") and err.count("\n") == 1
    assert not out.exists()


def test_base_iri_comes_from_the_environment(recorded: Recorded, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv(xapi.BASE_ENV, "https://lms.example.edu/xapi/aiio/")
    assert xapi.export_command(command(recorded, "-", "https://lms.example.edu|alice")) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines and all(s["object"]["id"].startswith("https://lms.example.edu/xapi/aiio/") for s in lines)
    monkeypatch.setenv(xapi.BASE_ENV, "lms.example.edu")
    assert xapi.export_command(command(recorded, "-", "a@b.org")) == 2


def test_the_base_option_wins_over_the_environment_and_names_itself_in_errors(recorded: Recorded, monkeypatch,
                                                                              capsys) -> None:
    from study.cli import main

    monkeypatch.setenv(xapi.BASE_ENV, "https://env.example.org/x")
    argv = ["--db", str(recorded.db), "export", "--format", "xapi", "--actor", "a@b.org",
            "--questions", str(DATA)]
    assert main([*argv, "--xapi-base", "https://lms.example.edu/xapi/nca", "-"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines and all(s["object"]["id"].startswith("https://lms.example.edu/xapi/nca/") for s in lines)
    assert main([*argv, "--xapi-base", "lms.example.edu", "-"]) == 2
    assert capsys.readouterr().err.startswith("study: error: --xapi-base 'lms.example.edu':")


def test_cli_dispatch_with_the_built_in_bank(recorded: Recorded, capsys) -> None:
    from study.cli import main

    assert main(["--db", str(recorded.db), "export", "--format", "xapi", "--actor", "a@b.org", "-"]) == 0
    captured = capsys.readouterr()
    lines = [json.loads(x) for x in captured.out.splitlines()]
    assert len(lines) == 19 + 5
    for st in lines:
        validate_statement(st)
    # None of the fixture questions is in the built-in bank: the answers that recorded what was shown keep
    # their full description; only the two without that record (older stores) go out with the id only.
    assert "2 answers to 2 questions no longer in the bank" in captured.err
    described = [st for st in lines if st["object"]["definition"].get("interactionType")]
    assert len(described) == 17
    assert main(["--db", str(recorded.db), "export", "--format", "xapi", "--actor", "nobody"]) == 2


# --- the whole built-in bank ---------------------------------------------------------------------------------------


def _agrees(st: dict) -> bool:
    """Whether the response, judged by the correct-response pattern alone, gets the verdict the grader gave."""
    defn, result = st["object"]["definition"], st["result"]
    pattern = defn["correctResponsesPattern"]
    if defn["interactionType"] == "numeric":
        low, high = (float(x) for x in pattern[0].split("[:]"))
        # The pattern is written to 12 significant digits; the grader compares exact floats.
        slack = 1e-9 * max(abs(low), abs(high), 1.0)
        return (low - slack <= float(result["response"]) <= high + slack) == result["success"]
    return (result["response"] in pattern) == result["success"]


def test_every_answer_to_the_built_in_bank_agrees_with_the_graders_verdict(tmp_path: Path) -> None:
    """Practice and exams over the real bank (templated calculator questions included), answered right and
    wrong in turn: each exported response, judged by its pattern alone, gets the verdict the grader gave."""
    import random

    from study.quiz.session import build_exam, build_practice

    real = load_bank()
    rng = random.Random(5)
    start = T0 - dt.timedelta(days=1)
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        sessions = [build_practice(real, 11, count=40, store=store, now=start),
                    build_practice(real, 12, count=40, store=store, now=start + dt.timedelta(hours=1)),
                    build_exam(real, 13, store=store, now=start + dt.timedelta(hours=2))]
        for n, s in enumerate(sessions):
            t = start + dt.timedelta(hours=n)
            for k, inst in enumerate(s.instances):
                s.goto(k, now=t + k * S)
                if inst.is_numeric_typed:
                    value = inst.expected if rng.random() < 0.5 else f"{inst.numeric.value * 3} {inst.numeric.unit}"
                elif inst.type == "true_false":
                    value = rng.choice("TF")
                else:
                    picks = rng.sample(range(len(inst.options)), inst.choose)
                    value = ",".join(LABELS[i] for i in sorted(picks))
                s.answer(value, now=t + (k + 0.5) * S)
            s.submit(now=t + 59 * dt.timedelta(minutes=1))
        data = store.export_data()
    sts, summary = xapi.build_statements(data, real, ALICE)
    assert summary.missing == set() and summary.no_response == 0
    answered = [s for s in sts if s["verb"]["id"].endswith("/answered")]
    assert len(answered) == 40 + 40 + real.blueprint.exam.questions
    kinds = set()
    for st in sts:
        validate_statement(st)
    for st in answered:
        kinds.add(st["object"]["definition"]["interactionType"])
        assert _agrees(st), st
    assert kinds == {"choice", "true-false", "numeric"}


def test_choice_ids_past_the_alphabet_stay_distinct() -> None:
    ids = [xapi.choice_id(i) for i in range(30)]
    assert ids[:3] == ["a", "b", "c"] and ids[25] == "z" and ids[26] == "c27"
    assert len(set(ids)) == 30


def test_an_unwritable_file_is_one_line_and_exit_1(recorded: Recorded, tmp_path: Path, capsys) -> None:
    target = tmp_path / "no-such-folder" / "out.jsonl"
    assert xapi.export_command(command(recorded, str(target), "a@b.org")) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(f"study: error: cannot write {target}")


def test_an_empty_store_exports_nothing(tmp_path: Path, capsys) -> None:
    args = argparse.Namespace(db=str(tmp_path / "empty.db"), file="-", actor="a@b.org", questions=[str(DATA)])
    assert xapi.export_command(args) == 0
    assert capsys.readouterr().out == ""


# --- statements fixed at answer time (issue 12 §1) ------------------------------------------------------------


def test_answers_keep_what_was_shown_and_choices_have_stable_ids(recorded: Recorded, shown_statements, bank) -> None:
    from study.quiz.shown import choice_key

    single = next(q for q in bank.questions if q.id == SINGLE)
    st = one(shown_statements, SINGLE, "p1")
    defn = st["object"]["definition"]
    assert defn["interactionType"] == "choice"
    # The choices in the order the learner saw them, each named by the hash of its text.
    shown = next(a["shown"] for a in recorded.data["attempts"]
                 if a["item_id"] == SINGLE and a["session_id"] == "p1")
    assert [c["description"]["en"] for c in defn["choices"]] == [c["text"] for c in shown["choices"]]
    assert {c["description"]["en"] for c in defn["choices"]} == {c.text for c in single.choices}
    fabric = choice_key("The InfiniBand compute fabric")
    assert defn["correctResponsesPattern"] == [fabric]
    assert st["result"]["response"] == fabric and st["result"]["success"] is True
    assert one(shown_statements, SINGLE, "e1")["result"]["response"] == choice_key("NVLink through the NVSwitch chips")
    multi = one(shown_statements, MULTI, "e1")
    assert multi["result"]["response"].split("[,]") and set(multi["result"]["response"].split("[,]")) == {
        choice_key("nvidia-smi"), choice_key("DCGM (dcgmi)")}
    assert one(shown_statements, TF, "p1")["object"]["definition"]["correctResponsesPattern"] == ["false"]
    for st in shown_statements:
        validate_statement(st)


def _edited_bank(tmp_path: Path) -> Bank:
    """A copy of the fixture bank with every stem reworded and every question's choices in reverse order."""
    import yaml

    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    for q in data["questions"]:
        q["stem"] = "Reworded: " + q["stem"]
        if q.get("choices"):
            q["choices"] = list(reversed(q["choices"]))
    copy = tmp_path / "edited.yaml"
    copy.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    edited = load_bank(questions=[copy])
    assert not [d for d in edited.diagnostics if d.severity == "error"]
    return edited


def test_editing_and_reordering_the_bank_changes_no_exported_statement(recorded: Recorded, bank: Bank,
                                                                       tmp_path: Path) -> None:
    edited = _edited_bank(tmp_path)
    before, _ = xapi.build_statements(recorded.data, bank, ALICE)
    after, _ = xapi.build_statements(recorded.data, edited, ALICE)
    kept = {a["uid"] for a in recorded.data["attempts"] if a.get("shown")}
    assert len(kept) == 17  # every answer made through a session
    ids = {xapi.build_statements({"attempts": [a]}, bank, ALICE)[0][0]["id"]
           for a in recorded.data["attempts"] if a["uid"] in kept}
    line = {st["id"]: xapi.to_jsonl([st]) for st in before}
    again = {st["id"]: xapi.to_jsonl([st]) for st in after}
    assert ids <= set(line)
    for sid in ids:
        assert again[sid] == line[sid]  # byte-identical
    # The edit is real: a statement described from the bank (an answer recorded before schema 6) changed.
    old_before, _ = xapi.build_statements(without_shown(recorded.data), bank, ALICE)
    old_after, _ = xapi.build_statements(without_shown(recorded.data), edited, ALICE)
    assert sum(a != b for a, b in zip(xapi.to_jsonl(old_before).splitlines(), xapi.to_jsonl(old_after).splitlines())) >= 17


def test_the_whole_built_in_bank_edited_and_reordered_changes_no_statement(tmp_path: Path) -> None:
    """Every shipped question asked and answered, then every stem reworded and every choice list reversed
    (numeric keys and templated parameters untouched): the export is byte-identical."""
    from study.quiz.session import build_exam, build_practice

    real = load_bank()
    start = T0 - dt.timedelta(days=1)
    # Practice draws one question per concept (twins are buried); without concepts one session asks them all.
    drawn = Bank(blueprint=real.blueprint, topics=real.topics,
                 questions=tuple(q.model_copy(update={"concept": None}) for q in real.questions))
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        sessions = [build_practice(drawn, 21, count=len(real.questions), store=store, now=start),
                    build_exam(drawn, 22, store=store, now=start + dt.timedelta(hours=1))]
        for n, s in enumerate(sessions):
            t = start + dt.timedelta(hours=n)
            for k, inst in enumerate(s.instances):
                s.goto(k, now=t + k * S)
                s.answer(inst.expected if k % 2 else (inst.expected if inst.is_numeric_typed else
                         next((l for l in inst.labels if l not in inst.correct_labels), inst.expected)),
                         now=t + (k + 0.5) * S)
            s.submit(now=t + 59 * dt.timedelta(minutes=1))
        data = store.export_data()
    assert len(data["attempts"]) == len(real.questions) + real.blueprint.exam.questions
    edited = Bank(blueprint=real.blueprint, topics=real.topics, questions=tuple(
        q.model_copy(update={"stem": q.stem + " (reworded)",
                             **({"choices": tuple(reversed(q.choices))} if q.choices else {})})
        for q in real.questions))
    first, summary = xapi.build_statements(data, real, ALICE)
    second, _ = xapi.build_statements(data, edited, ALICE)
    assert summary.no_response == 0
    assert xapi.to_jsonl(first) == xapi.to_jsonl(second)
    for st in first:
        if st["verb"]["id"].endswith("/answered"):
            assert _agrees(st), st


def test_the_backup_carries_what_was_shown(recorded: Recorded, bank: Bank, tmp_path: Path) -> None:
    with open_store(tmp_path / "restored.db", fuzz=False) as store:
        store.import_data(json.loads(json.dumps(recorded.data)))
        again = store.export_data()
    assert [a.get("shown") for a in again["attempts"]] == [a.get("shown") for a in recorded.data["attempts"]]
    first, _ = xapi.build_statements(recorded.data, bank, ALICE)
    second, _ = xapi.build_statements(again, bank, ALICE)
    assert xapi.to_jsonl(first) == xapi.to_jsonl(second)
