"""study lab: --list, --run, unknown ids and commands, plain mode recording attempts, and lab lint."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from study.cli import main
from study.lab.case import build_case, draw_vars
from study.lab.load import load_lab
from study.lab.shell import run_line


def test_list_json_has_ids_titles_objectives_commands(capsys):
    assert main(["lab", "--list", "--json"]) == 0
    labs = json.loads(capsys.readouterr().out)
    assert {"thermal-slowdown", "xid79-off-the-bus"} <= {x["id"] for x in labs}
    assert all(set(x) == {"id", "title", "objectives", "commands"} and x["commands"] for x in labs)


def test_run_prints_the_scenario_and_exits_0(capsys):
    assert main(["lab", "thermal-slowdown", "--run", "nvidia-smi", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    hot = draw_vars(load_lab("thermal-slowdown"), 3)["hot"]
    assert "NVIDIA-SMI 535.104.12" in out and f"{draw_vars(load_lab('thermal-slowdown'), 3)['temp']}C" in out
    assert main(["lab", "thermal-slowdown", "--run", f"nvidia-smi -q -d PERFORMANCE -i {hot}", "--seed", "3"]) == 0
    assert "HW Thermal Slowdown           : Active" in capsys.readouterr().out


def test_seed_changes_the_case_and_the_same_seed_repeats_it():
    lab = load_lab("thermal-slowdown")
    draws = {tuple(draw_vars(lab, s).items()) for s in range(20)}
    assert len(draws) > 3
    assert draw_vars(lab, 7) == draw_vars(lab, 7)


@pytest.mark.parametrize("line, said", [
    ("foo --bar", "bash: foo: command not found"),
    ("nvidia-smi --bogus", "not simulated in this lab: nvidia-smi --bogus"),
    ("nvidia-smi mig -cgi 9 -C", "not simulated in this lab: nvidia-smi mig -cgi 9 -C"),
    ("kubectl get nodes", "The connection to the server localhost:8080 was refused"),
    ("nvidia-smi; rm -rf /", "not simulated in this lab: only one command"),
    ("nvidia-smi | sh", "bash: sh: command not found"),
    ('nvidia-smi "unclosed', "bash: syntax error"),
])
def test_unknown_commands_answer_as_a_shell_would(line, said):
    case = build_case(load_lab("thermal-slowdown"), 0)
    assert run_line(case.system, line).startswith(said)


def test_grep_filter_keeps_matching_lines_only():
    case = build_case(load_lab("xid79-off-the-bus"), 0)
    out = run_line(case.system, "dmesg | grep -i xid").split("\n")
    assert out and all("xid" in ln.lower() for ln in out) and "): 79, " in out[0]


def test_unknown_lab_is_one_error_line(capsys):
    assert main(["lab", "no-such-lab", "--run", "nvidia-smi"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("study: error:") and err.count("\n") == 1


def test_plain_mode_grades_and_records_attempts_with_mode_lab(tmp_path, monkeypatch, capsys):
    from study.progress import open_store

    db = tmp_path / "p.db"
    lab = load_lab("power-cap")
    v = draw_vars(lab, 5)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"nvidia-smi -q -d POWER -i {v['capped']}\nanswer 2 {v['cap']} W\nquit\n"))
    assert main(["--db", str(db), "lab", "power-cap", "--plain", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert f"Current Power Limit               : {v['cap']}.00 W" in out and "Correct" in out
    store = open_store(db)
    rows = store._conn.execute("SELECT item_id, mode, correct FROM attempts").fetchall() if hasattr(store, "_conn") else None
    store.close()
    import sqlite3

    rows = sqlite3.connect(db).execute("SELECT item_id, mode, correct, shown_json FROM attempts").fetchall()
    assert [r[:3] for r in rows] == [("lab.power-cap.cap-watts", "lab", 1)]
    import json

    from study.bank.load import load_blueprint
    from study.paths import blueprint_path

    titles = {o.id: o.title for d in load_blueprint(blueprint_path()).domains for o in d.objectives}
    shown = json.loads(rows[0][3])
    # Stored as the app stores it: the results and answer review name the objective by its title.
    assert shown["objective_title"] == titles[shown["objective"]] != ""


def _lint(tmp_path: Path, text: str):
    from study.lab.lint import lint_labs

    d = tmp_path / "labs"
    d.mkdir(exist_ok=True)
    p = d / "bad-lab.yaml"
    p.write_text(text)
    return lint_labs([p])


def _broken(**edits: str) -> str:
    text = (Path(load_lab("thermal-slowdown").source.path)).read_text()
    text = text.replace("id: thermal-slowdown", "id: bad-lab")
    for old, new in edits.items():
        assert old in text
        text = text.replace(old, new)
    return text


def test_shipped_labs_lint_clean():
    from study.lab.lint import lint_labs

    assert [str(d) for d in lint_labs()] == []


def test_lint_rejects_memory_over_total_with_position(tmp_path):
    found = _lint(tmp_path, _broken(**{"mem_used_mib: 71234": "mem_used_mib: 99999"}))
    assert any(d.code == "memory-over" for d in found)
    d = next(d for d in found if d.code == "memory-over")
    assert d.line > 1 and str(d).startswith(f"{d.path}:{d.line}:{d.column}: error: memory-over")


def test_lint_rejects_unknown_xid_and_mig_that_does_not_fit(tmp_path):
    text = _broken(**{"        clocks_event: [hw_slowdown, hw_thermal, sw_thermal]":
                      "        clocks_event: [hw_slowdown]\n        mig_enabled: true\n        mig: [{profile: 4g.40gb, start: 0, gi: 1}, {profile: 4g.40gb, start: 4, gi: 2}, {profile: 5g.50gb, start: 0, gi: 3}]",
                      "    gpus:\n": "    xids: [{gpu: 0, code: 4242, message: made up}]\n    gpus:\n"})
    codes = {d.code for d in _lint(tmp_path, text)}
    assert {"unknown-xid", "mig-fit", "mig-profile"} <= codes


def test_lint_rejects_a_label_that_does_not_match_the_gpu(tmp_path):
    text = _broken(**{"system:\n": "system:\n  kubernetes:\n    nodes: [{name: n1, gpu_model: h100-sxm, gpu_count: 8, product_label: NVIDIA-A100-SXM4-80GB}]\n"})
    found = [d for d in _lint(tmp_path, text) if d.code == "label-mismatch"]
    line = next(n for n, ln in enumerate(text.split("\n"), 1) if "product_label: NVIDIA-A100" in ln)
    assert found and found[0].line == line and found[0].column == text.split("\n")[line - 1].index("NVIDIA-A100") + 1


def test_study_lint_reports_lab_findings_with_file_line_col(tmp_path, capsys):
    d = tmp_path / "labs"
    d.mkdir()
    (d / "bad-lab.yaml").write_text(_broken(**{"mem_used_mib: 71234": "mem_used_mib: 99999"}))
    assert main(["lint", str(d / "bad-lab.yaml")]) == 1
    out = capsys.readouterr().out
    assert "bad-lab.yaml:" in out and ": error: memory-over" in out


EXHIBIT_Q = """questions:
  - id: lab-ex-test-{n}
    objective: "3.1"
    difficulty: 1
    type: single
    exhibit: {{lab: xid79-off-the-bus, run: "{run}", seed: 0}}
    stem: What happened?
    choices:
      - {{text: "Xid 79", correct: true, why: "The log says so."}}
      - {{text: "Xid 13", why: "No."}}
    explanation: The kernel log shows it.
    references:
      - {{title: "NVIDIA Xid Catalog", url: "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html"}}
    verified: 2026-11-24
"""


def test_an_exhibit_renders_as_a_monospace_block_in_the_stem(tmp_path):
    from study.bank.load import load_question_file
    from study.quiz.instance import instantiate

    p = tmp_path / "ex.yaml"
    p.write_text(EXHIBIT_Q.format(n=1, run="dmesg | grep -i xid"))
    (q,), diags = load_question_file(p)
    assert not diags
    stem = instantiate(q, 0).stem
    assert stem.startswith("What happened?\n\n```text\n$ dmesg | grep -i xid\n")
    assert "): 79, " in stem and stem.endswith("\n```")


def test_lint_reports_an_exhibit_the_lab_does_not_simulate(tmp_path, capsys):
    p = tmp_path / "ex.yaml"
    p.write_text(EXHIBIT_Q.format(n=2, run="nvidia-smi --frobnicate"))
    assert main(["lint", str(p)]) == 1
    out = capsys.readouterr().out
    assert "error: bad-exhibit" in out and "not simulated in this lab: nvidia-smi --frobnicate" in out


@pytest.mark.parametrize("run, said", [
    ("dmesg | grep -E '(.*.*)*Z'", "prints nothing"),  # never returned with the old engine
    ("dmesg | grep -E 'a{4294967296}'", "grep: Regular expression too big"),  # an OverflowError traceback
    ("dmesg | grep -E '" + "(" * 1000 + "'", "grep: pattern nested too deeply"),  # a RecursionError
    ("nvidia-smi; reboot", "not simulated in this lab"),
])
@pytest.mark.parametrize("form", ["with the built-in bank", "a bank alone"])
def test_both_lint_forms_report_a_hostile_exhibit_at_its_place(tmp_path, capsys, run, said, form):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "ex.yaml").write_text(EXHIBIT_Q.format(n=3, run=run.replace('"', '\\"')))
    args = ["lint", str(folder)] if form == "with the built-in bank" else ["lint", "--questions", str(folder)]
    assert main(args) == 1
    out = [ln for ln in capsys.readouterr().out.splitlines() if "bad-exhibit" in ln]
    assert len(out) == 1 and out[0].startswith(f"{folder / 'ex.yaml'}:2:") and said in out[0]


def test_lint_of_a_bank_alone_reports_an_unknown_lab(tmp_path, capsys):
    folder = tmp_path / "bank"
    folder.mkdir()
    (folder / "ex.yaml").write_text(EXHIBIT_Q.format(n=4, run="nvidia-smi").replace("xid79-off-the-bus", "no-such-lab"))
    assert main(["lint", "--questions", str(folder)]) == 1
    assert "error: bad-exhibit exhibit: unknown lab 'no-such-lab'" in capsys.readouterr().out


def test_shipped_exhibit_questions_render(tmp_path):
    from study.bank.bank import load_bank
    from study.quiz.instance import instantiate

    exhibits = [q for q in load_bank().questions if q.exhibit is not None]
    assert len(exhibits) >= 20
    for q in exhibits:
        assert "```text\n$ " in instantiate(q, 0).stem


def test_nvidia_smi_i_shows_one_gpu_and_mig_gi_filters_compute_instances(capsys):
    assert main(["lab", "power-cap", "--run", "nvidia-smi -i 2"]) == 0
    one = capsys.readouterr().out
    rows = [ln for ln in one.splitlines() if "NVIDIA H100" in ln]
    assert len(rows) == 1 and rows[0].startswith("|   2  ")
    assert main(["lab", "power-cap", "--run", "nvidia-smi -i 9"]) == 0
    assert capsys.readouterr().out == "No devices were found\n"

    assert main(["lab", "mig-layout-read", "--run", "nvidia-smi mig -lci"]) == 0
    every = [ln for ln in capsys.readouterr().out.splitlines() if "MIG " in ln]
    assert main(["lab", "mig-layout-read", "--run", "nvidia-smi mig -gi 3 -lci"]) == 0
    picked = [ln for ln in capsys.readouterr().out.splitlines() if "MIG " in ln]
    assert len(every) > 1 and picked == [ln for ln in every if ln.split()[2] == "3"]


@pytest.mark.parametrize("edit, field", [
    # The GPU defaults are merged before gpu_count is checked: a typo must not build a billion GPUs first.
    ({"    gpu_count: 8": "    gpu_count: 8000000000"}, "gpu_count"),
    ({'      - index: "{hot}"': "      - index: [1, 2]"}, "index"),
])
def test_lint_reports_a_hostile_gpu_count_or_index_at_its_place(tmp_path, edit, field):
    text = _broken(**edit)
    found = [d for d in _lint(tmp_path, text) if d.severity == "error"]
    line = next(n for n, ln in enumerate(text.split("\n"), 1) if next(iter(edit.values())).strip() in ln)
    assert any(d.line == line and field in d.message for d in found), [str(d) for d in found]


def test_plain_mode_takes_review_as_the_app_lab_does(tmp_path, monkeypatch, capsys):
    """'review' at the plain lab's prompt was a shell command ('bash: review: command not found'); the app's
    lab prompt takes it. Before every task is answered it says so; after, it lists each answer and the right one."""
    from study.lab.session import LabSession

    lab = load_lab("power-cap")
    v = draw_vars(lab, 5)
    pick = LabSession(build_case(lab, 5)).instances[0]
    wrong = next(lb for lb, o in zip(pick.labels, pick.options) if not o.correct)
    lines = ["review", f"answer 1 {wrong.lower()}", f"answer 2 {v['cap']} W", "review", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["--db", str(tmp_path / "p.db"), "lab", "power-cap", "--plain", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "command not found" not in out
    assert "review (your answers, once all are given)" in out  # the help line names it
    assert "Answer every task first (2 left)" in out
    review = out.split("Review: ", 1)[1]
    assert review.startswith("1 of 2 tasks right.")
    assert "Task 1: wrong" in review and f"You answered: {wrong}) " in review and "Right answer: " in review
    assert "Task 2: right" in review and "Why: " in review
