"""The app meets a saved exam it cannot restore (issue 19, defect 9): it says why and offers to set it
aside, never crashes; "y" at the offer used to be an IndexError from an ``index: 999`` in a backup."""

from __future__ import annotations

import json

import pytest
from textual.widgets import Static

from tests.tui.conftest import settle


def _damage(store, bank, clock, change) -> str:
    from study.quiz import build_exam

    session = build_exam(bank, seed=3, count=3, minutes=10, store=store, now=clock.now)
    state = json.loads(session.to_json())
    change(state)
    store.save_session(session.id, "exam", json.dumps(state), deadline=session.deadline)
    return session.id


@pytest.mark.parametrize("change", [lambda st: st.update(index=999), lambda st: st.update(alerts="soon"),
                                    lambda st: st.update(answers=[])], ids=["index 999", "alerts text", "answers []"])
async def test_a_damaged_exam_is_offered_to_be_set_aside(make_app, store, bank, clock, change):
    from study.tui.screens.dialogs import ChoiceDialog

    _damage(store, bank, clock, change)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        body = str(dialog.query_one("#dialog-body", Static).render())
        assert "cannot be restored" in body and "Set it aside" in body
        await pilot.press("y")
        await settle(pilot, app)
        assert not isinstance(app.screen, ChoiceDialog)
    assert store.active_session("exam") is None


async def test_not_now_keeps_the_damaged_exam_for_later(make_app, store, bank, clock):
    from study.tui.screens.dialogs import ChoiceDialog

    sid = _damage(store, bank, clock, lambda st: st.update(index=999))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("n")
        await settle(pilot, app)
    assert store.active_session("exam")[0] == sid
