"""The footer tells the truth: on every screen, in every state a learner meets, each key the footer offers
is enabled, fits on an 80x24 footer beside the palette hint, means the same thing as on every other screen,
and does something when pressed.

"Does something" is checked from the outside: after the key, the screen differs (another screen, a dialog,
new text, a toast) or the app has exited; and no exception escapes. A key whose action is refused in that
state must be hidden by the screen's ``check_action``, not offered."""

from __future__ import annotations

import datetime as dt
from typing import Any
from collections.abc import Awaitable, Callable

import pytest

from tests.tui.conftest import answered, settle

SIZE = (80, 24)
# Keys whose meaning is the context's by convention: escape leaves what is open (Back, Pause, Leave, Done),
# enter confirms what is selected. Every other key shown must have one description app-wide.
CONTEXT_KEYS = {"escape", "enter"}
PALETTE = "ctrl+p"
# Keys whose action does not depend on the screen's state: pressed once per screen, whatever its state.
SHARED_KEYS = {"escape", "question_mark", PALETTE}

Seed = Callable[[Any, Any, Any], None]
Go = Callable[[Any], Awaitable[None]]


def _due_card(store: Any, bank: Any, clock: Any) -> None:
    from study.progress import Rating

    card_id = "fx-ai-ml-dl/nested"
    store.review_card(card_id, bank.content_hash(card_id), Rating.Again, 20, clock.now - dt.timedelta(days=5))


def _due_question(store: Any, bank: Any, clock: Any) -> None:
    qid = "fx-d1-nccl"
    answered(store, bank, clock, qid)


def _answered(store: Any, bank: Any, clock: Any) -> None:
    from study.progress import Attempt

    for q in bank.questions[:3]:
        store.record_attempt(Attempt(q.id, bank.content_hash(q.id), {}, "A", False, 30.0, "practice",
                                     at=clock.now - dt.timedelta(days=1)))


def _nothing(store: Any, bank: Any, clock: Any) -> None:
    pass


async def _keys(pilot: Any, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot, pilot.app)


def _go(*keys: str) -> Go:
    async def go(pilot: Any) -> None:
        await _keys(pilot, *keys)

    return go


async def _topics_card(pilot: Any) -> None:
    await _keys(pilot, "t")
    pilot.app.screen.show("card", "fx-nvlink-scope/between")
    await settle(pilot, pilot.app)


def _practice(answer: bool, count: int = 2) -> Go:
    async def go(pilot: Any) -> None:
        from study.tui.screens.practice import start_practice

        start_practice(pilot.app, objective="2.1", count=count)
        await settle(pilot, pilot.app)
        if answer:
            screen = pilot.app.screen
            typed = "140 GB" if screen.session.current.qid == "fx-d2-fp16-weights" else "0.67 GB"
            await _keys(pilot, *typed, "enter")

    return go


async def _results(pilot: Any) -> None:
    await _practice(answer=True, count=1)(pilot)
    await _keys(pilot, "enter")
    assert type(pilot.app.screen).__name__ == "ResultsScreen"


async def _exam(pilot: Any) -> None:
    from study.tui.screens.exam import start_exam

    start_exam(pilot.app, 3)
    await settle(pilot, pilot.app)


async def _exam_answered(pilot: Any) -> None:
    await _exam(pilot)
    screen = pilot.app.screen
    if screen.session.current.is_numeric_typed:
        screen.session.answer("1 GB")
        screen.show_current()
        await settle(pilot, pilot.app)
    else:
        await _keys(pilot, "1")
    assert screen.session.answers[0] is not None


async def _problems(pilot: Any) -> None:
    pilot.app.action_open("problems")
    await settle(pilot, pilot.app)


# name -> (what the store holds first, how to get there from Home, the screen class expected)
STATES: dict[str, tuple[Seed, Go, str]] = {
    "home": (_nothing, _go(), "HomeScreen"),
    "topics": (_nothing, _go("t"), "TopicsScreen"),
    "topics-card": (_nothing, _topics_card, "TopicsScreen"),
    "review-front": (_due_card, _go("r"), "ReviewScreen"),
    "review-back": (_due_card, _go("r", "space"), "ReviewScreen"),
    "review-rated": (_due_card, _go("r", "space", "3"), "ReviewScreen"),
    "review-question": (_due_question, _go("r"), "ReviewScreen"),
    "review-nothing-due": (_nothing, _go("r"), "ReviewScreen"),
    "practice-setup": (_nothing, _go("p"), "PracticeSetupScreen"),
    "practice": (_nothing, _practice(answer=False), "PracticeScreen"),
    "practice-answered": (_nothing, _practice(answer=True), "PracticeScreen"),
    "results": (_nothing, _results, "ResultsScreen"),
    "exam-start": (_nothing, _go("e"), "ExamStartScreen"),
    "exam": (_nothing, _exam, "ExamScreen"),
    "exam-answered": (_nothing, _exam_answered, "ExamScreen"),
    "calc": (_nothing, _go("c"), "CalcScreen"),
    "progress": (_nothing, _go("percent_sign"), "ProgressScreen"),
    "progress-with-answers": (_answered, _go("percent_sign"), "ProgressScreen"),
    "settings": (_nothing, _go("comma"), "SettingsScreen"),
    "help": (_nothing, _go("question_mark"), "HelpScreen"),
    "problems": (_nothing, _problems, "ProblemsScreen"),
}


# (screen, action) pairs already pressed in this process: Help, the palette or Back work the same from every
# screen's own state, so each is pressed once per screen class, not once per state.
PRESSED: set[tuple[str, str]] = set()


def offered(app: Any) -> dict[str, tuple[str, str, bool]]:
    """What the footer offers now: key -> (as displayed, description, enabled)."""
    out: dict[str, tuple[str, str, bool]] = {}
    actions: set[str] = set()
    for key, active in app.screen.active_bindings.items():
        # As the footer does: one entry per action, under its first key (f1 is help's second key).
        if (active.binding.show or key == PALETTE) and active.binding.action not in actions:
            actions.add(active.binding.action)
            out[key] = (app.get_key_display(active.binding), active.binding.description, active.enabled)
    return out


async def _reach(make_app: Any, store: Any, bank: Any, clock: Any, state: str, pilot_cb) -> None:
    seed, go, expected = STATES[state]
    seed(store, bank, clock)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await go(pilot)
        assert type(app.screen).__name__ == expected, f"{state}: on {type(app.screen).__name__}"
        await pilot_cb(pilot, app)


def _claim(screen_name: str, key: str, action: str) -> bool:
    """Whether this key is still to be pressed on this screen in this worker (shared keys once a screen)."""
    if (screen_name, action) in PRESSED and key in SHARED_KEYS:
        return False
    PRESSED.add((screen_name, action))
    return True


async def press_and_check(state: str, pilot: Any, app: Any, key: str, display: str, description: str) -> None:
    before = _fingerprint(app)
    await pilot.press(key)
    await settle(pilot, app)
    if not app.is_running or app.return_code is not None:
        return  # Quit
    after = _fingerprint(app)
    assert after != before, f"{state}: {display} {description} did nothing"
    # A key that only answers "not now" with a warning is refused, and must not have been offered.
    new = [t for t in after[2] if t not in before[2]]
    refused = new and after[0] == before[0] and all(sev in ("warning", "error") for sev, _m in new)
    assert not refused, f"{state}: {display} {description} was offered but refused: {new}"


def _fingerprint(app: Any) -> tuple[Any, ...]:
    return (tuple(map(id, app.screen_stack)), app.export_screenshot(), _toasts(app))


def _toasts(app: Any) -> tuple[tuple[str, str], ...]:
    return tuple((n.severity, n.message) for n in app._notifications)


def _changes(app: Any) -> int:
    return app.services.store._conn.total_changes


async def _restore(pilot: Any, app: Any, depth: int, baseline: tuple[Any, ...], changes: int) -> bool:
    """Back to the state a key was pressed in, where that is plainly possible: close what the key opened on
    top of the state's screen and its toasts. True only if the app then looks exactly as before (the same
    screens, the same cells) and the store was not written, so the next key meets the state unchanged."""
    if not app.is_running or app.return_code is not None or len(app.screen_stack) < depth:
        return False
    while len(app.screen_stack) > depth:
        app.pop_screen()
        await settle(pilot, app)
    app.clear_notifications()
    await settle(pilot, app)
    return _changes(app) == changes and _fingerprint(app)[:2] == baseline


async def _press_while_unchanged(state: str, pilot: Any, app: Any, keys: list[str],
                                 found: dict[str, tuple[str, str, bool]]) -> None:
    """Press ``keys`` in turn, each in the state as it was reached; stop (leaving the rest in ``keys``) at
    the first key after which the state cannot be brought back as it was."""
    app.clear_notifications()
    await settle(pilot, app)
    depth, baseline, changes = len(app.screen_stack), _fingerprint(app)[:2], _changes(app)
    while keys:
        key = keys.pop(0)
        await press_and_check(state, pilot, app, key, *found[key][:2])
        if not await _restore(pilot, app, depth, baseline, changes):
            return


@pytest.mark.parametrize("state", list(STATES))
async def test_every_offered_key_is_enabled_visible_and_does_something(make_app, store, bank, clock, state):
    found: dict[str, tuple[str, str, bool]] = {}
    to_press: list[str] = []

    async def look_then_press(pilot: Any, app: Any) -> None:
        from textual.widgets._footer import FooterKey

        found.update(offered(app))
        actions_of = {k: app.screen.active_bindings[k].binding.action for k in found}
        disabled = [d for d, _desc, enabled in found.values() if not enabled]
        assert not disabled, f"{state}: offered but disabled: {disabled}"
        # All of them on the footer line, none under the palette hint or past the right edge.
        keys = list(app.screen.query(FooterKey))
        shown = {k.key for k in keys}
        assert set(found) <= shown, f"{state}: not drawn: {set(found) - shown}"
        spans = sorted((k.region.x, k.region.right, k.key) for k in keys)
        assert all(right <= SIZE[0] for _x, right, _k in spans), f"{state}: cut at 80 columns: {spans}"
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), f"{state}: keys overlap: {spans}"
        meanings_agree(state, app)
        to_press.extend(k for k in found if _claim(STATES[state][2], k, actions_of[k]))
        # Reaching a state is most of this test's cost, so one app presses key after key for as long as each
        # key's effect can be closed and leaves the state exactly as it was (Help, the palette, a dialog).
        await _press_while_unchanged(state, pilot, app, to_press, found)

    await _reach(make_app, store, bank, clock, state, look_then_press)
    assert found, f"{state}: the footer offers nothing"

    n = 0
    while to_press:
        # A key that changed the state: a fresh app and store for the keys left, so its effect cannot hide
        # the next key's.
        from study.progress import open_store

        n += 1
        key_store = open_store(store.path.parent / f"{state}-{n}.db", fuzz=False)

        async def press_rest(pilot: Any, app: Any) -> None:
            await _press_while_unchanged(state, pilot, app, to_press, found)

        try:
            await _reach(lambda key_store=key_store, **kw: make_app(store=key_store, **kw), key_store, bank, clock,
                         state, press_rest)
        finally:
            key_store.close()


def declared_meanings(first_keys_only: bool = True) -> dict[str, set[tuple[str, str]]]:
    """Every key a footer can show -> {(description, where declared)}, read from the BINDINGS of the app and of
    every screen and widget class in study.tui: the app-wide table each footer is checked against. A dialog
    (a modal screen) is a context of its own, as escape and enter are: its keys answer its question."""
    import importlib
    import inspect
    import pkgutil

    import study.tui
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.screen import ModalScreen

    out: dict[str, set[tuple[str, str]]] = {}
    for info in pkgutil.walk_packages(study.tui.__path__, "study.tui."):
        module = importlib.import_module(info.name)
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if not (issubclass(cls, DOMNode) and cls.__module__ == module.__name__) or issubclass(cls, ModalScreen):
                continue
            for item in cls.__dict__.get("BINDINGS", []):
                # A footer shows a binding under its first key only ("left_square_bracket,p" shows "[").
                bindings = list(Binding.make_bindings([item]))
                for binding in bindings[:1] if first_keys_only else bindings:
                    if binding.show and binding.key not in CONTEXT_KEYS:
                        out.setdefault(binding.key, set()).add((binding.description, cls.__qualname__))
    return out


DECLARED: dict[str, set[tuple[str, str]]] = {}
# A binding's later keys ("f1" for Help) show on a footer where its first is taken by the focused widget.
DECLARED_ANY_KEY: dict[str, set[tuple[str, str]]] = {}


def meanings_agree(state: str, app: Any) -> None:
    """What this footer offers means what the app-wide table says, and digits show only on a card's back."""
    if not DECLARED:
        DECLARED.update(declared_meanings())
        DECLARED_ANY_KEY.update(declared_meanings(first_keys_only=False))
    for key, (_display, description, _enabled) in offered(app).items():
        if key in CONTEXT_KEYS or key == PALETTE:
            continue
        meanings = {d for d, _where in DECLARED.get(key) or DECLARED_ANY_KEY.get(key, set())}
        assert description in meanings and (key not in DECLARED or len(meanings) == 1), f"{state}: {key} is {description!r} here, declared {meanings}"
        if key == "1":
            assert state == "review-back", f"{state}: digits are offered outside a card's back"


def test_a_key_means_one_thing_app_wide() -> None:
    meanings = declared_meanings()
    clashes = {k: sorted(v) for k, v in meanings.items() if len({d for d, _w in v}) > 1}
    assert not clashes, clashes
    # The ones the issue named: s was Settings on Home and Start elsewhere.
    assert {d for d, _w in meanings["s"]} == {"Start"}


def test_the_table_sees_a_clash() -> None:
    from textual.binding import Binding
    from textual.screen import Screen

    class Clashing(Screen):
        BINDINGS = [Binding("s", "settings", "Settings")]

    found = {d for d, _w in declared_meanings().get("s", set())} | {b.description for b in
                                                                     Binding.make_bindings(Clashing.BINDINGS)}
    assert len(found) > 1
