"""`study quiz --form FILE` in the app (issue 36.9): the exam set-up screen names the class exam form and
starts exactly its questions, in its order; a form naming a question the app's bank lacks starts nothing."""

from __future__ import annotations

from textual.widgets import Select, Static

from tests.tui.conftest import settle

ORDER = ["fx-d3-dcgm-tools", "fx-d1-nccl", "fx-d2-kv-cache"]


def a_form(ids=ORDER, name="midterm-a"):
    from study.quiz.form import Form, FormItem

    return Form(name, 7, tuple(FormItem(i) for i in ids), minutes=4)


async def test_the_exam_screen_starts_the_form_it_was_given(make_app, store):
    from study.tui.screens.exam import ExamScreen, ExamStartScreen

    form = a_form()
    app = make_app(start="exam", practice_preset={"form": form})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert isinstance(app.screen, ExamStartScreen)
        intro = str(app.screen.query_one("#exam-intro-text", Static).render())
        assert "3 questions in 4 minutes" in intro and "class exam form midterm-a" in intro
        assert not app.screen.query_one("#exam-count", Select).display  # the form's length, not a choice
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, ExamScreen)
        session = app.screen.session
        assert [i.qid for i in session.instances] == ORDER
        assert session.form == form.tag() and session.minutes == 4
    # Saved at once, naming the form: a resume after a crash is the form again.
    _sid, state, _deadline = store.active_session("exam")
    assert '"form":{"id":"%s","name":"midterm-a"}' % form.id in state


async def test_a_form_the_bank_cannot_ask_starts_nothing_and_says_why(make_app):
    from study.tui.screens.exam import ExamStartScreen

    app = make_app(start="exam", practice_preset={"form": a_form(["fx-d1-nccl", "fx-no-such"])})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await settle(pilot, app)
        assert isinstance(app.screen, ExamStartScreen)
        said = [str(n.message) for n in app._notifications]
        assert any(m.startswith("Cannot start the form: no question fx-no-such in the bank") for m in said), said
