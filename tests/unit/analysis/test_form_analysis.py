"""`study analyze` and class exam forms (issue 36.9): the report lists the forms the results hold, and
`--form NAME` analyses that form alone, its answers only, before the first-answer rule."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest

from study.cli import main
from study.progress import Attempt, open_store

FIXED = "d1-serving-10"
OTHER = "d2-dpu-bluefield-09"


def right_letter(qid: str, seed: int = 7) -> str:
    """The letter of the key as the form shows it (the form's seed fixes the choice order)."""
    from study.bank import load_bank
    from study.quiz.instance import instantiate

    inst = instantiate(load_bank().question(qid), seed, as_choice=True)
    return inst.correct_labels[0]


@pytest.fixture
def form_class(tmp_path, monkeypatch, capsys) -> tuple[Path, Path]:
    """Four learners take the form midterm-a (FIXED, OTHER): ann and bob right on FIXED, cid and dan wrong;
    cid and dan practised FIXED the day before and got it right there. dan exports xAPI, the others JSON."""
    form = tmp_path / "midterm-a.yaml"
    assert main(["export", "--form", "midterm-a", "--seed", "7", "--ids", f"{FIXED},{OTHER}", str(form)]) == 0
    out = tmp_path / "class"
    out.mkdir()
    key, other = right_letter(FIXED), right_letter(OTHER)
    wrong = "A" if key != "A" else "B"
    for name, first in (("ann", key), ("bob", key), ("cid", wrong), ("dan", wrong)):
        db = tmp_path / f"{name}.db"
        if name in ("cid", "dan"):
            with open_store(db, fuzz=False) as store:
                store.record_attempt(Attempt(FIXED, "h", {}, "A", True, 20.0, "practice", "p1",
                                             dt.datetime(2026, 11, 1, 9, tzinfo=dt.timezone.utc)))
        monkeypatch.setattr("sys.stdin", io.StringIO(f"{first}\n{other}\n"))
        assert main(["--db", str(db), "quiz", "--plain", "--form", str(form)]) == 0
        fmt = ["--format", "xapi"] if name == "dan" else []
        assert main(["--db", str(db), "export", *fmt, str(out / f"{name}.{'jsonl' if fmt else 'json'}")]) == 0
    capsys.readouterr()
    return out, form


def analyse(capsys, *argv: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["analyze", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_report_lists_each_form_the_results_hold(form_class, capsys):
    from study.quiz.form import read_form

    out, form = form_class
    fid = read_form(form).id
    _code, data = analyse(capsys, str(out))
    assert data["form"] is None
    assert data["forms"] == [{"name": "midterm-a", "ids": [fid], "learners": 4, "questions": 2, "answers": 8,
                              "mean": 75.0}]
    capsys.readouterr()
    main(["analyze", str(out)])
    text = capsys.readouterr().out
    assert f"Form midterm-a (id {fid}): 4 learner(s), 2 question(s), 8 answer(s), mean mark 75%; " \
           "analyse it alone with --form midterm-a" in " ".join(text.split())


def test_form_keeps_only_the_forms_answers_so_a_question_practised_before_counts_as_answered_in_it(
        form_class, capsys):
    out, _form = form_class
    _code, every = analyse(capsys, str(out))
    fixed = next(q for q in every["questions"] if q["id"] == FIXED)
    # Without --form, cid's and dan's first answers to FIXED are the practice ones (right): 4 of 4.
    assert fixed["facility"] == 100.0
    _code, data = analyse(capsys, str(out), "--form", "midterm-a")
    assert data["form"] == "midterm-a" and data["learners"] == 4
    fixed = next(q for q in data["questions"] if q["id"] == FIXED)
    assert fixed["responses"] == 4 and fixed["facility"] == 50.0
    assert {q["id"] for q in data["questions"]} == {FIXED, OTHER}
    capsys.readouterr()
    main(["analyze", str(out), "--form", "midterm-a"])
    text = capsys.readouterr().out
    assert text.startswith("Item analysis of first answers in exam form midterm-a\nForm         midterm-a (id ")
    assert "analyse it alone" not in text


def test_an_unknown_form_names_the_ones_there(form_class, capsys):
    out, _form = form_class
    assert main(["analyze", str(out), "--form", "midterm-b"]) == 1
    err = capsys.readouterr().err
    assert err.strip().endswith("(forms there: midterm-a; did you mean midterm-a?)"), err
    assert err.count("\n") == 1


def test_results_without_forms_say_so_for_form(tmp_path, capsys):
    from tests.unit.analysis.conftest import export_learner

    path = export_learner(tmp_path, "ann", [(FIXED, True, "exam", 0)])
    assert main(["analyze", str(path), "--form", "midterm-a"]) == 1
    assert "no answers in form midterm-a" in (err := capsys.readouterr().err) and "no answer there was given in a form" \
        in err
    capsys.readouterr()
    _code, data = analyse(capsys, str(path))
    assert data["forms"] == []


def test_lrs_pages_are_read_per_form_too():
    from study.analysis.results import load_results_from_pages

    def statement(n: int, form: str | None) -> dict:
        st = {"id": f"00000000-0000-4000-8000-{n:012d}", "actor": {"mbox": f"mailto:l{n}@example.com"},
              "verb": {"id": "http://adlnet.gov/expapi/verbs/answered"},
              "object": {"id": f"https://x.invalid/questions/{FIXED}"}, "result": {"success": n % 2 == 0},
              "timestamp": f"2026-12-01T09:00:{n:02d}Z", "context": {"extensions": {}}}
        if form:
            st["context"]["extensions"]["https://x.invalid/extensions/form"] = {"name": form, "id": "abc123abc123"}
        return st

    page = {"statements": [statement(n, "a" if n < 4 else "b" if n < 6 else None) for n in range(8)]}
    every = load_results_from_pages([page], "lrs")
    assert len(every.learners) == 8 and [f["name"] for f in every.forms] == ["a", "b"]
    only = load_results_from_pages([page], "lrs", form="a")
    assert len(only.learners) == 4 and only.form == "a"
    # The summary still names every form, so an unknown --form can be answered with the ones there are.
    assert [f["learners"] for f in only.forms] == [4, 2]
