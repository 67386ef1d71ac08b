"""Every check of `study lint` against a corpus of broken files, each finding asserted with its position.

Each file in tests/data/lint states what it must produce in `# expect: LINE:COL CODE` comments."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from study.bank.lint import lint

CORPUS = Path(__file__).resolve().parents[2] / "data" / "lint"
EXPECT = re.compile(r"#\s*expect:\s*(\d+):(\d+)\s+([a-z0-9-]+)")


def expectations(path: Path) -> set[tuple[int, int, str]]:
    text = path.read_bytes().decode("utf-8", errors="replace")
    return {(int(a), int(b), c) for a, b, c in EXPECT.findall(text)}


CASES = sorted(p for p in CORPUS.glob("*.yaml"))


@pytest.fixture(autouse=True)
def _no_twin_proposals(monkeypatch):
    # The corpus copies bank questions to break them one way each; that they are twins of the originals is
    # true and beside the point here (tests/unit/bank/test_twins.py tests the twin finder).
    from study.bank import twins

    monkeypatch.setattr(twins, "twin_findings", lambda questions: [])


def test_corpus_covers_every_required_check() -> None:
    codes = {code for p in CASES for *_, code in expectations(p)}
    required = {
        "yaml-syntax", "duplicate-key", "unknown-field", "wrong-type", "invalid-value", "duplicate-id",
        "unknown-objective", "unknown-topic", "single-correct-count", "multi-correct-count", "missing-answer",
        "missing-field", "bad-tolerance", "empty-text", "duplicate-choice", "empty-list", "not-utf8",
        "empty-file", "not-a-mapping", "unsafe-tag", "alias-bomb", "undefined-placeholder",
        "value-mismatch", "unit-mismatch", "distractor-within-tolerance", "calc-syntax", "undefined-parameter",
        "distractors-coincide",
    }
    assert required <= codes, f"corpus lacks {sorted(required - codes)}"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_each_broken_file_reports_exactly_its_findings(path: Path) -> None:
    # The corpus folder is linted together so the cross-file duplicate id is seen.
    result = lint([CORPUS], with_calc=path.name.startswith("calc"))
    shown = {d.path for d in result.diagnostics}
    mine = next(s for s in shown if s.endswith(path.name)) if any(s.endswith(path.name) for s in shown) else None
    got = {(d.line, d.column, d.code) for d in result.diagnostics if mine and d.path == mine}
    assert got == expectations(path)


def test_valid_file_in_corpus_folder_is_clean() -> None:
    result = lint([CORPUS / "dupe"], with_calc=False)
    assert result.diagnostics == ()
    assert result.questions == 1


def test_broken_file_does_not_stop_the_rest_loading(tmp_path: Path) -> None:
    from study.bank import load_bank

    good = (CORPUS / "dupe" / "duplicate_id_a.yaml").read_text()
    (tmp_path / "a_good.yaml").write_text(good)
    (tmp_path / "b_broken.yaml").write_text((CORPUS / "yaml_syntax.yaml").read_text())
    (tmp_path / "c_bomb.yaml").write_text((CORPUS / "billion_laughs.yaml").read_text())
    bank = load_bank(questions=[tmp_path])
    assert [q.id for q in bank.questions] == ["lint-dup-id"]
    assert {d.code for d in bank.diagnostics} == {"yaml-syntax", "alias-bomb"}


def test_calc_checks_with_the_calculator() -> None:
    path = CORPUS / "calc_checks.yaml"
    result = lint([path])
    got = {(d.line, d.column, d.code) for d in result.diagnostics}
    assert got == expectations(path)
    messages = {d.code: d.message for d in result.diagnostics}
    assert "140 GB" in messages["value-mismatch"]
    assert "a size" in messages["unit-mismatch"] and "a time" in messages["unit-mismatch"]
    assert "size=7" in messages["distractor-within-tolerance"]


def test_linting_a_builtin_file_by_relative_path_finds_no_self_duplicates(monkeypatch) -> None:
    from study import paths

    root = paths.questions_dir().parent
    monkeypatch.chdir(root)
    some = sorted(paths.questions_dir().rglob("*.yaml"))[0].relative_to(root)
    result = lint([some], with_calc=False)
    assert not [d for d in result.diagnostics if d.code == "duplicate-id"]
    assert result.questions > 0


def test_every_missing_field_is_reported_not_only_the_first(tmp_path: Path) -> None:
    # Missing fields all sit at the question's own position; an author fixing one at a time would otherwise
    # need a lint run per field.
    good = (CORPUS / "dupe" / "duplicate_id_a.yaml").read_text()
    lines = [ln for ln in good.splitlines() if not ln.lstrip().startswith(("explanation:", "verified:", "references:",
                                                                            "- {title", "- title", "url:"))]
    (tmp_path / "gaps.yaml").write_text("\n".join(lines) + "\n")
    result = lint([tmp_path], with_calc=False)
    missing = sorted(d.message for d in result.diagnostics if d.code == "missing-field")
    assert missing == [f"missing required field '{f}'" for f in ("explanation", "references", "verified")]


def test_placeholder_url_and_date_get_plain_messages(tmp_path: Path) -> None:
    good = (CORPUS / "dupe" / "duplicate_id_a.yaml").read_text()
    text = re.sub(r"url: \S+", 'url: "see the guide"', good, count=1)
    text = re.sub(r"verified: \S+", 'verified: "last week"', text, count=1)
    (tmp_path / "words.yaml").write_text(text)
    messages = {d.message for d in lint([tmp_path], with_calc=False).diagnostics}
    assert "references[0].url 'see the guide' is not a web address like https://docs.nvidia.com/..." in messages
    assert "verified 'last week' is not a date like 2026-11-30" in messages


def test_a_true_false_answer_that_is_not_a_boolean_gets_one_plain_finding(tmp_path: Path) -> None:
    good = (CORPUS / "dupe" / "duplicate_id_a.yaml").read_text()
    text = good.replace("type: single", "type: true_false")
    text = re.sub(r"    choices:\n(      .*\n)+", '    answer: "maybe"\n', text)
    (tmp_path / "tf.yaml").write_text(text)
    found = [d for d in lint([tmp_path], with_calc=False).diagnostics if d.line == 7]
    assert [(d.code, d.message) for d in found] == [
        ("wrong-type", "answer 'maybe' must be true or false for a true_false question")]


def test_a_broken_topic_file_is_one_finding_and_its_questions_still_load(tmp_path: Path) -> None:
    import shutil

    from study import paths
    from study.bank import load_bank

    content = tmp_path / "content"
    shutil.copytree(paths.content_dir(), content)
    card = content / "topics" / "power-cooling.md"
    card.write_text(card.read_text().replace("title:", "title: [unclosed", 1))
    whole = load_bank()
    broken = load_bank(content=content)
    citing = {q.id for q in whole.questions if q.topic == "power-cooling"}
    assert citing and citing <= {q.id for q in broken.questions}
    assert len(broken.questions) == len(whole.questions)
    assert "power-cooling" not in {t.id for t in broken.topics}
    codes = [(Path(d.path).name, d.code) for d in broken.diagnostics]
    assert codes and all(name == "power-cooling.md" for name, _ in codes)


def test_an_id_pasted_into_another_file_leaves_the_original_in_place(tmp_path: Path) -> None:
    import shutil

    from study import paths
    from study.bank import clear_cache, load_bank

    questions = tmp_path / "questions"
    shutil.copytree(paths.questions_dir() / "d2-infrastructure", questions)
    whole = load_bank(questions=[questions])
    original = whole.question("d2-power-cooling-01")
    victim = next(q for q in whole.questions if q.source.path.endswith("dpu-bluefield.yaml"))
    dpu = questions / "dpu-bluefield.yaml"  # sorts before power-cooling.yaml, so it is loaded first
    dpu.write_text(dpu.read_text().replace(f"id: {victim.id}\n", "id: d2-power-cooling-01\n", 1))
    clear_cache()
    bank = load_bank(questions=[questions])
    kept = bank.question("d2-power-cooling-01")
    assert kept.source.path.endswith("power-cooling.yaml") and kept.stem == original.stem
    dupes = [d for d in bank.diagnostics if d.code == "duplicate-id"]
    assert len(dupes) == 1 and dupes[0].path.endswith("dpu-bluefield.yaml")
    assert (dupes[0].line, dupes[0].column) == (victim.source.line, victim.source.column)
    assert "power-cooling.yaml" in dupes[0].message


def test_an_unknown_topic_suggests_the_closest_one(tmp_path: Path) -> None:
    good = (CORPUS / "dupe" / "duplicate_id_a.yaml").read_text()
    (tmp_path / "t.yaml").write_text(good.replace('    objective: "2.9"\n', '    objective: "2.9"\n    topic: infiniband-vs-ethernt\n'))
    found = [d.message for d in lint([tmp_path], with_calc=False).diagnostics if d.code == "unknown-topic"]
    assert found == ["topic 'infiniband-vs-ethernt' has no file in content/topics/; did you mean 'infiniband-vs-ethernet'?"]


def test_a_topic_objective_that_is_not_an_id_gets_the_plain_message(tmp_path: Path) -> None:
    from study import paths

    text = (paths.topics_dir() / "mig.md").read_text()
    text = re.sub(r"(?m)^id: mig$", "id: mig-copy", text)
    text = re.sub(r"(?m)^objectives: .*$", 'objectives: ["3.x"]', text)
    (tmp_path / "mig-copy.md").write_text(text)
    found = [(d.line, d.code, d.message) for d in lint([tmp_path / "mig-copy.md"], with_calc=False).diagnostics]
    line = text.splitlines().index('objectives: ["3.x"]') + 1
    assert found == [(line, "unknown-objective", "objective '3.x' is not a blueprint id like '2.1'")]


@pytest.mark.parametrize("name", ["capital_keys.yaml", "odd_scalars.yaml", "bad_scalar_tag.yaml"])
def test_a_malformed_file_affects_only_itself(tmp_path: Path, name: str) -> None:
    # These once raised IndexError/ValueError/KeyError out of the loader, taking lint, quiz and preview down.
    from study.bank import load_bank

    (tmp_path / "a_good.yaml").write_text((CORPUS / "dupe" / "duplicate_id_a.yaml").read_text())
    (tmp_path / "b_bad.yaml").write_text((CORPUS / name).read_text())
    bank = load_bank(questions=[tmp_path])
    assert [q.id for q in bank.questions] == ["lint-dup-id"]
    assert bank.diagnostics and all(d.path.endswith("b_bad.yaml") for d in bank.diagnostics)


def test_impossible_sizes_in_params_or_calc_are_errors_at_the_calc() -> None:
    # seq_len=0, kv_heads=-8, params=-70e9 once linted clean. The calculator may refuse such inputs itself
    # (a ValueError from the formula: calc-error) or compute a zero or negative amount (impossible-value);
    # either way the author sees an error at the expression that used them.
    result = lint([CORPUS / "sizes"])
    got = {(d.line, d.column, d.severity) for d in result.diagnostics}
    assert got == {(10, 14, "error"), (22, 14, "error"), (36, 14, "error")}  # where the expression starts
    assert {d.code for d in result.diagnostics} <= {"impossible-value", "calc-error"}
    assert any("p=-70e9" in d.message for d in result.diagnostics if d.line == 36)


def test_a_misspelt_field_suggests_the_field_and_is_not_also_missing() -> None:
    result = lint([CORPUS / "typo_field.yaml"], with_calc=False)
    messages = sorted(d.message for d in result.diagnostics)
    assert messages == [
        "unknown field 'explantion' in the question; did you mean 'explanation'?",
        "unknown field 'verifed' in the question; did you mean 'verified'?",
        "unknown field 'wy' in choices[1]; did you mean 'why'?",
    ]


def test_coinciding_distractors_are_named_from_zero_with_both_values() -> None:
    result = lint([CORPUS / "calc_coincide.yaml"])
    messages = [d.message for d in result.diagnostics if d.line == 16]
    assert messages == ["distractors[1] and distractors[3] give 7 and 7.07 GB, within the 2% tolerance of each "
                        "other, so a learner cannot tell them apart (with size=7)"]


def test_a_tolerance_without_unit_says_which_unit_was_assumed() -> None:
    result = lint([CORPUS / "calc_tolerance_unit.yaml"])
    by_code = {d.code: d.message for d in result.diagnostics}
    assert "read in the answer's unit as 3 GB" in by_code["tolerance-unit"]
    assert "inside the 3 GB tolerance" in by_code["distractor-within-tolerance"]


def test_bits_and_bytes_warnings_say_what_is_usual() -> None:
    result = lint([CORPUS / "calc_bits_bytes.yaml"])
    messages = [d.message for d in sorted(result.diagnostics)]
    assert "stated in bytes ('GB')" in messages[0]
    assert "network links are rated in bits" in messages[1]
    assert "bandwidth are stated in bytes per second" in messages[2]


def test_a_missing_field_is_reported_at_the_todo_comment_study_import_left_for_it(tmp_path: Path) -> None:
    from study.cli import main

    src = tmp_path / "plain.gift"
    src.write_text("::Kanji::Japanese characters came from {~India =China ~Korea}.\n")
    out = tmp_path / "plain.yaml"
    assert main(["import", str(src), "--out", str(out)]) == 0
    rows = out.read_text().splitlines()
    found = lint([out], with_calc=False).diagnostics
    assert found and all(d.code == "missing-field" for d in found)
    for d in found:
        field = d.message.split("'")[1].split(".")[-1]
        # The finding's line is the comment naming that field, at the comment's column.
        assert re.match(rf"^ {{{d.column - 1}}}# TODO\(gift-import\): {field}:", rows[d.line - 1]), (d, rows[d.line - 1])
    assert len(found) == 7  # objective, explanation, references, verified and three choice whys


def test_a_missing_field_without_a_todo_comment_is_reported_where_its_mapping_starts() -> None:
    from study.bank.yamlsafe import parse_yaml

    doc = parse_yaml("questions:\n  - id: a\n    # TODO(gift-import): why: later\n    stem: x\n")
    assert doc.todo_position(("questions", 0), "objective") is None
    assert doc.todo_position(("questions", 0), "why") == (3, 5)
