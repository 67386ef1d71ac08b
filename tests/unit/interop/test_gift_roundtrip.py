"""GIFT export: its exact shape, and export -> import keeping every question GIFT can express.

The whole shipped bank goes through the round trip; questions GIFT cannot express (templated ones) must be
reported and come back as the fixed instance the export wrote. Hypothesis throws hostile text at the escaping.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from study.bank.bank import clear_cache, load_bank
from study.bank.lint import lint
from study.bank.schema import Question
from study.bank.yamlsafe import parse_yaml
from study.interop.gift import export_command, import_command, yaml_scalar
from study.interop.gift_export import ExportReport, bank_gift, nominal_tolerance, question_gift
from study.interop.gift_import import convert
from study.interop.gift_syntax import escape, escape_piece, parse
from study.quiz.instance import instantiate

OBJECTIVES = {f"1.{i}" for i in range(1, 9)} | {f"2.{i}" for i in range(1, 11)} | {f"3.{i}" for i in range(1, 5)}
REF = [{"title": "Ref, with: colon", "url": "https://example.com/a"}]


def _q(**kw) -> Question:
    base = dict(id="t-q1", objective="2.1", difficulty=2, explanation="Because.", references=REF,
                verified=dt.date(2026, 11, 30))
    base.update(kw)
    return Question.model_validate(base)


def test_multi_export_has_moodle_weights_that_cancel_when_everything_is_ticked():
    q = _q(type="multi", choose=2, stem="Pick two.", tags=["a"], choices=[
        {"text": "R1", "correct": True, "why": "w1"}, {"text": "X1", "why": "w2"},
        {"text": "R2", "correct": True, "why": "w3"}, {"text": "X2", "why": "w4"}, {"text": "X3", "why": "w5"}])
    text = question_gift(q, ExportReport())
    # 2 right of 5: +50% each; 3 wrong share -100%: -33.33333% each (Moodle's grade list has 0.3333333).
    assert text == (
        "// [id:t-q1] [tag:a]\n"
        "// study: objective=2.1 difficulty=2 verified=2026-11-30 volatile=false\n"
        "// study: reference=https://example.com/a Ref, with: colon\n"
        "::t-q1::[markdown]Pick two.{\n"
        "\t~%50%R1#w1\n\t~%-33.33333%X1#w2\n\t~%50%R2#w3\n\t~%-33.33333%X2#w4\n\t~%-33.33333%X3#w5\n"
        "\t####Because.\n"
        "}"
    )


def test_single_true_false_and_escapes_export_exactly():
    q = _q(type="single", stem="a:b {x}\nnext", choices=[
        {"text": "=right", "correct": True, "why": "#1"}, {"text": "%50% off", "why": "[html]tag"}],
        explanation="x\\y")
    body = question_gift(q, ExportReport()).split("\n")[3:]
    assert body == [
        "::t-q1::[markdown]a\\:b \\{x\\}\\nnext{",
        "\t=\\=right#\\#1",
        "\t~%0%%50% off#[markdown][html]tag",  # no weight would read "%50%" as one; no prefix would eat "[html]"
        "\t####x\\\\y",
        "}",
    ]
    tf = _q(type="true_false", stem="True?", answer=False, explanation="No.")
    assert question_gift(tf, ExportReport()).split("\n")[-1] == "::t-q1::[markdown]True?{FALSE####No.}"


def test_numeric_relative_tolerance_becomes_plus_minus_around_the_value():
    # 3% of 8.8125 is 0.264375; the distractor 70.5 gets 3% of itself, 2.115.
    assert nominal_tolerance("3%", 8.8125, "GB") == pytest.approx(0.264375)
    assert nominal_tolerance("0.5", 100.0, "GB") == 0.5
    assert nominal_tolerance("500 MB", 10.0, "GB") == pytest.approx(0.5)
    q = _q(type="numeric", stem="How much?", answer={"value": 8.8125, "unit": "GB", "tolerance": "3%"},
           distractors=[{"value": 70.5, "why": "FP16 only."}])
    lines = question_gift(q, ExportReport()).split("\n")
    assert lines[3:6] == ["// study: unit=GB", "// study: tolerance=3%", "// study: digits=3"]
    assert lines[6:] == [
        "::t-q1::[markdown]How much?\\n\\nAnswer in GB.{#", "\t=8.8125:0.264375", "\t=%0%70.5:2.115#FP16 only.",
        "\t####Because.", "}"]


@pytest.fixture(scope="module")
def bank_round_trip(tmp_path_factory):
    clear_cache()
    bank = load_bank()
    text, report = bank_gift(bank)
    out = tmp_path_factory.mktemp("gift") / "bank.yaml"
    gift = out.with_suffix(".gift")
    gift.write_text(text, encoding="utf-8")
    code = import_command(argparse.Namespace(file=str(gift), out=str(out)))
    back = load_bank(questions=[out])
    yield bank, report, back, code, text
    clear_cache()


def test_round_trip_of_the_whole_bank_keeps_every_expressible_question(bank_round_trip):
    bank, report, back, code, _ = bank_round_trip
    assert code == 0
    assert back.diagnostics == ()
    # Templated questions come back as fixed instances, new to the twin finder (which leaves templated ones
    # out), so the re-imported bank has twin proposals the shipped one has not; everything else is clean.
    assert [d for d in lint(bank=back).diagnostics if d.code != "possible-twin"] == []
    assert len(back.questions) == len(bank.questions)
    exact = [q for q in bank.questions if not q.is_templated]
    assert exact, "the bank has questions GIFT can express"
    for q in exact:
        # Everything the learner sees and every piece of metadata; only the source position differs.
        assert back.question(q.id).model_dump() == q.model_dump(), q.id


def test_round_trip_reports_templated_questions_and_brings_back_their_fixed_instance(bank_round_trip):
    bank, report, back, _, text = bank_round_trip
    templated = [q for q in bank.questions if q.is_templated]
    assert sorted(report.templated) == sorted(q.id for q in templated)
    assert any(line.startswith(f"{len(templated)} templated questions exported as one fixed instance")
               for line in report.lines())
    assert text.count("// study: templated=one fixed instance (seed 0)") == len(templated)
    for q in templated:
        inst = instantiate(q, 0, shuffle=False)
        r = back.question(q.id)
        assert r.stem == inst.stem
        assert r.answer.value == pytest.approx(inst.numeric.value, rel=1e-11)
        assert (r.answer.unit, r.answer.tolerance, r.answer.digits) == (q.answer.unit, q.answer.tolerance,
                                                                        q.answer.digits)
        assert [(d.value, d.why) for d in r.distractors or ()] == [
            (pytest.approx(v, rel=1e-11), w) for v, w in inst.numeric.distractors]
        meta = ("objective", "difficulty", "topic", "tags", "references", "verified", "volatile", "explanation")
        assert {k: getattr(r, k) for k in meta} == {k: getattr(q, k) for k in meta}


def test_exported_bank_parses_as_gift_without_problems(bank_round_trip):
    bank, _, _, _, text = bank_round_trip
    items, problems = parse(text)
    assert problems == []
    assert sum(i.kind == "question" for i in items) == len(bank.questions)
    # One $CATEGORY per objective that has questions.
    assert sum(i.kind == "category" for i in items) == len({q.objective for q in bank.questions})


def test_export_command_writes_the_file_and_reports_losses(tmp_path, capsys):
    target = tmp_path / "bank.gift"
    assert export_command(argparse.Namespace(file=str(target), db=None)) == 0
    err = capsys.readouterr().err
    assert re.search(r"exported \d+ questions \(\d+ single, \d+ choose-N, \d+ true/false, \d+ numeric\)", err)
    assert "templated questions exported as one fixed instance each" in err
    assert target.read_text(encoding="utf-8").startswith("// NCA-AIIO question bank")
    assert export_command(argparse.Namespace(file=None, db=None)) == 0
    assert capsys.readouterr().out == target.read_text(encoding="utf-8")


# --- hostile text ---------------------------------------------------------------------------------------

# Text as our models hold it: stripped, non-empty, no carriage returns (GIFT has no escape for one) and no
# control characters other than newline and tab.
_CHARS = st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\r") | st.sampled_from(
    list("~=#{}:\\\n\t%[]-> /") + ["####", "\\n", "//", "[html]", "%50%", "::", "->", "$CATEGORY:", "\u2028", "\x85"])
TEXT = st.lists(_CHARS, min_size=1, max_size=30).map("".join).map(str.strip).filter(bool)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stem=TEXT, right=TEXT, wrong=TEXT, why1=TEXT, why2=TEXT, explanation=TEXT)
def test_any_text_survives_export_and_import(stem, right, wrong, why1, why2, explanation):
    if right.casefold() == wrong.casefold():
        wrong += " (other)"
    q = _q(type="single", stem=stem, explanation=explanation,
           choices=[{"text": wrong, "why": why1}, {"text": right, "correct": True, "why": why2}])
    gift = question_gift(q, ExportReport())
    result = convert(gift, prefix="x", objectives=OBJECTIVES)
    assert [p for p in result.problems if p.kind != "note"] == []
    data = result.questions[0].data
    # Braces are literal in GIFT and written {{ }} in our YAML, so compare what a learner is shown.
    from study.quiz.instance import render_stem

    assert render_stem(q.model_copy(update={"stem": data["stem"]}), {}) == render_stem(q, {})
    assert data["choices"] == [{"text": wrong, "why": why1}, {"text": right, "correct": True, "why": why2}]
    assert data["explanation"] == explanation


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1))
def test_escape_is_undone_by_parsing(text):
    text = text.replace("\r", "")
    stripped = text.strip(" \t\n\r\0\x0b")
    if not stripped:
        return
    # Feedback goes through escape_piece, as the exporter writes it: a text that starts like a [format]
    # prefix ("[markdown]") must not be read as one.
    items, problems = parse(f"Q{escape(text)}{{T####{escape_piece(text)}}}")
    assert problems == []
    assert items[0].stem.text == "Q" + text.rstrip(" \t\n\r\0\x0b")
    assert items[0].general_feedback.text == stripped


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1))
def test_yaml_scalars_load_back_unchanged(text):
    doc = parse_yaml(f"k: {yaml_scalar(text, 2)}\n")
    assert not doc.fatal
    assert doc.data["k"] == text


GIFTISH = st.lists(st.sampled_from(
    ["{", "}", "~", "=", "#", "####", ":", "::", "\\", "\n", "\n\n", " ", "%50%", "%-50%", "T", "FALSE", "->", "..",
     "1.5", "a", "[html]", "<b>", "$CATEGORY: x/2.1 y", "// study: difficulty=9", "// [id:A b]", "*", "\\n"]),
    max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(GIFTISH)
def test_any_input_gives_questions_or_located_problems_never_a_crash(source):
    result = convert(source, prefix="f", objectives=OBJECTIVES, default_objective="1.1")
    lines = source.replace("\r\n", "\n").split("\n")
    for p in result.problems:
        assert 1 <= p.loc.line <= len(lines) and p.loc.col >= 1
    for q in result.questions:
        # Once the TODO fields are filled in, what the importer wrote is a valid question.
        data = {"explanation": "e", "references": REF, "verified": dt.date(2026, 11, 30), **q.data}
        if "choices" in data:
            data["choices"] = [{"why": "w", **c} for c in data["choices"]]
        Question.model_validate(data)


def test_the_export_never_names_the_exporting_machines_folders(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # the bank is outside the working directory, so its paths are absolute
    from study.bank import clear_cache, load_bank

    clear_cache()
    try:
        text, _ = bank_gift(load_bank())
    finally:
        clear_cache()  # the bank loaded here names its files from tmp_path; later tests must not get it
    sources = [line for line in text.splitlines() if line.startswith("// study: source=")]
    assert sources and not any("/work/" in s or s.split("=", 1)[1].startswith("/") for s in sources)
    assert "// study: source=d2-infrastructure/power-cooling.yaml:2" in sources
