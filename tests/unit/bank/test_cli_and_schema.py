from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema

import pytest
import yaml

from study import paths
from study.cli import main

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "data" / "lint"


def _jsonable(value):
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_jsonable(v) for v in value]
    return value


def test_schema_validates_every_shipped_question_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    files = sorted(paths.questions_dir().rglob("*.yaml"))
    assert files, "the bank ships question files"
    for f in files:
        data = _jsonable(yaml.safe_load(f.read_text(encoding="utf-8")))
        errors = list(validator.iter_errors(data))
        assert not errors, f"{f}: {errors[0].message}"


def test_schema_rejects_what_lint_rejects(capsys: pytest.CaptureFixture[str]) -> None:
    main(["schema"])
    validator = jsonschema.Draft202012Validator(json.loads(capsys.readouterr().out))
    data = _jsonable(yaml.safe_load((CORPUS / "unknown_field.yaml").read_text()))
    assert any("anwser" in e.message for e in validator.iter_errors(data))


def test_lint_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "--no-calc", str(CORPUS)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == sorted(out, key=lambda l: (l.split(":")[0], int(l.split(":")[1]), int(l.split(":")[2])))
    assert all(": error: " in l or ": warning: " in l for l in out)
    assert main(["lint", "no/such/file.yaml"]) == 2


def test_lint_checks_against_the_content_folder_it_is_given(tmp_path: Path, capsys) -> None:
    # --content without --questions was ignored: the built-in topics were checked and the file lint clean.
    content = tmp_path / "content"
    (content / "topics").mkdir(parents=True)
    (content / "blueprint.yaml").write_bytes((ROOT / "content" / "blueprint.yaml").read_bytes())
    question_file = ROOT / "questions" / "d1-essential-ai" / "ai-ml-dl.yaml"
    assert main(["lint", "--no-calc", str(question_file)]) == 0
    capsys.readouterr()
    assert main(["lint", "--no-calc", "--content", str(content), str(question_file)]) == 1
    assert "unknown-topic topic 'ai-ml-dl' has no file in content/topics/" in capsys.readouterr().out
    assert main(["lint", "--content", str(tmp_path / "missing")]) == 1
    assert "is not a content folder" in capsys.readouterr().err


def test_lint_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint", "--json", "--no-calc", str(CORPUS / "duplicate_key.yaml")]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == 1
    assert report["findings"][0]["code"] == "duplicate-key"
    assert report["findings"][0]["line"] == 7


def test_shipped_bank_lints_clean() -> None:
    proc = subprocess.run([sys.executable, "-m", "study", "lint"], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


def test_bank_stats_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bank", "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert [d["weight"] for d in stats["domains"]] == [38, 40, 22]
    assert sum(d["questions"] for d in stats["domains"]) == stats["questions"]
    assert sum(len(d["objectives"]) for d in stats["domains"]) == 22


@pytest.mark.parametrize("argv, message", [
    (["quiz", "--plain", "--no-store", "--content", "{tmp}/nowhere"], "is not a content folder: it has no blueprint.yaml"),
    (["quiz", "--plain", "--no-store", "--questions", "{tmp}/nowhere.yaml"], "no such question file or folder"),
    (["export", "--format", "gift", "--content", "{tmp}/nowhere"], "is not a content folder"),
    (["export", "--format", "anki", "--questions", "{tmp}/gone", "{tmp}/x.apkg"], "no such question file or folder"),
    (["quiz", "--plain", "--no-store", "--content", "{tmp}/broken"], "the blueprint does not load: "),
])
def test_a_bank_that_cannot_be_built_is_one_line_whatever_the_command(tmp_path, capsys, argv, message) -> None:
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "blueprint.yaml").write_text("domains: [\n")
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("study: error: ") and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.apkg").exists()


@pytest.mark.parametrize("argv, watch", [([], None), (["--no-watch"], False), (["--no-watch", "tui"], False),
                                         (["--no-watch", "quiz"], False),
                                         (["quiz", "--questions", "q/", "--content", "c/"], None),
                                         (["quiz", "--objective", "2.9", "--count", "3"], None)])
def test_no_watch_reaches_the_app(monkeypatch, argv, watch) -> None:
    import study.tui.app as app_module

    seen: dict = {}
    monkeypatch.setattr(app_module, "run_app", lambda **kw: seen.update(kw) or 0)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    assert main(argv) == 0
    assert seen["watch"] is watch
    if "--questions" in argv:  # the app opens on the instructor's own folders, as the plain quiz would
        assert seen["questions"] == ["q/"] and seen["content"] == "c/"
    if "--objective" in argv:  # and on a practice form preset with the filters given
        assert seen["practice_preset"]["objective"] == "2.9" and seen["practice_preset"]["count"] == 3


@pytest.mark.parametrize("fmt", ["json", "gift", "xapi"])
def test_export_never_replaces_a_question_file_or_a_store_without_force(tmp_path, capsys, fmt) -> None:
    db = tmp_path / "p.db"
    assert main(["--db", str(db), "stats"]) == 0  # creates the store
    for victim in (tmp_path / "mine.yaml", db):
        if victim.suffix == ".yaml":
            victim.write_text("questions: []\n")
        before = victim.read_bytes()
        assert main(["--db", str(db), "export", "--format", fmt, str(victim)]) == 2
        assert "already exists and is not a" in capsys.readouterr().err
        assert victim.read_bytes() == before
    earlier = tmp_path / "old-export.out"
    assert main(["--db", str(db), "export", "--format", fmt, str(earlier)]) == 0
    os.utime(earlier, (0, 0))
    assert main(["--db", str(db), "export", "--format", fmt, str(earlier)]) == 0  # an earlier export is replaced
    assert earlier.stat().st_mtime > 0
    assert main(["--db", str(db), "export", "--format", fmt, "--force", str(tmp_path / "mine.yaml")]) == 0


def test_export_from_a_mistyped_store_is_an_error_not_an_empty_file(tmp_path, capsys) -> None:
    for fmt in ("json", "xapi"):
        assert main(["--db", str(tmp_path / "typo.db"), "export", "--format", fmt, str(tmp_path / "x.out")]) == 1
        assert f"no progress store at {tmp_path / 'typo.db'}" in capsys.readouterr().err
    assert not (tmp_path / "typo.db").exists() and not (tmp_path / "x.out").exists()


@pytest.mark.parametrize("fmt, name", [("gift", "out.gift"), ("anki", "out.apkg")])
def test_export_of_a_bank_with_broken_files_says_so_and_exits_1(tmp_path, capsys, fmt, name) -> None:
    good = Path(__file__).parents[2] / "data" / "lint" / "dupe" / "duplicate_id_a.yaml"
    (tmp_path / "good.yaml").write_text(good.read_text())
    (tmp_path / "broken.yaml").write_text("questions:\n\t- id: x\n")
    assert main(["export", "--format", fmt, "--questions", str(tmp_path / "good.yaml"),
                 "--questions", str(tmp_path / "broken.yaml"), str(tmp_path / name)]) == 1
    err = capsys.readouterr().err
    assert "1 problem in the question files: the questions they affect are not exported" in err
    assert "broken.yaml:2:1" in err and (tmp_path / name).exists()


@pytest.mark.parametrize("argv", [["preview", "questions/d2-infrastructure/power-cooling.yaml"],
                                  ["export", "--format", "gift"]])
def test_a_reader_that_stops_early_gets_no_traceback(argv) -> None:
    root = Path(__file__).parents[3]
    proc = subprocess.Popen([sys.executable, "-m", "study", *argv], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline()
    proc.stdout.close()  # what `| head -1` does
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert proc.wait() == 0
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_a_quiz_on_files_that_all_fail_to_load_says_why(tmp_path, capsys) -> None:
    (tmp_path / "todo.yaml").write_text("questions:\n  - id: x-01\n    objective: \"2.1\"\n    stem: \"\"\n")
    code = main(["quiz", "--plain", "--no-store", "--questions", str(tmp_path / "todo.yaml")])
    err = capsys.readouterr().err
    assert code == 2
    assert "no question could be loaded: " in err and "todo.yaml:2:" in err and "match the filters" not in err


SPELLINGS = ["true", "false", "True", "FALSE", "'True'", '"false"', "1", "0", "no", "off", "yes", "on", "Y"]


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_lint_and_the_schema_agree_on_a_true_false_answer(spelling: str, tmp_path: Path, capsys) -> None:
    # Lint took "True", 1, no and off that `study schema` rejects. One rule now: true or false, unquoted,
    # as YAML 1.2 (and so an editor using the schema) reads them.
    from study.bank.load import load_question_file
    from study.bank.yamlsafe import parse_yaml

    text = (CORPUS / "unknown_field.yaml").read_text().replace("anwser: true", f"answer: {spelling}")
    path = tmp_path / "tf.yaml"
    path.write_text(text)
    questions, diags = load_question_file(path)
    main(["schema"])
    validator = jsonschema.Draft202012Validator(json.loads(capsys.readouterr().out))
    schema_ok = not list(validator.iter_errors(_jsonable(parse_yaml(text).data)))
    assert (not diags) == schema_ok
    assert schema_ok == (spelling.lower() in ("true", "false")), spelling
    if not schema_ok:
        assert [d.code for d in diags] == ["wrong-type"] and "must be true or false" in diags[0].message
