"""The response analysis on a generated class with a flipped true/false key: which answer each third chose,
the hint naming the wrong key at its line, and the regrade once the key is fixed."""

from __future__ import annotations

import json

import pytest

from study.cli import main
from tests.unit.analysis.classgen import DIFFICULTY, FLIP_ID, NUMERIC_ID, SINGLE_IDS, record_class, write_bank


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("gen")
    bank_dir = root / "bank"
    write_bank(bank_dir, flipped=True)
    return bank_dir, record_class(root, bank_dir)


def analyze_json(capsys, *argv):
    code = main(["analyze", *argv, "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def _rows(q):
    return {r["response"]: r for r in q["response_analysis"]["rows"]}


def test_the_flipped_key_is_named_with_what_the_strongest_chose(generated, capsys):
    bank_dir, class_dir = generated
    code, data, _ = analyze_json(capsys, str(class_dir), "--questions", str(bank_dir))
    assert data["learners"] == 30 and code == 1
    q = next(q for q in data["questions"] if q["id"] == FLIP_ID)
    table = q["response_analysis"]
    assert table["known"] == 30 and table["top_size"] == table["bottom_size"] == 10
    rows = _rows(q)
    # Learners 12..29 know the truth (True); the file's key says False.
    assert rows["True"]["count"] == 30 - DIFFICULTY[FLIP_ID] and rows["True"]["correct"] is False
    assert rows["False"]["count"] == DIFFICULTY[FLIP_ID] and rows["False"]["correct"] is True
    assert rows["True"]["top"] == 10 and rows["True"]["bottom"] == 0
    assert rows["False"]["top"] == 0 and rows["False"]["bottom"] == 10
    assert rows["True"]["share_top"] == 100 and rows["True"]["share"] == pytest.approx(100 * 18 / 30)
    assert table["hint"] == "the key may be wrong: the strongest learners chose True (10 of 10)"
    # The key is the `answer:` line of that question in the file.
    lines = (bank_dir / "generated.yaml").read_text().splitlines()
    path, _, line = table["key_location"].rpartition(":")
    assert path.endswith("generated.yaml") and lines[int(line) - 1].strip() == "answer: false"
    assert "key may be wrong" in q["flags"] and "negative discrimination" in q["flags"]
    # The questions with a right key are not accused.
    for other in data["questions"]:
        if other["id"] != FLIP_ID:
            assert other["response_analysis"]["hint"] is None, other["id"]


def test_single_choice_and_numeric_buckets_count_each_answer(generated, capsys):
    bank_dir, class_dir = generated
    _, data, _ = analyze_json(capsys, str(class_dir), "--questions", str(bank_dir))
    by_id = {q["id"]: q for q in data["questions"]}
    hard = _rows(by_id[SINGLE_IDS[3]])  # known by learners 20..29
    assert hard["Right answer 3"]["count"] == 10 and hard["Lure 3"]["count"] == 20
    assert hard["Other wrong 3"]["count"] == 0
    # Bottom: rest scores 1/5 (0..4), 2/5 (5..7), then 3/5 for 8, 9 and 12..14 (who know the same number of
    # other questions): the tie at the tenth takes all five, thirteen learners, every one on the lure.
    assert by_id[SINGLE_IDS[3]]["response_analysis"]["bottom_size"] == 13 and hard["Lure 3"]["bottom"] == 13
    # Learners 10, 11 and 15..29 tie on the rest of the test for it (4 of 5: 10 and 11 get the flipped
    # key "right"): the top group takes the whole tie, not the ten read first, so the lure (chosen by 10, 11,
    # 15..19) does not outdraw the key.
    assert by_id[SINGLE_IDS[3]]["response_analysis"]["top_size"] == 17
    assert hard["Right answer 3"]["top"] == 10 and hard["Lure 3"]["top"] == 7
    # The easiest, known by 5..29: the top third all right; the bottom is 0..7 (rest 1/5) and the tie at 2/5
    # (8, 9, 12..14): thirteen learners, of whom 0..4 chose the lure.
    easy = _rows(by_id[SINGLE_IDS[0]])
    assert easy["Right answer 0"]["top"] == by_id[SINGLE_IDS[0]]["response_analysis"]["top_size"]
    assert easy["Lure 0"]["top"] == 0 and by_id[SINGLE_IDS[0]]["response_analysis"]["bottom_size"] == 13
    assert easy["Right answer 0"]["bottom"] == 8 and easy["Lure 0"]["bottom"] == 5
    num = _rows(by_id[NUMERIC_ID])  # known by learners 8..29; half typed, half picked in the exam form
    assert num["right"]["count"] == 22 and num["Bits were taken for bytes."]["count"] == 8
    assert num["Multiplied instead of divided."]["count"] == 0 and num["other"]["count"] == 0


def test_the_text_report_shows_the_table_the_hint_and_the_key_line(generated, capsys):
    bank_dir, class_dir = generated
    assert main(["analyze", str(class_dir), "--questions", str(bank_dir)]) == 1
    out = capsys.readouterr().out
    assert "the key may be wrong: the strongest learners chose True (10 of 10)" in out
    lines = (bank_dir / "generated.yaml").read_text().splitlines()
    key_line = next(n for n, text in enumerate(lines, 1) if text.strip() == "answer: false")
    assert f"generated.yaml:{key_line}" in out
    assert "top 10/10" in out and "bottom  0/10" in out
    # Weights are in the text report too.
    assert " iw " in out and " ew " in out and "intended / effective weight" in out


def test_fixing_the_key_regrades_every_response(generated, capsys, tmp_path):
    bank_dir, class_dir = generated
    fixed = tmp_path / "fixed"
    write_bank(fixed, flipped=False)
    code, data, _ = analyze_json(capsys, str(class_dir), "--questions", str(fixed))
    q = next(q for q in data["questions"] if q["id"] == FLIP_ID)
    assert data["regraded"] == {FLIP_ID: 30} and q["regraded"] == 30
    assert q["facility"] == pytest.approx(100 * 18 / 30)
    assert q["response_analysis"]["hint"] is None and q["discrimination"] > 0
    assert "key may be wrong" not in q["flags"] and "negative discrimination" not in q["flags"]
    assert _rows(q)["True"]["correct"] is True


def test_a_reliability_figure_the_data_cannot_carry_is_left_out(generated, capsys):
    bank_dir, class_dir = generated
    _, data, _ = analyze_json(capsys, str(class_dir), "--questions", str(bank_dir), "--min-responses", "31")
    assert data["test"]["cic"] is None and "left out" in data["reliability_withheld"]
    assert main(["analyze", str(class_dir), "--questions", str(bank_dir), "--min-responses", "31"]) == 0
    out = capsys.readouterr().out
    assert "CIC" in out and "left out" in out and "CIC -" not in out
    _, data, _ = analyze_json(capsys, str(class_dir), "--questions", str(bank_dir))
    assert data["reliability_withheld"] is None and data["test"]["cic"] is not None


def test_statements_read_from_lrs_pages_give_the_same_response_tables(generated):
    """`analyze --lrs` reads StatementResult pages: the responses ride in the statements the same way."""
    from study.analysis.report import analyse
    from study.analysis.results import load_results, load_results_from_pages
    from study.bank import load_bank

    bank_dir, class_dir = generated
    bank = load_bank(questions=[str(bank_dir)])
    files = sorted(class_dir.glob("*.jsonl"))
    statements = [json.loads(line) for f in files for line in f.read_text().splitlines() if line.strip()]
    pages = [{"statements": statements[k:k + 7], "more": ""} for k in range(0, len(statements), 7)]
    from_pages = analyse(load_results_from_pages(pages, "http://127.0.0.1:1/xAPI"), bank, min_responses=5)
    from_files = analyse(load_results(files), bank, min_responses=5)
    assert from_pages.learners == len(files) == 10
    assert from_pages.responses == from_files.responses
    assert from_pages.responses[FLIP_ID].rows[0].count == sum(n >= DIFFICULTY[FLIP_ID] for n in range(0, 30, 3))
