"""Help: every key of every screen (read from the bindings, so it cannot drift) and what readiness means."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Markdown

from study.tui.widgets.footer import StudyFooter

READINESS = """\
## What readiness means

Readiness is the score the progress store expects you to get **on your exam date** if you stopped studying
today. For every question and card, the scheduler (FSRS) predicts the chance you still recall it on that date;
items you have never seen count at a guessing prior. The mean per domain is weighted by the blueprint
(38 / 40 / 22 %) into one figure, and the range shows how much a 50-question exam drawn at random could
swing around it. *Study next* lists the objectives where an hour of work should raise that figure most.

Practice and exam answers feed the scheduler: a wrong answer counts as *Again*, a right but slow one
(over 72 s, the exam's pace) as *Hard*, a right one as *Good*.
"""


IN_FLOW = [
    ("Practice (questions)", "practice", "PracticeScreen"),
    ("Exam (questions)", "exam", "ExamScreen"),
    ("Exam review", "exam", "ReviewBeforeSubmit"),
    ("Results", "results", "ResultsScreen"),
]


def _key_table() -> str:
    from study.tui.app import SCREENS, StudyApp, screen_class

    rows = ["## Keys", "", "| where | key | action |", "|---|---|---|"]
    for b in StudyApp.BINDINGS:
        if isinstance(b, Binding):
            rows.append(f"| everywhere | `{b.key_display or b.key}` | {b.description} |")
    rows.append("| everywhere | `ctrl+p` | command palette: every screen, topic and card |")
    rows.append("| everywhere | `escape` | back |")
    import importlib

    # The screens reached from the palette, plus those reached inside a flow.
    places = [(SCREENS[name][2], screen_class(name)) for name in SCREENS]
    for title, module, cls in IN_FLOW:
        places.append((title, getattr(importlib.import_module(f"study.tui.screens.{module}"), cls)))
    for title, cls in places:
        for b in getattr(cls, "BINDINGS", []):
            if not isinstance(b, Binding) or not b.description:
                continue
            key = b.key_display or b.key.split(",")[0]
            rows.append(f"| {title} | `{key}` | {b.description} |")
        if cls.__name__ in ("PracticeScreen", "ExamScreen"):
            rows.append(f"| {title} | `1`-`9`, `a`-`e` | pick a choice (multi: toggle) |")
    return "\n".join(rows)


class HelpScreen(Screen):
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help-body"):
            yield Markdown(_key_table() + "\n\n" + READINESS, id="help-markdown")
        yield StudyFooter()
