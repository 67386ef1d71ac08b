"""Flags, ordering, guess scores and the JSON form of the report."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys

import numpy as np
import pytest

from study.analysis.report import FLAG_EASY, FLAG_FEW, FLAG_HARD, FLAG_NEGATIVE, analyse, random_guess_score
from study.analysis.results import Responses
from study.bank.schema import Choice, Distractor, NumericAnswer, Question, Reference

REF = [Reference(title="NVIDIA docs", url="https://docs.nvidia.com/")]


def question(qtype, n=4, right=1, choose=None, distractors=0):
    kw: dict = {}
    if qtype in ("single", "multi"):
        kw["choices"] = [Choice(text=f"c{i}", correct=i < right, why="w") for i in range(n)]
        if choose:
            kw["choose"] = choose
    elif qtype == "true_false":
        kw["answer"] = True
    else:
        kw["answer"] = NumericAnswer(value=1.0, unit="GB")
        kw["distractors"] = [Distractor(value=float(i + 2), why="w") for i in range(distractors)] or None
    return Question(id="q", objective="1.1", difficulty=1, type=qtype, stem="s", explanation="e", references=REF,
                    verified=dt.date(2026, 11, 30), **kw)


@pytest.mark.parametrize("q, mode, expected", [
    (question("single", n=4), "all", 25.0),
    (question("single", n=5), "exam", 20.0),
    (question("true_false"), "all", 50.0),
    (question("multi", n=5, right=2), "all", 10.0),  # 1 / C(5, 2)
    (question("multi", n=4, right=2, choose=2), "all", 100 / 6),
    (question("multi", n=4, right=3), "all", 25.0),  # 1 / C(4, 3)
    (question("numeric", distractors=3), "exam", 25.0),  # picked among 4 in an exam
    (question("numeric", distractors=3), "all", None),  # typed in practice
    (question("numeric"), "exam", None),  # no distractors: typed even in an exam
])
def test_random_guess_score(q, mode, expected):
    assert random_guess_score(q, mode) == (None if expected is None else pytest.approx(expected))


def responses(columns: dict[str, list[float]]) -> Responses:
    qids = tuple(columns)
    marks = np.array([columns[q] for q in qids], float).T
    return Responses(learners=tuple(f"l{i}" for i in range(marks.shape[0])), questions=qids, marks=marks)


def test_flag_thresholds_are_strict_and_few_responses_silence_the_others():
    ability = [1] * 10 + [0] * 10
    cols = {
        "five": [1] + [0] * 19,  # 5%: on the band edge, not under it
        "none": [0] * 20,  # 0%: under 5%
        "ninety-five": [1] * 19 + [0],  # 95%: not over
        "all": [1] * 20,  # 100%: over 95%
        "good": ability,
        "good2": ability,
        "inverse": [1 - a for a in ability],  # right only for the weak learners
    }
    a = analyse(responses(cols), min_responses=20)
    flags = {q.id: q.flags for q in a.questions}
    assert flags["five"] == () and flags["ninety-five"] == () and flags["good"] == ()
    assert flags["none"] == (FLAG_HARD,) and flags["all"] == (FLAG_EASY,)
    assert flags["inverse"] == (FLAG_NEGATIVE,)
    few = analyse(responses(cols), min_responses=21)
    assert all(q.flags == (FLAG_FEW,) for q in few.questions)


def test_flagged_first_then_few_then_the_rest():
    cols = {"a-few": [1, 0, 1, 0], "b-easy": [1, 1, 1, 1], "c-ok": [1, 0, 1, 0]}
    marks = np.vstack([responses(cols).marks, [[np.nan, 1.0, 0.0]]])  # a fifth learner skipped a-few
    r = Responses(learners=tuple("abcde"), questions=tuple(cols), marks=marks)
    a = analyse(r, min_responses=5)
    assert [(q.id, q.flags) for q in a.questions] == [
        ("b-easy", (FLAG_EASY,)), ("a-few", (FLAG_FEW,)), ("c-ok", ())]
    assert [q.id for q in a.flagged] == ["b-easy", "a-few"]


def test_json_has_null_for_undefined_figures_never_nan():
    a = analyse(responses({"all-right": [1, 1, 1], "mixed": [1, 0, 1]}), min_responses=1)
    text = json.dumps(a.to_dict(), allow_nan=False)
    data = json.loads(text)
    q = next(q for q in data["questions"] if q["id"] == "all-right")
    assert q["discrimination"] is None and q["discriminative_efficiency"] is None and q["sd"] == 0
    assert q["location"] is None and q["random_guess"] is None  # no bank given
    assert data["format"] == "study-item-analysis" and data["test"]["kurtosis"] is None


@pytest.mark.parametrize("module", ["study.analysis", "study.commands.analyze"])
def test_no_textual(module):
    code = f"import importlib, sys; importlib.import_module({module!r}); print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _rendered(analysis, width=80, **kw) -> list[str]:
    import io

    from rich.console import Console

    from study.analysis.report import render

    out = io.StringIO()
    render(analysis, Console(file=out, width=width, color_system=None), **kw)
    return out.getvalue().splitlines()


LONG = "d2-ai-networking-requirements-for-training-06"  # 45 characters: more than the table has room for


def test_long_ids_keep_one_row_each_and_the_check_list_spells_them_out():
    ability = [1] * 10 + [0] * 10
    cols = {LONG: [1 - a for a in ability], "s-06": ability, "short": ability}
    out = _rendered(analyse(responses(cols), min_responses=10))
    assert max(map(len, out)) <= 80
    head = next(n for n, line in enumerate(out) if line.lstrip().startswith("question"))
    rows = out[head + 1:head + 4]
    # Three questions, three rows: the long id is cut with an ellipsis, no part of it wraps to a row of its own.
    assert [r.split()[0] for r in rows[1:]] == ["s-06", "short"]
    assert rows[0].startswith("! d2-ai-networking-requirements") and "\u2026" in rows[0] and LONG not in rows[0]
    assert rows[0].rstrip().endswith("discr<0")
    check = out[out.index("Check these questions:") + 1:]
    assert check[:2] == [f"  {LONG}: negative discrimination", "    not in the question bank"]


def test_check_list_locations_are_short_outside_the_working_directory(tmp_path, monkeypatch):
    import dataclasses

    bank_dir = tmp_path / "install" / "site-packages" / "study" / "questions"
    bank_dir.mkdir(parents=True)
    ability = [1] * 10 + [0] * 10
    a = analyse(responses({"bad": [1 - a for a in ability], "ok": ability}), min_responses=10)
    where = f"{bank_dir}/d2-infrastructure/ai-networking-requirements.yaml:12"
    a = dataclasses.replace(a, questions=tuple(dataclasses.replace(q, location=where) for q in a.questions))
    work = tmp_path / "elsewhere"
    work.mkdir()
    monkeypatch.chdir(work)
    out = _rendered(a, roots=[bank_dir], width=200)
    check = out[next(n for n, line in enumerate(out) if line.startswith("Check these questions")):]
    assert check[:3] == [f"Check these questions (files under {bank_dir.parent}):", "  bad: negative discrimination",
                         "    questions/d2-infrastructure/ai-networking-requirements.yaml:12"]
    # At 80 columns a folder too long for the heading goes on a line of its own, whole.
    assert len(f"Check these questions (files under {bank_dir.parent}):") > 80
    out = _rendered(a, roots=[bank_dir])
    check = out[next(n for n, line in enumerate(out) if line.startswith("Check these questions")):]
    assert check[:4] == ["Check these questions, files under", f"  {bank_dir.parent}:",
                         "  bad: negative discrimination",
                         "    questions/d2-infrastructure/ai-networking-requirements.yaml:12"]
    # Below the working directory: relative to it, and no folder to name.
    monkeypatch.chdir(bank_dir.parent.parent)
    out = _rendered(a, roots=[bank_dir])
    assert "Check these questions:" in out
    assert "    study/questions/d2-infrastructure/ai-networking-requirements.yaml:12" in out
    # No root given: the path as it is.
    monkeypatch.chdir(work)
    assert f"    {where}" in _rendered(a)
