"""The Lab screen: a simulated terminal beside the lab's tasks.

Opened with a lab id, or first a list of labs to pick from. The terminal is an Input with history
(up/down) and tab completion of the command lines the lab knows; its output goes to a RichLog that keeps
the real tools' column layout (no wrapping, horizontal scroll). The tasks panel shows the current task;
its answer box grades through :class:`~study.lab.session.LabSession`, which records the attempt (mode
``lab``) like any other answer. ``review`` at the prompt opens the answer review of the tasks answered so
far (the quiz's screen, fed by :func:`study.lab.review.lab_report`): a word at the prompt rather than a key,
because the prompt or the answer box always has the focus. Nothing typed is ever executed.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from study.tui.screens.base import StudyScreen
from study.tui.widgets.footer import StudyFooter

if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

TERMINAL_HELP = ("Type a command (help lists them), tab completes, up/down recalls. Tab on an empty prompt "
                 "goes to the answer box (shift+tab goes back); 'answer N X' here answers task N too. "
                 "'task N' picks a task, 'review' goes through your answers at the end.")


class CommandInput(Input):
    """The prompt: up/down walk the history, tab completes from the lab's known command lines."""

    BINDINGS = [
        Binding("up", "history(-1)", "Earlier command", show=False),
        Binding("down", "history(1)", "Later command", show=False),
        Binding("tab", "complete", "Complete", show=False, priority=True),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(placeholder="$ nvidia-smi", **kwargs)
        self.history: list[str] = []
        self.position = 0

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self.position = len(self.history)

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self.position = max(0, min(len(self.history), self.position + step))
        self.value = self.history[self.position] if self.position < len(self.history) else ""
        self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        from study.lab.shell import completions

        if not self.value.strip() and self.screen is not None:
            # Nothing to complete: tab moves on, as everywhere else, to the answer box beside the terminal.
            self.screen.query_one("#lab-answer").focus()
            return
        options = completions(self.value)
        if not options:
            return
        common = options[0]
        for o in options[1:]:
            while not o.startswith(common):
                common = common[:-1]
        # One match completes fully; several complete to what they share, and the log lists them.
        self.value = common if len(options) > 1 and len(common) > len(self.value) else (
            options[0] if len(options) == 1 else self.value)
        self.cursor_position = len(self.value)
        if len(options) > 1 and self.screen is not None:
            self.screen.show_choices(options)  # type: ignore[attr-defined]


class LabPickScreen(StudyScreen):
    """The labs to choose from: id, objectives and title."""

    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    # The list takes what is left under the heading: left to its own height it filled the screen and scrolled the
    # heading (which says how to open a lab) out of sight at 80x24.
    DEFAULT_CSS = """
    LabPickScreen #lab-pick-head { padding: 0 1; }
    LabPickScreen #lab-pick { height: 1fr; }
    """

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def compose(self) -> ComposeResult:
        from study.lab.load import all_labs

        yield Header()
        self.labs = all_labs()
        last = self._last_results()
        yield Static("Operations labs: read the real tools' output on a simulated GPU cluster. Enter opens one.",
                     id="lab-pick-head")
        yield OptionList(*[Option(self._label(lab, last.get(lab.id)), id=lab.id) for lab in self.labs],
                         id="lab-pick")
        yield StudyFooter()

    def _last_results(self) -> dict[str, int]:
        from study.lab.session import last_results
        from study.progress import StoreError

        store = self.app.services.store
        try:
            return last_results([lab.id for lab in self.labs], store.history()) if store is not None else {}
        except StoreError:
            return {}  # the list still opens; the store's trouble is reported where it is used

    @staticmethod
    def _label(lab: Any, right: int | None) -> Text:
        # Text, not markup: a title is the lab author's words, shown as written.
        label = Text(f"{lab.title}  ({', '.join(lab.objectives)})")
        if right is not None:
            label.append("  ✓" if right == len(lab.tasks) else "  ", style="green")
            label.append(f" last time {right}/{len(lab.tasks)}", style="dim")
        return label

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:  # every option is made with its lab's id
            self.app.switch_screen(LabScreen(lab_id=event.option.id))


def LabEntry(lab_id: str | None = None, seed: int | None = None) -> Screen:  # noqa: N802 (a screen factory)
    """What ``app.open('lab')`` builds: the picker, or a lab directly."""
    return LabScreen(lab_id=lab_id, seed=seed) if lab_id else LabPickScreen()


# The widest table a learner meets first, nvidia-smi's, is 89 columns: with the log's border and scroll bar the
# terminal needs 93, and the tasks beside it 40 more. Below that the terminal takes the full width and the tasks
# sit under it, so the table is read whole instead of scrolled sideways in a half-width pane.
SIDE_BY_SIDE_MIN_WIDTH = 133


class LabScreen(StudyScreen):
    DEFAULT_CSS = """
    LabScreen #lab-body { height: 1fr; layout: vertical; }
    LabScreen #lab-term { width: 100%; height: 2fr; }
    LabScreen #lab-log { height: 1fr; border: round $primary; }
    LabScreen #lab-side { width: 100%; height: 1fr; min-height: 8; }
    LabScreen #lab-task { height: 1fr; border: round $secondary; padding: 0 1; }
    LabScreen.-wide #lab-body { layout: horizontal; }
    LabScreen.-wide #lab-term { width: 1fr; height: 100%; }
    LabScreen.-wide #lab-side { width: 40; height: 100%; }
    """

    BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

    def __init__(self, lab_id: str, seed: int | None = None) -> None:
        super().__init__()
        self.lab_id = lab_id
        self.seed = seed if seed is not None else random.randrange(1_000_000)
        self.session: Any = None
        self.current = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Container(id="lab-body"):
            with Vertical(id="lab-term"):
                yield RichLog(id="lab-log", wrap=False, markup=False, highlight=False, max_lines=5000)
                yield CommandInput(id="lab-cmd")
            with Vertical(id="lab-side"):
                with VerticalScroll(id="lab-task"):
                    yield Static(id="lab-task-text")
                yield Input(placeholder="answer: letters or a number with unit", id="lab-answer")
        yield StudyFooter()

    def on_mount(self) -> None:
        from study.lab.case import build_case, fill
        from study.lab.load import load_lab
        from study.lab.session import LabSession

        services = getattr(self.app, "services", None)
        lab = load_lab(self.lab_id)
        self.session = LabSession(build_case(lab, self.seed), store=getattr(services, "store", None),
                                  clock=getattr(services, "clock", None), objective_titles=self.objective_titles())
        self.sub_title = f"{lab.title} (case {self.seed})"
        self._intro = [fill(lab.brief, self.session.case.vars), TERMINAL_HELP]
        self.show_task()
        self.query_one(CommandInput).focus()
        # The log never wraps (a tool's columns must stay columns), so prose is wrapped here, to the width the
        # log has once it is laid out.
        self.call_after_refresh(self.write_intro)

    def write_intro(self) -> None:
        for paragraph in self._intro:
            self.say(paragraph)

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= SIDE_BY_SIDE_MIN_WIDTH, "-wide")

    # -- terminal ---------------------------------------------------------------------------------------

    def show_choices(self, options: list[str]) -> None:
        self.query_one(RichLog).write(Text("\n".join(options)))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "lab-cmd":
            self.run_command(event.value)
            event.input.value = ""
        elif event.input.id == "lab-answer":
            self.answer(event.value)

    def run_command(self, line: str) -> None:
        from study.text import whole_number
        from study.untrusted import shown

        cmd = self.query_one(CommandInput)
        log = self.query_one(RichLog)
        line = line.strip()
        cmd.remember(line)
        # Escaped: a pasted line can carry ESC and OSC sequences, which the learner's terminal would obey.
        log.write(Text(f"$ {shown(line, keep_newlines=False)}", style="bold"))
        words = line.split()
        count = len(self.session.instances)
        number = whole_number(words[1]) if words[:1] in (["task"], ["answer"]) and len(words) >= 2 else None
        if number is not None:
            n = number - 1
            if not 0 <= n < count:
                self.say(f"There is no task {words[1]}: this lab has {count} (1 to {count}).")
                return
            if words[0] == "task" and len(words) == 2:
                self.current = n
                self.show_task()
                return
            if words[0] == "answer" and len(words) >= 3:
                self.current = n
                self.answer(line.split(None, 2)[2], echo=True)
                return
        if words[:1] == ["answer"]:
            self.say(f"Answer with: answer N X, where N is the task (1 to {count}) and X your answer.")
            return
        if words[:1] == ["task"]:
            self.say(f"Pick a task with: task N, where N is 1 to {count}.")
            return
        if line == "clear":
            log.clear()
            return
        if line == "review":
            self.review_answers()
            return
        out = self.session.run(line)
        if not out:
            return
        if "\n" in out.strip():
            log.write(Text(shown(out).expandtabs(8)))
        else:
            self.say(shown(out))  # a one-line message, not a table: wrapped so its end is not cut off

    def say(self, message: str) -> None:
        import textwrap

        log = self.query_one(RichLog)
        width = max(30, log.scrollable_content_region.width - 1)
        log.write(Text("\n".join(textwrap.fill(p, width) for p in message.split("\n"))))

    # -- tasks ------------------------------------------------------------------------------------------

    def show_task(self, feedback: str = "") -> None:
        from study.lab.plain import task_text, tasks_text

        # Feedback first: in a short panel (80x24 leaves it a few rows) it is what the learner must see now.
        text = (feedback + "\n\n" if feedback else "") + tasks_text(self.session) + "\n\n"
        text += task_text(self.session, self.current)
        self.query_one("#lab-task-text", Static).update(Text(text))
        self.query_one("#lab-task", VerticalScroll).scroll_home(animate=False)

    def answer(self, value: str, echo: bool = False) -> None:
        """Grade ``value`` for the current task; ``echo`` (an answer typed at the prompt) repeats the outcome in
        the terminal, where the learner is looking."""
        from study.quiz.grade import AnswerError
        from study.quiz.plain import feedback_text

        box = self.query_one("#lab-answer", Input)
        if not value.strip():
            return
        try:
            grade = self.session.answer(self.current, value)
        except AnswerError as exc:
            self.show_task(f"{exc}.")
            if echo:
                self.say(f"{exc}.")
            return
        except Exception as exc:  # a store that cannot write keeps the lab going
            from study.progress.store_open import StoreError

            if not isinstance(exc, StoreError):
                raise
            self.notify(f"Could not save that to your progress ({exc}).", severity="warning")
            return
        box.value = ""
        done = feedback_text(grade, self.session.instances[self.current])
        following = [i for i, g in enumerate(self.session.grades) if g is None]
        if following:
            self.current = next((i for i in following if i > self.current), following[0])
        right, total = self.session.score()
        tail = (f"\n\nAll tasks answered: {right} of {total} right. Type review at the prompt to go through "
                "your answers." if not following else "")
        self.show_task(done + tail)
        if echo:
            self.say(done + tail)

    def review_answers(self) -> None:
        from study.lab.review import lab_report
        from study.tui.screens.answer_review import AnswerReviewScreen

        left = sum(g is None for g in self.session.grades)
        if left:
            # Reviewed before the end, the right answers would give the remaining tasks away.
            self.say(f"Answer every task first ({left} left): the review shows the right answers.")
            return
        self.app.push_screen(AnswerReviewScreen(lab_report(self.session, self.objective_titles())))

    def objective_titles(self) -> dict[str, str]:
        bank = getattr(getattr(self.app, "services", None), "bank", None)
        blueprint = getattr(bank, "blueprint", None)
        return blueprint.objective_titles() if blueprint else {}
