"""Problems found while loading the bank and opening the store: listed, never swallowed, and refreshed when
the bank is reloaded after an edit.

Each row shows where the problem is on one line and the whole message wrapped beneath it, so an 80-column
terminal shows everything without scrolling sideways; Enter opens the offending source line underneath.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass
from pathlib import Path

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from study.tui.screens.base import StudyScreen
from study.text import count
from study.tui.widgets.footer import StudyFooter

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

# Lines of source shown either side of the problem's line; more than this and the pane crowds the list.
CONTEXT_LINES = 2


@dataclass(frozen=True)
class Problem:
    severity: str
    where: str
    code: str
    message: str
    path: str | None = None
    line: int = 0
    column: int = 0


def collect(services: object) -> list[Problem]:
    """Everything the reader should know about, start-up failures first, then the bank's diagnostics in file
    order."""
    found = [Problem("error", "start-up", "-", err) for err in getattr(services, "errors", ())]
    reload_error = getattr(services, "reload_error", None)
    if reload_error:
        found.append(Problem("error", "reload", "-", reload_error))
    notice = getattr(getattr(services, "store", None), "notice", None)
    if notice:
        found.append(Problem("warning", "store", "-", str(notice)))
    for d in getattr(getattr(services, "bank", None), "diagnostics", ()) or ():
        found.append(Problem(d.severity, f"{d.path}:{d.line}:{d.column}", d.code, d.message,
                             path=d.path, line=d.line, column=d.column))
    return found


def source_excerpt(problem: Problem, context: int = CONTEXT_LINES) -> Text | None:
    """The lines around the problem with a caret under its column; None when there is no file to show."""
    if not problem.path or problem.line < 1:
        return None
    try:
        lines = Path(problem.path).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    if problem.line > len(lines):
        return None
    first = max(1, problem.line - context)
    last = min(len(lines), problem.line + context)
    width = len(str(last))
    out = Text()
    for n in range(first, last + 1):
        # Tabs are drawn as one visible mark so the caret lines up and a tab-indent error is visible.
        body = lines[n - 1].replace("\t", "→")
        style = "bold" if n == problem.line else "dim"
        out.append(f"{n:>{width}} │ ", style="dim")
        out.append(body + "\n", style=style)
        if n == problem.line and problem.column >= 1:
            out.append(" " * (width + 3 + problem.column - 1) + "^\n", style="bold red")
    out.rstrip()
    return out


def row_text(problem: Problem) -> Group:
    color = "red" if problem.severity == "error" else "yellow"
    head = Text()
    head.append(problem.severity, style=f"bold {color}")
    head.append(f"  {problem.where}", style="bold")
    if problem.code != "-":
        head.append(f"  {problem.code}", style="dim")
    # A hanging indent, wrapped lines included, so the eye finds the next problem's location line quickly.
    return Group(head, Padding(Text(problem.message), (0, 0, 0, 2)))


class ProblemsScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Bank problems"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("q", "app.pop_screen", "Back", show=False),
        # The list answers Enter itself when focused; this puts the key in the footer and the help screen.
        Binding("enter", "toggle_source", "Source line"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[Problem] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="problems-summary")
        yield OptionList(id="problems-list")
        with VerticalScroll(id="problems-detail"):
            yield Static("", id="problems-source")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#problems-detail").display = False
        self.watch(self.app, "ready", self._fill, init=True)
        self.watch(self.app, "bank_version", self._reloaded, init=False)

    def _reloaded(self, _version: int) -> None:
        self._fill(self.app.ready)

    def _fill(self, ready: bool) -> None:
        if not ready:
            return
        services = self.app.services
        self.problems = collect(services)
        listing = self.query_one(OptionList)
        place = listing.highlighted  # a refill after a reload keeps the reader's place
        listing.clear_options()
        rows: list[Option | None] = []
        for p in self.problems:
            rows += [Option(row_text(p)), None]  # a rule between problems: each one's end is plain to see
        listing.add_options(rows[:-1])
        n_err = sum(1 for p in self.problems if p.severity == "error")
        n_warn = len(self.problems) - n_err
        summary = (
            "No problems: every file loaded cleanly."
            if not self.problems
            else f"{count(n_err, 'error')}, {count(n_warn, 'warning')}. Items with errors are left out of "
            "quizzes; Enter shows the source line; [b]study lint[/b] prints the same list."
        )
        self.query_one("#problems-summary", Static).update(summary)
        if self.problems:
            listing.highlighted = min(place or 0, len(self.problems) - 1)
        if self.query_one("#problems-detail").display:
            self._show_source(listing.highlighted)

    @on(OptionList.OptionSelected, "#problems-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._toggle(event.option_index)

    def action_toggle_source(self) -> None:
        self._toggle(self.query_one(OptionList).highlighted)

    def _toggle(self, index: int | None) -> None:
        detail = self.query_one("#problems-detail")
        if detail.display:
            detail.display = False
            return
        self._show_source(index)

    @on(OptionList.OptionHighlighted, "#problems-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.query_one("#problems-detail").display:
            self._show_source(event.option_index)

    def _show_source(self, index: int | None) -> None:
        detail = self.query_one("#problems-detail")
        if index is None or not 0 <= index < len(self.problems):
            detail.display = False
            return
        problem = self.problems[index]
        excerpt = source_excerpt(problem)
        body = Text(f"{problem.where}\n", style="bold")
        body.append_text(excerpt if excerpt is not None else Text("(no source line to show)", style="dim"))
        self.query_one("#problems-source", Static).update(body)
        detail.display = True

    def action_back(self) -> None:
        detail = self.query_one("#problems-detail")
        if detail.display:
            detail.display = False
            return
        self.app.pop_screen()
