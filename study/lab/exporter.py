"""``curl localhost:9400/metrics``: dcgm-exporter's Prometheus text.

The metric list, order, ``# HELP`` wording and types are dcgm-exporter's ``etc/default-counters.csv`` at
its 4.5.3-4.8.2 release (NVIDIA/dcgm-exporter tag ``4.5.3-4.8.2``, whose README output is
``dcgm-exporter_metrics_readme_1.txt``: ``Memory temperature (in C).``) for the fields this lab simulates,
plus ``DCGM_FI_PROF_SM_ACTIVE``, which that file ships commented out: the lab's exporter runs with it enabled.
Labels and their order follow ``dcgm-exporter_metrics_h100_1.txt`` (GPU Operator, driver 580.105.08:
``gpu, UUID, pci_bus_id, device, modelName, Hostname, DCGM_FI_DRIVER_VERSION``, then ``container, namespace,
pod, pod_uid`` on a GPU a pod holds; that release still spells ``Hostname``, renamed ``hostname`` after it);
values as ``dcgm-exporter_metrics_h100_2.txt`` prints them (power
with 6 decimals, idle SM clock 345). The GKE-managed exporter of that second sample words some HELP lines
its own way (``Memory temperature for the device.``); the upstream wording is the one GPU Operator users see.
Clocks and free memory agree with the lab's ``nvidia-smi -q`` (idle SM clock, 454 MiB reserved on H100).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS, bus_id
from study.lab.common import gpu_uuid

if TYPE_CHECKING:
    from collections.abc import Callable

    from study.lab.catalog import GpuModel
    from study.lab.schema import Gpu, Host

UPTIME_S = 1_905_947  # seconds since the labs' boot (kernel.BOOTED to the Xid time), for the energy counter


def _reserved(host: Host) -> int:
    return 454 if host.model == "h100-sxm" else 0  # as nvidia_smi_q._memory reports FB Reserved


def _sm_clock(g: Gpu, m: GpuModel) -> str:
    return str(g.sm_clock_mhz or (345 if "idle" in g.clocks_event else m.max_sm_mhz))


METRICS: list[tuple[str, str, str, Callable[[Gpu, GpuModel, Host], str]]] = [
    ("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).", lambda g, m, h: _sm_clock(g, m)),
    ("DCGM_FI_DEV_MEM_CLOCK", "gauge", "Memory clock frequency (in MHz).",
     lambda g, m, h: str(g.mem_clock_mhz or m.max_mem_mhz)),
    ("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature (in C).", lambda g, m, h: str(g.mem_temp_c)),
    ("DCGM_FI_DEV_GPU_TEMP", "gauge", "GPU temperature (in C).", lambda g, m, h: str(g.temp_c)),
    ("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power draw (in W).", lambda g, m, h: f"{g.power_w:.6f}"),
    ("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "counter", "Total energy consumption since boot (in mJ).",
     lambda g, m, h: str(int(g.power_w * 1000 * UPTIME_S))),
    ("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "counter", "Total number of PCIe retries.", lambda g, m, h: "0"),
    ("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).", lambda g, m, h: str(g.util_pct)),
    ("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).", lambda g, m, h: str(g.mem_util_pct)),
    ("DCGM_FI_DEV_ENC_UTIL", "gauge", "Encoder utilization (in %).", lambda g, m, h: "0"),
    ("DCGM_FI_DEV_DEC_UTIL", "gauge", "Decoder utilization (in %).", lambda g, m, h: "0"),
    ("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.",
     lambda g, m, h: str(next((x.code for x in reversed(h.xids) if x.gpu == g.index), 0))),
    ("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).",
     lambda g, m, h: str(max(m.memory_mib - _reserved(h) - g.mem_used_mib, 0))),
    ("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", lambda g, m, h: str(g.mem_used_mib)),
    ("DCGM_FI_DEV_FB_RESERVED", "gauge", "Framebuffer memory reserved (in MiB).", lambda g, m, h: str(_reserved(h))),
    ("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for uncorrectable errors",
     lambda g, m, h: str(g.remap.uncorrectable)),
    ("DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "counter", "Number of remapped rows for correctable errors",
     lambda g, m, h: str(g.remap.correctable)),
    ("DCGM_FI_DEV_ROW_REMAP_FAILURE", "gauge", "Whether remapping of rows has failed",
     lambda g, m, h: "1" if g.remap.failure else "0"),
    ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active.",
     lambda g, m, h: f"{min(g.util_pct / 100, 1):.6f}"),
    ("DCGM_FI_PROF_SM_ACTIVE", "gauge", "The ratio of cycles an SM has at least 1 warp assigned.",
     lambda g, m, h: f"{g.sm_active:.6f}"),
]


def _labels(host: Host, g: Gpu, name: str) -> str:
    base = (f'gpu="{g.index}",UUID="{g.uuid or gpu_uuid(host.name, g.index)}",pci_bus_id="{bus_id(g.index)}",'
            f'device="nvidia{g.index}",modelName="{name}",Hostname="{host.name}",DCGM_FI_DRIVER_VERSION="{host.driver}"')
    if g.processes:
        base += f',container="main",namespace="default",pod="{g.processes[0].name.rsplit("/", 1)[-1]}-{g.index}",pod_uid=""'
    return base


def metrics(host: Host) -> str:
    m = MODELS[host.model]
    out = []
    gpus = [g for g in host.gpu_list if not g.lost]
    for metric, kind, help_, fn in METRICS:
        out += [f"# HELP {metric} {help_}", f"# TYPE {metric} {kind}"]
        out += [f"{metric}{{{_labels(host, g, m.name)}}} {fn(g, m, host)}" for g in gpus]
    return "\n".join(out)


def run(host: Host, argv: list[str]) -> str:
    urls = [a for a in argv if not a.startswith("-")]
    flags = [a for a in argv if a.startswith("-")]
    if len(urls) == 1 and set(flags) <= {"-s", "--silent"} and urls[0].rstrip("/") in (
            "localhost:9400/metrics", "http://localhost:9400/metrics", "127.0.0.1:9400/metrics",
            "http://127.0.0.1:9400/metrics"):
        return metrics(host)
    if urls:
        return f"curl: (7) Failed to connect to {urls[0].split('/')[0].split(':')[0]} port 80 after 0 ms: Couldn't connect to server"
    return "curl: try 'curl --help' or 'curl --manual' for more information"
