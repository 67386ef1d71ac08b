"""``study calc``: the sizing calculator on its own.

``study calc`` lists the functions; ``study calc NAME --help`` shows parameters, units and the formula;
``study calc NAME --param value ...`` prints the result and the worked steps (``--json`` for scripts);
``study calc gpus|models|links`` print the catalog. Each function's options come from the calculator's
shared parameter table, so an option means the same thing (and takes the same unit) everywhere.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any
from collections.abc import Mapping
from study.cli import command_help

CATALOG_TABLES = ("gpus", "models", "links")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calc",
        help=command_help("calc"),
        description="GPU sizing calculator. `study calc` lists the functions, `study calc NAME --help` "
        "explains one, `study calc gpus|models|links` prints the catalog.",
        add_help=False,
    )
    p.add_argument("name", nargs="?", help="function name (kv-cache, training-time, ...) or gpus/models/links")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="--param value ... [--json]")
    p.add_argument("-h", "--help", action="store_true", dest="calc_help", help="show help")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from study.cli import UsageError

    name, rest = args.name, list(args.rest or [])
    if args.calc_help and name is None:
        return _list_functions(as_json=False)
    if name is None or name in ("list", "--json"):
        return _list_functions(as_json="--json" in rest or name == "--json")
    if args.calc_help:
        rest.append("--help")
    if name in CATALOG_TABLES:
        if "-h" in rest or "--help" in rest:
            return _catalog_help(name)
        return _catalog_table(name, as_json="--json" in rest)

    from study.calc import FUNCTIONS, CalcError, CatalogError
    from study.calc.registry import _did_you_mean

    f = FUNCTIONS.get(name) or FUNCTIONS.get(name.replace("_", "-"))
    if f is None:
        options = list(FUNCTIONS) + list(CATALOG_TABLES)
        raise UsageError(f"calc: unknown function {name!r}{_did_you_mean(name, options)}; `study calc` lists them")
    parser = _function_parser(f)
    if "-h" in rest or "--help" in rest:
        _function_help(f)
        return 0
    ns, unknown = parser.parse_known_args(rest)
    if unknown:
        bad = next((u for u in unknown if u.startswith("-")), unknown[0])
        opts = [p.option for p in f.params] + ["--json"]
        raise UsageError(f"calc {f.name}: unknown option {bad!r}{_did_you_mean(bad.split('=')[0], opts)}; "
                         f"see `study calc {f.name} --help`")
    kwargs = {p.name: getattr(ns, p.name) for p in f.params if getattr(ns, p.name) is not None}
    try:
        result = f.func(**kwargs)
    except (CalcError, CatalogError) as exc:
        # Some formula messages name the formula first, for a question's calc expression that called it.
        raise UsageError(f"calc {f.name}: {str(exc).removeprefix(f'{f.name}: ')}") from None
    _say_which_part(kwargs)
    if ns.json:
        import json

        print(json.dumps(result.to_dict(), indent=2, default=str))
    else:
        _print_result(f, result)
    return 0


def _say_which_part(kwargs: dict[str, Any]) -> None:
    """The CLI keeps its forgiving spelling (``--gpu h100``) but says which part it took, on stderr, so a
    reader who meant the PCIe card sees at once that the SXM figures were used."""
    import sys

    from study.calc import CatalogError, catalog

    cat = catalog()
    for kind in ("gpu", "model", "link"):
        key = kwargs.get(kind)
        if not isinstance(key, str):
            continue
        candidates = cat.ambiguous(kind, key)
        if not candidates:
            continue
        try:
            chosen = cat.find(kind, key)
        except CatalogError:
            continue
        print(f"study: note: {kind} {key!r} could be {', '.join(candidates)}; using {chosen.id} "
              f"({getattr(chosen, 'name', chosen.id)})", file=sys.stderr)


def _function_parser(f: Any) -> Any:
    from study.cli import UsageError
    from study.cli_parser import StudyParser

    class _Parser(StudyParser):
        """Raises instead of exiting: ``run`` is already inside main's one-line error handling."""

        def error(self, message: str) -> None:  # type: ignore[override]
            raise UsageError(f"calc {f.name}: {message}")

    parser = _Parser(prog=f"study calc {f.name}", add_help=False)
    for p in f.params:
        kw: dict[str, Any] = {"dest": p.name, "default": None, "metavar": p.type_label.upper().replace(" ", "-")}
        if p.kind == "bool":
            kw.update(nargs="?", const="yes", metavar="yes|no")
        elif p.name == "recompute":
            kw.update(nargs="?", const="full")
        parser.add_argument(p.option, **kw)
    parser.add_argument("--json", action="store_true")
    return parser


def _billions(n: float) -> str:
    return f"{n / 1e9:.1f}B" if n >= 1e9 else f"{n / 1e6:.0f}M"


def _console() -> Any:
    from rich.console import Console

    # Piped output (scripts, tests, less) gets room for the catalog tables instead of 80 columns.
    # An explicit COLUMNS still wins, so `COLUMNS=80 study calc gpus | less` shows the narrow layout.
    width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 160
    return Console(highlight=False, soft_wrap=False, width=width)


def _list_functions(as_json: bool) -> int:
    from study.calc import FUNCTIONS

    if as_json:
        import json

        print(json.dumps([{"name": f.name, "unit": f.unit, "summary": f.summary} for f in FUNCTIONS.values()], indent=2))
        return 0
    from rich.table import Table

    t = Table(title="study calc NAME --param value ...   (study calc NAME --help for details)", title_justify="left",
              box=None, pad_edge=False)
    t.add_column("function", style="bold cyan", no_wrap=True)
    t.add_column("unit", no_wrap=True)
    t.add_column("what it computes")
    for f in FUNCTIONS.values():
        t.add_row(f.name, f.unit, f.summary)
    c = _console()
    c.print(t)
    c.print("\nCatalog: study calc gpus | study calc models | study calc links")
    return 0


def _function_help(f: Any) -> None:
    from rich.table import Table

    c = _console()
    c.print(f"[bold]study calc {f.name}[/bold]: {f.summary}")
    c.print(f"\n[bold]formula[/bold]  {f.formula}")
    c.print(f"[bold]result[/bold]   {f.unit}")
    c.print(f"[bold]source[/bold]   {f.source}\n")
    if f.doc:
        for para in f.doc.split("\n\n"):  # docstrings are hard-wrapped; let the terminal wrap instead
            c.print(" ".join(para.split()), markup=False)
        c.print()
    t = Table(box=None, pad_edge=False)
    t.add_column("option", style="bold cyan", no_wrap=True)
    t.add_column("takes", no_wrap=True)
    t.add_column("default", no_wrap=True)
    t.add_column("meaning")
    for p in f.params:
        default = "required" if p.required else ("" if p.default is None else str(p.default))
        valid = f" ({p.range_short})" if p.kind in ("num", "qty", "frac") else ""
        t.add_row(p.option, p.type_label, default, p.help + valid)
    t.add_row("--json", "", "", "print {name, inputs, value, unit, display, steps} as JSON")
    c.print(t)
    c.print("\nNumbers take scientific notation and unit suffixes (175e9, 80GB, 400Gb/s, 2 days). A bare number "
            "is in the unit shown under 'takes'. GB is 1e9 bytes, GiB 2^30; Gb/s is bits (1/8 of GB/s).")


def _print_result(f: Any, result: Any) -> None:
    from rich.table import Table

    c = _console()
    unit = "" if result.unit == "1" else f" {result.unit}"
    c.print(f"[bold]{f.name}[/bold] = [bold green]{result.display}[/bold green]   ({_value_text(result)}{unit})")
    t = Table(box=None, pad_edge=False, show_header=True)
    t.add_column("step", style="bold", no_wrap=True)
    t.add_column("formula")
    t.add_column("numbers")
    t.add_column("result", style="green", no_wrap=True)
    for s in result.steps:
        t.add_row(s.label, s.formula, s.substituted, s.outcome)
    c.print(t)
    c.print(f"[dim]source: {f.source}[/dim]")


def _value_text(result: Any) -> str:
    v = result.value
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


_CATALOG_WHAT = {"gpus": ("GPU", "gpu"), "models": ("model", "model"), "links": ("interconnect", "link")}


def _catalog_help(name: str) -> int:
    what, option = _CATALOG_WHAT[name]
    print(f"usage: study calc {name} [--json]\n\n"
          f"Print the {what} catalog: one row per {what}; the ids are what --{option} takes and what a question's "
          f"{option}('...') looks up.\n\n  --json  every field of every {what}, in full, as JSON")
    return 0


def _catalog_table(name: str, as_json: bool) -> int:
    from study.calc import catalog

    cat = catalog()
    if as_json:
        import dataclasses
        import json

        tables: dict[str, Mapping[str, Any]] = {"gpus": cat.gpus, "models": cat.models, "links": cat.links}
        print(json.dumps({k: dataclasses.asdict(v) for k, v in tables[name].items()}, indent=2))
        return 0
    from rich.table import Table

    c = _console()
    # Units live in the headers so every column stays narrow: the tables fit an 80-column terminal, and the
    # long product names are only added when there is room for them.
    wide = c.width >= 120
    t = Table(box=None, pad_edge=False, collapse_padding=True)

    def add_columns(*cols: str) -> None:
        for col in cols:
            if col == "name" and not wide:
                continue
            t.add_column(col, no_wrap=col != "as quoted", style="bold cyan" if col == "id" else None,
                         justify="left" if col in ("id", "name", "as quoted") else "right")

    def row(*cells: str, name: str) -> None:
        t.add_row(cells[0], *((name,) if wide else ()), *cells[1:])

    if name == "gpus":
        add_columns("id", "name", "mem GB", "HBM TB/s", "BF16 TF", "FP8 TF", "FP4 TF", "TDP W", "NVLink GB/s", "MIG")
        for g in cat.gpus.values():
            def tf(d: str, g: Any = g) -> str:
                v = g.dense.get(d)
                return "-" if v is None else f"{v:g}"
            bf16 = tf("bf16") if "bf16" in g.dense else (tf("fp16") + " fp16" if "fp16" in g.dense else "-")
            nvlink = g.nvlink_bandwidth_bytes_s
            row(g.id, f"{g.memory_bytes / 1e9:g}", f"{g.bandwidth_bytes_s / 1e12:g}", bf16, tf("fp8"), tf("fp4"),
                f"{g.tdp_watts:g}", "-" if nvlink is None else f"{nvlink / 1e9:g}", str(g.mig or "-"), name=g.name)
        note = ("Tensor TFLOP/s are dense (without sparsity); sparse figures are twice these, except Blackwell Ultra "
                "FP4 (B300 18 | 14 PF). T4 and V100 have no BF16: their FP16 figure is shown. NVLink is the bidirectional total per GPU.")
    elif name == "models":
        add_columns("id", "name", "params", "active", "layers", "hidden", "heads", "KV", "hd", "FFN", "vocab",
                    "context")
        for m in cat.models.values():
            row(m.id, _billions(m.params), _billions(m.active_params) if m.is_moe else "",
                *(str(x) for x in (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn, m.vocab, m.context)),
                name=m.name)
        note = ("Exact parameter counts from the released checkpoints (GPT-3: the paper's 175B); `--json` has them "
                "in full. KV = key/value heads, hd = head dimension.")
    else:
        add_columns("id", "name", "GB/s 1-way", "GB/s 2-way", "as quoted")
        for lk in cat.links.values():
            row(lk.id, f"{lk.per_direction_bytes_s / 1e9:g}", f"{lk.bidirectional_bytes_s / 1e9:g}", lk.quoted,
                name=lk.name)
        note = "A one-way transfer uses the per-direction rate. Network ports are quoted in Gb/s (bits): 400 Gb/s = 50 GB/s."
    c.print(t)
    c.print(f"[dim]{note}[/dim]")
    return 0
