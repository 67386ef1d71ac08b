"""The class exam form in the app (`study quiz --form FILE`, issue 36.9): the exam set-up screen's intro for
a form, and starting it. Apart from ``screens.exam`` so that screen stays one job under the size limit."""

from __future__ import annotations

from typing import Any


def form_intro(intro: str, form: Any, bank: Any) -> str:
    """The exam intro (``EXAM_INTRO``) said of ``form``: its length, its time, its name."""
    from rich.markup import escape

    from study.quiz.form import minutes_of

    minutes = f"{minutes_of(form, bank):g}" if bank is not None else "?"
    return intro.format(questions=len(form.items), minutes=minutes).replace(
        "drawn by the blueprint's domain weights", f"the class exam form [b]{escape(form.name)}[/] (the same "
        "questions, in the same order, for every learner)")


def start_form(app: Any, form: Any, start_screen: type, exam_screen: Any) -> None:
    """Start ``form`` checked against the bank the app has: a question it lacks is said in a toast, and no exam
    starts; a question edited since the form was written is a warning. The exam's screens are passed in (this
    module is below ``screens.exam``, which calls it)."""
    from study.quiz.form import FormError, build_form_exam, check_form

    services = app.services
    try:
        for warning in check_form(form, services.bank):
            app.notify(warning, title="exam form", severity="warning", timeout=10, markup=False)
        session = build_form_exam(services.bank, form, store=services.store, clock=services.clock)
    except FormError as exc:
        from study.untrusted import shown

        app.notify(shown(f"Cannot start the form: {exc}"), title="exam form", severity="error", markup=False)
        return
    if isinstance(app.screen, start_screen):
        app.switch_screen(exam_screen(session))
    else:
        app.push_screen(exam_screen(session))
