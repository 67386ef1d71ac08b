"""Data movement: collectives (ring all-reduce, all-gather), point-to-point transfers, storage I/O."""

from __future__ import annotations

from typing import Any

from study.calc.specs import Link, Model
from study.calc.formulas._common import n, q
from study.calc.formulas.memory import checkpoint_size
from study.calc.registry import CalcError, Step, formula

_NCCL = "NVIDIA nccl-tests doc/PERFORMANCE.md (bus bandwidth factors)"


def _link_bw(fname: str, link: Link | None, bandwidth: Any, direction: str = "one-way") -> tuple[Any, str, list[Step]]:
    if bandwidth is not None:
        return bandwidth, q(bandwidth, "B/s"), []
    if link is None:
        raise CalcError(f"{fname} needs --link or --bandwidth")
    if direction == "both":
        bw = link.bidirectional_bytes_s
        return bw, f"{q(bw, 'B/s')} ({link.name}, both directions)", []
    bw = link.per_direction_bytes_s
    formula_text, substituted = _per_direction_text(link)
    steps = [Step("link rate", formula_text, substituted, f"{q(bw, 'B/s')} per direction")]
    return bw, f"{q(bw, 'B/s')} ({link.name}, per direction)", steps


# PCIe line encoding: 128b/130b for Gen3 to Gen5; Gen6's FLIT mode carries 242 payload bytes of 256.
_PCIE_ENCODING = {6: (242, 256)}


def _per_direction_text(link: Link) -> tuple[str, str]:
    """How one direction's rate follows from the quoted figure, with every number it uses, so a
    bidirectional total (PCIe Gen4 x16's 64 GB/s) never reads as the rate of one direction."""
    import re

    per, both = link.per_direction_bytes_s, link.bidirectional_bytes_s
    rate = re.search(r"(\d+(?:\.\d+)?) GT/s", link.quoted)
    lanes = re.search(r"x(\d+)$", link.id)
    gen = re.search(r"gen(\d+)", link.id)
    if link.kind == "pcie" and rate and lanes and gen:
        gts, width, g = float(rate.group(1)), int(lanes.group(1)), int(gen.group(1))
        num, den = _PCIE_ENCODING.get(g, (128, 130))
        if abs(gts * 1e9 * width * num / den / 8 - per) <= 0.01 * per:
            return ("transfer rate x lanes x encoding / 8 bits (the quoted figure counts both directions)",
                    f"{n(gts)} GT/s x {width} lanes x {num}/{den} / 8 (quoted: {q(both, 'B/s')} both ways, raw)")
    if abs(both / 2 - per) <= 0.01 * per:
        if link.kind in ("infiniband", "ethernet"):
            return ("port rate in bits / 8", f"{n(per * 8 / 1e9)} Gb/s / 8 (quoted: {link.quoted})")
        return ("bidirectional total / 2", f"{q(both, 'B/s')} both directions / 2 (quoted: {link.quoted})")
    return ("one direction of the link", f"{link.name}, quoted {link.quoted}")


def _collective(fname: str, factor_text: str, factor: Any, bytes: Any, gpus: Any, link: Link | None,
                bandwidth: Any, efficiency: Any) -> tuple[Any, list[Step], dict[str, Any]]:
    bw, btext, steps = _link_bw(fname, link, bandwidth)
    value = factor * bytes / (bw * efficiency)
    steps.append(Step(fname.replace("-time", " time"), f"{factor_text} x S / (B x efficiency)",
                      f"{n(factor)} x {q(bytes, 'B')} / ({btext} x {n(efficiency)})", q(value, "s")))
    return value, steps, {"bytes": bytes, "gpus": gpus, "bandwidth": bw, "link": link and link.id,
                          "efficiency": efficiency}


_HELP = {"gpus": "GPUs (ranks) in the ring", "bytes": "message size S per rank (the whole buffer)",
         "bandwidth": "per-direction bandwidth per GPU (overrides the link's)"}


@formula(
    "allreduce-time",
    unit="s",
    summary="ring all-reduce time of S bytes over n GPUs: 2(n-1)/n x S / B",
    formula="2 (n - 1) / n x S / B, B the per-direction bandwidth per GPU",
    source=_NCCL,
    help=_HELP,
)
def allreduce_time(*, bytes: Any, gpus: Any, link: Link | None = None, bandwidth: Any = None,
                   efficiency: Any = 1.0) -> Any:
    """A ring all-reduce sends and receives 2(n-1)/n of the buffer per GPU (reduce-scatter then
    all-gather), so time = 2(n-1)/n x S / B where B is the per-direction bus bandwidth.
    Source: nccl-tests doc/PERFORMANCE.md.
    """
    factor = 2 * (gpus - 1) / gpus
    return _collective("allreduce-time", "2 (n - 1) / n", factor, bytes, gpus, link, bandwidth, efficiency)


@formula(
    "allgather-time",
    unit="s",
    summary="ring all-gather (or reduce-scatter) time: (n-1)/n x S / B",
    formula="(n - 1) / n x S / B, S the gathered (total) size",
    source=_NCCL,
    help={**_HELP, "bytes": "total size S after the gather (n x each rank's piece)"},
)
def allgather_time(*, bytes: Any, gpus: Any, link: Link | None = None, bandwidth: Any = None,
                   efficiency: Any = 1.0) -> Any:
    """Each GPU receives the n-1 pieces it lacks: (n-1)/n of the total. Reduce-scatter moves the same.
    Source: nccl-tests doc/PERFORMANCE.md.
    """
    factor = (gpus - 1) / gpus
    return _collective("allgather-time", "(n - 1) / n", factor, bytes, gpus, link, bandwidth, efficiency)


def _size(fname: str, bytes: Any, model: Model | None, params: Any, dtype: str, optimizer: bool | None) -> tuple[Any, list[Step]]:
    if bytes is not None:
        return bytes, []
    if model is None and params is None:
        raise CalcError(f"{fname} needs --bytes, or --model/--params with --dtype")
    r = checkpoint_size.raw(model=model, params=params, dtype=dtype, optimizer=bool(optimizer))
    return r[0], r[1]


@formula(
    "transfer-time",
    unit="s",
    summary="time to move bytes over a link (one way uses the per-direction rate; Gb/s converted to bytes)",
    formula="S / (B x efficiency)",
    source="Link rates: NVIDIA NVLink, PCI-SIG and InfiniBand Trade Association figures (content/specs/interconnects.yaml)",
)
def transfer_time(*, bytes: Any = None, link: Link | None = None, bandwidth: Any = None,
                  direction: str = "one-way", efficiency: Any = 1.0, model: Model | None = None,
                  params: Any = None, dtype: str = "fp16") -> Any:
    """A one-way copy is limited by one direction of the link: NVLink 4 is quoted at 900 GB/s
    bidirectional, so 450 GB/s each way; a 400 Gb/s NDR port moves 50 GB/s. ``--direction both`` is for
    traffic split evenly over both directions. Without --bytes, the size is the model's weights.
    """
    S, steps = _size("transfer-time", bytes, model, params, dtype, False)
    bw, btext, lsteps = _link_bw("transfer-time", link, bandwidth, direction)
    steps += lsteps
    value = S / (bw * efficiency)
    steps.append(Step("transfer time", "S / (B x efficiency)", f"{q(S, 'B')} / ({btext} x {n(efficiency)})", q(value, "s")))
    return value, steps, {"bytes": S, "bandwidth": bw, "link": link and link.id, "direction": direction,
                          "efficiency": efficiency}


@formula(
    "storage-read-time",
    unit="s",
    summary="time to read data (a dataset shard, model weights) from storage at a given throughput",
    formula="S / (B x efficiency)",
    source="Definition of throughput; NVIDIA GPUDirect Storage design guide for typical figures",
    help={"bandwidth": "storage read throughput (e.g. '10 GB/s')", "gpus": "readers sharing that throughput"},
)
def storage_read_time(*, bandwidth: Any, bytes: Any = None, model: Model | None = None, params: Any = None,
                      dtype: str = "fp16", gpus: Any = 1, efficiency: Any = 1.0) -> Any:
    """Time = size / throughput. When ``gpus`` readers each load the same ``bytes`` through one shared
    pipe, the pipe carries gpus x bytes. Without --bytes, the size is the model's weights.
    """
    S, steps = _size("storage-read-time", bytes, model, params, dtype, False)
    total = S * gpus
    value = total / (bandwidth * efficiency)
    steps.append(Step("read time", "bytes x readers / (throughput x efficiency)",
                      f"{q(S, 'B')} x {n(gpus)} / ({q(bandwidth, 'B/s')} x {n(efficiency)})", q(value, "s")))
    return value, steps, {"bytes": S, "gpus": gpus, "bandwidth": bandwidth, "efficiency": efficiency}


@formula(
    "checkpoint-write-time",
    unit="s",
    summary="time to write a checkpoint (weights + optimizer state by default) at a storage throughput",
    formula="checkpoint size / (B x efficiency)",
    source="Rajbhandari et al. 2020 (ZeRO) for the state size; definition of throughput",
    help={"bandwidth": "aggregate storage write throughput"},
)
def checkpoint_write_time(*, bandwidth: Any, bytes: Any = None, model: Model | None = None, params: Any = None,
                          dtype: str = "bf16", optimizer: bool = True, efficiency: Any = 1.0) -> Any:
    """Checkpoint size (see checkpoint-size: 2 + 12 bytes per parameter with bf16 weights and Adam state)
    divided by the write throughput.
    """
    S, steps = _size("checkpoint-write-time", bytes, model, params, dtype, optimizer)
    value = S / (bandwidth * efficiency)
    steps.append(Step("write time", "size / (throughput x efficiency)",
                      f"{q(S, 'B')} / ({q(bandwidth, 'B/s')} x {n(efficiency)})", q(value, "s")))
    return value, steps, {"bytes": S, "bandwidth": bandwidth, "efficiency": efficiency}
