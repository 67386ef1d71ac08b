"""--by-learner (a gradebook), --csv and --group on the generated class, whose marks are known."""

from __future__ import annotations

import csv
import io
import json
import shutil

import pytest

from study.cli import main
from tests.unit.analysis.classgen import DIFFICULTY, FLIP_ID, NUMERIC_ID, record_class, write_bank


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("gen")
    bank_dir = root / "bank"
    write_bank(bank_dir, flipped=True)
    return bank_dir, record_class(root, bank_dir)


def _label(n: int) -> str:
    return f"mailto:l{n}@example.com" if n % 3 == 0 else f"learner{n:02d}.json"


def _right(n: int, flipped: bool = True) -> dict[str, int]:
    """What learner n got right under the file's key: domain 2 (four singles and the true/false) and 3."""
    d2 = sum(n >= b for q, b in DIFFICULTY.items() if q not in (FLIP_ID, NUMERIC_ID))
    d2 += (n < DIFFICULTY[FLIP_ID]) if flipped else (n >= DIFFICULTY[FLIP_ID])
    return {"2": d2, "3": int(n >= DIFFICULTY[NUMERIC_ID])}


def _by_learner(rows):
    return {r["learner"].removeprefix(str(r["learner"]).rsplit("/", 1)[0] + "/") if "/" in r["learner"] and
            not r["learner"].startswith("mailto:") else r["learner"]: r for r in rows}


def test_the_gradebook_gives_each_learners_known_score(generated, capsys, tmp_path):
    bank_dir, class_dir = generated
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--by-learner", "--json"])
    rows = _by_learner(json.loads(capsys.readouterr().out)["learners_table"])
    assert len(rows) == 30
    for n in range(30):
        row, right = rows[_label(n)], _right(n)
        assert row["answered"] == 6
        assert row["score"] == pytest.approx(100 * (right["2"] + right["3"]) / 6)
        assert row["domains"]["2"] == {"answered": 5, "score": pytest.approx(100 * right["2"] / 5)}
        assert row["domains"]["3"] == {"answered": 1, "score": 100.0 * right["3"]}
    # With the key fixed the gradebook follows the current key.
    fixed = tmp_path / "fixed"
    write_bank(fixed, flipped=False)
    main(["analyze", str(class_dir), "--questions", str(fixed), "--by-learner", "--json"])
    rows = _by_learner(json.loads(capsys.readouterr().out)["learners_table"])
    assert rows[_label(29)]["score"] == pytest.approx(100.0)
    assert rows[_label(0)]["score"] == pytest.approx(0.0)


def test_the_gradebook_as_text_and_csv(generated, capsys, tmp_path):
    bank_dir, class_dir = generated
    out_csv = tmp_path / "book.csv"
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--by-learner", "--csv", str(out_csv)])
    text = capsys.readouterr().out
    assert "Gradebook" in text and "domain 2" in text and "mailto:l27@example.com" in text
    table = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert len(table) == 30 and set(table[0]) == {"learner", "score", "answered", "domain 2 score",
                                                 "domain 2 answered", "domain 3 score", "domain 3 answered"}
    top = next(r for r in table if r["learner"] == "mailto:l27@example.com")
    assert float(top["score"]) == pytest.approx(100 * 5 / 6, rel=1e-5) and top["domain 3 answered"] == "1"


def test_csv_replaces_an_earlier_csv_but_not_a_learners_export_without_force(generated, capsys, tmp_path):
    bank_dir, shared = generated
    class_dir = tmp_path / "class"  # a copy: the class is shared by the module's tests, and --force writes
    shutil.copytree(shared, class_dir)
    export = sorted(class_dir.iterdir())[0]
    kept = export.read_bytes()
    # A slip of the tab key: the CSV named after one of the inputs. It overwrote that learner's results.
    assert main(["analyze", str(class_dir), "--questions", str(bank_dir), "--csv", str(export)]) == 2
    assert "already exists and is not a csv export" in capsys.readouterr().err
    assert export.read_bytes() == kept
    out_csv = tmp_path / "q.csv"
    for extra in ([], ["--by-learner"], []):  # an earlier CSV of either kind is refreshed
        main(["analyze", str(class_dir), "--questions", str(bank_dir), "--csv", str(out_csv), *extra])
        assert "error" not in capsys.readouterr().err
    assert out_csv.read_text(encoding="utf-8").startswith("question,location,")
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--csv", str(export), "--force"])
    assert export.read_text(encoding="utf-8").startswith("question,location,")


def test_questions_csv_holds_the_figures_and_the_hint(generated, capsys):
    bank_dir, class_dir = generated
    assert main(["analyze", str(class_dir), "--questions", str(bank_dir), "--csv", "-"]) == 1
    rows = {r["question"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert set(rows) == set(DIFFICULTY)
    assert rows[FLIP_ID]["key_hint"] == "the key may be wrong: the strongest learners chose True (10 of 10)"
    assert float(rows[FLIP_ID]["facility"]) == pytest.approx(40.0) and rows[FLIP_ID]["responses"] == "30"
    assert "negative discrimination" in rows[FLIP_ID]["flags"]


def test_a_group_keeps_only_its_learners(generated, capsys, tmp_path):
    bank_dir, class_dir = generated
    strong = list(range(20, 30))
    groups = tmp_path / "groups.json"
    members = [f"l{n}@example.com" if n % 3 == 0 else str(class_dir / f"learner{n:02d}.json") for n in strong]
    groups.write_text(json.dumps({"strong": members, "other": ["learner01.json"]}), encoding="utf-8")
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--group", "strong", "--groups", str(groups),
          "--json", "--min-responses", "5"])
    data = json.loads(capsys.readouterr().out)
    assert data["learners"] == 10
    by_id = {q["id"]: q for q in data["questions"]}
    assert by_id[FLIP_ID]["facility"] == 0  # all ten know the truth, the flipped key marks them wrong
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--group", "other", "--groups", str(groups),
          "--json"])
    assert json.loads(capsys.readouterr().out)["learners"] == 1


def test_a_member_that_matches_no_learner_is_reported(generated, capsys, tmp_path):
    bank_dir, class_dir = generated
    groups = tmp_path / "groups.json"
    members = ["learner01.json", "learner02.json", "nobody@example.com", "class/lerner03.json"]
    groups.write_text(json.dumps({"g": members}), encoding="utf-8")
    main(["analyze", str(class_dir), "--questions", str(bank_dir), "--group", "g", "--groups", str(groups),
          "--json"])
    out = capsys.readouterr()
    assert json.loads(out.out)["learners"] == 2
    warning = next(line for line in out.err.splitlines() if "match no learner" in line)
    assert warning.startswith("study: warning:") and "2 member(s) of group 'g'" in warning
    assert "'nobody@example.com'" in warning and "'class/lerner03.json'" in warning
    assert "learner01.json'" not in warning


def test_group_mistakes_are_one_line_errors(generated, capsys, tmp_path):
    bank_dir, class_dir = generated
    groups = tmp_path / "groups.json"
    groups.write_text('{"a": ["x"]}', encoding="utf-8")
    # An unknown group is a usage error (exit 2), as any wrong option value is.
    assert main(["analyze", str(class_dir), "--group", "b", "--groups", str(groups)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("study: error:") and "no group 'b'" in err and err.count("\n") == 1
    assert main(["analyze", str(class_dir), "--group", "a"]) == 2
    groups.write_text('["a"]', encoding="utf-8")
    assert main(["analyze", str(class_dir), "--group", "a", "--groups", str(groups)]) == 1
    assert "groups file" in capsys.readouterr().err
