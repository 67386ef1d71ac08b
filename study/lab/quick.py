"""``study lab ID --run`` with a case cache: the first run validates the case, later runs read its JSON.

The cache file's name carries a hash of the lab file's bytes, the seed and the program version, so it is
never stale; a damaged or unreadable cache file is ignored and rewritten. Nothing here imports pydantic on
a cache hit.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from study.lab.where import MAX_LAB_BYTES, LabError, labs_dir

MAX_CACHE_BYTES = 2_000_000


def cached_system(lab_id: str, seed: int) -> Any:
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
    from study.paths import cache_folder

    folder = cache_folder("labs", "STUDY_LAB_CACHE")
    cache = folder / f"{lab_id}-{key}.json" if folder is not None else None
    try:
        if cache is not None and cache.stat().st_size <= MAX_CACHE_BYTES:
            from study.lab.view import wrap

            return wrap(json.loads(cache.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        pass
    from study.lab.case import CaseError, build_case
    from study.lab.load import load_lab

    try:
        case = build_case(load_lab(lab_id), seed)
    except CaseError as exc:
        raise LabError(str(exc)) from None
    if cache is None:
        return case.system
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(case.system.model_dump(mode="json")), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError:
        pass  # a read-only cache only costs speed
    return case.system
