"""Where lab files live, and the one error a missing or unusable lab raises (no YAML, no pydantic here)."""

from __future__ import annotations

from pathlib import Path

MAX_LAB_BYTES = 256_000


class LabError(ValueError):
    """A lab id that does not exist or a lab file that cannot be used: one line for the user."""


def labs_dir() -> Path:
    from study.paths import content_dir

    return content_dir() / "labs"
