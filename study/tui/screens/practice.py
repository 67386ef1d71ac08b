"""Practice: pick filters, then answer with immediate feedback (numbers typed with units)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.widgets import Button, Header, Label, Select, Static

from study.tui.screens.base import StudyScreen
from study.tui.flows import start_practice
from study.tui.hold import HoldKeys, hold_bindings
from study.tui.screens.quiz import QUESTION_BINDINGS, QuizScreen
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.question import pick_keys

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

PICKS = [
    ("any question", "any"),
    ("due for review", "due"),
    ("weakest first", "weak"),
    ("missed before", "missed"),
    ("never seen", "unseen"),
]
COUNTS = (5, 10, 20, 50)
DIFFICULTIES = [("1 recall", 1), ("2 apply", 2), ("3 analyse", 3)]
# A time limit makes the set a timed quiz (``study quiz --mode quiz --minutes N``): graded at the end.
TIME_LIMITS = (10, 20, 30, 60)
PRESET_KEYS = ("domain", "objective", "topic", "difficulty", "pick", "count", "minutes")


def normalise_preset(preset: dict[str, Any] | None) -> tuple[dict[str, Any], list[str]]:
    """The form values a preset asks for (``study quiz`` filters, as given on the command line or parsed),
    and one message per value that cannot be used. Unknown keys and None values are ignored; the form keeps
    its default wherever nothing usable was given."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key in PRESET_KEYS:
        raw = (preset or {}).get(key)
        if raw is None or raw == "" or (key == "pick" and raw == "any"):
            continue
        if key == "difficulty":
            levels = _levels(raw)
            if levels is None:
                problems.append(f"difficulty {raw!r} is not 1, 2, 3 or a list like 2,3")
            else:
                values[key] = levels[0] if len(levels) == 1 else levels
        elif key == "count":
            try:
                n = int(raw)
            except (TypeError, ValueError):
                n = 0
            if n < 1:
                problems.append(f"count {raw!r} is not a whole number of at least 1")
            else:
                values[key] = n
        elif key == "minutes":
            try:
                minutes = float(raw)
            except (TypeError, ValueError):
                minutes = 0.0
            if not minutes > 0:
                problems.append(f"minutes {raw!r} is not a positive number")
            else:
                values[key] = int(minutes) if minutes == int(minutes) else minutes
        elif key == "pick" and raw not in {v for _l, v in PICKS}:
            problems.append(f"pick {raw!r} is not one of {', '.join(v for _l, v in PICKS)}")
        else:
            values[key] = str(raw)
    return values, problems


def _levels(raw: Any) -> tuple[int, ...] | None:
    if isinstance(raw, int) and not isinstance(raw, bool):
        items: list[Any] = [raw]
    elif isinstance(raw, str):
        items = [x for x in raw.replace(" ", "").split(",") if x]
    else:
        try:
            items = list(raw)
        except TypeError:
            return None
    try:
        levels = tuple(sorted({int(x) for x in items}))
    except (TypeError, ValueError):
        return None
    if not levels or any(v not in (1, 2, 3) for v in levels):
        return None
    return levels


def refresh_upcoming(session: Any, bank: Any) -> int:
    """After a live reload, redraw the questions still ahead in an untimed practice set from the edited bank
    (same seed, so the same parameters and choice order where the question allows). The current question and
    answered ones stay as asked; a question now missing from the bank (its file broke) is kept as drawn.
    Timed sets are saved for resume and stay frozen, like exams. Returns how many were replaced."""
    if session.mode != "practice" or session.deadline is not None:
        return 0
    from study.quiz.instance import InstanceError, instantiate

    replaced = 0
    for i in range(session.index + 1, session.count):
        old = session.instances[i]
        if session.answers[i] is not None or not bank.has_item(old.qid):
            continue
        try:
            new = instantiate(bank.question(old.qid), session.seed, hash_=bank.content_hash(old.qid))
        except (InstanceError, KeyError):
            continue
        if new != old:
            session.instances[i] = new
            replaced += 1
    return replaced


# An objective's title in the list: what an 80-column form's field shows beside "1.2 " and the arrow.
OBJECTIVE_TITLE_WIDTH = 40


def cut_at_word(text: str, width: int) -> str:
    """``text`` in at most ``width`` columns, shortened at a word ("…training and…", never "…infere")."""
    if len(text) <= width:
        return text
    head = text[: width - 1].rsplit(" ", 1)[0].rstrip(" ,;:-")
    return head + "…"


def in_blueprint_order(bank: Any) -> list[Any]:
    """Topics in the order of the first blueprint objective each covers (then by title), as the exam guide
    lists them, rather than in the order their files happen to load."""
    order = {o.id: i for i, o in enumerate(o for d in bank.blueprint.domains for o in d.objectives)}
    return sorted(bank.topics, key=lambda t: (min((order.get(o, len(order)) for o in t.meta.objectives),
                                                  default=len(order)), t.meta.title))


class PracticeSetupScreen(StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Practice"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "start", "Start", priority=True),
    ]

    def __init__(self, preset: dict[str, Any] | None = None) -> None:
        super().__init__()
        # Filters to show once the bank is loaded (``study quiz --objective 2.9`` opening on this form).
        self._preset = preset
        # What each list offers now, so a preset value can be checked before it is picked.
        self._offered: dict[str, set[Any]] = {}

    def compose(self) -> ComposeResult:
        values, _problems = normalise_preset(self._preset)
        difficulties = list(DIFFICULTIES)
        if isinstance(values.get("difficulty"), tuple):
            levels = values["difficulty"]
            difficulties.append((" or ".join(str(v) for v in levels), levels))
        counts = sorted(set(COUNTS) | ({values["count"]} if "count" in values else set()))
        limits = sorted(set(TIME_LIMITS) | ({values["minutes"]} if "minutes" in values else set()))
        yield Header()
        with Grid(id="practice-form", classes="panel form"):
            yield Label("Domain")
            yield Select([], id="pf-domain", prompt="any domain", compact=True)
            yield Label("Objective")
            yield Select([], id="pf-objective", prompt="any objective", compact=True)
            yield Label("Topic")
            yield Select([], id="pf-topic", prompt="any topic", compact=True)
            yield Label("Difficulty")
            yield Select(difficulties, id="pf-difficulty", prompt="any", compact=True,
                         value=values.get("difficulty", Select.NULL))
            yield Label("Which questions")
            yield Select(PICKS, id="pf-pick", allow_blank=False, value=values.get("pick", "any"), compact=True)
            yield Label("How many")
            yield Select([(str(n), n) for n in counts], id="pf-count", allow_blank=False,
                         value=values.get("count", 10), compact=True)
            yield Label("Time limit")
            yield Select([(f"{m} minutes, graded at the end", m) for m in limits], id="pf-minutes",
                         prompt="none, feedback after each answer", compact=True,
                         value=values.get("minutes", Select.NULL))
        yield Button("Start (s)", id="pf-start", variant="primary", compact=True)
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#practice-form").border_title = "Practice"
        self.watch(self.app, "ready", self._fill, init=True)

    def _fill(self, ready: bool) -> None:
        bank = self.app.services.bank
        if not ready or bank is None:
            return
        domains = [(f"{d.id} {d.name}", d.id) for d in bank.blueprint.domains]
        self._offered["domain"] = {v for _l, v in domains}
        self.query_one("#pf-domain", Select).set_options(domains)
        self._objectives(None)
        self._topics()
        if self._preset is not None:
            self._apply_preset()

    def _apply_preset(self) -> None:
        values, problems = normalise_preset(self._preset)
        self._preset = None
        # Narrow each list before picking in it, as a learner would: domain, then objective, then topic.
        for key in ("domain", "objective", "topic"):
            if key not in values:
                continue
            if values[key] in self._offered.get(key, ()):
                self.query_one(f"#pf-{key}", Select).value = values[key]
                if key == "domain":
                    self._objectives(values[key])
                self._topics()
            else:
                where = "blueprint" if key != "topic" else "content"
                problems.append(f"{key} {values[key]} is not in the {where}"
                                + (" under the other filters" if key != "domain" else ""))
        if problems:
            from study.untrusted import shown

            # The problems quote the values given on the command line: plain text, not markup.
            self.notify(shown("; ".join(problems) + ". The form shows the other filters."),
                        title="practice filters", severity="warning", timeout=8, markup=False)

    def _selected(self, sel: str) -> Any:
        select = self.query_one(sel, Select)
        return None if select.is_blank() else select.value

    def _objectives(self, domain: str | None) -> None:
        bank = self.app.services.bank
        opts = [
            (f"{o.id} {cut_at_word(o.title, OBJECTIVE_TITLE_WIDTH)}", o.id)
            for d in bank.blueprint.domains
            if domain in (None, d.id)
            for o in d.objectives
        ]
        self._offered["objective"] = {v for _l, v in opts}
        _keep_value(self.query_one("#pf-objective", Select), opts)

    def _topics(self) -> None:
        """Topics under the chosen objective, or domain, or all of them."""
        bank = self.app.services.bank
        domain, objective = self._selected("#pf-domain"), self._selected("#pf-objective")
        opts = [
            (t.meta.title, t.id)  # the id is for authors; the learner knows a topic by its title
            for t in in_blueprint_order(bank)
            if (objective is None or objective in t.meta.objectives)
            and (domain is None or any(o.split(".")[0] == domain for o in t.meta.objectives))
        ]
        self._offered["topic"] = {v for _l, v in opts}
        _keep_value(self.query_one("#pf-topic", Select), opts)

    @on(Select.Changed, "#pf-domain")
    def _domain(self, event: Select.Changed) -> None:
        self._objectives(event.value if isinstance(event.value, str) else None)
        self._topics()

    @on(Select.Changed, "#pf-objective")
    def _objective(self, _event: Select.Changed) -> None:
        self._topics()

    @on(Button.Pressed, "#pf-start")
    def _pressed(self) -> None:
        self.action_start()

    def filters(self) -> dict[str, Any]:
        val = self._selected
        return {
            "domain": val("#pf-domain"),
            "objective": val("#pf-objective"),
            "topic": val("#pf-topic"),
            "difficulty": val("#pf-difficulty"),
            "pick": val("#pf-pick") or "any",
            "count": val("#pf-count") or 10,
            "minutes": val("#pf-minutes"),
        }

    def action_start(self) -> None:
        # Replace the form, so leaving the practice set lands on home rather than back on the form.
        start_practice(self.app, replace=True, **self.filters())


def _keep_value(select: Select, options: list[tuple[str, Any]]) -> None:
    """Replace a Select's options, keeping its choice when it is still offered (narrowing the domain keeps an
    objective inside it; set_options alone would clear it)."""
    current = None if select.is_blank() else select.value
    select.set_options(options)
    if current is not None and current in {v for _l, v in options}:
        select.value = current


class PracticeScreen(HoldKeys, QuizScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Practice"
    BINDINGS = [
        *QUESTION_BINDINGS,
        # As plain mode takes them; not in the exam, where f flags.
        Binding("t", "true_false(0)", "True (true/false)", show=False),
        Binding("f", "true_false(1)", "False (true/false)", show=False),
        Binding("enter", "answer", "Answer / next"),
        Binding("n,right", "next", "Next"),
        Binding("R", "report", "Report"),
        Binding("escape", "leave", "Leave"),
        # Bury is left off the footer: with it, "? Help" was cut at 80 columns once a question was answered.
        *hold_bindings(bury_shown=False, number_box=True),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.grades: dict[int, Any] = {}
        self.undo_stack: list[tuple[str, Any]] = []

    def hold_target(self) -> tuple[str, str] | None:
        return self.session.current.qid, "question"

    @property
    def answered(self) -> bool:
        return self.session.index in self.grades

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        held = self.hold_check(action, parameters)
        if held is not None:
            return held
        # Next is offered once the question is answered: before that it could only say "answer first".
        if action == "next":
            return self.answered
        if action == "arm_strike":
            # Striking out is for choosing: not once the answer is given, nor on a typed number.
            return not self.answered and not self.session.current.is_numeric_typed
        return True

    def show_current(self) -> None:
        super().show_current()
        self.refresh_bindings()

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#exam-timer").display = False
        self.watch(self.app, "bank_version", self._on_reload, init=False)

    def _on_reload(self, _version: int) -> None:
        bank = self.app.services.bank
        if bank is not None:
            refresh_upcoming(self.session, bank)

    def update_header(self) -> None:
        super().update_header()
        right = sum(1 for g in self.grades.values() if g.correct)
        done = len(self.grades)
        # The id is what a problem report, `study suspend` or `study preview` takes (issue 37 §3).
        self.query_one("#quiz-meta", Static).update(
            f"{self.session.current.objective} · practice · {right}/{done} right · [dim]{self.session.current.qid}[/]"
        )

    def action_true_false(self, index: int) -> None:
        if self.session.current.type == "true_false":
            self.action_pick(index)

    def on_picks(self, picked: tuple[int, ...], submit: bool) -> None:
        if self.answered:
            if submit:
                self.action_next()
            return
        if submit and picked and self._enough_picks(len(picked)):
            self._answer(self.answer_value(picked))

    def on_typed(self, text: str) -> None:
        if self.answered:
            self.action_next()
            return
        self._answer(text)

    def action_answer(self) -> None:
        if self.answered:
            self.action_next()
            return
        inst = self.session.current
        if inst.is_numeric_typed:
            self._answer(self.view.number.value)
        elif self.view.choices.picked:
            if self._enough_picks(len(self.view.choices.picked)):
                self._answer(self.answer_value(tuple(sorted(self.view.choices.picked))))
        else:
            self.hint_no_pick()

    def _enough_picks(self, n: int) -> bool:
        """A "choose two" question is graded only with two picks: an early enter is a slip, not an answer."""
        need = self.session.current.choose or 1
        if self.session.current.is_multi and n != need:
            keys = pick_keys(len(self.session.current.options))
            self.say_pick_hint(f"Choose {need}: {n} picked. Toggle choices with {keys}, then press enter.")
            return False
        return True

    def _answer(self, value: str) -> None:
        from study.progress import StoreError
        from study.quiz import AnswerError, SessionError

        try:
            grade = self.session.answer(value)
        except AnswerError as exc:
            self.set_status(Text(str(exc), style="bold"))  # it quotes the typed answer: not markup
            return
        except SessionError as exc:
            self.set_status(Text(str(exc)))
            return
        except StoreError as exc:  # graded, but a full disk kept it out of the record: say so and go on
            self.notify(f"Could not save this answer to your progress ({exc}).", severity="error", timeout=8)
            grade = self.session.grade()
            if grade is None:
                return
        self.grades[self.session.index] = grade
        self.view.show_feedback(self.session.current, grade)
        last = self.session.index + 1 >= self.session.count
        self.set_status("enter: " + ("see the results" if last else "next question"))
        self.update_header()
        self.refresh_bindings()
        self.set_focus(None)  # enter is now the screen's "next", and the footer says so

    def action_next(self) -> None:
        if not self.answered:
            self.set_status("Answer first (or escape to leave).")
            return
        if self.session.index + 1 >= self.session.count:
            self._finish()
            return
        self.session.next()
        self.show_current()

    def _finish(self) -> None:
        from study.tui.submit import submit_now_save_later

        report = submit_now_save_later(self.app, self.session)
        self.app.show("results", report, switch=True)

    def action_leave(self) -> None:
        if self.grades:
            # The set's summary, as after its last question (issue 37 §6): the answers given are graded and
            # recorded; the questions not reached are left out of the score, not counted wrong.
            self._finish()
            return
        self.app.pop_screen()
