"""GIFT import of the fixture files: every construct, what is skipped and where, what is malformed and where.

Expected values are read off the fixture text by hand (tests/data/gift/*.gift), never from the importer.
"""

from __future__ import annotations

import argparse
import datetime as dt
from pathlib import Path

import pytest

from study.bank.bank import clear_cache, load_bank
from study.bank.lint import lint
from study.interop.gift import import_command
from study.interop.gift_import import convert, objective_from_category

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "gift"
OBJECTIVES = {f"1.{i}" for i in range(1, 9)} | {f"2.{i}" for i in range(1, 11)} | {f"3.{i}" for i in range(1, 5)}
DGX = [{"title": "NVIDIA DGX documentation", "url": "https://docs.nvidia.com/dgx/"}]
NV = [{"title": "NVIDIA documentation", "url": "https://docs.nvidia.com/"}]
DAY = dt.date(2026, 11, 30)


def _import(name: str, **kw):
    return convert((DATA / name).read_text(encoding="utf-8"), prefix="constructs", objectives=OBJECTIVES, **kw)


@pytest.fixture(scope="module")
def constructs():
    result = _import("constructs.gift")
    return result, {c.data["id"]: c.data for c in result.questions}


def test_every_importable_construct_becomes_the_expected_question(constructs):
    _, by_id = constructs
    assert list(by_id) == [
        "fx-single", "constructs-the-h100-uses-the-generation-of-nvlink", "fx-multi", "fx-multi-three",
        "fx-tf-t", "fx-tf-true", "fx-tf-f", "fx-tf-false", "fx-num-exact", "fx-num-tol", "fx-num-range",
        "fx-escapes", "fx-html", "fx-plain", "fx-moodle",
    ]
    assert by_id["fx-single"] == {
        "id": "fx-single", "objective": "2.1", "difficulty": 1, "type": "single",
        "stem": "Which memory does the H100 SXM GPU carry on its package?",
        "choices": [
            {"text": "HBM3", "correct": True, "why": "The SXM5 H100 has 80 GB of HBM3."},
            {"text": "GDDR6", "why": "GDDR6 is what cards such as the L4 use."},
            {"text": "DDR5", "why": "DDR5 is host memory attached to the CPU."},
        ],
        "explanation": "HBM stacks sit beside the GPU die, which is where the bandwidth comes from.",
        "tags": ["scenario", "memory"], "references": DGX, "verified": DAY,
    }


def test_missing_word_and_multiline_text(constructs):
    _, by_id = constructs
    q = by_id["constructs-the-h100-uses-the-generation-of-nvlink"]
    # Lines are trimmed and joined with a newline; the answer block leaves a blank (Moodle's missing word).
    assert q["stem"] == "The H100 uses the _____ generation\nof NVLink."
    assert [c["text"] for c in q["choices"]] == ["third", "fourth", "fifth"]
    assert [c.get("correct", False) for c in q["choices"]] == [False, True, False]
    assert q["choices"][1]["why"] == "Right: Hopper brought fourth-generation NVLink."
    assert q["explanation"] == "Each GPU generation has brought a new NVLink generation."
    assert q["difficulty"] == 2 and q["objective"] == "2.1"


def test_multiple_answers_with_an_even_split_become_choose_n(constructs):
    _, by_id = constructs
    q = by_id["fx-multi"]
    assert (q["type"], q["choose"], q["topic"], q.get("volatile")) == ("multi", 2, "nvlink-nvswitch", True)
    assert q["difficulty"] == 3
    assert [(c["text"], c.get("correct", False)) for c in q["choices"]] == [
        ("NVLink", True), ("NVSwitch", True), ("InfiniBand", False), ("The BMC port", False)]
    q3 = by_id["fx-multi-three"]
    assert (q3["type"], q3["choose"]) == ("multi", 3)
    assert [c.get("correct", False) for c in q3["choices"]] == [True, True, True, False, False]
    assert q3["explanation"] == "All three read NVML underneath."
    assert q3["choices"][4] == {"text": "TensorRT", "why": "An inference compiler."}


def test_true_false_spellings_and_their_feedback(constructs):
    _, by_id = constructs
    assert [by_id[i]["answer"] for i in ("fx-tf-t", "fx-tf-true", "fx-tf-f", "fx-tf-false")] == [True, True, False, False]
    assert by_id["fx-tf-t"]["explanation"] == "Eight H100 SXM GPUs."
    # {FALSE#shown after a wrong answer#shown after a right one####general}: study has one explanation.
    assert by_id["fx-tf-false"]["explanation"] == (
        "The SXM5 H100 is rated up to 700 W.\n\nYes, it is false.\n\nNo: up to 700 W.")


def test_numeric_exact_tolerance_range_and_distractors(constructs):
    _, by_id = constructs
    assert by_id["fx-num-exact"]["answer"] == {"value": 4.0, "unit": "1", "tolerance": "0"}
    tol = by_id["fx-num-tol"]
    # 2% of 140 is 2.8, the GIFT tolerance, so the study: comment's relative form is kept; the unit sentence goes.
    assert tol["answer"] == {"value": 140.0, "unit": "GB", "tolerance": "2%", "digits": 3}
    assert tol["stem"] == "How much memory do the weights of a **70B** model take in FP16?"
    assert tol["distractors"] == [
        {"value": 70.0, "why": "That is FP8: one byte per parameter."},
        {"value": 280.0, "why": "That is FP32: four bytes per parameter."},
    ]
    assert tol["explanation"] == "Two bytes per parameter in FP16.\n\nTwo bytes per parameter."
    rng = by_id["fx-num-range"]
    # 0.85..0.95 is 0.9 +/- 0.05; two significant digits shown would be under our floor of 3.
    assert rng["answer"] == {"value": 0.9, "unit": "1", "tolerance": "0.05"}
    assert rng["stem"] == "The NVLink bandwidth of one H100 SXM is about _____ TB/s in total."
    assert rng["explanation"] == "900 GB/s."


def test_escapes_of_every_control_character(constructs):
    _, by_id = constructs
    q = by_id["fx-escapes"]
    assert q["objective"] == "1.3"  # from the second $CATEGORY
    # GIFT braces are literal; our YAML writes a literal brace doubled.
    assert q["stem"] == "Which line sets a: b = {{1, 2}} ~ c#d?\nPick one."
    assert q["choices"] == [
        {"text": "a\\b = c", "correct": True, "why": "Right: the backslash stays \\ and {} stay braces."},
        {"text": "a ~ b", "why": "Wrong: # is not the answer."},
    ]
    assert q["explanation"] == "Escapes: \\ ~ = # { } :"


def test_text_formats_become_markdown(constructs):
    _, by_id = constructs
    html = by_id["fx-html"]
    assert html["objective"] == "1.5"  # the study: comment wins over the category
    assert html["stem"] == "Which is **deep** learning & why?"
    assert html["choices"][0] == {"text": "*Many* layers", "correct": True, "why": "*Depth* means many layers."}
    assert html["explanation"] == "Deep learning uses many-layered networks."
    assert by_id["fx-plain"]["stem"] == "Is 2\\*3\\*4 equal to 24?"
    assert by_id["fx-plain"]["explanation"] == "Yes: 2\\*3 is 6."
    assert by_id["fx-moodle"]["stem"] == "Machine learning is a subset of AI."
    assert by_id["fx-moodle"]["explanation"] == "It **is**."


def test_constructs_study_cannot_hold_are_reported_where_they_are(constructs):
    result, _ = constructs
    skips = [(p.loc.line, p.loc.col, p.message.split(" ")[0]) for p in result.problems if p.kind == "skip"]
    assert skips == [
        (127, 1, "matching"),
        (132, 1, "short-answer"),
        (134, 1, "essay"),
        (136, 1, "text"),  # a description
        (138, 46, "partial"),  # ~%50%PCIe Gen5
        (142, 10, "partial"),  # =%50%8:1, after the "=" on its line
        (145, 37, "partial"),  # ~%70%Memory
        (147, 1, "short-answer"),  # {true} is not true/false to Moodle
        (149, 37, "2"),  # the second =
    ]
    assert result.skipped == 9
    assert not [p for p in result.problems if p.kind == "error"]


def test_malformed_gift_is_reported_with_positions_and_the_rest_imports():
    result = _import("malformed.gift")
    errors = [(p.loc.line, p.loc.col) for p in result.problems if p.kind == "error"]
    assert errors == [(9, 18), (11, 15), (13, 1), (15, 24), (17, 14), (19, 18), (22, 1)]
    assert [c.data["id"] for c in result.questions] == ["good-one", "good-two"]
    assert [c.data["objective"] for c in result.questions] == ["3.3", "3.3"]


def _args(file: Path, out: Path | str, **kw) -> argparse.Namespace:
    return argparse.Namespace(file=str(file), out=str(out), db=None, **kw)


@pytest.fixture()
def fresh_bank_cache():
    clear_cache()
    yield
    clear_cache()


def test_fixture_yaml_loads_and_lints_clean(tmp_path, capsys, fresh_bank_cache):
    out = tmp_path / "fixture.yaml"
    assert import_command(_args(DATA / "constructs.gift", out)) == 1  # 9 skipped: a finding
    err = capsys.readouterr().err
    assert "wrote 15 questions (4 single, 2 choose-N, 6 true/false, 3 numeric)" in err and "9 skipped" in err
    bank = load_bank(questions=[out])
    assert bank.diagnostics == ()
    assert len(bank.questions) == 15
    # Moodle's numerical question has two wrong answers here: as an exam choice that is three options, which
    # lint rightly warns about (few-exam-options); nothing else is reported.
    assert {d.code for d in lint(bank=bank).diagnostics} <= {"few-exam-options"}
    assert all(d.severity == "warning" for d in lint(bank=bank).diagnostics)
    q = bank.question("fx-num-tol")
    assert q.answer.value == 140 and q.answer.tolerance == "2%" and q.answer.unit == "GB"


def test_missing_fields_are_todo_comments_that_lint_reports(tmp_path, capsys, fresh_bank_cache):
    src = tmp_path / "plain.gift"
    src.write_text("::Kanji::Japanese characters came from {~India =China ~Korea}.\n\nTwo plus two? {#4}\n")
    out = tmp_path / "plain.yaml"
    assert import_command(_args(src, out)) == 0
    err = capsys.readouterr().err
    assert "2 objective, 2 explanation, 2 references, 2 verified, 3 choice whys" in err
    text = out.read_text()
    assert text.count("# TODO(gift-import): objective:") == 2
    assert text.count("# TODO(gift-import): why:") == 3
    bank = load_bank(questions=[out])
    assert bank.questions == ()  # nothing half-filled gets served
    codes = {(d.code, d.message.split("'")[1] if "'" in d.message else "") for d in bank.diagnostics}
    assert ("missing-field", "objective") in codes
    assert ("missing-field", "choices[0].why") in codes


def test_objective_option_fills_questions_without_one(tmp_path, capsys):
    src = tmp_path / "plain.gift"
    src.write_text("// [id:q-one]\nTwo plus two? {#4####Four.}\n")
    out = tmp_path / "o.yaml"
    assert import_command(_args(src, out, objective="2.1")) == 0
    assert "objective: '2.1'" in out.read_text()
    assert import_command(_args(src, tmp_path / "p.yaml", objective="9.9")) == 2
    assert "not a blueprint objective" in capsys.readouterr().err


def test_an_existing_out_file_is_kept_unless_forced(tmp_path, capsys):
    src = tmp_path / "a.gift"
    src.write_text("// [id:q-one]\nTwo plus two? {#4####Four.}\n")
    out = tmp_path / "a.yaml"
    out.write_text("questions: []  # an instructor's file\n")
    assert import_command(_args(src, out)) == 1
    assert "already exists" in capsys.readouterr().err
    assert out.read_text() == "questions: []  # an instructor's file\n"
    assert import_command(_args(src, out, force=True)) == 0
    assert "id: q-one" in out.read_text()


def test_usage_and_input_errors(tmp_path, capsys):
    src = tmp_path / "a.gift"
    src.write_bytes(b"Fine? {T}\n\nBad \xff here {T}\n")
    assert import_command(argparse.Namespace(file=str(src), out=None)) == 2
    assert "needs --out" in capsys.readouterr().err
    assert import_command(_args(src, tmp_path / "x.yaml")) == 1
    assert f"{src}:3:5: not UTF-8" in capsys.readouterr().err
    assert not (tmp_path / "x.yaml").exists()
    assert import_command(_args(tmp_path / "missing.gift", tmp_path / "x.yaml")) == 1
    assert "cannot read" in capsys.readouterr().err
    only_bad = tmp_path / "bad.gift"
    only_bad.write_text("Broken {=a ~b\n")
    assert import_command(_args(only_bad, tmp_path / "y.yaml")) == 1
    assert "nothing written" in capsys.readouterr().err and not (tmp_path / "y.yaml").exists()
    empty = tmp_path / "empty.gift"
    empty.write_text("")
    assert import_command(_args(empty, tmp_path / "y.yaml")) == 1
    # The last line is the outcome, marked as an error like every other failure (it had no "study: error:").
    assert capsys.readouterr().err == f"study: error: nothing written: no question in {empty} could be imported\n"


def test_ids_are_unique_and_valid_when_made_up():
    src = "::Same title::A? {T####x}\n\n::Same title::B? {F####y}\n\n// [id:Not A Study Id!]\nC? {T####z}\n"
    result = convert(src, prefix="m", objectives=OBJECTIVES, default_objective="1.1")
    assert [c.data["id"] for c in result.questions] == ["m-same-title", "m-same-title-2", "not-a-study-id"]


def test_objective_from_category_paths():
    assert objective_from_category("$course$/top/NCA-AIIO/2 AI Infrastructure/2.10 DPUs", OBJECTIVES) == "2.10"
    assert objective_from_category("top/Week 1", OBJECTIVES) is None
    assert objective_from_category("1.3", OBJECTIVES) == "1.3"
    assert objective_from_category("Course/9.9 Not ours", OBJECTIVES) is None
    # "//" is a slash inside a name in Moodle's paths
    assert objective_from_category("A//B/3.2 Cluster", OBJECTIVES) == "3.2"


def test_moodle_reading_rules():
    src = (
        "// A comment line inside a question block\n"
        "Pick {~%50%%odd text ~%50%b ~c#no####g}\n\n"  # weight then a text starting with %
        "Q2? {=%50%x#y ~z#w####g}\n\n"  # after "=" Moodle reads no weight: the text is "%50%x"
        "Numbers? {#=5:1#Right. =%0%9:1#Nine is wrong. ~#Anything else.####g}\n"
    )
    result = convert(src, prefix="m", objectives=OBJECTIVES, default_objective="1.1")
    first, second, third = (c.data for c in result.questions)
    assert [c["text"] for c in first["choices"]] == ["%odd text", "b", "c"]
    assert second["choices"][0]["text"] == "%50%x"
    assert third["answer"] == {"value": 5.0, "unit": "1", "tolerance": "1"}
    assert third["distractors"] == [{"value": 9.0, "why": "Nine is wrong."}]
    assert third["explanation"] == "g\n\nRight.\n\nAnything else."


def test_braces_in_gift_text_stay_literal_and_are_not_read_as_placeholders():
    result = convert("Is \\{x\\} a set? {T####yes}", prefix="m", objectives=OBJECTIVES, default_objective="1.1")
    assert result.questions[0].data["stem"] == "Is {{x}} a set?"
    assert not any("placeholder" in p.message for p in result.problems)


def test_html_links_and_unknown_tags():
    src = '[html]See <a href="https://docs.nvidia.com/x">the guide</a><img src="a.png"> now?{T####ok}'
    result = convert(src, prefix="m", objectives=OBJECTIVES, default_objective="1.1")
    assert result.questions[0].data["stem"] == "See [the guide](https://docs.nvidia.com/x) now?"
    assert [p.message for p in result.problems if p.kind == "note"] == [
        "HTML tags without a Markdown equivalent were removed: <img>"]


def test_unit_sentence_without_metadata():
    src = "How big?\\n\\nAnswer in GB.{#80:1####x}\n\nHow ripe?\\n\\nAnswer in bananas.{#3####y}\n"
    first, second = (c.data for c in convert(src, prefix="m", objectives=OBJECTIVES, default_objective="1.1").questions)
    assert (first["stem"], first["answer"]["unit"]) == ("How big?", "GB")
    # Not a unit study knows: the sentence stays part of the text and the number is plain.
    assert (second["stem"], second["answer"]["unit"]) == ("How ripe?\n\nAnswer in bananas.", "1")
