"""Energy, emissions and cost of a job."""

from __future__ import annotations

from typing import Any

from study.calc.specs import GPU
from study.calc.formulas._common import gpu_source, n, q
from study.calc.formulas.compute import duration_seconds
from study.calc.registry import CalcError, Step, formula

_LLAMA2 = "Touvron et al. 2023 (Llama 2, arXiv:2307.09288), Table 2 and section 2.2.1"


def _gpu_hours(fname: str, gpu_hours: Any, gpus: Any, days: Any, hours: Any, duration: Any) -> tuple[Any, list[Step]]:
    if gpu_hours is not None:
        return gpu_hours, []
    d = duration_seconds(fname, days, hours, duration)
    if d is None or gpus is None:
        raise CalcError(f"{fname} needs --gpu-hours, or --gpus with --days/--hours/--duration")
    secs, text = d
    gh = gpus * secs / 3600
    return gh, [Step("GPU-hours", "gpus x hours", f"{n(gpus)} x {text}", f"{n(gh)} GPU-h")]


def _energy(fname: str, gpu_hours: Any, gpus: Any, days: Any, hours: Any, duration: Any, watts: Any,
            gpu: GPU | None, pue: Any) -> tuple[Any, list[Step], dict[str, Any]]:
    gh, steps = _gpu_hours(fname, gpu_hours, gpus, days, hours, duration)
    if watts is None:
        if gpu is None:
            raise CalcError(f"{fname} needs --watts or --gpu (its TDP)")
        watts = gpu.tdp_watts
        wtext = f"{n(watts)} W {gpu_source(gpu, 'TDP')}"
    else:
        wtext = f"{n(watts)} W"
    value = gh * watts * pue
    steps.append(Step("energy", "GPU-hours x watts per GPU x PUE", f"{n(gh)} GPU-h x {wtext} x {n(pue)}", q(value, "Wh")))
    return value, steps, {"gpu_hours": gh, "watts": watts, "pue": pue, "gpu": gpu and gpu.id}


@formula(
    "energy",
    unit="Wh",
    summary="energy of a job: GPU-hours x power per GPU x PUE",
    formula="E = GPU-hours x W x PUE",
    source=_LLAMA2,
    help={"pue": "power usage effectiveness (Llama 2 used 1.1); 1 counts the GPUs only"},
)
def energy(*, gpu_hours: Any = None, gpus: Any = None, days: Any = None, hours: Any = None, duration: Any = None,
           watts: Any = None, gpu: GPU | None = None, pue: Any = 1.0) -> Any:
    """GPU power (TDP unless --watts) over the GPU-hours, times the data centre's PUE. Reproduces Llama 2
    70B: 1,720,320 GPU-h x 400 W x 1.1 = 757 MWh. Source: Touvron et al. 2023, Table 2.
    """
    return _energy("energy", gpu_hours, gpus, days, hours, duration, watts, gpu, pue)


@formula(
    "co2",
    unit="kgCO2e",
    summary="emissions of a job: energy (kWh) x grid carbon intensity (kgCO2e/kWh)",
    formula="CO2 = kWh x intensity",
    source=_LLAMA2 + " (0.385 kgCO2e/kWh)",
)
def co2(*, intensity: Any, energy: Any = None, gpu_hours: Any = None, gpus: Any = None, days: Any = None,
        hours: Any = None, duration: Any = None, watts: Any = None, gpu: GPU | None = None, pue: Any = 1.0) -> Any:
    """Energy in kWh times the grid's carbon intensity. Llama 2 70B: 756.9 MWh at 0.385 kgCO2e/kWh gives
    291.4 tCO2e. Source: Touvron et al. 2023, Table 2.
    """
    if energy is None:
        energy, steps, inputs = _energy("co2", gpu_hours, gpus, days, hours, duration, watts, gpu, pue)
    else:
        steps, inputs = [], {}
    kwh = energy / 1000
    value = kwh * intensity
    steps.append(Step("emissions", "kWh x kgCO2e per kWh", f"{n(kwh)} kWh x {n(intensity)}", q(value, "kgCO2e")))
    inputs.update(energy=energy, intensity=intensity)
    return value, steps, inputs


@formula(
    "cost",
    unit="USD",
    summary="cost of a job: GPU-hours x price per GPU-hour",
    formula="cost = GPU-hours x USD per GPU-hour",
    source="cli99/llm-analysis (cost from GPU-hours); prices are volatile and yours to supply",
)
def cost(*, price: Any, gpu_hours: Any = None, gpus: Any = None, days: Any = None, hours: Any = None,
         duration: Any = None) -> Any:
    """Rental cost. Prices change often: pass the one you were quoted."""
    gh, steps = _gpu_hours("cost", gpu_hours, gpus, days, hours, duration)
    value = gh * price
    steps.append(Step("cost", "GPU-hours x price", f"{n(gh)} GPU-h x {n(price)} USD/GPU-h", q(value, "USD")))
    return value, steps, {"gpu_hours": gh, "price": price}
