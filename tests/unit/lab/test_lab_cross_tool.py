"""Two tools in one lab never disagree: every listed command of every lab, for several seeds, is run and the
values more than one tool prints (driver and CUDA versions, GPU UUIDs, PCI bus ids, GPU counts) are checked
against the one cluster model the case built (DESIGN.md, the lab paragraph: no renderer holds a fact of its own).

The patterns are the tools' own spellings: nvidia-smi's banner and ``-q`` (``Driver Version``, ``CUDA Version``),
GPU Feature Discovery's ``nvidia.com/cuda.*`` labels, the driver container's image tag, NVRM's banner
(``Kernel Module  535.104.12``), DCGM's and the exporter's ``UUID``/``pci_bus_id``, dmesg's ``PCI:0000:1b:00``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from study.lab.case import build_case
from study.lab.catalog import bus_id
from study.lab.common import NotSimulated, gpu_uuid
from study.lab.load import all_labs
from study.lab.shell import run_line

SEEDS = range(5)
LABS = all_labs()

DRIVER = [re.compile(p) for p in (r"Driver Version:\s*(\d+\.\d+(?:\.\d+)?)",
                                  r"nvidia\.com/cuda\.driver-version\.full=(\S+)",
                                  r"nvcr\.io/nvidia/driver:(\d+\.\d+\.\d+)-",
                                  r"Kernel Module\s+(\d+\.\d+\.\d+)")]
CUDA = [re.compile(p) for p in (r"CUDA Version:\s*(\d+\.\d+)", r"nvidia\.com/cuda\.runtime-version\.full=(\S+)")]
UUID = re.compile(r"\bGPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
BUS = re.compile(r"\b0{4,8}:([0-9A-Fa-f]{2}):00(?:\.0)?\b")


def outputs(case: Any) -> dict[str, str]:
    out = {}
    for cmd in case.lab.commands:
        try:
            out[cmd] = run_line(case.system, cmd)
        except NotSimulated:  # the shell prints it; the listed commands are covered elsewhere
            continue
    return out


def found(patterns: list[re.Pattern[str]], text: str) -> set[str]:
    return {m.group(1) for p in patterns for m in p.finditer(text)}


CASES = [pytest.param(lab, seed, id=f"{lab.id}-{seed}") for lab in LABS for seed in SEEDS]


@pytest.mark.parametrize(("lab", "seed"), CASES)
def test_every_tool_shows_the_models_driver_cuda_uuids_and_bus_ids(lab: Any, seed: int) -> None:
    case = build_case(lab, seed)
    host = case.system.host
    shown = outputs(case)
    for cmd, text in shown.items():
        assert found(DRIVER, text) <= {host.driver}, f"{cmd}: driver is {host.driver}"
        assert found(CUDA, text) <= {host.cuda}, f"{cmd}: CUDA is {host.cuda}"
        uuids = {g.uuid or gpu_uuid(host.name, g.index) for g in host.gpu_list}
        assert set(UUID.findall(text)) <= uuids, f"{cmd}: a GPU UUID the host does not have"
        buses = {bus_id(g.index)[9:11].upper() for g in host.gpu_list}
        # NICs and switches have bus ids too; only a line naming a GPU is held to the GPUs' buses.
        for line in text.splitlines():
            if re.search(r"NVRM: Xid|GPU 0{4,8}:|pci_bus_id=|PCI Bus ID|^GPU 0", line):
                assert {b.upper() for b in BUS.findall(line)} <= buses, f"{cmd}: {line}"


@pytest.mark.parametrize(("lab", "seed"), CASES)
def test_gfd_gpu_count_and_capacity_agree_with_the_host(lab: Any, seed: int) -> None:
    case = build_case(lab, seed)
    host = case.system.host
    k8s = case.system.kubernetes
    if k8s is None:
        return
    for node in k8s.nodes:
        if node.name != host.name or not node.gpu_model:
            continue
        # The host's node: GFD counts the GPUs nvidia-smi lists (a lost GPU is still in the count GFD took at
        # start), and its model is the host's.
        assert node.gpu_model == host.model
        assert node.gpu_count == host.gpu_count


def test_slurm_reason_is_what_the_drained_nodes_own_tools_show() -> None:
    """slurm-node-drained's Reason names an Xid on one GPU; on that node dmesg has the Xid line at that GPU's
    bus id and nvidia-smi has lost that GPU, for every seed."""
    lab = next(x for x in LABS if x.id == "slurm-node-drained")
    for seed in SEEDS:
        case = build_case(lab, seed)
        assert case.system.slurm is not None
        drained = next(n for n in case.system.slurm.nodes if n.state == "drain")
        assert drained.name == case.system.host.name  # the learner's shell is on the drained node
        m = re.search(r"Xid (\d+) on GPU (\d+)", drained.reason or "")
        assert m, drained.reason
        code, gpu = int(m.group(1)), int(m.group(2))
        dmesg = run_line(case.system, "dmesg | grep -i xid")
        assert f"PCI:{bus_id(gpu)[4:-2].lower()}): {code}," in dmesg
        smi = run_line(case.system, "nvidia-smi")
        assert f"GPU {bus_id(gpu)[4:]}: GPU is lost" in smi
