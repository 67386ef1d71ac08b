"""Imports point down the floors DESIGN.md names: a module may import its own floor and those below, never
one above. Every import counts, those inside functions too: a lazy import that climbs is still a lower layer
that knows about a higher one, and the start-up cost it hides is paid the first time it runs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "study"

# Bottom up. Modules at the package's top level that are not named here are helpers every floor may use
# (paths, text, untrusted, inputs, fingerprint); they must themselves import only floor 0.
FLOORS: dict[str, int] = {
    "calc": 0,
    "bank": 1,
    "progress": 2,
    "quiz": 3, "lab": 3, "analysis": 3,
    "authoring": 4, "interop": 4,
    "tui": 5, "commands": 5, "cli": 5, "cli_parser": 5, "__main__": 5, "serve": 5,
}
HELPERS_FLOOR = 0


def floor_of(module: str) -> int | None:
    """``study.bank.lint`` -> 1; a module outside the package -> None."""
    parts = module.split(".")
    if parts[0] != "study":
        return None
    if len(parts) == 1:
        return HELPERS_FLOOR
    return FLOORS.get(parts[1], HELPERS_FLOOR)


def module_name(path: Path, root: Path = PACKAGE) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path = PACKAGE, runtime_only: bool = False) -> list[tuple[int, str]]:
    """(line, module) for every import in the file, resolving relative ones; ``from pkg import name`` also
    counts as ``pkg.name`` (it may be a module). With ``runtime_only``, imports under ``if TYPE_CHECKING:``
    are left out: they never run."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    typing_only: set[int] = set()
    if runtime_only:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                typing_only.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # `from study import tui` names a floor (and `from study.tui.screens import a` a module) in the alias.
            found.extend((node.lineno, f"{target}.{alias.name}") for alias in node.names if alias.name != "*")
    return found


def climbing_imports(root: Path = PACKAGE) -> list[str]:
    out: list[str] = []
    for path in sorted(root.rglob("*.py")):
        here = module_name(path, root)
        mine = floor_of(here)
        assert mine is not None
        reported: set[int] = set()
        for line, target in imports_of(path, root):
            theirs = floor_of(target)
            if theirs is not None and theirs > mine and target != "study" and line not in reported:
                reported.add(line)  # one line per import statement, not one per name it imports
                out.append(f"{path.relative_to(root.parent)}:{line}: {here} (floor {mine}) imports {target} "
                           f"(floor {theirs})")
    return out


def test_no_module_imports_a_floor_above_its_own() -> None:
    assert climbing_imports() == []


@pytest.mark.parametrize(
    ("where", "source"),
    [
        ("interop/gift.py", "def f():\n    from study.commands import bank_for\n"),
        ("progress/settings.py", "import study.interop.lrs\n"),
        ("progress/backup_format.py", "from study.quiz.session import ExamSession\n"),
        ("bank/x.py", "from ..tui import app\n"),
        ("calc/y.py", "from study import progress\n"),
    ],
)
def test_the_check_sees_each_kind_of_climb(tmp_path: Path, where: str, source: str) -> None:
    root = tmp_path / "study"
    target = root / where
    target.parent.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (target.parent / "__init__.py").write_text("")
    target.write_text(source)
    found = climbing_imports(root)
    assert len(found) == 1 and where in found[0], found


def test_a_downward_or_sideways_import_is_allowed(tmp_path: Path) -> None:
    root = tmp_path / "study"
    (root / "quiz").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "quiz" / "__init__.py").write_text("")
    (root / "quiz" / "m.py").write_text("from study.progress import store\nfrom study.analysis import stats\n"
                                         "from . import other\nimport json\n")
    assert climbing_imports(root) == []


# --- no circles inside a floor -----------------------------------------------------------------------------


def import_cycles(prefix: str, root: Path = PACKAGE) -> list[list[str]]:
    """Circles of imports among the modules under ``prefix`` (lazy imports count). Screens that need each other
    reach one another through the app's table of screens (``StudyApp.show``), not by importing."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        here = module_name(path, root)
        if here.startswith(prefix):
            graph[here] = {t for _line, t in imports_of(path, root, runtime_only=True)
                           if t.startswith(prefix) and t != here}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt in graph and nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return cycles


def test_the_screens_do_not_import_each_other_in_a_circle() -> None:
    assert import_cycles("study.tui") == []


def test_the_circle_check_sees_a_lazy_circle(tmp_path: Path) -> None:
    root = tmp_path / "study"
    screens = root / "tui" / "screens"
    screens.mkdir(parents=True)
    for folder in (root, root / "tui", screens):
        (folder / "__init__.py").write_text("")
    (screens / "a.py").write_text("from study.tui.screens.b import B\n")
    (screens / "b.py").write_text("def go():\n    from study.tui.screens.c import C\n")
    (screens / "c.py").write_text("def back():\n    from study.tui.screens import a\n")
    (screens / "d.py").write_text("from study.tui.screens.a import A\n")
    (screens / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from study.tui.screens.d import D\n")
    (screens / "a.py").write_text("from study.tui.screens.b import B\nfrom typing import TYPE_CHECKING\n"
                                  "if TYPE_CHECKING:\n    from study.tui.screens.e import E\n")
    assert import_cycles("study.tui", root) == [["study.tui.screens.a", "study.tui.screens.b",
                                                "study.tui.screens.c", "study.tui.screens.a"]]
