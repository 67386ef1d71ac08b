"""``study lint`` for lab files: the schema, then whether the scenario could exist, for every case.

Each variable combination (or a sample of seeds when there are many) is filled in and checked: a MIG
profile exists for that GPU and fits beside the others (placement and the 7 compute slices), memory used is
at most the total, a GPU Feature Discovery product label matches the GPU, an Xid code is in NVIDIA's
catalogue (:mod:`study.lab.xid`), the tasks build as bank questions, and the lab's listed commands are
simulated. Findings carry file:line:col like the bank's.
"""

from __future__ import annotations

import functools

from pathlib import Path
from typing import Any
from collections.abc import Iterable

from study.bank.load import Diagnostic, validation_findings
from study.lab.catalog import MODELS, fits
from study.lab.load import lab_paths, read_lab


def _at(path: str, doc: Any, where: tuple[Any, ...], code: str, message: str, severity: str = "error") -> Diagnostic:
    line, col = doc.position(where)
    return Diagnostic(path, line, col, severity, code, message)


def _gpu_where(raw: dict[str, Any], k: int) -> tuple[Any, ...]:
    listed = (raw.get("host") or {}).get("gpus") or []
    return ("system", "host", "gpus", k) if k < len(listed) else ("system", "host", "gpu_defaults")


def system_problems(system: Any, raw: dict[str, Any]) -> list[tuple[tuple[Any, ...], str, str]]:
    """(yaml path, code, message) for what this filled-in system gets wrong."""
    out: list[tuple[tuple[Any, ...], str, str]] = []
    host = system.host
    model = MODELS.get(host.model)
    if model is None:
        return [(("system", "host", "model"), "unknown-gpu", f"GPU model {host.model!r} is not one of {', '.join(MODELS)}")]
    for k, g in enumerate(host.gpus):
        where = _gpu_where(raw, k)
        if g.index >= host.gpu_count:
            out.append((where, "gpu-index", f"GPU index {g.index} is beyond gpu_count {host.gpu_count}"))
        if g.mem_used_mib > model.memory_mib:
            out.append((where, "memory-over", f"GPU {g.index}: memory used {g.mem_used_mib} MiB is above the "
                        f"{model.name}'s {model.memory_mib} MiB"))
        if sum(p.mem_mib for p in g.processes) > model.memory_mib:
            out.append((where, "memory-over", f"GPU {g.index}: its processes use more than {model.memory_mib} MiB"))
        if g.mig and not g.mig_enabled:
            out.append((where, "mig-disabled", f"GPU {g.index} has MIG instances but mig_enabled is false"))
        if g.mig_enabled and not model.mig:
            out.append((where, "mig-unsupported", f"{model.name} does not support MIG"))
        placed: list[tuple[str, int]] = []
        for inst in sorted(g.mig, key=lambda i: i.gi):
            prof = model.profile(inst.profile)
            if prof is None:
                known = ", ".join(p.name for p in model.mig) or "none"
                out.append((where, "mig-profile", f"GPU {g.index}: {model.name} has no MIG profile {inst.profile!r} ({known})"))
                continue
            if inst.start not in fits(model, placed, inst.profile):
                out.append((where, "mig-fit", f"GPU {g.index}: {inst.profile} at slice {inst.start} does not fit "
                            f"beside {', '.join(f'{n}@{s}' for n, s in placed) or 'nothing'} (allowed starts "
                            f"{list(prof.starts)}, 7 compute slices in all)"))
            if inst.used_mib > prof.memory_mib:
                out.append((where, "memory-over", f"GPU {g.index}: {inst.profile} uses {inst.used_mib} MiB of {prof.memory_mib} MiB"))
            placed.append((inst.profile, inst.start))
    from study.lab.xid import XIDS

    for k, x in enumerate(host.xids):
        if x.code not in XIDS:
            out.append((("system", "host", "xids", k, "code"), "unknown-xid",
                        f"Xid {x.code} is not in NVIDIA's Xid catalogue (study/lab/xid.py)"))
        if x.gpu >= host.gpu_count:
            out.append((("system", "host", "xids", k, "gpu"), "gpu-index", f"Xid on GPU {x.gpu}, beyond gpu_count"))
    k8s = system.kubernetes
    for k, n in enumerate(k8s.nodes if k8s else []):
        where = ("system", "kubernetes", "nodes", k)
        if n.gpu_model is None:
            continue
        m = MODELS.get(n.gpu_model)
        if m is None:
            out.append((where, "unknown-gpu", f"node {n.name}: GPU model {n.gpu_model!r} is not one of {', '.join(MODELS)}"))
            continue
        if n.product_label is not None:
            ok = n.product_label == m.gfd_product or n.product_label.startswith(m.gfd_product + "-MIG-") or \
                n.product_label == m.gfd_product + "-SHARED"
            if not ok:
                out.append((where + ("product_label",), "label-mismatch",
                            f"node {n.name}: label nvidia.com/gpu.product={n.product_label} does not match its "
                            f"{m.name} (GFD writes {m.gfd_product})"))
        for res in n.mig_resources:
            if not res.startswith("mig-") or m.profile(res[4:]) is None:
                out.append((where + ("mig_resources",), "mig-profile", f"node {n.name}: {res} is not a MIG resource of {m.name}"))
    slurm = system.slurm
    if slurm:
        names = {n.name for n in slurm.nodes}
        for k, p in enumerate(slurm.partitions):
            for node in p.nodes:
                if node not in names:
                    out.append((("system", "slurm", "partitions", k), "unknown-node", f"partition {p.name}: no node {node}"))
        parts = {p.name for p in slurm.partitions}
        for k, j in enumerate(slurm.jobs):
            if j.partition not in parts:
                out.append((("system", "slurm", "jobs", k), "unknown-partition", f"job {j.id}: no partition {j.partition}"))
    return out


@functools.lru_cache(maxsize=1)
def _bank_common_words() -> frozenset[str]:
    """The words too common in the built-in bank to be a stem echo (as lint uses for questions)."""
    from study.bank import load_bank
    from study.bank.item_flaws import common_words

    return common_words(list(load_bank().questions))


def lint_file(path: Path, shown: str | None = None) -> list[Diagnostic]:
    from pydantic import ValidationError

    from study.bank.item_flaws import question_flaws

    from study.lab.case import build_system, every_vars, task_questions
    from study.lab.shell import run_line
    from study.quiz.instance import InstanceError, instantiate

    got = read_lab(path, shown)
    diags = list(got.diagnostics)
    lab, doc, shown = got.lab, got.doc, got.path
    if lab is None or doc is None:
        return diags
    seen: set[tuple[int, int, str, str]] = set()

    def add(d: Diagnostic) -> None:
        key = (d.line, d.column, d.code, d.message)
        if key not in seen:
            seen.add(key)
            diags.append(d)

    commands_checked = False
    for env in every_vars(lab):
        case = f" (with {', '.join(f'{k}={v}' for k, v in env.items())})" if env else ""
        from study.lab.case import fill

        raw = fill(lab.system, env)
        try:
            system = build_system(lab, env)
        except ValidationError as exc:
            for f in validation_findings(exc, raw, doc, ("system",)):
                add(Diagnostic(shown, f.line, f.column, "error", f.code, f.message + case))
            continue
        for where, code, msg in system_problems(system, raw):
            add(_at(shown, doc, where, code, msg + case))
        try:
            questions = task_questions(lab, env)
        except ValidationError as exc:
            first = exc.errors()[0]
            add(_at(shown, doc, ("tasks",), "bad-task", f"a task does not build as a question{case}: "
                    f"{'.'.join(map(str, first['loc']))}: {first['msg']}"))
            continue
        for k, q in enumerate(questions):
            try:
                instantiate(q, 0)
            except InstanceError as exc:
                add(_at(shown, doc, ("tasks", k), "bad-task", f"{exc}{case}"))
            if q.choices:
                texts = [c.text for c in q.choices]
                if len(set(texts)) != len(texts):
                    add(_at(shown, doc, ("tasks", k, "choices"), "duplicate-choice", f"two choices read the same{case}"))
                right = sum(c.correct for c in q.choices)
                if q.type == "single" and right != 1:
                    add(_at(shown, doc, ("tasks", k, "choices"), "answer-count", f"a single-answer task needs exactly one correct choice{case}"))
        if not commands_checked:
            # A task is a question like any other: a key that gives itself away lets a learner score without
            # investigating, so the item-writing checks of the bank apply (once, on the first case).
            for k, q in enumerate(questions):
                for flaw in question_flaws(q, _bank_common_words()):
                    add(_at(shown, doc, ("tasks", k), flaw.code, flaw.message, "warning"))
            commands_checked = True
            for k, cmd in enumerate(lab.commands):
                said = run_line(system, cmd)
                if said.startswith(("not simulated", "bash:")):
                    add(_at(shown, doc, ("commands", k), "command-not-simulated", f"{cmd!r}: {said.splitlines()[0]}"))
    return diags


def lint_labs(paths: Iterable[Path] | None = None) -> list[Diagnostic]:
    """Findings for the given lab files, or for every lab in ``content/labs``."""
    from study.bank.bank import display_path

    files = list(paths) if paths is not None else lab_paths()
    out: list[Diagnostic] = []
    for p in files:
        out += lint_file(p, display_path(p))
    return sorted(out)


def is_lab_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") and path.parent.name == "labs"


def exhibit_findings(questions: Iterable[Any]) -> list[Diagnostic]:
    """Questions whose ``exhibit`` names a missing lab or a command the lab does not simulate."""
    from study.lab.exhibit import ExhibitError, exhibit_output

    out = []
    for q in questions:
        ex = getattr(q, "exhibit", None)
        if ex is None:
            continue
        try:
            exhibit_output(ex.lab, ex.run, ex.seed)
        except ExhibitError as exc:
            src = q.source
            out.append(Diagnostic(src.path if src else q.id, src.line if src else 1, src.column if src else 1,
                                  "error", "bad-exhibit", str(exc)))
    return out
