"""Notice edits to the bank's source files while the app runs, and reload the bank when they settle.

Polling file signatures (mtime_ns, size, inode) costs well under a millisecond for the shipped bank and
needs no dependency or OS-specific notification API. A change is reported only once two polls in a row
see the same files: an editor that truncates then writes, or writes a temporary file then renames it,
is caught between the two steps by at most one poll, and that half-saved state is never loaded.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Iterable, Mapping

from study import paths
from study.text import count

Signature = tuple[int, int, int]

QUESTION = "question"
TOPIC = "topic"
BLUEPRINT = "blueprint"
SPEC = "spec"


@dataclass(frozen=True)
class Root:
    """A file or folder the bank is read from, and the kind of file found there."""

    path: Path
    kind: str
    suffixes: tuple[str, ...]


@dataclass(frozen=True)
class Change:
    added: tuple[Path, ...] = ()
    changed: tuple[Path, ...] = ()
    removed: tuple[Path, ...] = ()
    kinds: frozenset[str] = frozenset()

    @property
    def paths(self) -> tuple[Path, ...]:
        return tuple(sorted((*self.added, *self.changed, *self.removed)))

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


def bank_roots(
    questions: Iterable[Path | str] | None = None,
    content: Path | str | None = None,
    *,
    specs: bool | None = None,
) -> list[Root]:
    """What ``load_bank(questions, content)`` reads. ``specs`` adds the calculator catalog, which is always the
    built-in one; by default it is watched only with the built-in content."""
    from study.bank.bank import bank_sources
    from study.bank.load import QUESTION_SUFFIXES

    q_roots, content_root = bank_sources(questions, content)
    roots = [Root(p, QUESTION, QUESTION_SUFFIXES) for p in q_roots]
    roots.append(Root(content_root / "topics", TOPIC, (".md",)))
    roots.append(Root(content_root / "blueprint.yaml", BLUEPRINT, (".yaml",)))
    if specs if specs is not None else content is None:
        roots.append(Root(paths.specs_dir(), SPEC, (".yaml", ".yml")))
    return roots


def _wanted(name: str, root: Root) -> bool:
    # The same filter as the loader: hidden files (editor swap files) and topic READMEs are not bank files.
    if name.startswith(".") or not name.endswith(root.suffixes):
        return False
    return not (root.kind == TOPIC and name.lower() == "readme.md")


def _walk(directory: str, root: Root, out: dict[str, tuple[str, Signature]]) -> None:
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return  # a folder removed or unreadable right now: its files count as gone
    for entry in entries:
        try:
            # Not through a linked folder, as the loader's rglob does not: two links to a parent would make
            # the walk exponential.
            if entry.is_dir(follow_symlinks=False):
                _walk(entry.path, root, out)
            elif entry.is_file() and _wanted(entry.name, root):
                st = entry.stat()
                out[entry.path] = (root.kind, (st.st_mtime_ns, st.st_size, st.st_ino))
        except OSError:
            continue  # deleted between listing and stat


def scan(roots: Iterable[Root]) -> dict[str, tuple[str, Signature]]:
    """Every bank file under ``roots`` (as a string: building Path objects would be most of the cost) with
    its kind and signature."""
    out: dict[str, tuple[str, Signature]] = {}
    for root in roots:
        target = str(root.path)
        if os.path.isdir(target):
            _walk(target, root, out)
        else:
            try:
                st = os.stat(target)
            except OSError:
                continue
            out[target] = (root.kind, (st.st_mtime_ns, st.st_size, st.st_ino))
    return out


def diff(before: Mapping[str, tuple[str, Signature]], after: Mapping[str, tuple[str, Signature]]) -> Change:
    added = sorted(p for p in after if p not in before)
    removed = sorted(p for p in before if p not in after)
    changed = sorted(p for p in after if p in before and after[p] != before[p])
    kinds = frozenset((after.get(p) or before[p])[0] for p in (*added, *removed, *changed))
    return Change(tuple(map(Path, added)), tuple(map(Path, changed)), tuple(map(Path, removed)), kinds)


class Watcher:
    """Reports settled changes to the files under ``roots`` since the last report (or since ``prime``)."""

    def __init__(self, roots: Iterable[Root]) -> None:
        self.roots = list(roots)
        self._baseline: dict[str, tuple[str, Signature]] | None = None
        self._pending: dict[str, tuple[str, Signature]] | None = None

    def prime(self) -> None:
        """Take the state to compare against. Call it before loading the bank, so an edit made during the
        load is reported afterwards rather than lost."""
        self._baseline = scan(self.roots)
        self._pending = None

    def poll(self) -> Change | None:
        """A change once it has looked the same on two polls in a row; ``None`` otherwise."""
        now = scan(self.roots)
        if self._baseline is None:
            self._baseline = now
            return None
        if now == self._baseline:
            self._pending = None  # edited and put back before it settled
            return None
        if now != self._pending:
            self._pending = now
            return None
        change = diff(self._baseline, now)
        self._baseline, self._pending = now, None
        return change


# --- reloading -------------------------------------------------------------------------------------------


def reload_bank(questions: list[str] | None = None, content: str | None = None, *,
                cache_directory: Path | None = None) -> Any:
    """Load the bank afresh from its files (through the disk cache, so the next start is fast too).

    Raises what ``load_bank`` raises for a blueprint that cannot be read; a broken question or topic file
    is a diagnostic in the returned bank, never an exception."""
    from study.bank.bank import clear_cache
    from study.bank.cache import load_bank_cached

    # The per-process cache would hand back the bank from before the edit; unchanged files keep their parse.
    clear_cache(keep_parses=True)
    return load_bank_cached(questions=questions, content=content, directory=cache_directory)


def reload_specs() -> str | None:
    """Validate the edited calculator catalog and, when it loads, make the calculator use it. Returns the
    error that kept the previous catalog, or ``None``."""
    from study.calc import specs

    try:
        specs.load()
    except Exception as exc:
        return f"{exc}"
    specs.catalog.cache_clear()
    return None


def _label(path: Path, roots: Iterable[Root]) -> str:
    """A short name for a file: relative to the folder holding its root (``questions/d2/power.yaml``)."""
    for root in roots:
        # Question folders are named from their parent; content files from the content folder's parent.
        base = root.path.parent if root.kind == QUESTION else root.path.parent.parent
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            continue
    return str(path)


def describe(change: Change, bank: Any, roots: Iterable[Root], old: Any = None) -> tuple[str, int]:
    """The one-line report of a reload and the number of errors in the files that changed (``bank`` is
    ``None`` when only the calculator catalog was reloaded).

    ``Reloaded questions/d2-infrastructure/power.yaml: 1 problem · 431 questions (1 fewer), 111 cards``.
    """
    from study.bank.bank import display_path

    roots = list(roots)
    if len(change.paths) == 1:
        path = change.paths[0]
        verb = "Added" if change.added else "Removed" if change.removed else "Reloaded"
        what = f"{verb} {_label(path, roots)}"
    else:
        what = f"Reloaded {len(change.paths)} files"
    if bank is None:  # only the calculator catalog changed
        return f"{what}: the calculator uses the new catalog", 0
    touched = {display_path(p) for p in change.paths}
    diags = tuple(getattr(bank, "diagnostics", ()))
    errors_here = sum(1 for d in diags if d.severity == "error" and d.path in touched)
    errors_all = sum(1 for d in diags if d.severity == "error")
    problems = count(errors_here, "problem") if errors_here else "no problems"
    if errors_all > errors_here:
        problems += f" ({errors_all} in the bank)"
    n_q, n_c = len(bank.questions), len(bank.cards)
    counts = f"{count(n_q, 'question')}"
    if old is not None and len(old.questions) != n_q:
        delta = n_q - len(old.questions)
        counts += f" ({abs(delta)} {'more' if delta > 0 else 'fewer'})"
    counts += f", {count(n_c, 'card')}"
    return f"{what}: {problems} · {counts}", errors_here


def source_checkout() -> bool:
    """Whether the built-in bank is a source checkout's files rather than the copy bundled in the wheel."""
    bundled = Path(paths.__file__).resolve().parent / "_data"
    try:
        paths.questions_dir().resolve().relative_to(bundled)
    except ValueError:
        return True
    return False


def enabled_by_default(questions: object = None, content: object = None, env: Mapping[str, str] | None = None) -> bool:
    """Watch an instructor's own folders and a source checkout; not the wheel's bundled copy, which nobody
    edits and which a package upgrade would swap under the running app. ``STUDY_WATCH=0`` or ``1`` decides."""
    env = os.environ if env is None else env
    flag = env.get("STUDY_WATCH", "").strip().lower()
    if flag in ("0", "no", "off", "false"):
        return False
    if flag in ("1", "yes", "on", "true"):
        return True
    return questions is not None or content is not None or source_checkout()


__all__ = [
    "Root", "Change", "Watcher", "bank_roots", "scan", "diff", "reload_bank", "reload_specs", "describe",
    "source_checkout", "enabled_by_default",
]
