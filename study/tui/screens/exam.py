"""The timed exam: start, answer/flag/navigate, review before submit, confirm, auto-submit, resume.

The session (``study.quiz.QuizSession``) owns the deadline, alerts and persistence; this screen asks it
every second what to show and which alert fires.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Input, Select, Static

from study.text import whole_number
from study.tui.screens.base import StudyDialog, StudyScreen
from study.tui.exam_state import PARTIAL, answer_states, tally
from study.tui.format import clock as fmt_clock, ranges
from study.tui.screens.dialogs import ChoiceDialog
from study.tui.screens.quiz import QUESTION_BINDINGS, QuizScreen
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.navigator import Navigator
from study.tui.widgets.question import pick_keys

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

EXAM_INTRO = (
    "[b]{questions} questions in {minutes} minutes[/], drawn by the blueprint's domain weights.\n\n"
    "The timer is always visible, with alerts at 30, 15 and 5 minutes left; at zero the exam submits itself. "
    "Feedback comes only at the end and a question does not say which objective it tests, as on the real "
    "exam (Settings can show the objective). If the terminal closes, the exam is saved after "
    "every answer and the app offers to resume it, with the time that is left.\n\n"
    "Keys (as the footer shows them): [b]1-9[/] or [b]a-e[/] pick · [b]-[/] then a letter strikes a choice out · "
    "[b]x[/] clear · [b]n[/]/[b]\\[[/] next/previous · [b]f[/] flag · [b]g[/] navigator (arrows and [b]enter[/] "
    "jump) · [b]r[/] review and submit · [b]z[/] hide a time alert · [b]escape[/] pause (the clock keeps running, "
    "like the real one)."
)

# Store setting: show each question's objective during an exam (off by default, as on the real exam).
EXAM_OBJECTIVE_SETTING = "exam_show_objective"


def start_exam(app: StudyApp, count: int | None = None, form: Any = None) -> None:
    from study.quiz import SelectionError, build_exam

    services = app.services
    bank = services.bank
    if bank is None:
        app.notify("The question bank is still loading.", severity="warning")
        return
    if form is not None:  # `study quiz --form FILE`: that class exam form, not a draw
        from study.tui.exam_form import start_form
        return start_form(app, form, ExamStartScreen, ExamScreen)
    try:
        session = build_exam(bank, services.next_seed(), count, store=services.store, clock=services.clock)
    except SelectionError as exc:
        app.notify(f"Cannot build an exam: {exc}", severity="error")
        return
    if session.count < (count or bank.blueprint.exam.questions):
        app.notify(f"The bank has only {session.count} suitable questions; the exam is shorter.", severity="warning")
    if isinstance(app.screen, ExamStartScreen):
        app.switch_screen(ExamScreen(session))
    else:
        app.push_screen(ExamScreen(session))


def offer_to_set_aside(app: StudyApp, session_id: str, problem: Exception) -> None:
    """A saved exam that cannot be restored (damaged, or from a backup made elsewhere): say why and offer
    to set it aside; its answers stay recorded either way."""
    from study.untrusted import shown

    def chosen(answer: str | None) -> None:
        if answer == "discard":
            app.services.store.discard_session(session_id)
            app.notify("The interrupted exam was set aside; its answers stay recorded.")

    app.push_screen(
        ChoiceDialog(
            "Interrupted exam",
            f"An interrupted exam cannot be restored:\n{shown(str(problem)[:300])}\n"
            "Set it aside? Its answers stay recorded; a new exam can then start.",
            [("discard", "Set it aside", "y"), ("later", "Not now", "n")],
            cancel="later",
        ),
        chosen,
    )


def exam_minutes(count: int, exam: Any = None) -> str:
    """The minutes ``count`` questions get at the real exam's pace (the blueprint's, 60 for 50 before the bank
    has loaded), as build_exam times a shorter or longer exam."""
    minutes, questions = (exam.minutes, exam.questions) if exam is not None else (60, 50)
    return f"{round(minutes * count / questions, 1):g}"


def offer_resume(app: StudyApp, active: tuple[str, str, Any]) -> None:
    """On start: an unfinished exam (or timed quiz) is in the store; offer to resume it with the time it has
    left."""
    from study.quiz import QuizSession, SessionError

    services = app.services
    session_id, state_json, _deadline = active
    try:
        session = QuizSession.from_json(state_json, services.bank, clock=services.clock, store=services.store)
    except (SessionError, ValueError, KeyError) as exc:
        offer_to_set_aside(app, session_id, exc)
        return
    t = tally(session)
    answered = f"{t.answered}/{session.count}" + (f" answered, {t.partial} partly" if t.partial else "")
    what, one = ("timed quiz", "A timed quiz") if session.mode == "quiz" else ("exam", "An exam")

    def body() -> str:
        # Read each second: the exam's clock runs while the offer is open, as it did while the app was away.
        left = session.remaining()
        return (
            f"{one} was interrupted: {answered} answered, [b]{fmt_clock(left)}[/] left on its clock.\nResume it?"
            if left and left.total_seconds() > 0
            else f"{one} was interrupted and its time ran out meanwhile ({answered} answered).\n"
            "Resuming submits it and shows the results."
        )

    def chosen(answer: str | None) -> None:
        try:
            _resume_or_count(answer)
        except SessionError as exc:  # the clock or state went wrong after the offer: never a traceback
            offer_to_set_aside(app, session_id, exc)

    def _resume_or_count(answer: str | None) -> None:
        if answer == "resume":
            session.resume()
            if session.tick() == ["time up"] or session.finished:
                app.show("results", session.report)
            else:
                app.push_screen(ExamScreen(session))
        elif answer == "count":
            # Submitting records a permanent exam: asked once more, as the in-exam submit does.
            app.push_screen(
                ChoiceDialog("Submit?", f"{tally(session).sentence()}. Everything not fully answered counts as "
                             "wrong and the exam is recorded as it is. This cannot be undone.",
                             [("submit", "Submit", "y"), ("cancel", "Cancel", "n")], cancel="cancel"),
                confirmed,
            )

    def confirmed(answer: str | None) -> None:
        if answer != "submit":
            ask()  # back to the offer: resume, not now, or submit
            return
        # An abandoned exam is resumed or counted, never dropped: its blanks count wrong in its own score
        # (and nowhere else), as on the real exam.
        session.resume()
        if not session.finished:
            session.submit()
        app.show("results", session.report)

    def ask() -> None:
        app.push_screen(
            ChoiceDialog(
                f"Resume {what}?",
                body,
                [("resume", "Resume", "y"), ("later", "Not now", "n"), ("count", "Submit as it is", "c")],
                cancel="later",
            ),
            chosen,
        )

    ask()


class ExamStartScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Exam"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("s", "start", "Start", priority=True)]

    def __init__(self, count: Any = None, form: Any = None) -> None:
        super().__init__()
        self._form = form  # a class exam form (`study quiz --form FILE`): its questions, not a draw
        # The length asked for on the command line (`study quiz --mode exam --count 10`), if any.
        self._asked = count
        self._count = whole_number(str(count)) if count is not None else None

    def compose(self) -> ComposeResult:
        count = self._count or 50
        counts = [50, 20, 10] + ([] if count in (50, 20, 10) else [count])
        lengths = [(f"{n} questions, {exam_minutes(n)} min" + (" (the real shape)" if n == 50 else ""), n)
                   for n in counts]
        yield Header()
        with Vertical(classes="panel", id="exam-intro"):
            yield Static("", id="exam-intro-text")
            yield Select(lengths, id="exam-count", allow_blank=False, value=count, compact=True)
            yield Button("Start the exam (s)", id="exam-start", variant="primary", compact=True)
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#exam-intro").border_title = "Exam"
        if self._asked is not None and not self._count:
            from study.untrusted import shown

            self.notify(shown(f"count {self._asked!r} is not a whole number of at least 1; the exam has 50."),
                        title="exam length", severity="warning", timeout=8)
        self.watch(self.app, "ready", self._fill, init=True)

    def _fill(self, ready: bool) -> None:
        self._describe()
        store = self.app.services.store
        if ready and store is not None:
            from study.tui.exam_state import resumable

            active = resumable(store)
            if active:
                # A paused exam: going back to it is the likely intent.
                self.app.pop_screen()
                offer_resume(self.app, active)

    @on(Select.Changed, "#exam-count")
    def _describe(self) -> None:
        """The intro names the length chosen below it, not always the real exam's 50 questions in 60 minutes."""
        bank = self.app.services.bank
        exam = bank.blueprint.exam if self.app.ready and bank is not None else None
        value = self.query_one("#exam-count", Select).value
        count = value if isinstance(value, int) else (exam.questions if exam else 50)
        if self._form is not None:  # the form's own length and time
            from study.tui.exam_form import form_intro

            self.query_one("#exam-count", Select).display = False
            return self.query_one("#exam-intro-text", Static).update(form_intro(EXAM_INTRO, self._form, exam and bank))
        self.query_one("#exam-intro-text", Static).update(
            EXAM_INTRO.format(questions=count, minutes=exam_minutes(count, exam))
        )

    @on(Button.Pressed, "#exam-start")
    def _pressed(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        from textual.widgets.select import NoSelection  # Select's own module: loaded with the widget

        value = self.query_one("#exam-count", Select).value
        count = None if isinstance(value, NoSelection) or value == 50 else int(value)
        start_exam(self.app, count, form=self._form)


class ReviewBeforeSubmit(StudyDialog[Any]):
    """Unanswered and flagged questions, a navigator to jump back, and the way to submit."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Back to the exam"),
        Binding("s", "submit", "Submit"),
        Binding("u", "first('unanswered')", "First unanswered"),
        Binding("f", "first('flagged')", "First flagged"),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session

    def action_first(self, which: str) -> None:
        found = getattr(self.session.review(), which)
        if found:
            self.dismiss(("goto", found[0]))
        else:
            self.notify(f"No {which} question.", timeout=3)

    def compose(self) -> ComposeResult:
        review = self.session.review()
        un = ranges(i + 1 for i in review.unanswered)
        fl = ranges(i + 1 for i in review.flagged)
        partial = [i for i, state in enumerate(answer_states(self.session)) if state == PARTIAL]
        part = f"Partly answered ({len(partial)}, graded wrong): [b]{ranges(i + 1 for i in partial)}[/]\n" if partial else ""
        with Vertical(classes="dialog", id="review-dialog") as box:
            box.border_title = "Review before submitting"
            yield Static(
                f"Unanswered ({len(review.unanswered)}): [b]{un}[/]\n{part}Flagged ({len(review.flagged)}): [b]{fl}[/]\n"
                "Go back to a question: type its number and [b]enter[/], or arrows then [b]enter[/] (or a "
                "click); [b]u[/] the first unanswered, [b]f[/] the first flagged."
            )
            yield Navigator(id="review-nav")
            yield Static("", id="review-goto")
            with Horizontal():
                yield Button("Submit (s)", id="review-submit", variant="error")
                yield Button("Back (escape)", id="review-back")

    def on_mount(self) -> None:
        s = self.session
        nav = self.query_one(Navigator)
        nav.set_state(answer_states(s), s.flags, s.index)
        nav.focus()
        self.typed = ""  # digits of the question to go to, typed on the keyboard

    def on_key(self, event: events.Key) -> None:
        # The keyboard's way to the navigator: digits build a question number, enter goes there.
        if event.character and event.character.isdigit():
            self.typed = (self.typed + event.character)[-3:]
        elif event.key == "backspace" and self.typed:
            self.typed = self.typed[:-1]
        elif event.key == "enter" and self.typed:
            index = int(self.typed) - 1
            self.typed = ""
            if 0 <= index < self.session.count:
                event.stop()
                event.prevent_default()
                self.dismiss(("goto", index))
                return
            self.query_one("#review-goto", Static).update(f"There is no question {index + 1}.")
            event.stop()
            event.prevent_default()
            return
        else:
            return
        event.stop()
        event.prevent_default()
        self.query_one("#review-goto", Static).update(f"Go to question [b]{self.typed}[/]: enter" if self.typed else "")

    @on(Navigator.Selected)
    def _goto(self, event: Navigator.Selected) -> None:
        self.dismiss(("goto", event.index))

    @on(Button.Pressed, "#review-back")
    def _back(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#review-submit")
    def _submit_pressed(self) -> None:
        self.action_submit()

    def action_submit(self) -> None:
        t = tally(self.session)
        wrong = " and ".join(w for w in ("blank" if t.blank else "", "partly answered" if t.partial else "") if w)
        warn = f"{t.sentence()}: the {wrong} ones count as wrong. " if wrong else f"{t.sentence()}. "

        def confirmed(answer: str | None) -> None:
            if answer == "submit":
                self.dismiss(("submit", None))

        self.app.push_screen(
            ChoiceDialog("Submit?", f"{warn}Submit the exam now? This cannot be undone.",
                         [("submit", "Submit", "y"), ("cancel", "Cancel", "n")], cancel="cancel"),
            confirmed,
        )


class ExamScreen(QuizScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Exam"
    BINDINGS = [
        # The strike key is not in the exam's footer: at 80 columns it pushed "? Help" off; the intro and Help say it.
        *(Binding(b.key, b.action, b.description, show=False, key_display=b.key_display)
          if b.action == "arm_strike" else b for b in QUESTION_BINDINGS),
        Binding("n,right", "next", "Next"),
        # "[" first, so the footer shows it: p is Practice on Home (p and left still work here, unlisted).
        Binding("left_square_bracket,p,left", "previous", "Prev", key_display="["),
        Binding("f", "flag", "Flag"),
        Binding("x", "clear", "Clear"),
        # "Grid", not "Navigator": at 80 columns the longer word pushed "? Help" off the footer.
        Binding("g", "toggle_navigator", "Grid"),
        Binding("r", "review", "Review"),
        Binding("R", "report", "Report", show=False),  # the footer is full at 80 columns; Help lists it
        Binding("escape", "pause", "Pause"),
        Binding("z", "dismiss_alert", "Hide time alert", show=False),
    ]

    skip_hint = " n skips it for now."

    @property
    def shows_objective(self) -> bool:  # type: ignore[override]
        # The real exam does not say which objective a question tests; a setting brings it back for drilling.
        return bool(self.app.services.setting(EXAM_OBJECTIVE_SETTING, False))

    def compose(self) -> ComposeResult:
        yield from super().compose()
        nav = Navigator(id="exam-nav")
        nav.display = False
        yield nav

    def on_mount(self) -> None:
        super().on_mount()
        alert = Static("", id="exam-alert")
        alert.display = False
        self.mount(alert, before=self.view)
        if self.session.mode == "quiz":
            self.sub_title = "Timed quiz"
        self._timer = self.set_interval(1.0, self.tick)
        self.tick()

    # -- clock ------------------------------------------------------------------------------------------

    @property
    def noun(self) -> str:
        """What this screen runs, as the learner's toasts and banners name it."""
        return "quiz" if self.session.mode == "quiz" else "exam"

    def tick(self) -> None:
        if self.session.finished:
            return
        alerts = self.session.tick()
        if "time up" in alerts:
            self._time_up()
            return
        for alert in alerts:
            # A banner that stays until hidden (z) or replaced by the next one: a six-second toast is missed.
            banner = self.query_one("#exam-alert", Static)
            banner.update(f"⚠ {alert} left in the {self.noun}; at 00:00 it submits itself.  [dim](z hides this)[/]")
            banner.display = True
        left = self.session.remaining()
        timer = self.query_one("#exam-timer", Static)
        timer.update(f"⏱ {fmt_clock(left)} left")
        secs = left.total_seconds() if left is not None else 1e9
        thresholds = self.session.alerts or (1800, 900, 300)
        # Coloured once the end is near (15 minutes, or a short quiz's first alert), red for the last five.
        timer.set_class(secs <= min(900, max(thresholds)), "-alert")
        timer.set_class(secs <= min(thresholds), "-critical")

    def _time_up(self) -> None:
        self.notify(f"Time is up: the {self.noun} was submitted.", title=self.sub_title or "", severity="warning",
                    timeout=8)
        self._show_results()

    def action_dismiss_alert(self) -> None:
        self.query_one("#exam-alert", Static).display = False

    # -- display ----------------------------------------------------------------------------------------

    def update_header(self) -> None:
        super().update_header()
        s = self.session
        nav = self.query_one("#exam-nav", Navigator)
        nav.set_state(answer_states(s), s.flags, s.index)
        self.refresh_bindings()

    def show_current(self) -> None:
        super().show_current()
        self.refresh_bindings()
        if self.resting_status():
            self.set_status(self.resting_status())

    def resting_status(self) -> str:
        if self.session.index + 1 == self.session.count:
            return "Last question: r reviews and submits."
        if self.session.current.is_numeric_typed:
            # The box has the keys: n, the arrows and [ are text there ("ns" is a unit), as the footer's Next is not.
            return "Type the number with its unit; enter records it and moves on."
        return ""


    # -- actions ----------------------------------------------------------------------------------------

    def save_struck(self, struck: set[int]) -> None:
        self._act(self.session.strike, set(struck))

    def _act(self, fn, *args) -> Any:
        """Run a session action; the deadline may have passed, in which case the session already submitted."""
        from study.progress import StoreError
        from study.quiz import AnswerError, SessionError, TimeUp

        try:
            return fn(*args)
        except TimeUp:
            self._time_up()
        except AnswerError as exc:
            self.set_status(Text(str(exc), style="bold"))  # it quotes the answer given: not markup
        except SessionError as exc:
            self.set_status(Text(str(exc)))
        except StoreError as exc:  # a full disk: the exam goes on in memory; the last saved state resumes
            self.notify(f"Could not save to your progress ({exc}); the exam goes on.", severity="error",
                        timeout=8)
        return None

    def on_picks(self, picked: tuple[int, ...], submit: bool) -> None:
        if picked:
            self._act(self.session.answer, self.answer_value(picked))
        else:
            self._act(self.session.clear)
        self.update_header()
        self.refresh_bindings()
        if submit and not self.session.finished:
            inst = self.session.current
            need = inst.choose or 1
            if inst.is_multi and len(picked) != need:
                # Enter is "this is my answer": a choose-two with one or three picks is graded wrong, so it is
                # said here rather than found at the results (the picks stay recorded, as every pick is).
                keys = pick_keys(len(inst.options))
                self.say_pick_hint(f"Choose {need}: {len(picked)} picked, which counts as wrong. "
                                   f"Toggle choices with {keys}; n moves on.")
                return
            self.action_next()

    def on_typed(self, text: str) -> None:
        recorded: list[bool] = []

        def answer() -> None:
            self.session.answer(text)
            recorded.append(True)

        if text.strip():
            self._act(answer)
            if not recorded and not self.session.finished:
                return  # refused (the status line says why): the learner corrects it in the box
        self.update_header()
        self.refresh_bindings()
        if self.session.finished:
            return
        where = self.session.index
        self.action_next()
        if self.session.index == where and isinstance(self.focused, Input):
            # Still here (the last question): the number is recorded, so the keys the status line names
            # (r, f, [ ...) must act rather than be typed into the box; a click or tab goes back to it.
            self.set_focus(None)

    def action_next(self) -> None:
        if self._act(self.session.next) is False and not self.session.finished:
            self.set_status("Last question: press r to review and submit.")
            return
        if not self.session.finished:
            self.show_current()

    def action_previous(self) -> None:
        if self._act(self.session.previous) and not self.session.finished:
            self.show_current()

    def action_flag(self) -> None:
        on_ = self._act(self.session.flag)
        if not self.session.finished:
            self.update_header()
            self.set_status("Flagged for review." if on_ else "Flag removed.")

    def action_clear(self) -> None:
        self._act(self.session.clear)
        if not self.session.finished:
            self.show_current()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers only what acts here (a key shown must work): no Prev on the first question, Clear
        only once there is an answer to clear. Next stays on the last question, where it says how to submit."""
        s = self.session
        if action == "previous":
            return s.index > 0
        if action == "clear":
            return s.answers[s.index] is not None
        return True

    def action_toggle_navigator(self) -> None:
        nav = self.query_one("#exam-nav", Navigator)
        nav.display = not nav.display
        if nav.display:
            nav.focus()  # arrows and enter jump to a question; picks (a-e, 1-9) still answer this one
        else:
            self.show_current()

    @on(Navigator.Selected, "#exam-nav")
    def _nav(self, event: Navigator.Selected) -> None:
        self.goto(event.index)

    def goto(self, index: int) -> None:
        self._act(self.session.goto, index)
        if not self.session.finished:
            self.show_current()

    def action_review(self) -> None:
        def back(result: Any) -> None:
            if not result:
                return
            what, index = result
            if what == "goto":
                self.goto(index)
            elif what == "submit":
                from study.tui.submit import submit_now_save_later

                self._act(submit_now_save_later, self.app, self.session)
                self._show_results()

        self.app.push_screen(ReviewBeforeSubmit(self.session), back)

    def action_pause(self) -> None:
        left = self.session.remaining()
        where = "Home resumes it with e."
        self.notify(f"{self.sub_title} paused with {fmt_clock(left)} left; the clock keeps running. {where}",
                    timeout=5)
        self.app.pop_screen()

    def _show_results(self) -> None:
        if getattr(self, "_timer", None) is not None:
            self._timer.stop()
        report = self.session.report
        if report is None:  # pragma: no cover - submit always builds one
            return
        # A dialog open above closes first.
        while self.app.screen is not self:
            self.app.pop_screen()
        self.app.show("results", report, switch=True)
