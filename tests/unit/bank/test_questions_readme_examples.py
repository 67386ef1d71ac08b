"""The worked examples in questions/README.md are the instructor's contract: each must lint clean."""

from __future__ import annotations

import re
from pathlib import Path

from study import paths
from study.bank.lint import lint

README = paths.questions_dir() / "README.md"


def example_blocks() -> list[str]:
    blocks = re.findall(r"```yaml\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    out = []
    for block in blocks:
        if "id:" not in block:
            continue  # the editor-schema line
        out.append(block if block.lstrip().startswith("questions:") else "questions:\n" + block)
    return out


def test_readme_has_an_example_of_every_type() -> None:
    text = "\n".join(example_blocks())
    for kind in ("single", "multi", "true_false", "numeric"):
        assert f"type: {kind}" in text
    assert "params:" in text and "distractors:" in text


def test_every_readme_example_lints_clean(tmp_path: Path, monkeypatch) -> None:
    # The examples are the bank's own questions, shown again: twins of them by design.
    from study.bank import twins

    monkeypatch.setattr(twins, "twin_findings", lambda questions: [])
    files = []
    for i, block in enumerate(example_blocks()):
        path = tmp_path / f"example_{i}.yaml"
        path.write_text(block, encoding="utf-8")
        files.append(path)
    result = lint(files)
    assert result.questions == len(files)
    assert result.diagnostics == (), "\n".join(map(str, result.diagnostics))
