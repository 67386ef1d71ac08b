"""``study lab ID --run`` without pydantic: a case is checked against the models' exported schemas and kept.

The first run of a case checks the lab with :mod:`study.lab.shape` (the models' core schemas as data); only a
lab that is not plainly valid goes through the pydantic models, which word the error. The checked system is
kept as JSON in the user cache, under a name that carries a hash of the lab file's bytes, the seed and the
program version, so it is never stale; a damaged or unreadable cache file is ignored and rewritten, and the
cache keeps at most MAX_CACHE_FILES files.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from study.lab.where import MAX_LAB_BYTES, LabError, labs_dir

MAX_CACHE_BYTES = 2_000_000
# One file per lab and seed (and program version): a learner drawing new seeds, or upgrading, adds files
# for ever. Past this many the oldest go, when a new one is written (never on the warm path).
MAX_CACHE_FILES = 256
# What a system from a damaged cache file (valid JSON of another shape: edited, or written by a bug) raises
# when a renderer reads it. Then the entry is dropped and the command runs again on the lab file's own case.
DAMAGED = (AttributeError, KeyError, TypeError, IndexError, ValueError)


def run_cached(lab_id: str, seed: int, line: str) -> tuple[str, int]:
    """``line``'s text and exit status in the case, from the cache when it holds the case (see the module)."""
    from study.lab.shell import run_status

    system, cache = _system(lab_id, seed)
    if cache is None:
        return run_status(system, line)
    try:
        return run_status(system, line)
    except DAMAGED:
        try:
            cache.unlink()
        except OSError:
            pass
        return run_status(_system(lab_id, seed, use_cache=False)[0], line)


def cached_system(lab_id: str, seed: int) -> Any:
    """The case's system (a view of its JSON data), from the cache or checked and cached now."""
    return _system(lab_id, seed)[0]


def _system(lab_id: str, seed: int, *, use_cache: bool = True) -> tuple[Any, Any]:
    """The system and, when it was read from the cache, the cache file it came from (else None)."""
    import re

    from study import __version__

    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,79}", lab_id):
        raise LabError(f"unknown lab {lab_id!r} (see study lab --list)")
    path = labs_dir() / f"{lab_id}.yaml"
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_LAB_BYTES + 1)
    except OSError:
        raise LabError(f"unknown lab {lab_id!r} (see study lab --list)") from None
    key = hashlib.sha256(b"%s\0%d\0" % (__version__.encode(), seed) + raw).hexdigest()[:20]
    from study.paths import cache_folder, write_cache
    from study.lab.view import wrap

    folder = cache_folder("labs", "STUDY_LAB_CACHE")
    cache = folder / f"{lab_id}-{key}.json" if folder is not None else None
    if use_cache:
        try:
            if cache is not None and cache.stat().st_size <= MAX_CACHE_BYTES:
                data = json.loads(cache.read_text(encoding="utf-8"))
                if isinstance(data, dict) and isinstance(data.get("host"), dict):
                    return wrap(data), cache
        except (OSError, ValueError):
            pass
    system = quick_system(lab_id, raw, seed)
    if system is None:
        system = _validated_system(lab_id, seed).model_dump(mode="json")
    if cache is not None and write_cache(cache, json.dumps(system).encode("utf-8")):
        _prune(cache)
    return wrap(system), None


def _prune(kept: Any) -> None:
    """Remove the oldest cache files beyond MAX_CACHE_FILES (never ``kept``, just written)."""
    try:
        files = [(f.stat().st_mtime, f) for f in kept.parent.glob("*.json") if f != kept]
        files.sort()
        for _, f in files[:max(0, len(files) + 1 - MAX_CACHE_FILES)]:
            f.unlink(missing_ok=True)
    except OSError:
        pass


def quick_system(lab_id: str, raw: bytes, seed: int) -> dict[str, Any] | None:
    """The case's system as JSON data, checked without pydantic (:mod:`study.lab.shape`), or None when the
    lab is not plainly valid: then the models decide, and word the error."""
    from study.bank.yamlsafe import decode_utf8, parse_yaml

    if len(raw) > MAX_LAB_BYTES:
        return None
    text, bad = decode_utf8(raw)
    if bad is not None or text is None:
        return None
    doc = parse_yaml(text)
    if doc.fatal or doc.findings or not isinstance(doc.data, dict):
        return None
    return system_from_data(lab_id, doc.data, seed)


def system_from_data(lab_id: str, data: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """:func:`quick_system` for a lab file already read (its YAML mapping)."""
    from study.lab.draw import CaseError, draw, fill
    from study.lab.shape import Unsure, check

    try:
        lab = check("Lab", data)
        if lab["id"] != lab_id:
            return None
        system: dict[str, Any] = check("System", fill(lab["system"], draw(lab_id, lab["vars"], seed)))
    except (Unsure, CaseError, RecursionError):  # nesting deeper than the YAML reader allows: not from a file
        return None
    return system


def _validated_system(lab_id: str, seed: int) -> Any:
    from study.lab.case import CaseError, build_case
    from study.lab.load import load_lab

    try:
        return build_case(load_lab(lab_id), seed).system
    except CaseError as exc:
        raise LabError(str(exc)) from None
