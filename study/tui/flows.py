"""What several screens start: a practice set built with the quiz engine and opened.

A flow opens its screen by name through the app (``StudyApp.show``), never by importing it, so Home, Topics,
Progress and Results can all start practice without the screens importing each other in a circle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from study.tui.app import StudyApp


def start_practice(app: StudyApp, *, count: int = 10, replace: bool = False, minutes: float | None = None,
                   **filters: Any) -> bool:
    """Build a practice session with the quiz engine and open it; say why when nothing matches. With
    ``minutes`` it is a timed quiz instead, answered on the exam screen (clock, flags, graded at the end)."""
    from study.quiz import SelectionError, build_practice

    services = app.services
    if services.bank is None:
        app.notify("The question bank is still loading.", severity="warning")
        return False
    clean = {k: v for k, v in filters.items() if v is not None and v != ""}
    try:
        session = build_practice(
            services.bank, services.next_seed(), count, store=services.store, clock=services.clock,
            minutes=minutes, timed_like_exam=bool(minutes), **clean
        )
    except SelectionError as exc:
        from study.untrusted import shown

        # The message quotes the filters as given (`study quiz --objective ...`): plain text, not markup.
        app.notify(shown(f"No practice set: {exc}."), severity="warning", markup=False)
        return False
    if session.count < count:
        # The header's "1/26" alone would not say that the 50 asked for were not there to draw.
        from study.text import count as count_noun

        app.notify(f"The filters match {count_noun(session.count, 'question')}, so the set has {session.count}, "
                   f"not {count}.")
    app.show("exam-session" if session.mode == "quiz" else "practice-session", session, switch=replace)
    return True
