"""The calculator screen agrees with itself: the memory panel adds the overhead "GPUs needed" counts, the
plot marks the rows that do not fit, and counts read "1 GPU"; at 80x24 the plot is above the fold."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable, Select

from tests.tui.conftest import settle


async def open_calc(pilot: Any) -> Any:
    await settle(pilot, pilot.app)
    await pilot.press("c")
    await settle(pilot, pilot.app)
    return pilot.app.screen


async def choose(pilot: Any, calc: Any, **values: str) -> None:
    for field, value in values.items():
        widget = calc.query_one(f"#c-{field}")
        widget.value = value
    await settle(pilot, pilot.app)


def memory_total(calc: Any) -> Any:
    return next(r for r in calc.query_one("#calc-memory").rows if r.label == "total")


@pytest.mark.parametrize("gpu,model,fits", [
    ("h200-sxm", "llama-2-70b", False),  # 139 GB of weights and cache on 141 GB: the overhead tips it
    ("h100-sxm", "llama-2-13b", True),
    ("a100-pcie-40gb", "llama-2-13b", True),
    ("l4", "llama-2-13b", False),
])
async def test_memory_panel_and_gpus_needed_agree(make_app, gpu, model, fits):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        calc = await open_calc(pilot)
        await choose(pilot, calc, gpu=gpu, model=model)
        needed = int(calc.figures["needed"].result.value)
        total = memory_total(calc)
        assert (needed <= 1) is fits
        assert (total.fraction <= 1) is fits, (total, needed)
        assert total.style == ("green" if fits else "red")
        overhead = next(r for r in calc.query_one("#calc-memory").rows if r.label.startswith("+"))
        assert overhead.label == "+20% extra"


async def test_plot_marks_the_batches_that_do_not_fit(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        calc = await open_calc(pilot)
        await choose(pilot, calc, gpu="h100-sxm", model="llama-2-13b")
        rows = {r.label: r for r in calc.query_one("#calc-plot").rows}
        assert not rows["batch 1"].value.endswith("✘") and rows["batch 1"].style == ""
        assert rows["batch 256"].value.endswith("✘") and rows["batch 256"].style == "red"
        assert "no fit" in calc.query_one("#calc-plot").border_subtitle
        # On enough GPUs every row fits and the mark goes.
        await choose(pilot, calc, gpus="64")
        assert not any(r.value.endswith("✘") for r in calc.query_one("#calc-plot").rows)
        assert "no fit" not in calc.query_one("#calc-plot").border_subtitle


async def test_one_gpu_is_singular(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        calc = await open_calc(pilot)
        await choose(pilot, calc, gpu="h200-sxm", model="llama-2-7b")
        table = calc.query_one("#calc-figures", DataTable)
        assert table.get_row("needed")[1] == "1 GPU"
        await choose(pilot, calc, model="llama-2-70b")
        assert table.get_row("needed")[1] == "2 GPUs"


async def test_at_80x24_the_plot_and_memory_are_on_screen_and_the_gpu_list_is_one_line_each(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        calc = await open_calc(pilot)
        for panel in ("#calc-plot", "#calc-memory", "#calc-figures"):
            region = calc.query_one(panel).region
            assert region.bottom <= 23, (panel, region)  # above the footer, no scrolling
        notes = [str(c) for c in calc.query_one("#calc-figures", DataTable).get_column_at(2)]
        assert "compute-bound" in notes
        labels = [str(label) for label, _v in calc.query_one("#c-gpu", Select)._options]
        assert all(len(label) <= 32 for label in labels) and not any(l.startswith("NVIDIA") for l in labels)
