"""Reading exported results: first answers in time order, modes, directories, xAPI, and clear errors."""

from __future__ import annotations

import json
import math

import pytest

from study.analysis.results import ResultsError, load_results
from study.analysis.results_exports import export_attempts as _export_attempts

from .conftest import attempt, write_json


def cell(responses, learner: int, qid: str) -> float:
    return float(responses.marks[learner, responses.questions.index(qid)])


def test_first_answer_in_time_order_even_when_listed_out_of_order(tmp_path, progress_doc):
    doc = progress_doc([
        attempt("q1", True, "2026-11-02T10:00:00+00:00"),
        attempt("q1", False, "2026-11-02T09:00:00+00:00"),  # earlier, listed later: this is the first
        attempt("q2", True, "2026-11-02T09:30:00Z"),
    ])
    r = load_results([write_json(tmp_path / "a.json", doc)])
    assert r.questions == ("q1", "q2") and r.learners == (str(tmp_path / "a.json"),)
    assert cell(r, 0, "q1") == 0 and cell(r, 0, "q2") == 1 and r.answers == 3


def test_mode_keeps_exam_or_everything_else(tmp_path, progress_doc):
    doc = progress_doc([
        attempt("q1", False, "2026-11-02T09:00:00+00:00", mode="practice"),
        attempt("q1", True, "2026-11-02T10:00:00+00:00", mode="exam"),
        attempt("q2", True, "2026-11-02T11:00:00+00:00", mode="quiz"),
    ])
    path = write_json(tmp_path / "a.json", doc)
    assert cell(load_results([path], "all"), 0, "q1") == 0
    exam = load_results([path], "exam")
    assert exam.questions == ("q1",) and cell(exam, 0, "q1") == 1
    assert load_results([path], "practice").questions == ("q1", "q2")


def test_learners_do_not_share_questions_missing_is_nan(tmp_path, progress_doc):
    a = write_json(tmp_path / "a.json", progress_doc([attempt("q1", True, "2026-11-02T09:00:00+00:00")]))
    b = write_json(tmp_path / "b.json", progress_doc([attempt("q2", False, "2026-11-02T09:00:00+00:00")]))
    r = load_results([a, b])
    assert r.marks.shape == (2, 2) and math.isnan(cell(r, 0, "q2")) and math.isnan(cell(r, 1, "q1"))


def test_directory_reads_exports_and_lists_what_it_skipped(tmp_path, progress_doc):
    d = tmp_path / "class"
    (d / "week2").mkdir(parents=True)
    write_json(d / "a.json", progress_doc([attempt("q1", True, "2026-11-02T09:00:00+00:00", uid="u1")]))
    write_json(d / "week2" / "b.json", progress_doc([attempt("q1", False, "2026-11-02T09:00:00+00:00", uid="u2")]))
    write_json(d / "settings.json", {"theme": "dark"})
    (d / "notes.txt").write_text("not results")
    r = load_results([d])
    assert len(r.learners) == 2 and r.files == 3
    assert len(r.skipped) == 1 and "settings.json" in r.skipped[0] and "neither" in r.skipped[0]


def test_the_same_export_twice_counts_once(tmp_path, progress_doc):
    doc = progress_doc([attempt("q1", True, "2026-11-02T09:00:00+00:00", uid="same")])
    r = load_results([write_json(tmp_path / "a.json", doc), write_json(tmp_path / "copy.json", doc)])
    assert len(r.learners) == 1 and r.answers == 1 and r.skipped == ()
    assert len(r.warnings) == 1 and "a.json" in r.warnings[0] and "copy.json" in r.warnings[0]


def test_backups_of_one_store_are_one_learner_with_each_attempt_once(tmp_path, progress_doc):
    """A backup, then more practice and another backup: the shared attempts must not count twice."""
    before = [attempt("q1", False, "2026-11-02T09:00:00+00:00", uid="u1"),
              attempt("q2", True, "2026-11-02T09:01:00+00:00", uid="u2")]
    later = before + [attempt("q1", True, "2026-11-03T09:00:00+00:00", uid="u3"),
                      attempt("q3", False, "2026-11-03T09:01:00+00:00", uid="u4", mode="practice")]
    # A third backup sharing only with the second: the same store still (u3).
    third = [later[2], attempt("q4", True, "2026-11-04T09:00:00+00:00", uid="u5")]
    other = [attempt("q1", True, "2026-11-02T09:00:00+00:00", uid="v1")]
    files = [write_json(tmp_path / "a-before.json", progress_doc(before)),
             write_json(tmp_path / "a-later.json", progress_doc(later)),
             write_json(tmp_path / "a-third.json", progress_doc(third)),
             write_json(tmp_path / "b.json", progress_doc(other))]
    r = load_results(files)
    assert len(r.learners) == 2 and r.files == 4
    assert r.answers == 5 + 1  # u1..u5 and v1
    a = r.learners.index(str(files[0]))
    assert cell(r, a, "q1") == 0 and cell(r, a, "q2") == 1 and cell(r, a, "q3") == 0 and cell(r, a, "q4") == 1
    assert cell(r, 1 - a, "q1") == 1
    assert len(r.warnings) == 1 and all(f.name in r.warnings[0] for f in files[:3]) and "b.json" not in r.warnings[0]
    # --mode keeps its meaning after the merge: the practice answer to q3 goes, the rest stays.
    exam = load_results(files, "exam")
    assert exam.questions == ("q1", "q2", "q4") and len(exam.learners) == 2


def test_exports_without_attempt_ids_are_never_merged(tmp_path, progress_doc):
    bare = progress_doc([{k: v for k, v in attempt("q1", True, "2026-11-02T09:00:00+00:00").items() if k != "uid"}])
    r = load_results([write_json(tmp_path / "a.json", bare), write_json(tmp_path / "b.json", bare)])
    assert len(r.learners) == 2 and r.warnings == ()
    # Answers read are every attempt, whatever the mode keeps.
    two = progress_doc([{k: v for k, v in attempt(q, True, "2026-11-02T09:00:00+00:00", mode=m).items() if k != "uid"}
                        for q, m in (("q1", "exam"), ("q2", "practice"))])
    assert load_results([write_json(tmp_path / "c.json", two)], "exam").answers == 2


def test_a_progress_store_named_by_mistake_gets_the_export_command(tmp_path, progress_doc):
    from study.progress import open_store

    with open_store(tmp_path / "l00.db", fuzz=False):
        pass
    with pytest.raises(ResultsError) as exc:
        load_results([tmp_path / "l00.db"])
    db = tmp_path / "l00.db"
    assert str(exc.value) == (f"{db} is a progress store, not an export: run `study --db {db} export "
                              f"{tmp_path / 'l00.json'}` first")
    # Found in a folder (even under an export's name) it is passed over, and the exports are read.
    d = tmp_path / "class"
    d.mkdir()
    (d / "store.json").write_bytes(db.read_bytes())
    write_json(d / "a.json", progress_doc([attempt("q1", True, "2026-11-02T09:00:00+00:00")]))
    r = load_results([d])
    assert len(r.learners) == 1 and r.skipped == (f"{d / 'store.json'}: a progress store, not an export",)
    binary = tmp_path / "x.json"
    binary.write_bytes(b"\xff\xfe{")
    with pytest.raises(ResultsError, match=r"x\.json: not UTF-8 text"):
        load_results([binary])


@pytest.mark.parametrize("content, expected", [
    ('{"format": "study-progress", "version": 1, "attempts": [\n  {"item_id": }', r"a\.json:2:15: not valid JSON"),
    ('{"theme": "dark"}', r"a\.json: neither a progress export"),
    ('hello', r"a\.json: neither a progress export nor xAPI statements \(not JSON\)"),
    ('{"format": "study-progress", "version": 9, "attempts": []}', r"a\.json: progress export version 9 is newer"),
    ('{"format": "study-progress", "version": 1, "attempts": [{"correct": true}]}',
     r"a\.json: attempt 1: \"item_id\" must be a question id"),
    ('{"format": "study-progress", "version": 1, "attempts": [{"item_id": "q", "correct": true, "at": "soon"}]}',
     r"a\.json: attempt 1: 'soon' is not an ISO 8601 time"),
    ('{"format": "study-progress", "version": 1, "attempts": [{"item_id": "q", "correct": "yes"}]}',
     r"a\.json: attempt 1: \"correct\" must be true or false"),
])
def test_a_named_file_that_is_not_results_is_an_error_with_its_location(tmp_path, content, expected):
    path = tmp_path / "a.json"
    path.write_text(content)
    with pytest.raises(ResultsError, match=expected):
        load_results([path])


def test_missing_path_and_empty_directory(tmp_path):
    with pytest.raises(ResultsError, match="no such file or directory"):
        load_results([tmp_path / "nope.json"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ResultsError, match="no .json, .jsonl or .ndjson files"):
        load_results([tmp_path / "empty"])


BASE = "https://lms.example.edu/nca"


def statement(actor, qid, success, at, verb="answered", mode="exam", scaled=None, params=""):
    result = {"success": success}
    if scaled is not None:
        result["score"] = {"scaled": scaled}
    return {
        "actor": {"mbox": f"mailto:{actor}@example.com"},
        "verb": {"id": f"http://adlnet.gov/expapi/verbs/{verb}"},
        "object": {"id": f"{BASE}/questions/{qid}{params}"},
        "result": result,
        "context": {"contextActivities": {"parent": [{"id": f"{BASE}/{mode}"}], "grouping": [{"id": BASE}]}},
        "timestamp": at,
    }


def test_xapi_lines_group_by_actor_and_keep_first_answers(tmp_path):
    lines = [
        statement("ann", "q1", False, "2026-11-02T09:00:00Z"),
        statement("ann", "q1", True, "2026-11-02T10:00:00Z"),
        statement("bob", "q1", True, "2026-11-02T09:00:00Z", mode="practice"),
        statement("bob", "q2", False, "2026-11-02T09:05:00Z", verb="attempted"),  # left unanswered: 0
        statement("bob", "tmpl", True, "2026-11-02T09:06:00Z", params="?gpus=8&model=llama"),
        statement("ann", "q2", None, "2026-11-02T09:07:00Z", scaled=0.5),  # partial credit
        {**statement("ann", "exam", True, "2026-11-02T09:08:00Z", verb="passed")},
    ]
    path = tmp_path / "lrs.jsonl"
    path.write_text("\n".join(json.dumps(s) for s in lines) + "\n\n")
    r = load_results([path])
    assert r.questions == ("q1", "q2", "tmpl") and len(r.learners) == 2
    ann = next(i for i, name in enumerate(r.learners) if name.startswith("mailto:ann"))
    bob = 1 - ann
    assert cell(r, ann, "q1") == 0 and cell(r, ann, "q2") == 0.5
    assert cell(r, bob, "q1") == 1 and cell(r, bob, "q2") == 0 and cell(r, bob, "tmpl") == 1
    exam = load_results([path], "exam")
    assert exam.questions == ("q1", "q2", "tmpl") and math.isnan(cell(exam, bob, "q1"))


def test_xapi_array_and_errors_with_line_numbers(tmp_path):
    array = tmp_path / "lrs.json"
    array.write_text(json.dumps([statement("ann", "q1", True, "2026-11-02T09:00:00Z")]))
    assert load_results([array]).questions == ("q1",)
    bad = tmp_path / "bad.jsonl"
    good = json.dumps(statement("ann", "q1", True, "2026-11-02T09:00:00Z"))
    bad.write_text(good + "\n" + good.replace('"result": {"success": true}', '"result": {}') + "\n")
    with pytest.raises(ResultsError, match=r"bad\.jsonl:2: an answer statement needs result\.success"):
        load_results([bad])
    broken = tmp_path / "broken.jsonl"
    broken.write_text(good + "\n" + "{oops\n")
    with pytest.raises(ResultsError, match=r"broken\.jsonl:2:2: not valid JSON"):
        load_results([broken])


def test_an_export_as_written_and_the_same_data_reordered_read_alike(tmp_path, progress_doc):
    attempts = [attempt("q1", False, "2026-11-02T09:00:00.000000+00:00", uid="u1"),
                attempt("q2", True, "2026-11-02T09:01:00.000000+00:00", uid="u2")]
    # As `study export` writes it (head keys first, then a bulky session the analysis has no use for) ...
    written = {"format": "study-progress", "version": 1, "schema": 3, "exported_at": "2026-11-03T10:00:00+00:00",
               "attempts": attempts, "reviews": [], "sessions": [{"id": "s", "state_json": "{\"x\": [1, 2]}"}],
               "items": [], "settings": {}}
    a = tmp_path / "a.json"
    a.write_text(json.dumps(written, indent=1))
    # ... and by hand, keys in another order.
    b = tmp_path / "b.json"
    b.write_text(json.dumps({**progress_doc(attempts[::-1]), "format": "study-progress"}))
    assert _export_attempts(a.read_text()) is not None and _export_attempts(b.read_text()) is None
    ra, rb = load_results([a]), load_results([b])
    assert ra.questions == rb.questions == ("q1", "q2")
    assert ra.marks.tolist() == rb.marks.tolist() == [[0.0, 1.0]]
    truncated = tmp_path / "cut.json"
    truncated.write_text(json.dumps(written, indent=1)[:-40])
    with pytest.raises(ResultsError, match=r"cut\.json:\d+:\d+: not valid JSON"):
        load_results([truncated])


def test_xapi_actor_split_across_files_is_one_learner_and_repeats_count_once(tmp_path):
    first = {**statement("ann", "q1", False, "2026-11-02T09:00:00Z"), "id": "s1"}
    later = {**statement("ann", "q1", True, "2026-11-02T10:00:00Z"), "id": "s2"}
    other = {**statement("ann", "q2", True, "2026-11-02T11:00:00Z"), "id": "s3"}
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(json.dumps(later) + "\n")
    b.write_text(json.dumps(first) + "\n" + json.dumps(other) + "\n")
    r = load_results([a, b, b])  # b twice: its statements count once
    assert r.learners == ("mailto:ann@example.com",) and r.answers == 3
    assert cell(r, 0, "q1") == 0 and cell(r, 0, "q2") == 1  # the first answer came from the second file
    assert r.skipped == ("2 xAPI statement(s) met twice (same statement id): counted once",)


def lines(path, statements):
    path.write_text("".join(json.dumps(s) + "\n" for s in statements))
    return path


def with_id(st, sid):
    return {**st, "id": sid}


SHARED = ("2 files share the actor mailto:ann@example.com; they are counted as one learner — give each learner "
          "their own --actor")


def test_exports_of_different_learners_under_one_actor_are_one_learner_with_a_warning(tmp_path):
    a = lines(tmp_path / "l01.jsonl", [with_id(statement("ann", "q1", False, "2026-11-02T09:00:00Z"), "s1")])
    b = lines(tmp_path / "l02.jsonl", [with_id(statement("ann", "q1", True, "2026-11-02T09:30:00Z"), "s2")])
    r = load_results([a, b])
    assert len(r.learners) == 1 and cell(r, 0, "q1") == 0
    assert r.warnings == (SHARED,)


def test_one_learner_exported_again_after_more_practice_is_no_warning(tmp_path):
    first = with_id(statement("ann", "q1", False, "2026-11-02T09:00:00Z"), "s1")
    more = with_id(statement("ann", "q2", True, "2026-11-03T09:00:00Z"), "s2")
    a = lines(tmp_path / "monday.jsonl", [first])
    b = lines(tmp_path / "friday.jsonl", [first, more])
    r = load_results([a, b])
    assert len(r.learners) == 1 and r.answers == 2 and r.warnings == ()


def test_an_lrs_dump_of_many_actors_in_pages_is_no_warning(tmp_path):
    page1 = [with_id(statement("ann", "q1", True, "2026-11-02T09:00:00Z"), "s1"),
             with_id(statement("bob", "q1", False, "2026-11-02T09:00:00Z"), "s2")]
    page2 = [with_id(statement("ann", "q2", True, "2026-11-02T10:00:00Z"), "s3"),
             with_id(statement("bob", "q2", True, "2026-11-02T10:00:00Z"), "s4")]
    # JSON lines too: what makes them a dump is that each file holds many actors.
    r = load_results([lines(tmp_path / "p1.jsonl", page1), lines(tmp_path / "p2.jsonl", page2)])
    assert len(r.learners) == 2 and r.warnings == ()
    # One actor's pages as an LRS answers a query by agent (StatementResult objects): normal too.
    p1 = write_json(tmp_path / "ann1.json", {"statements": page1[:1], "more": "/xapi/statements?page=2"})
    p2 = write_json(tmp_path / "ann2.json", {"statements": page2[:1], "more": ""})
    r = load_results([p1, p2])
    assert len(r.learners) == 1 and cell(r, 0, "q1") == 1 and cell(r, 0, "q2") == 1
    assert r.warnings == (f"{p1}: the LRS has more statements than this file holds (\"more\": "
                          "/xapi/statements?page=2); only the ones in the file were read — fetch the next pages "
                          "into files of their own and analyse them together",)


def test_an_lrs_statement_result_is_read_in_a_folder_too(tmp_path):
    d = tmp_path / "lrs"
    d.mkdir()
    result = {"statements": [statement("ann", "q1", True, "2026-11-02T09:00:00Z"),
                             statement("bob", "q1", False, "2026-11-02T09:00:00Z")], "more": ""}
    write_json(d / "statements.json", result)
    r = load_results([d])
    assert len(r.learners) == 2 and r.skipped == () and r.warnings == ()
    bad = write_json(tmp_path / "bad.json", {"statements": [{"actor": {}}], "more": ""})
    with pytest.raises(ResultsError, match=r"bad\.json: statement 1: not an xAPI statement"):
        load_results([bad])


def test_backups_with_times_written_differently_still_merge_in_time_order(tmp_path, progress_doc):
    # As `study export` writes times (read as text, fast) and by hand with a Z (parsed): the first answer
    # to q1 is the wrong one at 09:00, whichever file it came from.
    a = progress_doc([attempt("q1", True, "2026-11-02T10:00:00.000000+00:00", uid="u2")])
    b = progress_doc([attempt("q1", True, "2026-11-02T10:00:00Z", uid="u2"),
                      attempt("q1", False, "2026-11-02T09:00:00Z", uid="u1")])
    r = load_results([write_json(tmp_path / "a.json", a), write_json(tmp_path / "b.json", b)])
    assert len(r.learners) == 1 and r.answers == 2 and cell(r, 0, "q1") == 0
