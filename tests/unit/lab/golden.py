"""Helpers for the golden tests: real samples (copied from reference/tool_outputs with their source
headers) and a way to build a system made to match one."""

from __future__ import annotations

import re
from pathlib import Path

from study.lab.schema import System

SAMPLES = Path(__file__).parent / "samples"


def sample(name: str) -> list[str]:
    """The tool output of a sample file: its 3 header lines dropped, and a markdown fence if the source kept one."""
    lines = (SAMPLES / name).read_text(encoding="utf-8").split("\n")[3:]
    lines = [ln for ln in lines if not ln.startswith("```")]
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def system(**host) -> System:
    return System.model_validate({"host": host})


def shape(line: str) -> str:
    """A line's structure: digits and hex ids become #, so column widths and separators still compare."""
    line = re.sub(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}", "UUID", line)
    return re.sub(r"[0-9]", "#", line)
