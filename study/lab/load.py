"""Reading lab files (``content/labs/*.yaml``, one lab per file) through the bank's safe YAML reader.

A lab's id is its file name, so ``study lab ID`` opens one file and never parses the others: that keeps
``study lab ID --run`` quick.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from study.bank.yamlsafe import Document, decode_utf8, parse_yaml
from study.lab.where import MAX_LAB_BYTES, LabError, labs_dir  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    from study.bank.load import Diagnostic



@dataclass(frozen=True)
class LabFile:
    lab: Any  # study.lab.schema.Lab, or None when the file has errors
    doc: Document | None
    path: str
    diagnostics: tuple[Diagnostic, ...]


def lab_paths(root: Path | None = None) -> list[Path]:
    root = root or labs_dir()
    return sorted(p for p in root.glob("*.yaml") if p.is_file()) if root.is_dir() else []


def _diag(path: str, line: int, col: int, code: str, message: str) -> Diagnostic:
    from study.bank.load import Diagnostic

    return Diagnostic(path, line, col, "error", code, message)


def read_lab(path: Path, shown: str | None = None) -> LabFile:
    """Parse and validate one lab file; problems come back as diagnostics, never as exceptions."""
    from pydantic import ValidationError

    from study.bank.schema import SourceRef
    from study.lab.schema import Lab

    shown = shown or str(path)
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_LAB_BYTES + 1)
    except OSError as exc:
        return LabFile(None, None, shown, (_diag(shown, 1, 1, "unreadable", f"cannot read: {exc.strerror}"),))
    if len(raw) > MAX_LAB_BYTES:
        return LabFile(None, None, shown, (_diag(shown, 1, 1, "too-large", f"a lab file is at most {MAX_LAB_BYTES:,} bytes"),))
    text, bad = decode_utf8(raw)
    if bad is not None:
        return LabFile(None, None, shown, (_diag(shown, bad.line, bad.column, bad.code, bad.message),))
    doc = parse_yaml(text or "")
    from study.bank.load import Diagnostic

    diags = [Diagnostic(shown, f.line, f.column, f.severity, f.code, f.message) for f in doc.findings]
    if doc.fatal:
        return LabFile(None, doc, shown, tuple(diags))
    if not isinstance(doc.data, dict):
        return LabFile(None, doc, shown, (*diags, _diag(shown, 1, 1, "not-a-lab", "a lab file is one mapping with id, title, system and tasks")))
    try:
        lab = Lab.model_validate({**doc.data, "source": SourceRef(path=shown, line=1, column=1)})
    except ValidationError as exc:
        from study.bank.load import validation_findings

        found = validation_findings(exc, doc.data, doc, ())
        diags += [Diagnostic(shown, f.line, f.column, f.severity, f.code, f.message) for f in found]
        return LabFile(None, doc, shown, tuple(diags))
    if lab.id != path.stem:
        line, col = doc.position(("id",))
        diags.append(_diag(shown, line, col, "lab-id-file", f"lab id {lab.id!r} must match its file name {path.stem!r}"))
    return LabFile(lab, doc, shown, tuple(diags))


def load_lab(lab_id: str, root: Path | None = None) -> Any:
    """The lab with this id, or :class:`LabError` naming what is wrong."""
    import re

    if not re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,79}", lab_id):
        raise LabError(f"unknown lab {lab_id!r} (see study lab --list)")
    path = (root or labs_dir()) / f"{lab_id}.yaml"
    if not path.is_file():
        raise LabError(f"unknown lab {lab_id!r} (see study lab --list)")
    got = read_lab(path)
    if got.lab is None:
        first = next((d for d in got.diagnostics if d.severity == "error"), None)
        raise LabError(f"lab {lab_id!r} cannot be used: {first}" if first else f"lab {lab_id!r} cannot be used")
    return got.lab


def all_labs(root: Path | None = None) -> list[Any]:
    return [f.lab for f in (read_lab(p) for p in lab_paths(root)) if f.lab is not None]
