"""The ``study`` Textual app: factory, navigation, start-up and exam resume.

Screens other than Home are imported when first opened: the first paint pays only for Textual and the
home layout, and the bank and store load in a worker right after it.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import os
import time
from functools import partial
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable

from textual import events, messages, on
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.worker import Worker, WorkerState

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

from study.text import count
from study.untrusted import shown
from study.tui.services import Clock, Services

# How often the bank's files are checked for edits when live reload is on. A poll stats each file: 0.4 ms
# for the shipped bank's 81 files, 0.5 ms for 10,000 questions in 100 files. An edit is reloaded once two
# polls agree, so one to two seconds after it is saved.
POLL_SECONDS = 1.0

# name -> (module under study.tui.screens, class, palette title, help line).
SCREENS: dict[str, tuple[str, str, str, str]] = {
    "home": ("home", "HomeScreen", "Home", "dashboard: countdown, readiness, due reviews, streak"),
    "topics": ("topics", "TopicsScreen", "Topics", "the blueprint as a tree, cards as Markdown"),
    "review": ("review", "ReviewScreen", "Review", "spaced-repetition session over due items"),
    "practice": ("practice", "PracticeSetupScreen", "Practice", "questions with immediate feedback"),
    "exam": ("exam", "ExamStartScreen", "Exam", "50 questions, 60 minutes, like the real one"),
    "calc": ("calc", "CalcScreen", "Calculator", "GPU memory, throughput and training time"),
    "lab": ("lab", "LabEntry", "Labs", "operations labs: a simulated GPU cluster's terminal and graded tasks"),
    "progress": ("progress", "ProgressScreen", "Progress", "mastery per objective, history, forecast"),
    "settings": ("settings", "SettingsScreen", "Settings", "exam date, daily goal, retention, theme"),
    "help": ("help", "HelpScreen", "Help", "every key, and what readiness means"),
    "problems": ("problems", "ProblemsScreen", "Bank problems", "what went wrong loading the content"),
}


def screen_class(name: str) -> type[Screen]:
    module, cls, _title, _help = SCREENS[name]
    return getattr(importlib.import_module(f"study.tui.screens.{module}"), cls)


# Screens that other screens lead to (a set's results, the session a flow built): name -> (module, class). A
# screen opens another with ``app.show(name, ...)`` instead of importing it, so the screens never import each
# other in a circle (practice -> results -> practice); the app, on top, is the one place that knows them all.
DEFAULT_THEME = "textual-dark"  # Textual's own default, which a store without a theme setting gets

ROUTES: dict[str, tuple[str, str]] = {
    "practice-session": ("practice", "PracticeScreen"),
    "exam-session": ("exam", "ExamScreen"),
    "results": ("results", "ResultsScreen"),
}


def route_class(name: str) -> type[Screen]:
    module, cls = ROUTES[name]
    return getattr(importlib.import_module(f"study.tui.screens.{module}"), cls)


def _topics_provider() -> type:
    # textual.command is only needed once the palette opens.
    from study.tui.commands import TopicsProvider

    return TopicsProvider


EXIT_DEFERRALS = 100  # 10 ms each: a screen that keeps posting to itself must not hold up the exit for long


def messages_waiting(app: App[Any]) -> bool:
    """Whether the app or any widget of its screens has a message still to handle."""
    pumps = [app, *(node for screen in app.screen_stack for node in screen.walk_children(with_self=True))]
    return any(not queue.empty() for queue in (getattr(node, "_message_queue", None) for node in pumps)
               if queue is not None)


class StudyApp(App[int]):
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {_topics_provider}
    TITLE = "study"
    SUB_TITLE = "NCA-AIIO"

    BINDINGS = [
        Binding("question_mark,f1", "open('help')", "Help", key_display="?"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        # Textual's own binding says "palette"; "Menu" is 3 columns shorter, which Home's 80-column footer
        # needs to show the hint at all, and says what it holds (every screen and topic, by name).
        Binding("ctrl+p", "command_palette", "Menu", show=False, priority=True,
                tooltip="Open the command palette"),
        # From any screen, so a reload's toast can say "press !" wherever the learner is.
        Binding("exclamation_mark", "problems", "Problems", key_display="!", show=False),
    ]

    # Flips once the bank and store are resolved; screens watch it to fill in their data.
    ready: reactive[bool] = reactive(False)
    # Counts live reloads of the bank; screens that show bank content watch it to refresh.
    bank_version: reactive[int] = reactive(0)

    def __init__(self, services: Services, *, bench_file: str | None = None, start: str | None = None,
                 poll_seconds: float | None = POLL_SECONDS, practice_preset: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.services = services
        self._exit_deferred = 0  # see on_exit_app
        # Home paints its last figures from disk at start-up (study.tui.snapshot) only when it loads the
        # real bank and store itself; with injected ones (tests) it always computes.
        self.use_snapshot = services.bank is None and services.store is None
        self._snapshot_painting = False
        self._start = start if start in SCREENS else None
        self._practice_preset = practice_preset
        self._bench_file = bench_file
        self._bench_done = False
        self._bench_first_pending = bool(bench_file)
        self._bench_ready_with_first = False
        self._poll_seconds = poll_seconds
        self._watch_timer: Any = None
        self._reloading = False
        # Toasts about the bank raised while a dialog is open, shown once it closes (see notify_background).
        self._deferred: list[tuple[str, dict[str, Any]]] = []

    # -- start-up ---------------------------------------------------------------------------------------

    async def on_exit_app(self, message: messages.ExitApp) -> None:
        # The web driver posts ExitApp for the server's "quit" (a tab closed) and SIGTERM posts it too, right
        # behind keys the app has passed on to a widget; a key's binding runs when it bubbles back to the app,
        # behind the ExitApp, so exiting at once dropped an answer whose enter came in the same instant. The
        # exit goes to the back of the line until nothing is waiting (bounded). It waits with asyncio, not a
        # Textual timer: timers stop ticking once App.exit() has run (a pressed q), so the exit never came.
        # Textual calls each class's handler down the MRO: App's own ``_on_exit_app`` (the real exit) runs
        # after this one unless the default is prevented.
        if self._exit_deferred < EXIT_DEFERRALS and messages_waiting(self):
            self._exit_deferred += 1
            message.prevent_default()
            await asyncio.sleep(0.01)  # the widgets' own queues run meanwhile
            self.post_message(messages.ExitApp())

    def get_default_screen(self) -> Screen:
        return screen_class("home")()

    def on_mount(self) -> None:
        if self.use_snapshot and not self.services.ready:
            from study.tui import snapshot

            remembered = snapshot.remembered_theme()
            if remembered in self.available_themes:
                self.theme = remembered
        self.apply_theme()
        if self._bench_file:
            self.call_after_refresh(self._bench_mark, "first")
        if self.services.ready:
            self._services_loaded()
        else:
            # After the first refresh, so the worker's imports do not delay the first paint.
            self.call_after_refresh(self._start_loading)

    def _start_loading(self) -> None:
        if self._snapshot_painting:
            # Home shows its figures from the snapshot in this refresh: let that paint go out before the
            # worker's imports take the interpreter for a second or two.
            self._snapshot_painting = False
            self.call_after_refresh(self._start_loading)
            return
        self.run_worker(self.services.load, thread=True, name="load-services")

    def snapshot_shown(self) -> None:
        """Home painted the figures of ``study.tui.snapshot``; the bank and store still load behind them."""
        self._snapshot_painting = True
        self.home_shown()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "load-services" and event.state == WorkerState.SUCCESS:
            self._services_loaded()

    def _services_loaded(self) -> None:
        self.apply_theme()
        self.ready = True
        if hasattr(self.services.store, "on_notice"):
            self.services.store.on_notice = self._store_notice
        self.call_after_refresh(self._after_load)
        if self.services.watcher is not None and self._poll_seconds and self._watch_timer is None:
            self._watch_timer = self.set_interval(self._poll_seconds, self.poll_bank, name="bank-watch")
        if self._start and self._start != "home":
            if self._start == "practice" and self._practice_preset:
                self.action_open("practice", preset=self._practice_preset)
            elif self._start == "exam" and self._practice_preset and self._practice_preset.get("form") is not None:
                # `study quiz --form FILE`: the set-up screen of that class exam form.
                self.action_open("exam", form=self._practice_preset["form"])
            elif self._start == "exam" and self._practice_preset and self._practice_preset.get("count") is not None:
                # `study quiz --mode exam --count 10`: the set-up screen offers the length asked for.
                self.action_open("exam", count=self._practice_preset["count"])
            else:
                self.action_open(self._start)
            self._start = None

    def home_shown(self) -> None:
        """The home screen painted its figures: the end of start-up for bench/startup.py."""
        if self._bench_file and not self._bench_done:
            self._bench_done = True
            if self._bench_first_pending:
                # Set before the first paint (from the snapshot): that paint shows them.
                self._bench_ready_with_first = True
            else:
                self.call_after_refresh(self._bench_mark, "ready")

    def _bench_mark(self, label: str) -> None:
        assert self._bench_file
        if label == "first":
            self._bench_first_pending = False
            if self._bench_ready_with_first:
                with open(self._bench_file, "a", encoding="utf-8") as fh:
                    fh.write(f"first {time.monotonic_ns()}\n")
                label = "ready"
        with open(self._bench_file, "a", encoding="utf-8") as fh:
            fh.write(f"{label} {time.monotonic_ns()}\n")
        if label == "ready":
            self.exit(0)

    def _after_load(self) -> None:
        # The resume offer first, so the start-up toasts wait for it to close instead of covering its buttons.
        self._offer_resume()
        for err in self.services.errors:
            self.notify_background(err, title="start-up", severity="error", timeout=10)
        bank = self.services.bank
        problems = [d for d in getattr(bank, "diagnostics", ()) if getattr(d, "severity", "") == "error"]
        if problems:
            self.notify_background(
                f"{count(len(problems), 'problem')} while loading the bank; press ! to see them.",
                title="bank",
                severity="warning",
                timeout=8,
            )

    # -- toasts -----------------------------------------------------------------------------------------

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """A toast whose message is plain text, control characters escaped, unless ``markup=True``: most
        toasts quote something from outside (a store path, an OSError, a card title), and read as markup a
        '[/]' in it ended the app with a MarkupError and '[b]' vanished. Screens' notify says the same
        (study.tui.screens.base.PlainToasts); the few toasts with bold keys ask for markup."""
        if not markup:
            message = shown(message)
        super().notify(message, title=shown(title, keep_newlines=False), severity=severity, timeout=timeout,
                       markup=markup)

    def action_help_quit(self) -> None:
        # Textual's own (ctrl+c) sets the key in bold with markup, which a toast here shows only when asked.
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(f"Press [b]{key}[/b] to quit the app", title="Do you want to quit?", markup=True)
                return

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        # Textual's toast sets the saved file's path in markup: a folder named '[x]' would be read as a tag.
        if event.name == "screenshot":
            event.prevent_default()
            where = f" to {event.path}" if event.path is not None else ""
            self.notify(f"Saved screenshot{where}", title="Screenshot")

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        from study.tui.commands import GuardedCommandPalette

        # is_open asks for an App[object] and App is invariant in its return type, so no App[int] passes;
        # it only reads the app's screen stack.
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(GuardedCommandPalette(id="--command-palette"))

    def _store_notice(self, message: str) -> None:
        """The store found its file deleted or replaced before a write; the write may be a worker's."""
        try:
            self.call_from_thread(self.notify, message, severity="warning", timeout=10)
        except RuntimeError:  # already on the app's thread
            self.notify(message, severity="warning", timeout=10)

    def notify_background(self, message: str, **kwargs: Any) -> None:
        """A toast about something the learner did not just do (a reload, a start-up problem). While a dialog
        is open it waits: at 80x24 two stacked toasts cover a dialog's buttons, such as the exam's Submit."""
        if isinstance(self.screen, ModalScreen):
            self._deferred.append((message, kwargs))
        else:
            self.notify(message, **kwargs)

    def pop_screen(self) -> Any:
        result = super().pop_screen()
        if self._deferred:
            self.call_after_refresh(self._flush_deferred)
        return result

    def _flush_deferred(self) -> None:
        if isinstance(self.screen, ModalScreen):  # one dialog closed onto another
            return
        deferred, self._deferred = self._deferred, []
        for message, kwargs in deferred:
            self.notify(message, **kwargs)

    def _offer_resume(self) -> None:
        store = self.services.store
        if store is None or self.services.bank is None:
            return
        from study.tui.exam_state import resumable

        try:
            active = resumable(store)
        except Exception as exc:
            self.notify(f"could not check for an interrupted exam: {exc}", severity="error")
            return
        if not active:
            return
        from study.tui.screens.exam import offer_resume

        offer_resume(self, active)

    # -- live reload ------------------------------------------------------------------------------------

    def poll_bank(self) -> bool:
        """Look at the bank's files once (cheap enough for the UI thread); a change that has settled is
        reloaded in a worker. Returns whether a reload started. Tests call this instead of waiting."""
        watcher = self.services.watcher
        if watcher is None or self._reloading:
            return False
        change = watcher.poll()
        if not change:
            return False
        self._reloading = True
        self.run_worker(partial(self._reload, change), thread=True, name="bank-reload", group="bank-reload")
        return True

    def _reload(self, change: Any) -> None:
        old = self.services.bank
        try:
            bank, outcome = self.services.reload(change)
        except Exception as exc:  # never leave the watcher stuck in "reloading"
            bank, outcome = None, {"bank": f"reload failed: {exc}"}
        self.call_from_thread(self._reloaded, change, old, bank, outcome)

    def _reloaded(self, change: Any, old: Any, bank: Any, outcome: dict[str, str | None]) -> None:
        from study.bank.watch import describe

        self._reloading = False
        services = self.services
        errors = [err for err in outcome.values() if err]
        for part, err in outcome.items():
            if err:
                services.reload_errors[part] = err
            else:
                services.reload_errors.pop(part, None)
        if bank is not None:
            # One assignment on the UI thread: every screen reads either the old bank or the new one.
            services.bank = bank
            services.errors = [e for e in services.errors if not e.startswith(Services.BANK_LOAD_ERROR)]
        self.bank_version += 1
        if bank is not None or not errors:
            text, n_errors = describe(change, bank, services.watcher.roots, old)
            self.notify_background(
                text + (". Press ! to see them." if n_errors else ""),
                title="bank reloaded",
                severity="warning" if n_errors else "information",
                timeout=8 if n_errors else 4,
            )
        for err in errors:
            self.notify_background(f"{err.splitlines()[0].rstrip('.')}. Press ! for details.", title="reload",
                                   severity="error", timeout=10)

    def action_problems(self) -> None:
        if type(self.screen).__name__ != SCREENS["problems"][1]:
            self.action_open("problems")

    def apply_theme(self) -> None:
        """The theme the store's setting names (the default when it names none), once the store is loaded;
        the app remembers it for its next start (``snapshot.remember_theme``)."""
        if self.services.store is None:
            return
        theme = self.services.setting("theme", None)
        if theme in ("dark", "light"):
            theme = f"textual-{theme}"
        if not (theme and theme in self.available_themes):
            theme = DEFAULT_THEME
        if self.theme != theme:
            self.theme = theme
        if self.use_snapshot:
            from study.tui import snapshot

            snapshot.remember_theme(theme)

    # -- navigation -------------------------------------------------------------------------------------

    def action_open(self, name: str, **kwargs: Any) -> None:
        if name == "home":
            while len(self.screen_stack) > 1:
                self.pop_screen()
            return
        if name not in SCREENS:
            return
        self.push_screen(screen_class(name)(**kwargs))

    def show(self, route: str, *args: Any, switch: bool = False, **kwargs: Any) -> None:
        """Open the screen ``route`` names in ``ROUTES``, above this one or (``switch``) in its place."""
        screen = route_class(route)(*args, **kwargs)
        if switch:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def warm(self, route: str) -> None:
        """Import the module of ``route``'s screen ahead of time (from a worker), so opening it later is quick."""
        route_class(route)

    def open_topic(self, topic_id: str, card_id: str | None = None) -> None:
        from study.tui.screens.topics import TopicsScreen  # what screen_class("topics") loads, typed

        self.push_screen(TopicsScreen(topic_id=topic_id, card_id=card_id))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for name, (_m, _c, title, help_text) in SCREENS.items():
            yield SystemCommand(f"Go to {title}", help_text, lambda n=name: self.action_open(n))
        from study.tui.export_download import HELP, TITLE, export_progress

        yield SystemCommand(TITLE, HELP, lambda: export_progress(self))


def make_app(
    bank: Any = None,
    store: Any = None,
    clock: Clock | None = None,
    *,
    db: str | None = None,
    seed: int | None = None,
    questions: list[str] | None = None,
    content: str | None = None,
    start: str | None = None,
    bench_file: str | None = None,
    watch: bool | None = None,
    poll_seconds: float | None = POLL_SECONDS,
    practice_preset: dict[str, Any] | None = None,
) -> StudyApp:
    """Build the app with injected services; anything left as None is loaded for real (the built-in bank,
    or ``questions``/``content`` folders when given). ``start`` names a screen of ``SCREENS`` to open once
    the services are ready (``study quiz`` could open ``"practice"``).

    ``watch`` turns live reload of a bank loaded from files on or off (None: on for a source checkout or
    given folders, see ``study.bank.watch.enabled_by_default``); ``poll_seconds=None`` watches without a
    timer, for tests that call ``poll_bank`` themselves.

    ``practice_preset`` fills the Practice form opened by ``start="practice"``: keys ``domain``,
    ``objective``, ``topic``, ``difficulty`` (1, "2,3" or a sequence), ``pick`` and ``count``, as
    ``study quiz`` takes them; absent or None keys keep the form's defaults, unusable values are named in a
    toast. With ``start="exam"`` its ``count`` is the length the exam's set-up screen offers, and its
    ``form`` (a ``study.quiz.form.Form``) the class exam form that screen starts instead of a draw."""
    services = Services(bank=bank, store=store, db=db, seed=seed, questions=questions, content=content,
                        watch=watch)
    if clock is not None:
        services.clock = clock
    return StudyApp(services, bench_file=bench_file, start=start, poll_seconds=poll_seconds,
                    practice_preset=practice_preset)


def run_app(
    db: str | None = None,
    start: str | None = None,
    watch: bool | None = None,
    questions: list[str] | None = None,
    content: str | None = None,
    practice_preset: dict[str, Any] | None = None,
) -> int:
    # STUDY_TUI_BENCH names a file where bench/startup.py reads paint times; the app then exits by itself.
    bench_file = os.environ.get("STUDY_TUI_BENCH") or None
    app = make_app(db=db, start=start, bench_file=bench_file, watch=watch, questions=questions or None,
                   content=content, practice_preset=practice_preset)
    # What the imports built (Textual, Rich, our modules: some 35,000 objects) lives as long as the process. Out of
    # the collector's sight, no full collection comes in the middle of the first paint (one took 15 ms there),
    # and later ones walk only what the app made since.
    gc.freeze()
    gc.enable()  # off while `study` alone imported the app (study.cli.main)
    result = app.run()
    if app.return_code not in (None, 0):
        return int(app.return_code)
    return int(result or 0)


__all__ = ["StudyApp", "make_app", "run_app", "SCREENS"]
