"""A disk cache of the loaded ``Bank`` for the app's start-up.

Parsing and validating the YAML is most of the time to a filled home screen (seconds for 10,000 questions);
unpickling the validated bank is several times faster. The key covers every file under the content and
question folders (path, size, mtime), the working directory (diagnostics show paths relative to it) and the
versions of Python, pydantic and study, so any edit or upgrade loads afresh. A cache that cannot be read or
written is ignored: the bank is then loaded the ordinary way.
"""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from study.fingerprint import files_fingerprint as _fingerprint


def cache_dir() -> Path:
    from study import paths

    return paths.user_cache_dir() / "bank"


def _ours(path: Path) -> bool:
    """Whether ``path`` is a regular file of this user's that no one else may write, in a folder of this
    user's that others may not write into: unpickling runs code, so a pickle another account could plant or
    edit (a shared cache folder, a file made world-writable) is not loaded. A group-writable folder is let
    pass, as a umask of 002 with a group of one's own makes it."""
    import os
    import stat

    try:
        st = os.stat(path, follow_symlinks=False)
        folder = os.stat(path.parent)
    except OSError:
        return False
    uid = os.getuid() if hasattr(os, "getuid") else st.st_uid
    private = not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not folder.st_mode & stat.S_IWOTH
    return stat.S_ISREG(st.st_mode) and st.st_uid == uid and folder.st_uid == uid and private


def load_bank_cached(questions: list[str] | None = None, content: str | None = None,
                     directory: Path | None = None) -> Any:
    """``study.bank.load_bank(questions, content)``, through the disk cache."""
    from study.bank.bank import bank_sources

    q_roots, content_root = bank_sources(questions, content)
    roots = [content_root, *q_roots]
    directory = directory or cache_dir()
    try:
        key = _fingerprint(roots)
    except OSError:
        key = None
    target = directory / f"bank-{key}.pickle" if key else None
    if target is not None and _ours(target):
        try:
            with target.open("rb") as fh:
                return pickle.load(fh)
        except Exception:
            pass  # stale format or a torn file: rebuild below
    from study.bank import load_bank

    bank = load_bank(questions=questions, content=content)
    if target is not None:
        try:
            _ = bank.cards  # computed once, stored with the bank
            directory.mkdir(parents=True, exist_ok=True)
            # Keep a few (the built-in bank, an instructor's folder...), drop the rest.
            olds = sorted(directory.glob("bank-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in olds[3:]:
                old.unlink(missing_ok=True)
            from study.paths import write_cache

            write_cache(target, pickle.dumps(bank, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:
            pass  # a read-only cache dir only costs speed
    return bank
