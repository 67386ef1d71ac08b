"""`study new question` names the new id after the questions of the same objective (or topic) in the file,
not after the file's first series: a monitoring question in a file that opens with DPU questions."""

from __future__ import annotations

import re
from pathlib import Path

from study.cli import main


def _ids(path: Path) -> list[str]:
    return re.findall(r"^\s*- id: (\S+)", path.read_text(encoding="utf-8"), re.M)


def test_the_id_follows_the_objectives_series_not_the_files_first(tmp_path: Path, tf_question) -> None:
    out = tmp_path / "ops.yaml"
    out.write_text("questions:\n" + tf_question("d3-dpu-01", "3.2") + tf_question("d3-dpu-02", "3.2")
                   + tf_question("d3-dpu-03", "3.2") + tf_question("d3-monitor-01", "3.3"), encoding="utf-8")
    assert main(["new", "question", "--type", "single", "--objective", "3.3", "--out", str(out)]) == 0
    assert _ids(out)[-1] == "d3-monitor-02"
    assert main(["new", "question", "--type", "single", "--objective", "3.2", "--out", str(out)]) == 0
    assert _ids(out)[-1] == "d3-dpu-04"


def test_an_objective_new_to_the_file_names_its_own_series(tmp_path: Path, tf_question) -> None:
    out = tmp_path / "ops.yaml"
    out.write_text("questions:\n" + tf_question("d3-dpu-01", "3.2"), encoding="utf-8")
    assert main(["new", "question", "--type", "single", "--objective", "3.3", "--out", str(out)]) == 0
    assert _ids(out)[-1] == "d3-objective-3-3-01"


def test_a_topic_names_the_series(tmp_path: Path, tf_question) -> None:
    out = tmp_path / "ops.yaml"
    out.write_text("questions:\n" + tf_question("d3-dpu-01", "3.2"), encoding="utf-8")
    assert main(["new", "question", "--type", "single", "--objective", "3.3", "--topic", "gpu-monitoring-metrics",
                 "--out", str(out)]) == 0
    assert _ids(out)[-1].startswith("d3-gpu-monitoring-metrics-")
