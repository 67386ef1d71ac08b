""""Export progress" from the app: the same JSON backup as `study export`, handed over with App.deliver_text.

In a browser (`study serve`) the driver turns that into a download in the learner's browser; in a terminal
Textual saves it in the user's downloads folder. Either way `study import FILE` restores it."""

from __future__ import annotations

import io
import json
from typing import Any

TITLE = "Export progress"
HELP = "a JSON backup of all your progress (as `study export`): a download in a browser"


def export_progress(app: Any) -> None:
    store = app.services.store
    if store is None:
        app.notify("The progress store is still loading; try again in a moment.", severity="warning")
        return
    try:
        from study.quiz.saved_state import read_saved_session
        data = store.export_data(read_saved_session)
    except Exception as exc:  # a closed or damaged store: said in a toast, as other store failures are
        app.notify(f"Could not export: {exc}", severity="error")
        return
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    name = f"study-progress-{app.services.now():%Y-%m-%d}.json"
    app.deliver_text(io.StringIO(text), save_filename=name, mime_type="application/json")
    where = "your browser's downloads" if getattr(app, "is_web", False) else "your downloads folder"
    app.notify(f"{len(data['attempts'])} answers and {len(data['reviews'])} reviews exported to {name} in {where}.")
