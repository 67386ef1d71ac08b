"""The parts of building a case that need no models: drawing the variables, filling in placeholders and
merging a host's GPU defaults. Both the validated path (:mod:`study.lab.case`, pydantic) and the quick path of
``study lab ID --run`` (:mod:`study.lab.shape`) call these, so the two cannot draw or fill differently.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

_VAR = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
# A host has at most this many GPUs (the schema's bound on gpu_count).
MAX_GPUS = 8


class CaseError(ValueError):
    """The lab's variables cannot be drawn or its filled-in system is not valid."""


def draw(lab_id: str, specs: Mapping[str, Any], seed: int) -> dict[str, Any]:
    """The variables for ``seed``, from the lab's ``vars`` as plain data (``Lab.model_dump()["vars"]``):
    a list of values, ``{"from_": [...], "not_": [...]}`` (a pick) or ``{"by": name, "map": {...}}``."""
    rng = random.Random(f"{seed}:{lab_id}")
    drawn: dict[str, Any] = {}
    for name, spec in specs.items():
        if isinstance(spec, dict) and "by" in spec:
            key = str(drawn.get(spec["by"]))
            if key not in spec["map"]:
                raise CaseError(f"variable {name!r}: no entry for {spec['by']}={key}")
            drawn[name] = spec["map"][key]
            continue
        if isinstance(spec, dict):
            taken = {drawn[n] for n in spec["not_"] if n in drawn}
            pool = [v for v in spec["from_"] if v not in taken]
            if not pool:
                raise CaseError(f"variable {name!r}: every value in 'from' is taken by {spec['not_']}")
        else:
            pool = list(spec)
        drawn[name] = rng.choice(pool)
    return drawn


def fill(value: Any, env: Mapping[str, Any]) -> Any:
    """``value`` with placeholders replaced: a string that is exactly ``{var}`` becomes the value itself
    (so a number stays a number), any other string gets the value's text. Unknown names stay as written."""
    if isinstance(value, str):
        m = _VAR.fullmatch(value.strip())
        if m and m.group(1) in env:
            return env[m.group(1)]
        return _VAR.sub(lambda mm: str(env[mm.group(1)]) if mm.group(1) in env else mm.group(0), value)
    if isinstance(value, list):
        return [fill(v, env) for v in value]
    if isinstance(value, dict):
        return {fill(k, env) if isinstance(k, str) else k: fill(v, env) for k, v in value.items()}
    return value


# The driver a lab's host runs unless it says otherwise (nvidia-smi_default_h100_4.txt: 535.104.12, CUDA 12.2).
DEFAULT_DRIVER = "535.104.12"
DEFAULT_CUDA = "12.2"


def derive_cluster(data: Any) -> Any:
    """A system as written, with the cluster views' copies of host facts filled in from the host: the
    Kubernetes section gets the host's driver and CUDA versions (GFD's labels, the driver pod's image), so a
    lab sets them once and no tool can show another. Anything not shaped like a system is returned as it is."""
    if not isinstance(data, dict) or not isinstance(data.get("kubernetes"), dict):
        return data
    host = data.get("host")
    if not isinstance(host, dict):
        host = {}
    k8s = {**data["kubernetes"], "driver": host.get("driver", DEFAULT_DRIVER), "cuda": host.get("cuda", DEFAULT_CUDA)}
    return {**data, "kubernetes": k8s}


def merge_gpu_defaults(data: Any) -> Any:
    """A host as written, with each GPU the defaults plus what the file says about that index; GPUs the file
    does not name are the defaults alone. Listed ones keep their place so a finding still points at the
    right entry. Anything not shaped like a host is returned as it is, for validation to report."""
    if not isinstance(data, dict):
        return data
    defaults = data.get("gpu_defaults") or {}
    count = data.get("gpu_count")
    listed = data.get("gpus") or []
    # The merge runs before gpu_count is checked, so a count out of bounds (a typo of 8000000) must not
    # build that many GPUs first: it is left for validation to report.
    if not isinstance(defaults, dict) or not isinstance(listed, list) or type(count) is not int \
            or not 0 <= count <= MAX_GPUS:
        return data
    merged = [{**defaults, **g} if isinstance(g, dict) else g for g in listed]
    named = {g.get("index") for g in merged if isinstance(g, dict) and isinstance(g.get("index"), (int, str))}
    merged += [{**defaults, "index": i} for i in range(count) if i not in named]
    return {**data, "gpus": merged}
