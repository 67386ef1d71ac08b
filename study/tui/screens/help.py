"""Help: every key of every screen (read from the bindings, so it cannot drift) and what readiness means."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header

from study.tui.screens.base import StudyScreen
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.markdown import ReaderMarkdown

def readiness_text() -> str:
    """The progress module's own explanation, so the help cannot drift from the computation."""
    from study.progress import readiness

    doc = (readiness.__doc__ or "").strip()
    _first, _, body = doc.partition("\n")
    return (
        "## What readiness means\n\n" + body.strip() + "\n\n"
        "Practice and exam answers feed the scheduler: wrong counts as *Again*, right but slower than the "
        "exam's pace (72 s) as *Hard*, right as *Good*.\n\n" + scheduling_text()
    )


def scheduling_text() -> str:
    """How scheduling, "due" and the plan are computed, in the core's own words (they cannot drift)."""
    from study.progress.due import DUE_MEANING
    from study.progress.plan import PLAN_METHOD
    from study.progress.schedule import SCHEDULING_RULES

    def labelled(text: str) -> str:  # "Due now: ..." -> "**Due now**: ..."
        label, _, rest = text.partition(": ")
        return f"**{label}**: {rest}"

    return ("## Scheduling, due and the plan\n\n" + f"**Scheduling**: {SCHEDULING_RULES}\n\n"
            + labelled(DUE_MEANING) + "\n\n" + labelled(PLAN_METHOD))


IN_FLOW = [
    ("Practice (questions)", "practice", "PracticeScreen"),
    ("Exam (questions)", "exam", "ExamScreen"),
    ("Exam review", "exam", "ReviewBeforeSubmit"),
    ("Results", "results", "ResultsScreen"),
    ("Past exams", "past_exams", "PastExamsScreen"),
    ("Review answers", "answer_review", "AnswerReviewScreen"),
    ("Report a problem", "report_problem", "ReportDialog"),
]


def _key_table() -> str:
    """Keys grouped by where they work, read from the bindings themselves so the list cannot drift."""
    import importlib

    from study.tui.app import SCREENS, StudyApp, screen_class

    def keys(bindings) -> list[str]:
        out: list[str] = []
        for b in bindings:
            # One entry says what the 14 pick and 5 strike keys do (below), not one entry each.
            if isinstance(b, Binding) and b.description and not b.action.startswith(("pick(", "strike(")):
                entry = f"`{b.key_display or b.key.split(',')[0]}` {b.description}"
                if entry not in out:
                    out.append(entry)
        return out

    lines = ["## Keys", ""]
    everywhere = [k for k in keys(StudyApp.BINDINGS) if "Menu" not in k] + [
        "`ctrl+p` Menu, the command palette (every screen, topic and card)",
        "`escape` back", "`enter` confirm", "`q` quit (on Home)",
        "a letter or sign means the same on every screen whose footer lists it; digits are per kind of screen: "
        "on a question `1`-`9` pick choices A-I, in card review `1`-`4` rate (again, hard, good, easy)"]
    lines.append("**Everywhere**: " + " · ".join(everywhere) + "\n")
    places = [(SCREENS[name][2], screen_class(name)) for name in SCREENS]
    for title, module, class_name in IN_FLOW:
        places.append((title, getattr(importlib.import_module(f"study.tui.screens.{module}"), class_name)))
    for title, cls in places:
        bindings = getattr(cls, "BINDINGS", [])
        found = keys(bindings)
        actions = {b.action.split("(")[0] for b in bindings if isinstance(b, Binding)}
        if "arm_strike" in actions:
            found = [k for k in found if not k.startswith("`-`")]  # said at length here
            found.insert(0, "`-` then a choice's letter or digit strikes it out (again puts it back)")
        if "hold" in actions:
            from study.tui.hold import HOLD_HELP

            found = [k for k in found if not k.startswith(("`@`", "`=`", "`+`", "`u`"))]
            found.append(HOLD_HELP)
        if "pick" in actions:
            found.insert(0, "on a question `1`-`9` or `a`-`e` (or `A`-`E`) pick a choice (multi: toggle)")
        if cls.__name__ in ("PracticeScreen", "ExamScreen"):
            # The question view's own keys: a command's output shown under a question scrolls sideways.
            from study.tui.widgets.question import QuestionView

            found += keys(QuestionView.BINDINGS)
        if cls.__name__ == "ExamScreen":
            found.append("to jump to a question: `r`, type its number, `enter`")
            found.append("as on the real exam, a question does not say which objective it tests (Settings, "
                         "*Objective during an exam*, shows it)")
        if cls.__name__ in ("PracticeScreen", "ExamScreen", "ResultsScreen", "AnswerReviewScreen"):
            found = [k for k in found if k != "`R` Report"]  # said at length here
            found.append("`R` (shift+r) reports a problem with the question on screen: wrong key, unclear, "
                         "outdated, or your own words; `study reports` lists them")
        if cls.__name__ == "ReviewBeforeSubmit":
            found.append("type a question's number and `enter` to go back to it")
        if found:
            lines.append(f"**{title}**: " + " · ".join(found) + "\n")
    return "\n".join(lines)


class HelpScreen(StudyScreen):
    SUB_TITLE = "Help"
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="help-body"):
            yield ReaderMarkdown(_key_table() + "\n\n" + readiness_text(), id="help-markdown")
        yield StudyFooter()
