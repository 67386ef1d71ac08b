"""Calculator: pick a GPU and a model (or type numbers) and see memory, fit, latency, throughput and training
time, each with its derivation, plus a plot against batch size or sequence length.

Every figure is one ``study.calc.call``; this screen only collects inputs and lays the results out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Header, Input, Label, Select, Static

from study.tui.screens.base import StudyScreen
from study.tui.widgets.bars import BarChart, BarRow
from study.tui.widgets.footer import StudyFooter

# The count fields: the label the learner sees and the calculator parameter whose range bounds it (the GPU
# count is also the tensor-parallel size, the smaller range of the two).
COUNTS = {"#c-batch": ("Batch", "batch"), "#c-seq": ("Seq length", "seq_len"), "#c-gpus": ("GPUs", "tp")}


class CountError(ValueError):
    """A count field holds something other than a whole number in its range; the message names the field."""


PLOT_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
PLOT_SEQ_LENS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072)


@dataclass
class Figure:
    key: str
    label: str
    result: Any = None
    error: str = ""
    note: str = ""
    shown: str = ""  # the value as displayed, when it reads better than the result's own display


GPU_LABEL_WIDTH = 32


def gpu_label(name: str) -> str:
    """The catalog's name without the maker every entry shares, and without its parenthesis or trailing words
    where it would not fit: the list stays one line per GPU at 80 columns."""
    label = name.removeprefix("NVIDIA ")
    if len(label) > GPU_LABEL_WIDTH and " (" in label:
        label = label.split(" (", 1)[0]
    if len(label) > GPU_LABEL_WIDTH:
        label = label[:GPU_LABEL_WIDTH - 1].rsplit(" ", 1)[0] + "…"
    return label


def gpu_count(n: int) -> str:
    return f"{n} GPU" if n == 1 else f"{n} GPUs"


def roofline_bound(result: Any) -> str:
    bound = (getattr(result, "inputs", None) or {}).get("bound")
    return f"{bound}-bound" if isinstance(bound, str) else ""


# The screen's letter keys: no field here takes them (numbers and units), so they act from a field too.
SCREEN_LETTERS = frozenset("dv")


class Field(Input):
    """A calculator input that leaves the screen's letter keys to the screen instead of typing them."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character not in SCREEN_LETTERS and super().check_consume_key(key, character)


class CalcScreen(StudyScreen):
    SUB_TITLE = "Calculator"
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        # Priority, and fields that do not claim them (Field): from a field they act rather than type.
        Binding("v", "toggle_plot", "Plot: batch/seq", priority=True),
        Binding("d", "focus_figures", "Derivations", priority=True),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.figures: dict[str, Figure] = {}
        self.plot_over = "batch"
        self.error = ""

    def compose(self) -> ComposeResult:
        from study.calc import DTYPES, catalog

        cat = catalog()
        gpus = [(gpu_label(g.name), gid) for gid, g in cat.gpus.items()]
        models = [(m.name, mid) for mid, m in cat.models.items()]
        yield Header()
        with Horizontal():
            with Vertical(id="calc-left"):
                with Grid(id="calc-form", classes="panel"):
                    yield Label("GPU")
                    yield Select(gpus, id="c-gpu", allow_blank=False, value="h100-sxm", compact=True)
                    yield Label("GPU memory")
                    yield Field(placeholder="e.g. 141 GB", id="c-mem", compact=True)
                    yield Label("GPU bandwidth")
                    yield Field(placeholder="e.g. 4.8 TB/s", id="c-bw", compact=True)
                    yield Label("Model")
                    yield Select(models, id="c-model", allow_blank=False, value="llama-2-70b", compact=True)
                    yield Label("Params")
                    yield Field(placeholder="from model", id="c-params", compact=True)
                    yield Label("Precision")
                    yield Select([(d, d) for d in DTYPES], id="c-dtype", allow_blank=False, value="fp16", compact=True)
                    yield Label("Batch")
                    yield Field("1", id="c-batch", type="integer", compact=True)
                    yield Label("Seq length")
                    yield Field("4096", id="c-seq", type="integer", compact=True)
                    yield Label("GPUs")
                    yield Field("1", id="c-gpus", type="integer", compact=True)
                    yield Label("Train tokens")
                    yield Field("2e12", id="c-tokens", compact=True)
                    yield Label("MFU (assumed)")
                    yield Field("0.4", id="c-mfu", type="number", compact=True)
                # Under the form, where 80x24 has room, so the plot fits beside it above the fold.
                yield BarChart(id="calc-memory", classes="panel")
            # Not a Tab stop itself: Tab after the last field lands on the figures.
            with VerticalScroll(id="calc-out", can_focus=False):
                yield DataTable(id="calc-figures", cursor_type="row", zebra_stripes=True)
                yield Static("", id="calc-status")
                yield BarChart(id="calc-plot", classes="panel")
                yield Static("", id="calc-derivation", classes="panel")
        yield StudyFooter()

    def on_mount(self) -> None:
        self.query_one("#calc-form").border_title = "Inputs"
        self.query_one("#calc-memory").border_title = "Memory per GPU"
        self.query_one("#calc-derivation").border_title = "Derivation"
        table = self.query_one("#calc-figures", DataTable)
        table.add_columns("figure", "value", "note")
        self._placeholders(self.query_one("#c-gpu", Select).value)
        self.recompute()

    # -- inputs -----------------------------------------------------------------------------------------

    def _number(self, widget_id: str) -> Any:
        raw = self.query_one(widget_id, Input).value.strip().replace(",", "")
        return float(raw) if raw else None

    def _count(self, widget_id: str) -> int:
        """A whole number from 1 to the calculator's bound for it (1 when empty), else ``CountError`` saying
        so. Checked here, not only by the calculator, because the screen divides by the GPU count itself: 400
        typed digits were infinity to float() (and int() of it an OverflowError), -1 GPUs drew negative bars."""
        from study.calc import SHARED

        label, param = COUNTS[widget_id]
        high = int(SHARED[param].high)
        raw = self.query_one(widget_id, Input).value.strip().replace(",", "")
        if not raw:
            return 1
        try:
            value = int(raw)
        except ValueError:  # not digits, or more digits than int() reads
            value = 0
        if not 1 <= value <= high:
            raise CountError(f"{label} is a whole number from 1 to {high:,}.")
        return value

    def inputs(self) -> dict[str, Any]:
        def sel(widget_id: str) -> Any:
            return self.query_one(widget_id, Select).value

        return {
            "gpu": sel("#c-gpu"),
            "model": sel("#c-model"),
            "params": self._number("#c-params"),
            "dtype": sel("#c-dtype"),
            "batch": self._count("#c-batch"),
            "seq_len": self._count("#c-seq"),
            "gpus": self._count("#c-gpus"),
            "tokens": self._number("#c-tokens"),
            "mfu": self._number("#c-mfu"),
            # Typed with units; the calculator parses them and names a wrong kind of quantity.
            "memory": self.query_one("#c-mem", Input).value.strip() or None,
            "bandwidth": self.query_one("#c-bw", Input).value.strip() or None,
        }

    @on(Select.Changed, "#c-gpu")
    def _gpu_changed(self, event: Select.Changed) -> None:
        self._placeholders(event.value)

    def _placeholders(self, gpu_id: Any) -> None:
        # The examples under an empty field are the selected GPU's own figures (what leaving it empty uses).
        from study.calc import catalog, format_quantity, parse_unit

        try:
            gpu = catalog().gpu(str(gpu_id))
        except (KeyError, ValueError):
            return
        self.query_one("#c-mem", Input).placeholder = f"e.g. {format_quantity(gpu.memory_bytes, parse_unit('B').dim)}"
        self.query_one("#c-bw", Input).placeholder = (
            f"e.g. {format_quantity(gpu.bandwidth_bytes_s, parse_unit('B/s').dim)}")

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self) -> None:
        if self.is_mounted:
            self.recompute()

    # -- figures ----------------------------------------------------------------------------------------

    def recompute(self) -> None:
        from study.calc import CalcError, call

        try:
            x = self.inputs()
        except ValueError as exc:
            # A count names its field; float()'s own words ("could not convert string to float") are not for a
            # learner.
            self.error = str(exc) if isinstance(exc, CountError) else "Numbers only (e.g. 4096, 70e9, 0.4)."
            self.query_one("#calc-status", Static).update(Text(self.error))
            return
        self.error = ""
        model = {"model": x["model"]}
        if x["params"]:
            model["params"] = x["params"]
        tp = x["gpus"]
        infer = {**model, "gpu": x["gpu"], "dtype": x["dtype"], "tp": tp}
        if x["bandwidth"]:
            infer["bandwidth"] = x["bandwidth"]
        mem = {"memory": x["memory"]} if x["memory"] else {}
        plan = [
            ("weights", "Weights", "weights-memory", {**model, "dtype": x["dtype"]}),
            ("kv", "KV cache", "kv-cache", {"model": x["model"], "seq_len": x["seq_len"], "batch": x["batch"],
                                            "dtype": x["dtype"]}),
            ("needed", "GPUs needed", "gpus-needed", {**model, "gpu": x["gpu"], "dtype": x["dtype"],
                                                     "seq_len": x["seq_len"], "batch": x["batch"], **mem}),
            ("train_mem", "Training mem", "training-memory", {**model}),
            ("prefill", "Prefill", "prefill-time", {**infer, "prompt_len": x["seq_len"], "batch": x["batch"]}),
            ("decode", "Per token", "decode-time", {**infer, "seq_len": x["seq_len"], "batch": x["batch"]}),
            ("tps", "Tokens/s", "tokens-per-second", {**infer, "seq_len": x["seq_len"], "batch": x["batch"]}),
        ]
        if x["tokens"] and x["mfu"]:
            plan.append(("train_time", "Train time", "training-time",
                         {**model, "tokens": x["tokens"], "gpus": x["gpus"], "gpu": x["gpu"],
                          "dtype": "bf16" if x["dtype"] in ("fp32", "tf32") else x["dtype"], "mfu": x["mfu"]}))
        figures: dict[str, Figure] = {}
        for key, label, name, kwargs in plan:
            fig = Figure(key, label)
            try:
                fig.result = call(name, **kwargs)
            except (CalcError, ValueError, KeyError) as exc:
                fig.error = str(exc)
            figures[key] = fig
        self._annotate(figures, x)
        self.figures = figures
        self._show(x)

    def _annotate(self, figures: dict[str, Figure], x: dict[str, Any]) -> None:
        needed = figures["needed"].result
        if needed is not None:
            n = int(needed.value)
            figures["needed"].note = f"✔ fits on {x['gpus']}" if n <= x["gpus"] else f"✘ not on {x['gpus']}"
            figures["needed"].shown = gpu_count(n)
        tps = figures["tps"].result
        if tps is not None:
            figures["tps"].note = roofline_bound(tps)
        if figures["prefill"].result is not None:
            figures["prefill"].note = roofline_bound(figures["prefill"].result)
        tm = figures["train_mem"].result
        if tm is not None:
            figures["train_mem"].note = "Adam states"
        tt = figures.get("train_time")
        if tt is not None and tt.result is not None:
            tt.note = f"MFU {x['mfu']:g}"

    def _show(self, x: dict[str, Any]) -> None:
        table = self.query_one("#calc-figures", DataTable)
        cursor = table.cursor_row
        table.clear()
        for key, fig in self.figures.items():
            value = self._display(fig)
            # Text, not a str: a DataTable reads a str cell as markup, and an error quotes what was typed.
            table.add_row(fig.label, value, Text(fig.error[:60] if fig.error else fig.note), key=key)
        if table.row_count:
            table.move_cursor(row=min(cursor, table.row_count - 1))
        self.query_one("#calc-status", Static).update("")
        self._memory_bar(x)
        self._derivation()
        self._plot(x)

    @staticmethod
    def _display(fig: Figure) -> str:
        if fig.result is None:
            return "—"
        if fig.shown:
            return fig.shown
        if fig.key == "train_time":
            days = fig.result.to("days")
            return f"{days:,.0f} days" if days >= 100 else f"{days:.1f} days"
        return fig.result.display

    def _memory_bar(self, x: dict[str, Any]) -> None:
        from study.calc import SHARED, catalog, format_quantity, parse_unit

        chart = self.query_one("#calc-memory", BarChart)
        w, kv = self.figures["weights"].result, self.figures["kv"].result
        if w is None or kv is None:
            chart.set_rows([])
            return
        gpu = catalog().gpu(x["gpu"])
        mem = float(gpu.memory_bytes)
        if x["memory"]:
            try:
                from study.calc import parse_quantity

                typed = float(parse_quantity(x["memory"]).value)
            except ValueError:
                typed = 0.0
            # Out of range (0 GB divided the bars by zero) or unreadable: the figures table shows the
            # calculator's message and the bars stay on the GPU's own memory.
            if SHARED["memory"].low <= typed <= SHARED["memory"].high:
                mem = typed
        n = x["gpus"]
        byte = parse_unit("B").dim
        per_w, per_kv = w.value / n, kv.value / n
        # The same overhead "GPUs needed" adds (activations, CUDA context), so the bar and the count agree.
        needed = self.figures["needed"].result
        overhead = float((needed.inputs if needed is not None else {}).get("overhead", 0.0) or 0.0)
        per_extra = (per_w + per_kv) * overhead
        total = per_w + per_kv + per_extra
        style = "green" if total <= mem else "red"
        chart.set_rows(
            [
                BarRow("weights", per_w / mem, format_quantity(per_w, byte), style=style),
                BarRow("KV cache", per_kv / mem, format_quantity(per_kv, byte), style=style),
                BarRow(f"+{overhead:.0%} extra", per_extra / mem, format_quantity(per_extra, byte), style=style),
                BarRow("total", total / mem, f"{format_quantity(total, byte)} / {format_quantity(mem, byte)}",
                       style=style),
            ]
        )
        chart.border_title = f"Memory per GPU ({n} x {gpu_label(gpu.name)})"

    @on(DataTable.RowHighlighted, "#calc-figures")
    def _row(self) -> None:
        self._derivation()

    def _derivation(self) -> None:
        table = self.query_one("#calc-figures", DataTable)
        panel = self.query_one("#calc-derivation", Static)
        if not table.row_count:
            panel.update("")
            return
        key = list(self.figures)[min(table.cursor_row, len(self.figures) - 1)]
        fig = self.figures[key]
        panel.border_title = f"Derivation: {fig.label}"
        if fig.result is None:
            panel.update(Text(fig.error or "—"))
            return
        lines = []
        for i, s in enumerate(fig.result.steps, start=1):
            lines.append(f"[b]{i}. {s.label}[/]: {s.formula}")
            if s.substituted:
                lines.append(f"   = {s.substituted}")
            lines.append(f"   = [b]{s.outcome}[/]")
        panel.update("\n".join(lines))

    def _plot(self, x: dict[str, Any]) -> None:
        from study.calc import CalcError, call

        chart = self.query_one("#calc-plot", BarChart)
        model = {"model": x["model"], **({"params": x["params"]} if x["params"] else {})}
        base = {**model, "gpu": x["gpu"], "dtype": x["dtype"], "tp": x["gpus"]}
        if x["bandwidth"]:
            base["bandwidth"] = x["bandwidth"]
        points: list[tuple[str, Any, bool]] = []
        try:
            if self.plot_over == "batch":
                for b in PLOT_BATCHES:
                    points.append((f"batch {b}", call("tokens-per-second", **base, seq_len=x["seq_len"], batch=b),
                                   self._fits(x, batch=b)))
                chart.border_title = f"Tokens/s by batch (seq {x['seq_len']})"
                chart.border_subtitle = "M memory-, C compute-bound"
            else:
                for n in PLOT_SEQ_LENS:
                    points.append((f"seq {n}", call("kv-cache", model=x["model"], seq_len=n, batch=x["batch"],
                                                    dtype=x["dtype"]), self._fits(x, seq_len=n)))
                chart.border_title = f"KV cache by sequence length (batch {x['batch']})"
                chart.border_subtitle = ""
        except (CalcError, ValueError, KeyError) as exc:
            chart.set_rows([])
            chart.border_title = Text(f"Plot unavailable: {exc}")
            return
        if not all(fits for _l, _r, fits in points):
            chart.border_subtitle = "✘ no fit · " + (chart.border_subtitle.replace("memory-", "mem-") or "")
        top = max((p.value for _, p, _f in points), default=1) or 1
        rows = []
        for label, r, fits in points:
            note = roofline_bound(r)[:1].upper() if self.plot_over == "batch" else ""
            mark = "" if fits else " ✘"
            rows.append(BarRow(label, r.value / top, f"{r.display} {note}".rstrip() + mark,
                               style="" if fits else "red"))
        chart.set_rows(rows)

    def _fits(self, x: dict[str, Any], **change: int) -> bool:
        """Whether weights and KV cache (with the usual overhead) fit on the GPUs given, for this row."""
        from study.calc import CalcError, call

        args = {"model": x["model"], "gpu": x["gpu"], "dtype": x["dtype"], "seq_len": x["seq_len"],
                "batch": x["batch"], **change}
        if x["params"]:
            args["params"] = x["params"]
        if x["memory"]:
            args["memory"] = x["memory"]
        try:
            return int(call("gpus-needed", **args).value) <= x["gpus"]
        except (CalcError, ValueError, KeyError):
            return True  # the figures table names the problem

    # -- actions ----------------------------------------------------------------------------------------

    def action_toggle_plot(self) -> None:
        self.plot_over = "seq" if self.plot_over == "batch" else "batch"
        try:
            x = self.inputs()
        except ValueError:
            return  # the status line already says which field to fix; the plot follows once it is fixed
        self._plot(x)

    def action_focus_figures(self) -> None:
        """Arrows on the figures choose the derivation shown; on a short terminal it is below the plot."""
        self.query_one("#calc-figures", DataTable).focus()
        self.query_one("#calc-out", VerticalScroll).scroll_to_widget(self.query_one("#calc-derivation"),
                                                                      animate=False)
