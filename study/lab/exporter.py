"""``curl localhost:9400/metrics``: dcgm-exporter's Prometheus text.

Follows ``dcgm-exporter_metrics_h100_2.txt`` (``# HELP``/``# TYPE`` lines and their wording, label order
``gpu, UUID, pci_bus_id, device, modelName, Hostname``) and ``dcgm-exporter_metrics_h100_1.txt`` (pod
attribution labels ``container, namespace, pod`` on a GPU in use; power with 6 decimals). The default
counters of dcgm-exporter 3.x (``default-counters.csv``) add the framebuffer, XID and profiling metrics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS, bus_id
from study.lab.common import gpu_uuid

if TYPE_CHECKING:
    from study.lab.schema import Gpu, Host

METRICS = [
    ("DCGM_FI_DEV_SM_CLOCK", "gauge", "SM clock frequency (in MHz).", lambda g, m, h: str(g.sm_clock_mhz or (345 if g.util_pct == 0 else m.max_sm_mhz))),
    ("DCGM_FI_DEV_MEMORY_TEMP", "gauge", "Memory temperature for the device.", lambda g, m, h: str(g.mem_temp_c)),
    ("DCGM_FI_DEV_GPU_TEMP", "gauge", "Current temperature readings for the device in degrees C.", lambda g, m, h: str(g.temp_c)),
    ("DCGM_FI_DEV_POWER_USAGE", "gauge", "Power usage for the device in Watts.", lambda g, m, h: f"{g.power_w:.6f}"),
    ("DCGM_FI_DEV_GPU_UTIL", "gauge", "GPU utilization (in %).", lambda g, m, h: str(g.util_pct)),
    ("DCGM_FI_DEV_MEM_COPY_UTIL", "gauge", "Memory utilization (in %).", lambda g, m, h: str(g.mem_util_pct)),
    ("DCGM_FI_DEV_FB_FREE", "gauge", "Framebuffer memory free (in MiB).", lambda g, m, h: str(m.memory_mib - g.mem_used_mib)),
    ("DCGM_FI_DEV_FB_USED", "gauge", "Framebuffer memory used (in MiB).", lambda g, m, h: str(g.mem_used_mib)),
    ("DCGM_FI_DEV_XID_ERRORS", "gauge", "Value of the last XID error encountered.",
     lambda g, m, h: str(next((x.code for x in reversed(h.xids) if x.gpu == g.index), 0))),
    ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gauge", "Ratio of time the graphics engine is active.",
     lambda g, m, h: f"{min(g.util_pct / 100, 1):.6f}"),
    ("DCGM_FI_PROF_SM_ACTIVE", "gauge", "The ratio of cycles an SM has at least 1 warp assigned.", lambda g, m, h: f"{g.sm_active:.6f}"),
]


def _labels(host: Host, g: Gpu, name: str) -> str:
    base = (f'gpu="{g.index}",UUID="{g.uuid or gpu_uuid(host.name, g.index)}",pci_bus_id="{bus_id(g.index)}",'
            f'device="nvidia{g.index}",modelName="{name}",Hostname="{host.name}"')
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
