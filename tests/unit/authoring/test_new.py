"""``study new question``: a skeleton that fails lint at every TODO and lints clean once they are written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from study.authoring.new import default_target, fresh_id, plan
from study.bank import load_bank
from study.bank.lint import lint
from study.cli import main

TYPES = ("single", "multi", "true_false", "numeric")
TODO = re.compile(r'^(?P<lead>\s*(?:- )?)(?P<key>\w+): ""  # TODO:.*$')
# Distractors must differ from the 140 GB answer and from each other by more than the 2% tolerance.
DISTRACTOR_CALCS = [
    "weights_memory(params=70e9, dtype='fp32')",
    "weights_memory(params=70e9, dtype='fp16') / 2",
    "weights_memory(params=70e9, dtype='fp16') * 8",
]


def fill(text: str) -> str:
    """What an author does: every TODO value replaced by a real one, comments and all else left alone."""
    out: list[str] = []
    counts: dict[str, int] = {}
    in_distractors = False
    for line in text.splitlines(keepends=True):
        key_of_question = re.match(r"^ {2,4}(\w+):", line)  # a question's own field, not a nested one
        if key_of_question:
            in_distractors = key_of_question.group(1) == "distractors"
        m = TODO.match(line.rstrip("\n"))
        if not m:
            out.append(line)
            continue
        key = m.group("key")
        n = counts[key] = counts.get(key, 0) + 1
        value = {
            "difficulty": "2",
            "stem": ("How much memory do the weights take? Choose the best answer." if n == 1 else
                     "Which fabric carries the collectives between nodes of a training cluster?"),
            "text": f"Choice number {n}",
            "why": f"Reason number {n}.",
            "answer": "true",
            "unit": "GB",
            "explanation": "Two bytes per parameter in FP16.",
            "title": "NVIDIA documentation",
            "url": "https://docs.nvidia.com/",
            "verified": "2026-11-30",
        }.get(key)
        if key == "calc":
            value = '"' + (DISTRACTOR_CALCS[n - 2] if in_distractors else "weights_memory(params=70e9, dtype='fp16')") + '"'
        assert value is not None, f"no filling for {key!r}"
        out.append(f"{m.group('lead')}{key}: {value}\n")
    return "".join(out)


def _new(tmp_path: Path, qtype: str, name: str | None = None, *extra: str) -> Path:
    out = tmp_path / (name or f"{qtype}.yaml")
    assert main(["new", "question", "--type", qtype, "--objective", "2.6", "--topic", "facility-requirements",
                 "--out", str(out), *extra]) == 0
    return out


@pytest.mark.parametrize("qtype", TYPES)
def test_unfilled_skeleton_fails_lint_at_each_todo(tmp_path: Path, qtype: str) -> None:
    out = _new(tmp_path, qtype)
    text = out.read_text(encoding="utf-8")
    todo_lines = {i for i, line in enumerate(text.splitlines(), 1) if "# TODO:" in line}
    assert todo_lines
    result = lint([out])
    assert result.errors == len(result.diagnostics)
    # One error per TODO, each at its own line and at the placeholder's column, and nothing else.
    assert {d.line for d in result.diagnostics} == todo_lines
    assert len(result.diagnostics) == len(todo_lines)
    lines = text.splitlines()
    for d in result.diagnostics:
        assert lines[d.line - 1][d.column - 1:].startswith('""'), str(d)
    messages = " | ".join(d.message for d in result.diagnostics)
    assert "stem is empty" in messages and "explanation is empty" in messages
    assert "difficulty must be 1, 2 or 3" in messages


@pytest.mark.parametrize("qtype", TYPES)
def test_filled_skeleton_lints_clean(tmp_path: Path, qtype: str) -> None:
    out = _new(tmp_path, qtype)
    filled = fill(out.read_text(encoding="utf-8"))
    assert '""  # TODO' not in filled
    out.write_text(filled, encoding="utf-8")
    result = lint([out])
    assert result.diagnostics == (), "\n".join(map(str, result.diagnostics))
    assert result.questions == 1
    if qtype == "numeric":
        assert "calc:" in filled and "weights_memory" in filled


def test_appending_keeps_the_file_and_continues_its_id_series(tmp_path: Path, tf_question) -> None:
    out = tmp_path / "mine.yaml"
    original = ("# My own notes about these questions.\nquestions:\n"
                + tf_question("d2-mine-07", "2.6") + "  # a trailing comment\n"
                + tf_question("d2-mine-09", "2.6")).rstrip("\n")  # no final newline: appending must add one
    out.write_text(original, encoding="utf-8")
    assert main(["new", "question", "--type", "single", "--objective", "2.6", "--out", str(out)]) == 0
    assert main(["new", "question", "--type", "multi", "--objective", "2.6", "--difficulty", "3", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith(original + "\n")
    ids = re.findall(r"^\s*- id: (\S+)", text, re.M)
    assert ids == ["d2-mine-07", "d2-mine-09", "d2-mine-10", "d2-mine-11"]
    assert "difficulty: 3" in text
    out.write_text(fill(text), encoding="utf-8")
    result = lint([out])
    # fill() writes one filler text into every skeleton, so the two new questions are rightly twins.
    found = [d for d in result.diagnostics if d.code != "possible-twin"]
    assert found == [], "\n".join(map(str, found))
    assert result.questions == 4


def test_items_indented_at_column_0_get_new_items_at_column_0(tmp_path: Path, tf_question) -> None:
    out = tmp_path / "flat.yaml"
    item = "\n".join(line[2:] for line in tf_question("d3-flat-01", "3.1").splitlines()) + "\n"
    out.write_text("questions:\n" + item, encoding="utf-8")
    assert main(["new", "question", "--type", "true_false", "--objective", "3.1", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "\n- id: d3-flat-02\n" in text
    out.write_text(fill(text), encoding="utf-8")
    assert lint([out]).diagnostics == ()


def test_a_fresh_id_is_unused_in_the_bank() -> None:
    bank = load_bank()
    target = next(Path(q.source.path) for q in bank.questions if q.objective == "2.6")
    file_ids = re.findall(r"^\s*- id: (\S+)", target.read_text(encoding="utf-8"), re.M)
    spec = plan(bank, qtype="single", objective="2.6", topic=None, difficulty=None, target=target)
    prefix, _, number = spec.qid.rpartition("-")
    series = [int(i.rpartition("-")[2]) for i in file_ids if i.rpartition("-")[0] == prefix]
    assert series, "the id continues a series of the file"
    assert int(number) == max(series) + 1
    assert spec.qid not in {q.id for q in bank.questions}
    # A series whose next number is taken elsewhere skips it.
    assert fresh_id(["x-03"], ["x-01", "x-02"], "y") == "x-04"
    assert fresh_id([], [], "d2-new") == "d2-new-01"
    assert fresh_id(["d2-new-001"], [], "d2-new") == "d2-new-002"
    # A domain-2 question added to a file of domain-1 ids does not take the d1- series.
    assert fresh_id([], ["d1-new-01"], "d2-new", domain="2") == "d2-new-01"
    assert fresh_id([], ["d2-new-01", "calc-x-01"], "d2-new", domain="2") == "d2-new-02"


def test_default_target_is_the_domain_folder(tmp_path: Path, content_dir: Path, tf_question) -> None:
    root = tmp_path / "questions"
    (root / "d2-infra").mkdir(parents=True)
    (root / "d2-infra" / "cooling.yaml").write_text("questions:\n" + tf_question("d2-cool-01", "2.3"), encoding="utf-8")
    (root / "d2-infra" / "racks.yaml").write_text(
        "questions:\n" + tf_question("d2-rack-01", "2.6") + tf_question("d2-rack-02", "2.6"), encoding="utf-8")
    (root / "d2-infra" / "misc.yaml").write_text("questions:\n" + tf_question("d2-misc-01", "2.6"), encoding="utf-8")
    bank = load_bank(questions=[root], content=content_dir)
    folder = (root / "d2-infra").resolve()
    assert default_target(bank, "2.6", None, root) == folder / "racks.yaml"
    assert default_target(bank, "2.6", "facility-requirements", root) == folder / "facility-requirements.yaml"
    assert default_target(bank, "2.9", None, root) == folder / "objective-2-9.yaml"
    # A domain with no questions yet: a d<N>-* folder under the bank, else d<N>.
    assert default_target(bank, "3.1", None, root) == root / "d3" / "objective-3-1.yaml"


def test_usage_mistakes_exit_2_with_did_you_mean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x.yaml"
    assert main(["new", "question", "--type", "single", "--objective", "2.66", "--out", str(out)]) == 2
    assert "unknown objective '2.66'" in capsys.readouterr().err
    assert main(["new", "question", "--type", "single", "--objective", "2.6", "--topic", "facility-requirement",
                 "--out", str(out)]) == 2
    assert "did you mean facility-requirements" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["new", "question", "--type", "essay", "--objective", "2.6"])
    assert exc.value.code == 2
    assert not out.exists()


@pytest.mark.parametrize(
    "content, where",
    [
        ("questions: []\n", "flat.yaml:1:12"),
        ("questions:\n  - id: [unclosed\n", "flat.yaml:3:1"),
        ("topics:\n  - a\n", "flat.yaml:1:1"),
    ],
)
def test_a_file_that_cannot_take_a_question_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, where: str
) -> None:
    out = tmp_path / "flat.yaml"
    out.write_text(content, encoding="utf-8")
    assert main(["new", "question", "--type", "single", "--objective", "2.6", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("study: error: ") and where in err, err
    assert out.read_text(encoding="utf-8") == content


def test_out_dash_prints_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["new", "question", "--type", "numeric", "--objective", "2.1", "--out", "-"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("# Questions for the NCA-AIIO") and "calc:" in printed
    assert list(tmp_path.iterdir()) == []


def test_a_windows_file_keeps_its_line_endings(tmp_path: Path, tf_question) -> None:
    out = tmp_path / "crlf.yaml"
    original = ("questions:\n" + tf_question("d1-crlf-01", "1.3")).replace("\n", "\r\n").encode()
    out.write_bytes(original)
    assert main(["new", "question", "--type", "true_false", "--objective", "1.3", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(original)
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert b"- id: d1-crlf-02\r\n" in data
