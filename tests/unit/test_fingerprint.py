"""study.fingerprint walks folders with os.scandir; it must find and order the files as Path.rglob did."""

from __future__ import annotations

import os
from pathlib import Path

from study.fingerprint import _files_under, files_fingerprint


def _tree(root: Path) -> None:
    for rel in ("a/b/q.yaml", "a-b/x.yaml", "a.b", "a/c.md", ".hidden/h.yaml", "z/.dot", "B/upper.yaml"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel)
    (root / "link-to-file.yaml").symlink_to(root / "a.b")
    (root / "a" / "up").symlink_to(root)  # a loop: never entered
    (root / "dangling").symlink_to(root / "missing")
    os.mkfifo(root / "pipe")


def test_the_files_and_their_order_are_those_of_rglob(tmp_path: Path) -> None:
    _tree(tmp_path)
    by_rglob = [str(p) for p in sorted(p for p in tmp_path.rglob("*") if p.is_file())]
    assert sorted(_files_under(str(tmp_path)), key=lambda p: p.split(os.sep)) == by_rglob
    assert str(tmp_path / "a" / "up" / "a.b") not in by_rglob


def test_the_key_follows_a_size_or_time_change(tmp_path: Path) -> None:
    _tree(tmp_path)
    before = files_fingerprint([tmp_path], versions=False)
    assert files_fingerprint([tmp_path], versions=False) == before
    (tmp_path / "a" / "c.md").write_text("edited, longer")
    assert files_fingerprint([tmp_path], versions=False) != before


def test_the_weak_key_follows_changes_too_and_needs_no_hashlib(tmp_path: Path) -> None:
    import subprocess
    import sys

    _tree(tmp_path)
    before = files_fingerprint([tmp_path], versions=False, strong=False)
    assert before != files_fingerprint([tmp_path], versions=False)  # a different digest, not a truncation
    (tmp_path / "a" / "c.md").write_text("x/c.md")  # same length as before
    assert files_fingerprint([tmp_path], versions=False, strong=False) != before
    # The home snapshot computes it before the first paint, where importing hashlib cost 2 ms.
    probe = (f"import sys; from study.fingerprint import files_fingerprint; "
             f"files_fingerprint([{str(tmp_path)!r}], versions=False, strong=False); print('hashlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
