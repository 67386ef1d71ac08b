"""A learner who sent a progress export and xAPI statements is one learner, matched by the store's learner id."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from study.analysis.results import load_results
from study.bank import load_bank
from study.interop.xapi import DEFAULT_BASE, build_statements, default_actor, parse_actor, store_learner_id, to_jsonl
from study.progress import Attempt, open_store
from study.progress.transfer import export_data

START = dt.datetime(2026, 11, 2, 9, 0, 0, 123456, tzinfo=dt.timezone.utc)


def store_with(path: Path, qids: list[str], rights: list[bool], bank, offset: int = 0):
    store = open_store(path)
    for n, (qid, right) in enumerate(zip(qids, rights)):
        store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "A", right, 30.0, "practice",
                                     at=START + dt.timedelta(minutes=offset + n)))
    return store


def progress_file(store, path: Path) -> Path:
    path.write_text(json.dumps(store.export_data(), indent=1), encoding="utf-8")
    return path


def xapi_file(store, bank, path: Path, actor=None) -> Path:
    actor = actor or default_actor(DEFAULT_BASE, store_learner_id(store))
    path.write_text(to_jsonl(build_statements(export_data(store), bank, actor, DEFAULT_BASE)[0]), encoding="utf-8")
    return path


def test_both_forms_of_one_learner_count_once_with_every_answer_once(tmp_path: Path) -> None:
    bank = load_bank()
    qids = sorted(q.id for q in bank.questions if q.type == "single")[:6]
    ana = store_with(tmp_path / "ana.db", qids[:4], [True, False, True, True], bank)
    store_learner_id(ana)
    early = progress_file(ana, tmp_path / "ana.json")
    # Ana practises more, then sends xAPI statements: two answers only the xAPI file has.
    for n, qid in enumerate(qids[4:]):
        ana.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "B", False, 20.0, "practice",
                                   at=START + dt.timedelta(hours=1, minutes=n)))
    later = xapi_file(ana, bank, tmp_path / "ana.jsonl")
    ben = store_with(tmp_path / "ben.db", qids, [False] * 6, bank)
    other = xapi_file(ben, bank, tmp_path / "ben.jsonl")

    responses = load_results([early, later, other])
    assert len(responses.learners) == 2
    assert responses.answers == 6 + 6  # ana's four answers once, her two later ones, ben's six
    row = responses.learners.index(str(early))
    assert [responses.marks[row, responses.questions.index(q)] for q in qids] == [1, 0, 1, 1, 0, 0]
    assert any("are one learner (learner id" in w and "counted once" in w for w in responses.warnings)


def test_an_actor_without_the_learner_id_cannot_be_matched_and_the_class_is_warned(tmp_path: Path) -> None:
    bank = load_bank()
    qids = sorted(q.id for q in bank.questions if q.type == "single")[:3]
    ana = store_with(tmp_path / "ana.db", qids, [True, True, False], bank)
    files = [progress_file(ana, tmp_path / "ana.json"),
             xapi_file(ana, bank, tmp_path / "ana.jsonl", actor=parse_actor("ana@example.com"))]
    responses = load_results(files)
    assert len(responses.learners) == 2
    assert any("given with --actor" in w and "counts twice" in w for w in responses.warnings)


def _cli_learner(tmp_path: Path, name: str, bank, qids: list[str], rights: list[bool]) -> Path:
    db = tmp_path / f"{name}.db"
    store_with(db, qids, rights, bank).close()
    return db


def test_a_json_export_made_before_any_xapi_export_still_matches_it(tmp_path: Path, capsys) -> None:
    # Issue 36.3: the JSON export came first, when the store had no learner id yet, so the learner's two
    # exports counted as two learners (30 became 60).
    from study.cli import main

    bank = load_bank()
    qids = sorted(q.id for q in bank.questions if q.type == "single")[:3]
    db = _cli_learner(tmp_path, "ana", bank, qids, [True, False, True])
    assert main(["--db", str(db), "export", str(tmp_path / "ana.json")]) == 0
    assert main(["--db", str(db), "export", "--format", "xapi", str(tmp_path / "ana.jsonl")]) == 0
    with open_store(db) as store:
        learner = store.get_setting("learner_id")
    data = json.loads((tmp_path / "ana.json").read_text(encoding="utf-8"))
    assert learner and data["settings"]["learner_id"] == learner
    responses = load_results([tmp_path / "ana.json", tmp_path / "ana.jsonl"])
    assert len(responses.learners) == 1 and responses.answers == 3
    assert not any("could not be matched" in w for w in responses.warnings)


def test_the_warning_names_its_real_cause(tmp_path: Path) -> None:
    bank = load_bank()
    qids = sorted(q.id for q in bank.questions if q.type == "single")[:3]
    ana = store_with(tmp_path / "ana.db", qids, [True, True, False], bank)
    ben = store_with(tmp_path / "ben.db", qids, [False, True, False], bank)
    # Two learners, one form each, both with their learner id: nothing to warn about (the warning blamed an
    # --actor nobody used).
    files = [progress_file(ana, tmp_path / "ana.json"), xapi_file(ben, bank, tmp_path / "ben.jsonl")]
    responses = load_results(files)
    assert len(responses.learners) == 2 and responses.warnings == ()
    # A progress export written by an older study, with no learner id: that is the cause named.
    old = json.loads(files[0].read_text(encoding="utf-8"))
    del old["settings"]["learner_id"]
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    (warning,) = load_results([tmp_path / "old.json", files[1]]).warnings
    assert "1 progress export(s) carry no learner id" in warning and str(tmp_path / "old.json") in warning
    assert "--actor" not in warning and "export it again" in warning
    # An xAPI file exported with --actor: that is the cause named.
    named = xapi_file(ben, bank, tmp_path / "ben-named.jsonl", actor=parse_actor("ben@example.com"))
    (warning,) = load_results([files[0], named]).warnings
    assert "1 xAPI actor(s) given with --actor" in warning and "mailto:ben@example.com" in warning
