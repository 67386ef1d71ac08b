"""CSV an instructor can pivot (issue 36.10): the item CSV names each question's objective and where its key is
written, and --choices-csv writes the response analysis in long form, one row per question and response."""

from __future__ import annotations

import csv
import io

import pytest

from study.cli import main
from tests.unit.analysis.classgen import FLIP_ID, record_class, write_bank


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("gen")
    bank_dir = root / "bank"
    write_bank(bank_dir, flipped=True)
    return bank_dir, record_class(root, bank_dir)


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_item_csv_has_the_objective_and_the_key_location(generated, tmp_path, capsys):
    bank_dir, class_dir = generated
    out = tmp_path / "items.csv"
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--csv", str(out)])
    capsys.readouterr()
    rows = {r["question"]: r for r in _rows(out.read_text(encoding="utf-8"))}
    flip = rows[FLIP_ID]
    assert flip["objective"] == "2.1" and rows["gen-numeric"]["objective"] == "3.1"
    lines = (bank_dir / "generated.yaml").read_text(encoding="utf-8").splitlines()
    key_line = next(n for n, line in enumerate(lines, 1) if line.strip() == "answer: false")
    assert flip["key_location"].endswith(f"generated.yaml:{key_line}")


def test_the_choices_csv_is_one_row_per_question_and_response(generated, tmp_path, capsys):
    bank_dir, class_dir = generated
    out = tmp_path / "choices.csv"
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--choices-csv", str(out)])
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    assert text.startswith("question,response,correct,count,share,top,bottom,top_size,bottom_size\n")
    rows = _rows(text)
    flip = {r["response"]: r for r in rows if r["question"] == FLIP_ID}
    # Learners 12 and up know the truth (True), which the flipped file marks wrong: 18 of 30, all the top third.
    assert flip["True"]["correct"] == "no" and flip["True"]["count"] == "18"
    assert flip["True"]["top"] == flip["True"]["top_size"] == "10"
    assert flip["False"]["correct"] == "yes" and flip["False"]["count"] == "12"
    assert sum(int(r["count"]) for r in flip.values()) == 30
    # A second run may replace its own earlier file; something else needs --force.
    assert main(["analyze", str(class_dir), "--questions", str(bank_dir), "--choices-csv", str(out)]) in (0, 1)
    capsys.readouterr()
    other = tmp_path / "notes.csv"
    other.write_text("my,own,notes\n", encoding="utf-8")
    assert main(["analyze", str(class_dir), "--questions", str(bank_dir), "--choices-csv", str(other)]) == 2
    assert other.read_text(encoding="utf-8") == "my,own,notes\n"
    capsys.readouterr()


def test_both_csvs_to_standard_output_is_a_usage_error(generated, capsys):
    bank_dir, class_dir = generated
    assert main(["analyze", str(class_dir), "--csv", "-", "--choices-csv", "-"]) == 2
    assert "cannot both write to standard output" in capsys.readouterr().err
