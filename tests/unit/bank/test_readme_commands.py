"""Every `$ study ...` line in the READMEs' console examples is a command the CLI accepts.

A renamed option otherwise leaves the README teaching a command that exits 2.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from study.cli import build_parser

ROOT = Path(__file__).resolve().parents[3]
READMES = [ROOT / "README.md", ROOT / "questions" / "README.md"]


def readme_commands() -> list[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in READMES)
    out = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            if not line.startswith("$ study"):
                continue
            cmd = re.split(r"\s+#\s", line[2:], maxsplit=1)[0]  # drop the comment
            cmd = re.split(r"\s[|>]\s?", cmd, maxsplit=1)[0]  # and any pipe or redirection
            cmd = re.sub(r"\[[^\]]*\]", "", cmd)  # optional parts shown in brackets
            out.append(cmd.strip())
    return out


def test_the_readme_shows_commands() -> None:
    assert len(readme_commands()) >= 20


@pytest.mark.parametrize("command", readme_commands())
def test_readme_command_parses(command: str) -> None:
    argv = shlex.split(command)[1:]
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on an unknown option or a bad choice
        pytest.fail(f"`{command}` is rejected by the CLI (exit {exc.code})")
