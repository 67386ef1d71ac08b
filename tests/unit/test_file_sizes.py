"""No file in study/ is over 600 lines (DESIGN.md's conventions; issue 25 §2): a module that long has more
than one job, and is split along the seam it already has, as the progress store, the xAPI export and the
results reader were."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "study"
MAX_LINES = 600


def oversized(root: Path = PACKAGE, limit: int = MAX_LINES) -> list[str]:
    """``path: N lines`` for every text file under ``root`` longer than ``limit`` (caches and binaries skipped)."""
    out = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # not source: nothing to split
        lines = len(text.splitlines())
        if lines > limit:
            out.append(f"{path.relative_to(root.parent)}: {lines} lines")
    return out


def test_no_file_in_the_package_is_over_600_lines() -> None:
    assert oversized() == []


def test_the_check_sees_a_file_one_line_too_long(tmp_path: Path) -> None:
    root = tmp_path / "study"
    (root / "progress").mkdir(parents=True)
    (root / "progress" / "at_limit.py").write_text("x = 1\n" * MAX_LINES)
    (root / "progress" / "over.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (root / "tui").mkdir()
    (root / "tui" / "app.tcss").write_text("Screen {}\n" * (MAX_LINES + 5))
    (root / "progress" / "__pycache__").mkdir()
    (root / "progress" / "__pycache__" / "over.cpython-310.pyc").write_bytes(b"\x00\xff" * 1000 + b"\n" * 700)
    assert oversized(root) == [f"study/progress/over.py: {MAX_LINES + 1} lines", f"study/tui/app.tcss: {MAX_LINES + 5} lines"]
