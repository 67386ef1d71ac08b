"""Topics: the blueprint as a tree (domain, objective, topic, card), search, and cards rendered as Markdown."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Input, Markdown, Static, Tree

from study.tui.hold import HoldKeys, hold_bindings
from study.tui.screens.base import StudyScreen
from study.untrusted import shown
from study.tui.widgets.footer import StudyFooter
from study.tui.widgets.markdown import ReaderMarkdown

# Textual types self.app as App[Any]; a screen's `app = getters.app(StudyApp)` tells the type checker it is
# this package's app. Only the checker sees it: at run time getters.app would assert isinstance on every read.
if TYPE_CHECKING:
    from textual import getters

    from study.tui.app import StudyApp

RATING_KEYS = {"1": "again", "2": "hard", "3": "good", "4": "easy"}
HINT = (
    "Pick a domain, objective, topic or card on the left (arrows, enter, or the mouse); **enter** on a card "
    "opens it.\n\n"
    "- **/** search titles and text\n- **p** practise the questions of what is selected\n"
    "- **m** mark a card read, **1-4** rate it (again, hard, good, easy) for spaced review\n"
    "- **]** next card, **[** previous card\n"
    "- **\\\\** hide or show the tree to read at full width (**escape** brings it back)"
)
# Cards are written to fit 78 columns; below this width the tree and a card side by side would squeeze the
# card's tables into columns of "…", so opening a card gives it the whole width instead.
SIDE_BY_SIDE_MIN_WIDTH = 110


class TopicsScreen(HoldKeys, StudyScreen):
    if TYPE_CHECKING:
        app = getters.app(StudyApp)

    SUB_TITLE = "Topics"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("backspace", "show_tree", "Back to the tree", show=False),
        Binding("slash", "search", "Search", key_display="/"),
        Binding("backslash", "toggle_tree", "Tree", key_display="\\"),
        Binding("p", "practice_topic", "Practice"),
        Binding("m", "mark_read", "Mark read"),
        Binding("1", "rate('1')", "Again", show=False),
        Binding("2", "rate('2')", "Hard", show=False),
        Binding("3", "rate('3')", "Good", show=False),
        Binding("4", "rate('4')", "Easy", show=False),
        Binding("right_square_bracket", "next_card", "Next card", key_display="]"),
        Binding("left_square_bracket", "previous_card", "Previous card", key_display="[", show=False),
        # The footer is full at 80 columns: the card's own last line names these keys.
        *hold_bindings(shown=False),
    ]

    def __init__(self, topic_id: str | None = None, card_id: str | None = None) -> None:
        super().__init__()
        self._initial = (topic_id, card_id)
        self.selected: tuple[str, str] | None = None  # ("topic"|"card"|"objective"|"domain", id)
        self._shown_at = time.monotonic()
        # Set when opening a card on a narrow terminal hid the tree (not the reader's \\ key): widening the
        # terminal then brings the tree back by itself.
        self._auto_hidden = False
        self._title = "Card"
        self.undo_stack: list[tuple[str, Any]] = []

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        held = self.hold_check(action, parameters)
        if held is not None:
            return held
        # A key the footer offers must do something: these need a selection (or, for rating, a card).
        if action == "practice_topic":
            return self.selected is not None
        if action in ("mark_read", "rate"):
            return self.selected is not None and self.selected[0] == "card"
        if action == "next_card":
            return self._card_step_target(1) is not None
        return True

    @property
    def reading(self) -> bool:
        """The tree is hidden and the card has the whole width."""
        return self.has_class("-reading")

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            with Vertical(id="topics-side"):
                yield Input(placeholder="search topics and cards", id="topics-search")
                yield Static("", id="topics-nothing")
                yield Tree("Blueprint", id="topics-tree")
            with VerticalScroll(id="topics-card", classes="panel"):
                yield ReaderMarkdown(HINT, id="topics-markdown")
            yield Static("", id="topics-status")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.add_class("-browsing")  # until a card is open, the tree's long objective titles need the room
        self._set_title("Card")
        tree = self.query_one(Tree)
        tree.show_root = False
        self.watch(self.app, "ready", self._on_ready, init=True)
        self.watch(self.app, "bank_version", self._on_reload, init=False)

    def _on_ready(self, ready: bool) -> None:
        if not ready or self.app.services.bank is None:
            return
        self.build_tree("")
        topic_id, card_id = self._initial
        if card_id:
            self.show("card", card_id)
        elif topic_id:
            self.show("topic", topic_id)
        self.query_one(Tree).focus()

    def _on_reload(self, _version: int) -> None:
        """The bank was reloaded after an edit: rebuild the tree (same search) and show the new text of what
        was selected, or the hint when it is gone (its file broke or it was renamed)."""
        bank = self.app.services.bank
        if bank is None or not self.app.ready:
            return
        self.build_tree(self.query_one("#topics-search", Input).value)
        selected, self.selected = self.selected, None
        if selected is None:
            return
        kind, ident = selected
        try:
            self.show(kind, ident, keep_scroll=True)  # the reader stays where they were in the edited card
        except (KeyError, StopIteration):
            self.query_one("#topics-markdown", Markdown).update(HINT)
            self._set_title("Card")
            self._set_reading(False)  # the hint points at the tree
            return
        self._move_cursor_to(selected)

    def _move_cursor_to(self, data: tuple[str, str]) -> None:
        tree = self.query_one(Tree)

        def find(node: Any) -> Any:
            for child in node.children:
                if child.data == data:
                    return child
                hit = find(child)
                if hit is not None:
                    return hit
            return None

        node = find(tree.root)
        if node is None:
            return
        parent = node.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        # After the refresh: a node's line in the tree is only known once the rebuilt tree is laid out.
        tree.call_after_refresh(tree.move_cursor, node)

    # -- tree -------------------------------------------------------------------------------------------

    def build_tree(self, query: str) -> None:
        bank = self.app.services.bank
        q = query.strip().lower()
        tree = self.query_one(Tree)
        tree.clear()
        found = False
        for domain in bank.blueprint.domains:
            # Titles come from the bank's files: Text, never read as markup ('[b]' would vanish, '[/]' end the app).
            dnode = tree.root.add(Text(f"{domain.id} {domain.name} ({domain.weight}%)"), data=("domain", domain.id))
            any_in_domain = False
            for obj in domain.objectives:
                topics = [t for t in bank.topics if obj.id in t.meta.objectives]
                onode = None
                for topic in topics:
                    cards = [c for c in topic.cards if not q or q in c.title.lower() or q in c.body.lower()]
                    topic_hit = not q or q in topic.meta.title.lower()
                    if not (topic_hit or cards):
                        continue
                    if onode is None:
                        onode = dnode.add(Text(f"{obj.id} {obj.title}"), data=("objective", obj.id))
                    tnode = onode.add(Text(topic.meta.title), data=("topic", topic.id))
                    for card in cards if q else topic.cards:
                        tnode.add_leaf(Text(card.title), data=("card", card.id))
                    if q:
                        tnode.expand()
                if onode is None and not q:
                    n = len(bank.questions_for(objective=obj.id)) if hasattr(bank, "questions_for") else 0
                    label = Text.assemble(f"{obj.id} {obj.title}  ", (f"({n} q)", "dim"))
                    onode = dnode.add_leaf(label, data=("objective", obj.id))
                if onode is not None:
                    any_in_domain = True
                    if q:
                        onode.expand()
            if q and not any_in_domain:
                dnode.remove()  # a domain with nothing found would unfold to nothing
            else:
                dnode.expand()
            found = found or any_in_domain
        # An empty tree alone looks like a broken search: say that nothing matched, quoting what was typed.
        nothing = self.query_one("#topics-nothing", Static)
        nothing.display = bool(q) and not found
        if nothing.display:
            nothing.update(Text.assemble("No topic or card mentions '", shown(query.strip(), keep_newlines=False),
                                         "'. Try another word, or clear the search to see them all."))
        self.refresh_bindings()  # "] Next card" depends on the cards the tree lists

    @on(Input.Changed, "#topics-search")
    def _search(self, event: Input.Changed) -> None:
        self.build_tree(event.value)

    @on(Input.Submitted, "#topics-search")
    def _search_done(self) -> None:
        self.query_one(Tree).focus()

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected) -> None:
        # Enter (or a click) on a card opens it to read; on a topic or objective it only folds the tree.
        if event.node.data and event.node.data[0] == "card" and self.app.size.width < SIDE_BY_SIDE_MIN_WIDTH:
            self.show(*event.node.data)
            self._set_reading(True, auto=True)

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted) -> None:
        if event.node.data:
            kind, ident = event.node.data
            self.show(kind, ident)

    # -- display ----------------------------------------------------------------------------------------

    def show(self, kind: str, ident: str, keep_scroll: bool = False) -> None:
        bank = self.app.services.bank
        md = self.query_one("#topics-markdown", Markdown)
        panel = self.query_one("#topics-card")
        if not keep_scroll and (kind, ident) != self.selected:
            panel.scroll_home(animate=False)  # a new card starts at its title, not where the last one was
        self.selected = (kind, ident)
        self.set_class(kind != "card", "-browsing")
        self.refresh_bindings()
        self._shown_at = time.monotonic()
        if kind == "card":
            card = bank.card(ident)
            topic = bank.topic(card.topic)
            self._set_title(topic.meta.title)
            status = self._card_status(card.id)
            md.update(f"## {card.title}\n\n{card.body}\n\n*objectives {', '.join(card.objectives)}* {status}")
        elif kind == "topic":
            topic = bank.topic(ident)
            self._set_title(topic.meta.title)
            lines = [f"# {topic.meta.title}", "", topic.intro or "", ""]
            lines += [f"- {c.title}" for c in topic.cards]
            refs = "\n".join(f"- [{r.title}]({r.url})" for r in topic.meta.references)
            volatile = " · *volatile: check the references*" if topic.meta.volatile else ""
            lines += ["", "**References**", refs, "", f"*verified {topic.meta.verified}*{volatile}"]
            md.update("\n".join(lines))
        elif kind == "objective":
            obj = bank.blueprint.objective(ident)
            n = len(bank.questions_for(objective=ident))
            self._set_title(f"Objective {ident}")
            md.update(f"## {ident} {obj.title}\n\n{n} questions in the bank. Press **p** to practise them.")
        elif kind == "domain":
            dom = next(d for d in bank.blueprint.domains if d.id == ident)
            self._set_title(f"Domain {ident}")
            objs = "\n".join(f"- {o.id} {o.title}" for o in dom.objectives)
            md.update(f"## {dom.name}\n\n{dom.weight}% of the exam.\n\n{objs}")

    def _card_status(self, card_id: str) -> str:
        # The id is what a problem report or `study suspend` takes (issue 37 §3); the hold keys are off the
        # footer at 80 columns, so the card says them.
        ident = f"· id `{card_id}` "
        store = self.app.services.store
        if store is None:
            return ident
        suspended, buried = self._held(card_id)
        if suspended or buried:
            held = "suspended" if suspended else "buried until tomorrow"
            return f"{ident}· **{held}** (**+** brings it back, **u** undoes)"
        try:
            state = store.item_state(card_id)
        except Exception:
            return ident
        if state is None:
            review = "*not reviewed yet*"
        else:
            due = getattr(state, "due", None)
            review = f"*next review {due:%Y-%m-%d}*" if due else "*reviewed*"
        return f"{ident}· {review} · **@** suspend, **=** bury"

    def hold_target(self) -> tuple[str, str] | None:
        if self.selected is None or self.selected[0] != "card":
            return None
        return self.selected[1], "card"

    def after_hold(self, item_id: str, what: str) -> None:
        self.show("card", item_id, keep_scroll=True)

    def after_undo_hold(self, state: Any, context: Any) -> None:
        if self.selected == ("card", state.item_id):
            self.show("card", state.item_id, keep_scroll=True)

    # -- actions ----------------------------------------------------------------------------------------

    def _set_title(self, title: str) -> None:
        self._title = title
        # A round frame sets the title off by itself; the bare rule shown while reading needs the spaces.
        self.query_one("#topics-card").border_title = Text(f" {title} " if self.reading else title)

    def _set_reading(self, reading: bool, auto: bool = False) -> None:
        self.set_class(reading, "-reading")
        self._set_title(self._title)
        self._auto_hidden = reading and auto
        if reading:
            self.query_one("#topics-card").focus()
        else:
            # The tree was only hidden, never rebuilt: its cursor is still on what the reader had open.
            self.query_one(Tree).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= SIDE_BY_SIDE_MIN_WIDTH, "-wide")
        if self._auto_hidden and event.size.width >= SIDE_BY_SIDE_MIN_WIDTH:
            self._set_reading(False)

    def action_toggle_tree(self) -> None:
        self._set_reading(not self.reading)

    def action_show_tree(self) -> None:
        if self.reading:
            self._set_reading(False)

    def action_back(self) -> None:
        if self.reading:
            self._set_reading(False)
            return
        self.app.pop_screen()

    def action_search(self) -> None:
        if self.reading:
            self._set_reading(False)
        self.query_one("#topics-search", Input).focus()

    def _topic_of_selection(self) -> str | None:
        if not self.selected:
            return None
        kind, ident = self.selected
        bank = self.app.services.bank
        if kind == "topic":
            return ident
        if kind == "card":
            return bank.card(ident).topic
        return None

    def action_practice_topic(self) -> None:
        if not self.selected:
            return
        kind, ident = self.selected
        filters: dict[str, Any] = {}
        if kind in ("topic", "card"):
            filters["topic"] = self._topic_of_selection()
        elif kind == "objective":
            filters["objective"] = ident
        elif kind == "domain":
            filters["domain"] = ident
        from study.tui.flows import start_practice

        start_practice(self.app, **filters)

    def action_mark_read(self) -> None:
        self._rate_card("3", read=True)

    def action_rate(self, key: str) -> None:
        self._rate_card(key)

    def _rate_card(self, key: str, read: bool = False) -> None:
        if not self.selected or self.selected[0] != "card":
            self.notify("Select a card first.", severity="warning")
            return
        from study.tui import actions

        card_id = self.selected[1]
        seconds = time.monotonic() - self._shown_at
        actions.rate_card(self.app.services, card_id, RATING_KEYS[key], seconds)
        label = "read" if read else RATING_KEYS[key]
        self.notify(f"Card marked {label}.", timeout=2)
        self.show("card", card_id)

    def action_next_card(self) -> None:
        self._step_card(1)

    def action_previous_card(self) -> None:
        self._step_card(-1)

    def _tree_cards(self) -> list[tuple[str, str]]:
        cards: list[tuple[str, str]] = []

        def walk(node: Any) -> None:
            for child in node.children:
                if child.data and child.data[0] == "card":
                    cards.append(child.data)
                walk(child)

        walk(self.query_one(Tree).root)
        return cards

    def _card_step_target(self, step: int) -> tuple[str, str] | None:
        """The card ``step`` away in tree order, crossing topics (from a topic, its first card); None at
        either end."""
        if not self.is_mounted or self.app.services.bank is None:
            return None
        cards = self._tree_cards()
        if not cards:
            return None
        selected = self.selected
        if selected in cards:
            index = cards.index(selected) + step
        elif selected and selected[0] == "topic":
            firsts = [i for i, c in enumerate(cards) if self.app.services.bank.card(c[1]).topic == selected[1]]
            index = firsts[0] if firsts else 0
        else:
            index = 0 if step > 0 else len(cards) - 1
        return cards[index] if 0 <= index < len(cards) else None

    def _step_card(self, step: int) -> None:
        """Open the next (or previous) card in tree order."""
        target = self._card_step_target(step)
        if target is None:
            self.notify("No more cards this way.", timeout=2)
            return
        self.show(*target)
        self._move_cursor_to(target)
