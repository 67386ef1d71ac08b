"""Report a problem with a question (wrong key, unclear, outdated, free text): a small dialog, kept in the store.

Any screen that shows a question binds ``R`` to :func:`report_problem`; the learner lists the reports with
``study reports``, and they travel to instructors in the JSON backup (``study analyze`` shows them).
"""

from __future__ import annotations


from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static

from study.progress.reports import KIND_LABELS, KINDS
from study.tui.screens.base import StudyDialog

REPORT_KEY = "R"


class ReportDialog(StudyDialog["tuple[str, str] | None"]):
    """Asks what is wrong and, optionally, in the learner's words; dismisses with ``(kind, text)`` or None."""

    DEFAULT_CSS = """
    ReportDialog { align: center middle; }
    ReportDialog > #report-box { width: 72; max-width: 100%; height: auto; }
    ReportDialog #report-kinds { height: auto; max-height: 6; }
    ReportDialog #report-hint { color: $text-muted; }
    """
    BINDINGS = [
        *[Binding(str(n), f"kind({n - 1})", show=False) for n in range(1, len(KINDS) + 1)],
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self._title = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="report-box") as box:
            box.border_title = self._title
            yield Static("What is wrong? (1-4, or arrows and enter)")
            yield OptionList(*[f"{n}. {KIND_LABELS[k]}" for n, k in enumerate(KINDS, start=1)], id="report-kinds")
            yield Input(placeholder="your words (optional; needed for 4)", id="report-text")
            yield Static("enter in the text box or ctrl+s saves · escape cancels", id="report-hint")

    def on_mount(self) -> None:
        kinds = self.query_one("#report-kinds", OptionList)
        kinds.highlighted = 0
        kinds.focus()

    @property
    def kind(self) -> str:
        index = self.query_one("#report-kinds", OptionList).highlighted
        return KINDS[index or 0]

    def action_kind(self, index: int) -> None:
        self.query_one("#report-kinds", OptionList).highlighted = index
        self.query_one("#report-text", Input).focus()

    @on(OptionList.OptionSelected, "#report-kinds")
    def _kind_chosen(self) -> None:
        self.query_one("#report-text", Input).focus()

    @on(Input.Submitted, "#report-text")
    def _submitted(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        text = self.query_one("#report-text", Input).value.strip()
        if self.kind == "other" and not text:
            self.query_one("#report-hint", Static).update("[b]Say in a few words what is wrong[/], then enter.")
            self.query_one("#report-text", Input).focus()
            return
        self.dismiss((self.kind, text))

    def action_cancel(self) -> None:
        self.dismiss(None)


def report_problem(screen: Screen, item_id: str, *, context: str, session_id: str | None = None,
                   position: int | None = None) -> None:
    """Open the dialog for ``item_id`` and keep the report; the learner is told where to find it."""
    from study.progress.reports import ReportError, add_report

    app = screen.app
    services = app.services  # type: ignore[attr-defined]
    if services.store is None:
        app.notify("The progress store is not open: the report cannot be kept.", severity="error")
        return
    bank = services.bank
    content_hash = bank.content_hash(item_id) if bank is not None and bank.has_item(item_id) else ""

    def kept(answer: tuple[str, str] | None) -> None:
        if not answer:
            return
        kind, text = answer
        try:
            add_report(services.store, item_id, kind, text, content_hash=content_hash, context=context,
                       session_id=session_id, at=services.now())
        except ReportError as exc:
            app.notify(str(exc), severity="warning")
            return
        except Exception as exc:  # a full disk or a locked store must not take the app down
            app.notify(f"The report could not be kept: {exc}", severity="error")
            return
        # A toast shows Textual markup, not Markdown: the commands are set in bold rather than in backticks.
        app.notify("Report kept. [b]study reports[/] lists your reports; they travel in [b]study export[/].",
                   title="Thank you", timeout=5, markup=True)

    where = f"question {position}" if position is not None else "this question"
    app.push_screen(ReportDialog(f"Report a problem with {where}"), kept)
