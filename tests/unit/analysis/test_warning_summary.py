"""Per-learner warnings repeated across a class come as one line with a count (issue 36.12): 30 learners who
each handed in two backups of their store gave 30 identical lines."""

from __future__ import annotations

from study.analysis.results import load_results
from tests.unit.analysis.conftest import attempt, write_json


def _backups(tmp_path, progress_doc, learners):
    files = []
    for n in range(learners):
        rows = [attempt("q1", n % 2 == 0, "2026-11-02T09:00:00+00:00", uid=f"l{n}-a"),
                attempt("q2", True, "2026-11-02T09:05:00+00:00", uid=f"l{n}-b")]
        files.append(write_json(tmp_path / f"l{n:02d}-monday.json", progress_doc(rows[:1])))
        files.append(write_json(tmp_path / f"l{n:02d}-friday.json", progress_doc(rows)))
    return files


def test_thirty_learners_with_two_backups_each_get_one_line_with_the_count(tmp_path, progress_doc):
    r = load_results(_backups(tmp_path, progress_doc, 30))
    assert len(r.learners) == 30 and r.answers == 60
    (warning,) = r.warnings
    assert warning.startswith("30 learners each sent several progress exports of one store (the same attempt "
                              "ids): each counted as one learner, each answer once (")
    assert "l00-friday.json" in warning and "and 27 more" in warning


def test_one_learner_with_two_backups_keeps_the_detailed_line(tmp_path, progress_doc):
    (warning,) = load_results(_backups(tmp_path, progress_doc, 1)).warnings
    assert warning.startswith("2 progress exports share answers (the same attempt ids), so they come from one "
                              "store: counted as one learner, each answer once (")


def test_actors_shared_by_files_are_summarised_too(tmp_path):
    import json

    def statement(actor, sid, at):
        return {"id": sid, "actor": {"mbox": f"mailto:{actor}@example.com"},
                "verb": {"id": "http://adlnet.gov/expapi/verbs/answered"},
                "object": {"id": "https://x.invalid/questions/q1"}, "result": {"success": True}, "timestamp": at}

    files = []
    for actor in ("ann", "bob", "cid"):
        for k in range(2):
            path = tmp_path / f"{actor}{k}.jsonl"
            path.write_text(json.dumps(statement(actor, f"{actor}-{k}", f"2026-11-0{k + 2}T09:00:00Z")) + "\n")
            files.append(path)
    (warning,) = load_results(files).warnings
    assert warning.startswith("3 actors are each shared by files with no statement in common (mailto:ann@example"
                              ".com: 2 files, mailto:bob@example.com: 2 files, mailto:cid@example.com: 2 files)")
    assert warning.endswith("each is counted as one learner — give each learner their own --actor")


def test_lrs_pages_that_say_there_are_more_are_one_line(tmp_path):
    def page(name, actor):
        st = {"id": f"{name}-1", "actor": {"mbox": f"mailto:{actor}@example.com"},
              "verb": {"id": "http://adlnet.gov/expapi/verbs/answered"},
              "object": {"id": "https://x.invalid/questions/q1"}, "result": {"success": True},
              "timestamp": "2026-11-02T09:00:00Z"}
        return write_json(tmp_path / f"{name}.json", {"statements": [st], "more": f"/xapi/statements?p={name}"})

    (warning,) = load_results([page("p1", "ann"), page("p2", "bob")]).warnings
    assert warning.startswith("2 files are LRS pages that say the LRS has more statements than they hold (")
    (single,) = load_results([page("p3", "cid")]).warnings
    assert "\"more\": /xapi/statements?p=p3" in single


def test_learners_matched_across_both_forms_are_one_line(tmp_path):
    from study.bank import load_bank
    from tests.unit.analysis.test_both_forms import progress_file, store_with, xapi_file

    bank = load_bank()
    qids = sorted(q.id for q in bank.questions if q.type == "single")[:2]
    files = []
    for name in ("ana", "ben", "cid", "dee"):
        store = store_with(tmp_path / f"{name}.db", qids, [True, False], bank)
        files += [progress_file(store, tmp_path / f"{name}.json"), xapi_file(store, bank, tmp_path / f"{name}.jsonl")]
        store.close()
    r = load_results(files)
    assert len(r.learners) == 4
    (warning,) = r.warnings
    assert warning.startswith("4 learners sent both a progress export and xAPI statements, matched by their "
                              "learner id: each counted once (") and "and 1 more" in warning
