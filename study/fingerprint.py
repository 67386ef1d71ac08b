"""A cheap key for a set of files: their paths, sizes and modification times, plus the versions that change
how they are read. Kept out of ``study.bank`` so that start-up can compute it without importing the bank
(pydantic and the schema): the bank's disk cache and the home screen's snapshot both use it."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from collections.abc import Iterable


def files_fingerprint(roots: Iterable[Path], *, versions: bool = True) -> str:
    """``versions=False`` leaves out the package versions (looking them up takes tens of milliseconds), for a
    key that guards figures computed from the files rather than objects pickled by those packages."""
    h = hashlib.sha256()
    h.update(f"{sys.version_info[:3]}|{os.getcwd()}".encode())
    if versions:
        try:
            from importlib.metadata import version

            h.update(f"{version('pydantic')}|{version('study-nca-aiio')}".encode())
        except Exception:
            h.update(b"unknown-versions")
    from study.paths import resolved

    for root in sorted({resolved(Path(r)) for r in roots}):
        h.update(f"\0root {root}".encode())
        if root.is_file():
            files = [root]
        elif root.is_dir():
            files = sorted(p for p in root.rglob("*") if p.is_file())
        else:
            files = []
        for p in files:
            st = p.stat()
            h.update(f"\0{p}|{st.st_size}|{st.st_mtime_ns}".encode())
    return h.hexdigest()[:32]
