"""``study bank stats`` for a person: one table that fits 80 columns, then totals and the gaps."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterator

TYPE_COLUMNS = (("single", "sgl"), ("multi", "mul"), ("true_false", "t/f"), ("numeric", "num"))


def _counts(row: dict[str, Any]) -> list[str]:
    types = [str(row["by_type"][t] or "·") for t, _ in TYPE_COLUMNS]
    diffs = [str(v or "·") for v in row["by_difficulty"].values()]
    return [*types, *diffs, str(row["templated"] or "·")]


# Everything but the title: obj 4, qs 3, four types of 3, three difficulties of 3, tpl 3, cards 5, and the
# box's one-space divider between each of the 12 columns.
_FIXED_WIDTH = 4 + 3 + 4 * 3 + 3 * 3 + 3 + 5 + 11


def _ellipsize(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)].rstrip() + "…"


def stats_table(stats: dict[str, Any], width: int = 80) -> Any:
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    table = Table(
        title=f"{stats['questions']} questions, {stats['cards']} cards in {stats['topics']} topics",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=0,
        caption="domain rows: share of the bank/blueprint weight. sgl mul t/f num: single, choose-N, "
        "true/false, numeric; d1-d3: difficulty; tpl: templated; cards: cards touching the objective; · none.",
        caption_justify="left",
    )
    table.add_column("obj", no_wrap=True, min_width=4)
    # Titles are long blueprint sentences: one line each, cut with an ellipsis, so the counts stay aligned.
    table.add_column("title", overflow="ellipsis", no_wrap=True, max_width=max(16, width - _FIXED_WIDTH))
    table.add_column("qs", justify="right", no_wrap=True, min_width=3)
    for _, short in TYPE_COLUMNS:
        table.add_column(short, justify="right", no_wrap=True, min_width=3)
    for d in ("d1", "d2", "d3"):
        table.add_column(d, justify="right", no_wrap=True, min_width=3)
    table.add_column("tpl", justify="right", no_wrap=True, min_width=3)
    table.add_column("cards", justify="right", no_wrap=True, min_width=5)
    target_q = stats["targets"]["objective_min_questions"]
    target_c = stats["targets"]["objective_min_cards"]
    title_width = max(16, width - _FIXED_WIDTH)
    for d in stats["domains"]:
        # The share is what this row is for: cut the name, never the numbers.
        share = f"{d['percent']}%/{d['weight']}%"
        name = _ellipsize(d["name"], title_width - len(share) - 1)
        table.add_row(f"[b]{d['id']}[/b]", f"[b]{escape(name)}[/b] {share}", f"[b]{d['questions']}[/b]",
                      *[f"[b]{c}[/b]" for c in _counts(d)], "", end_section=False)
        for o in d["objectives"]:
            qs = str(o["questions"])
            cards = str(o["cards_touching"])
            if o["questions"] < target_q:
                qs = f"[red]{qs}[/red]"
            if o["cards_touching"] < target_c:
                cards = f"[red]{cards}[/red]"
            table.add_row(o["id"], escape(o["title"]), qs, *_counts(o), cards, end_section=o is d["objectives"][-1])
    return table


def summary_lines(stats: dict[str, Any]) -> Iterator[str]:
    t = stats["targets"]
    n = stats["questions"]
    yield (f"{n} questions (target {t['min_questions']}); domains "
           + "/".join(f"{d['percent']:g}" for d in stats["domains"]) + "% (blueprint "
           + "/".join(str(d["weight"]) for d in stats["domains"]) + ")")
    yield "types " + (", ".join(f"{k} {v}" for k, v in stats["types"].items()) or "none")
    yield (f"choose-two {stats['choose_two']} = {stats['choose_two_percent']}% (target {t['choose_two_min_percent']:g}%); "
           "difficulty " + (", ".join(f"{k}: {v}" for k, v in stats["difficulty"].items()) or "none"))
    yield (f"templated {stats['templated']}, calculator scenarios {stats['calculator']} "
           f"(target {t['min_calculator']}), volatile {stats['volatile']}")
    flaws = stats.get("item_flaws") or {}
    if flaws:
        shown = [f"{code} {n['open']}" + (f" (+{n['accepted']} accepted)" if n["accepted"] else "")
                 for code, n in flaws.items() if n["open"] or n["accepted"]]
        yield "item-writing flaws (study lint): " + (", ".join(shown) or "none")
    if stats["errors"]:
        yield f"[yellow]{stats['errors']} errors in the question files: questions with errors are not counted; run `study lint`[/yellow]"


def gap_lines(stats: dict[str, Any]) -> Iterator[Any]:
    from rich.table import Table
    from rich.text import Text

    gaps = stats["gaps"]
    if not gaps:
        yield "[green]No gaps: every content target is met.[/green]"
        return
    errors = sum(g["severity"] == "error" for g in gaps)
    yield f"[b]Gaps[/b]: {errors} missed {'target' if errors == 1 else 'targets'}, {len(gaps) - errors} to consider"
    # A grid keeps a wrapped message indented under its own text.
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for g in gaps:
        error = g["severity"] == "error"
        grid.add_row(Text("error" if error else "warning", style="red" if error else "yellow"), Text(g["message"]))
    yield grid


def stats_renderables(stats: dict[str, Any], width: int = 80) -> Iterator[Any]:
    yield stats_table(stats, width)
    yield from summary_lines(stats)
    yield ""
    yield from gap_lines(stats)
