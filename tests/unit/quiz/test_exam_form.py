"""A class exam form (issue 36.9): `study export --form NAME` writes it, `study quiz --form FILE` asks exactly
it, and every record of the answers (the saved session, the report, the export, the xAPI statements) names it.
A form file that cannot be used is one `study: error:` line, exit 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from study.cli import main

TEMPLATED = "calc-mfu-01"  # a templated numeric question of the shipped bank
FIXED = "d1-serving-10"  # a single-choice question of the shipped bank


def write_form(tmp_path: Path, *extra: str, name: str = "midterm-a") -> Path:
    target = tmp_path / f"{name}.yaml"
    assert main(["export", "--form", name, "--seed", "7", *extra, str(target)]) == 0
    return target


def take(tmp_path: Path, form: Path, learner: str, lines: str, monkeypatch, capsys, *extra: str) -> dict:
    """One learner (a store of their own) answers the form in the plain terminal; the JSON report."""
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    capsys.readouterr()
    code = main(["--db", str(tmp_path / f"{learner}.db"), "quiz", "--plain", "--form", str(form), "--json", *extra])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def test_export_form_writes_the_questions_and_the_seed_of_each_templated_one(tmp_path, capsys):
    from study.bank import load_bank
    from study.quiz.form import read_form

    path = write_form(tmp_path, "--ids", f"{TEMPLATED},{FIXED}", "--minutes", "5")
    err = capsys.readouterr().err
    form = read_form(path)
    assert form.name == "midterm-a" and form.seed == 7 and form.minutes == 5
    assert [i.id for i in form.items] == [TEMPLATED, FIXED]
    # The templated question carries its seed; the fixed one needs none.
    assert [i.seed for i in form.items] == [7, None]
    bank = load_bank()
    assert [i.hash for i in form.items] == [bank.content_hash(TEMPLATED), bank.content_hash(FIXED)]
    assert f"form midterm-a (id {form.id}): 2 questions, 1 templated, 5 minutes" in err
    # Written again, the same form: the same id.
    again = write_form(tmp_path, "--ids", f"{TEMPLATED},{FIXED}", "--minutes", "5", name="midterm-a")
    assert read_form(again).id == form.id


def test_a_drawn_form_is_shaped_like_the_exam_and_seeded(tmp_path):
    from study.bank import load_bank
    from study.quiz.form import read_form

    one = read_form(write_form(tmp_path, "--count", "10"))
    two = read_form(write_form(tmp_path, "--count", "10", name="midterm-b"))
    assert len(one.items) == 10 and [i.id for i in one.items] == [i.id for i in two.items]
    bank = load_bank()
    domains = sorted(bank.question(i.id).domain for i in one.items)
    # 10 on 38/40/22 by largest remainder: 4, 4, 2.
    assert domains == ["1"] * 4 + ["2"] * 4 + ["3"] * 2
    assert one.id != two.id  # another name, another form


def test_every_learner_is_asked_the_same_form_and_each_record_names_it(tmp_path, monkeypatch, capsys):
    from study.progress import open_store
    from study.quiz.form import read_form

    path = write_form(tmp_path, "--ids", f"{TEMPLATED},{FIXED}")
    form = read_form(path)
    reports = [take(tmp_path, path, name, "A\nB\n", monkeypatch, capsys) for name in ("ann", "bob")]
    for report in reports:
        assert report["mode"] == "exam" and report["form"] == {"name": "midterm-a", "id": form.id}
        assert report["seed"] == 7
        assert [q["id"] for q in report["questions"]] == [TEMPLATED, FIXED]
    # The same stems (the templated values) and the same choices in the same order, for both learners.
    for a, b in zip(*(r["questions"] for r in reports)):
        assert a["stem"] == b["stem"] and a["choices"] == b["choices"] and a["expected"] == b["expected"]
    with open_store(tmp_path / "ann.db", fuzz=False) as store:
        data = store.export_data()
    assert [a["shown"]["form"] for a in data["attempts"]] == [{"name": "midterm-a", "id": form.id}] * 2
    (session,) = data["sessions"]
    assert json.loads(session["report_json"])["form"]["id"] == form.id


def test_the_plain_report_names_the_form(tmp_path, monkeypatch, capsys):
    path = write_form(tmp_path, "--ids", FIXED)
    monkeypatch.setattr("sys.stdin", io.StringIO("A\n"))
    capsys.readouterr()
    assert main(["--db", str(tmp_path / "p.db"), "quiz", "--plain", "--form", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("form midterm-a (id ")
    assert "Form: midterm-a (id " in out


def test_the_xapi_statements_name_the_form(tmp_path, monkeypatch, capsys):
    from study.quiz.form import read_form

    path = write_form(tmp_path, "--ids", f"{TEMPLATED},{FIXED}")
    form = read_form(path)
    take(tmp_path, path, "ann", "A\nB\n", monkeypatch, capsys)
    out = tmp_path / "ann.jsonl"
    assert main(["--db", str(tmp_path / "ann.db"), "export", "--format", "xapi", str(out)]) == 0
    statements = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(statements) == 4  # two answers, completed, failed or passed
    for st in statements:
        ext = {k.rsplit("/", 1)[-1]: v for k, v in st["context"]["extensions"].items()}
        assert ext["form"] == {"name": "midterm-a", "id": form.id}
        grouping = [a["id"] for a in st["context"]["contextActivities"]["grouping"]]
        assert grouping[-1].endswith("/forms/midterm-a")


def test_a_form_exam_resumes_as_the_form(tmp_path):
    from study.bank import load_bank
    from study.progress import open_store
    from study.quiz import unfinished
    from study.quiz.form import build_form_exam, read_form

    path = write_form(tmp_path, "--ids", f"{FIXED},{TEMPLATED}")
    form = read_form(path)
    bank = load_bank()
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        import datetime as dt

        t0 = dt.datetime(2026, 12, 1, 9, tzinfo=dt.timezone.utc)
        session = build_form_exam(bank, form, store=store, now=t0)
        session.answer("A", now=t0 + dt.timedelta(seconds=30))
        back = unfinished(store, "exam", bank, now=t0 + dt.timedelta(minutes=1))
        assert back is not None and back.form == form.tag()
        assert [i.qid for i in back.instances] == [FIXED, TEMPLATED]
        report = back.submit(now=t0 + dt.timedelta(minutes=2))
        assert report.form == form.tag()


def test_a_saved_state_with_a_damaged_form_is_refused_as_damaged():
    from study.quiz.saved_state import SavedStateError, check_saved_state

    base = {"index": 0, "answers": [None], "flags": [False], "seconds": [0.0], "recorded": [], "status": "active",
            "timed_out": False, "target_percent": 70, "started_at": "2026-12-01T09:00:00+00:00", "minutes": None,
            "deadline": None, "mark": None, "finished_at": None, "alerts": [], "fired": []}

    class Inst:
        options = ()

    check_saved_state({**base, "form": {"name": "a", "id": "b"}}, [Inst()])
    for bad in ("x", {"name": "a"}, {"name": 3, "id": "b"}, {"name": "a", "id": "b" * 65}):
        with pytest.raises(SavedStateError, match="form"):
            check_saved_state({**base, "form": bad}, [Inst()])


# --- a form file that cannot be used: one line, exit 2 -------------------------------------------------------

BAD_FORMS = {
    "unknown id": ("format: study-form\nversion: 1\nname: a\nseed: 1\nquestions:\n  - id: d1-serving-1O\n",
                   "no question d1-serving-1O in the bank; did you mean d1-serving-"),
    "damaged yaml": ("format: study-form\nversion: 1\nname: a\nseed: 1\nquestions:\n  - id: [x\n",
                     "form.yaml:7:1: YAML syntax"),
    "not a form": ("questions:\n  - id: d1-serving-10\n", "not a study exam form"),
    "newer version": ("format: study-form\nversion: 2\nname: a\nseed: 1\nquestions: [d1-serving-10]\n",
                      ":2:10: form version 2 is not 1"),
    "twice": ("format: study-form\nversion: 1\nname: a\nseed: 1\nquestions: [d1-serving-10, d1-serving-10]\n",
              "listed twice"),
    "bad seed": ("format: study-form\nversion: 1\nname: a\nseed: 1.5\nquestions: [d1-serving-10]\n",
                 ":4:7: seed must be"),
    "bad name": ("format: study-form\nversion: 1\nname: \"\\e[31m\"\nseed: 1\nquestions: [d1-serving-10]\n",
                 "form name"),
    "unknown key": ("format: study-form\nversion: 1\nname: a\nseed: 1\nquestions:\n  - id: d1-serving-10\n"
                    "    sed: 3\n", ":7:5: unknown key 'sed' in question 1"),
    "no questions": ("format: study-form\nversion: 1\nname: a\nseed: 1\nquestions: []\n", "at least one question"),
    "minutes": ("format: study-form\nversion: 1\nname: a\nseed: 1\nminutes: 0\nquestions: [d1-serving-10]\n",
                "minutes must be"),
    "not utf8": (b"format: study-form\nname: \xff\n", ":2:7: the file is not UTF-8"),
}


@pytest.mark.parametrize("case", sorted(BAD_FORMS))
def test_a_bad_form_file_is_one_error_line(tmp_path, monkeypatch, capsys, case):
    text, said = BAD_FORMS[case]
    path = tmp_path / "form.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    monkeypatch.setattr("sys.stdin", io.StringIO("A\n"))
    code = main(["--db", str(tmp_path / "p.db"), "quiz", "--plain", "--form", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("study: error: ") and said in err, err
    assert "\x1b" not in err
    assert not (tmp_path / "p.db").exists() or case == "unknown id"  # refused before a store is opened


def test_a_huge_form_file_is_refused_unread(tmp_path, capsys):
    from study.quiz.form import MAX_FORM_BYTES

    path = tmp_path / "form.yaml"
    path.write_bytes(b"# " + b"x" * MAX_FORM_BYTES + b"\n")
    assert main(["quiz", "--plain", "--form", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("study: error: form ") and "the limit is 1,000,000 bytes" in err


def test_a_missing_form_file_is_one_error_line(tmp_path, capsys):
    assert main(["quiz", "--plain", "--form", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("study: error: ") and "nope.yaml" in err


@pytest.mark.parametrize("option", [["--count", "5"], ["--domain", "1"], ["--mode", "quiz"], ["--resume"],
                                    ["--seed", "3"]])
def test_a_form_asks_its_own_questions_so_selection_options_are_refused(tmp_path, capsys, option):
    path = write_form(tmp_path, "--ids", FIXED)
    capsys.readouterr()
    assert main(["quiz", "--plain", "--form", str(path), *option]) == 2
    err = capsys.readouterr().err
    assert f"{option[0]}" in err and "does not go with it" in err


def test_export_form_options_need_form_and_bad_ones_are_usage_errors(tmp_path, capsys):
    cases = [
        (["export", "--count", "5"], "--count goes with --form NAME"),
        (["export", "--form", "a", "--format", "gift"], "does not go with --format"),
        (["export", "--form", "a", "--ids", "no-such-question"], "no question no-such-question"),
        (["export", "--form", "a", "--ids", f"{FIXED},{FIXED}"], "named twice"),
        (["export", "--form", "bad\nname"], "form name"),
        (["export", "--form", "a", "--count", "0"], "--count must be from 1"),
    ]
    for argv, said in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, (argv, err)


def test_export_form_does_not_replace_a_file_that_is_not_a_form(tmp_path, capsys):
    target = tmp_path / "notes.yaml"
    target.write_text("questions: []\n")
    assert main(["export", "--form", "a", "--ids", FIXED, str(target)]) == 2
    assert "not a form export" in capsys.readouterr().err
    assert target.read_text() == "questions: []\n"
    written = write_form(tmp_path, "--ids", FIXED, name="a")
    assert main(["export", "--form", "a", "--ids", TEMPLATED, str(written)]) == 0  # an earlier form: replaced


def test_quiz_form_without_plain_opens_the_app_on_the_forms_exam(tmp_path, monkeypatch, capsys):
    import study.tui.app
    from study.quiz.form import read_form

    path = write_form(tmp_path, "--ids", FIXED)
    opened = {}
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setattr(study.tui.app, "run_app", lambda **kw: opened.update(kw) or 0)
    assert main(["quiz", "--form", str(path)]) == 0
    assert opened["start"] == "exam" and opened["practice_preset"]["form"] == read_form(path)
