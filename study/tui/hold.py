"""Suspend, bury and unsuspend from the app (issue 37 §3), through the same core functions `study suspend`,
`study bury` and `study unsuspend` call (``study.progress.control``), each undoable with ``u``.

The keys are Anki's where they can be: ``@`` suspends, ``=`` buries (Anki's ``-`` strikes a choice out here);
``+`` brings a suspended or buried item back. Each is offered only while it acts on the item on screen: a
suspended question offers ``+``, not ``@``. ``u`` takes back the newest of them, then the one before."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding

SUSPEND, BURY, UNSUSPEND, UNDO = "Suspend", "Bury", "Unsuspend", "Undo"


def hold_bindings(bury_shown: bool = True, shown: bool = True, number_box: bool = False) -> list[Binding]:
    """The keys; ``bury_shown`` (or ``shown``, all three) False leaves them off a footer full at 80 columns:
    Help lists them still, and the screen says them where the item is shown. ``number_box``: the screen has a
    box for a typed number, which takes every printable key, so ``@`` (never part of a number or unit) goes
    before it; ``=``, ``+`` and ``u`` may be typed (``1e+9``, ``us``) and stay the box's while it has focus."""
    out = [
        Binding("at", "hold('suspend')", SUSPEND, key_display="@", show=shown, priority=number_box),
        Binding("equals_sign", "hold('bury')", BURY, key_display="=", show=shown and bury_shown),
        Binding("plus", "hold('unsuspend')", UNSUSPEND, key_display="+", show=shown),
    ]
    out.append(Binding("u", "undo", UNDO, show=shown))
    return out


HOLD_HELP = ("`@` suspends the item on screen (never due nor drawn until `+`), `=` buries it until tomorrow, `+` "
             "brings a suspended or buried one back, `u` undoes (as `study suspend`, `bury`, `unsuspend` ID)")


class HoldKeys:
    """Mixin for a screen: ``hold_target()`` names the item on screen as ``(id, "card" | "question")`` or None;
    ``after_hold(item_id, what)`` reacts (Review moves on); ``undo_stack`` keeps what ``u`` takes back."""

    undo_stack: list[tuple[str, Any]]

    def hold_target(self) -> tuple[str, str] | None:  # pragma: no cover - each screen says
        raise NotImplementedError

    def after_hold(self, item_id: str, what: str) -> None:
        pass

    def hold_context(self) -> Any:
        """What the screen needs to go back to the item when its hold is undone (Review: where it was)."""
        return None

    def after_undo_hold(self, state: Any, context: Any) -> None:
        pass

    def _stack(self) -> list[tuple[str, Any]]:
        if not hasattr(self, "undo_stack"):
            self.undo_stack = []
        return self.undo_stack

    def _held(self, item_id: str) -> tuple[bool, bool]:
        """(suspended, buried now) as the store says; (False, False) when it cannot be read."""
        from study.progress.control import hold_state

        me: Any = self
        services = me.app.services
        try:
            state = hold_state(services.store, item_id)
        except Exception:  # a footer check must not raise; the key then says what failed
            return False, False
        buried = state.buried_until is not None and not state.suspended and state.held(services.now())
        return state.suspended, buried

    def hold_check(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """check_action's answer for the hold keys (None for any other action)."""
        if action == "undo":
            return bool(self._stack())
        if action != "hold":
            return None
        target = self.hold_target()
        me: Any = self
        if target is None or me.app.services.store is None:
            return False
        suspended, buried = self._held(target[0])
        what = parameters[0] if parameters else ""
        if what == "unsuspend":
            return suspended or buried
        if what == "suspend":
            return not suspended
        return not suspended and not buried  # bury

    def action_hold(self, what: str) -> None:
        from study.progress import StoreError, control

        me: Any = self
        target = self.hold_target()
        services = me.app.services
        if target is None or services.store is None:
            return
        item_id, kind = target
        now = services.now()
        try:
            before = control.hold_state(services.store, item_id)
            if what == "suspend":
                control.suspend(services.store, item_id, now)
                said = f"Suspended {kind} {item_id}: never due nor drawn until + (u undoes)."
            elif what == "bury":
                # The clock's zone is the learner's day (services.local_now), so "tomorrow" is theirs.
                until = control.bury(services.store, item_id, now)
                said = f"Buried {kind} {item_id} until tomorrow, {until:%a %H:%M} (u undoes)."
            else:
                control.unsuspend(services.store, item_id, now)
                said = f"{kind.capitalize()} {item_id} is back in the queue (u undoes)."
        except StoreError as exc:
            me.notify(f"Could not change {item_id} ({exc}).", severity="error", timeout=8)
            return
        self._stack().append(("hold", (before, self.hold_context())))
        me.notify(said, timeout=4)
        self.after_hold(item_id, what)
        me.refresh_bindings()

    def undo_hold(self, payload: Any) -> None:
        from study.progress import StoreError, control

        state, context = payload
        me: Any = self
        try:
            control.restore_hold(me.app.services.store, state, me.app.services.now())
        except StoreError as exc:
            me.notify(f"Could not undo ({exc}).", severity="error", timeout=8)
            return
        now = me.app.services.now()
        word = "suspended" if state.suspended else ("buried" if state.held(now) else "in the queue")
        me.notify(f"Undone: {state.item_id} is {word} again." if word != "in the queue"
                  else f"Undone: {state.item_id} is back in the queue.", timeout=3)
        self.after_undo_hold(state, context)
        me.refresh_bindings()

    def action_undo(self) -> None:
        stack = self._stack()
        if not stack:
            return
        kind, payload = stack.pop()
        if kind == "hold":
            self.undo_hold(payload)
