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


# -- What a learner types is answered, never a crash (explore session) -------------------------------------


def figures_text(calc: Any) -> str:
    table = calc.query_one("#calc-figures", DataTable)
    return "\n".join(" | ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count))


@pytest.mark.parametrize("field", ["batch", "seq", "gpus"])
@pytest.mark.parametrize("typed", [pytest.param("9" * 400, id="400-digits"), "-1", "0"])
async def test_a_count_that_is_not_a_whole_number_from_1_is_refused_with_a_message(make_app, field, typed):
    # 400 nines read as a float are infinity, which int() cannot take: the app used to die with OverflowError.
    # -1 GPUs drew negative memory bars ("-138 GB", in green); 0 was quietly read as 1.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        calc = await open_calc(pilot)
        await choose(pilot, calc, **{field: typed})
        assert app.is_running and app.screen is calc
        status = str(calc.query_one("#calc-status").render())
        assert "a whole number from 1 to" in status, status
        assert all(r.fraction >= 0 for r in calc.query_one("#calc-memory").rows)
        await pilot.press("v")  # the plot toggle reads the inputs again
        await settle(pilot, app)
        assert app.is_running and app.screen is calc
        await choose(pilot, calc, **{field: "2"})
        assert str(calc.query_one("#calc-status").render()) == ""


@pytest.mark.parametrize("field", ["mem", "bw"])
@pytest.mark.parametrize("typed", ["[/]", "[b]80 GB"])
async def test_typed_text_in_an_error_is_shown_as_typed_not_read_as_markup(make_app, field, typed):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        calc = await open_calc(pilot)
        await choose(pilot, calc, **{field: typed})
        assert app.is_running and app.screen is calc
        row = "needed" if field == "mem" else "tps"
        assert typed in figures_text(calc)
        table = calc.query_one("#calc-figures", DataTable)
        table.move_cursor(row=table.get_row_index(row))
        await settle(pilot, app)
        assert typed in str(calc.query_one("#calc-derivation").render())
        if field == "bw":
            assert typed in str(calc.query_one("#calc-plot").border_title)


async def test_zero_gpu_memory_is_the_calculators_error_not_a_crash(make_app):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        calc = await open_calc(pilot)
        await choose(pilot, calc, mem="0 GB")
        assert app.is_running and app.screen is calc
        assert calc.figures["needed"].result is None and "memory" in calc.figures["needed"].error
        rows = calc.query_one("#calc-memory").rows
        assert rows and all(0 <= r.fraction < float("inf") for r in rows)
