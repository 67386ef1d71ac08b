"""``nvidia-smi`` (default table, with processes and MIG devices), ``-L``, ``--query-gpu``, ``topo -m``.

Layout follows driver R535 (89 columns), as in these real samples in ``reference/tool_outputs/``:
``nvidia-smi_default_h100_4.txt`` (NVIDIA-SMI 535.309.01, H100 80GB HBM3; header, GPU rows, 87-column
Processes box), ``nvidia-smi_default_mig_h100_1.txt`` (535.104.12, DGX H100 with MIG: ``On``/``N/A`` cells
and the MIG devices table; with no instances its heads stay over ``No MIG devices found``, as in
``nvidia-smi_default_mig_a100_old-r450_1.txt``), ``nvidia-smi_-L_mig_h100_1.txt`` (``-L`` with MIG children),
``nvidia-smi_--query-gpu_csv_h100_1.txt`` (535.309.01, CSV header joined by ``, ``) and
``nvidia-smi_topo_-m_h100_1.txt`` (535.x, TAB-separated matrix and Legend; NIC rows and the NIC Legend as in
``nvidia-smi_topo_-m_nics_h100_1.txt``, 580.126.20 on 8x H100 with mlx5 NICs). Process rows follow a real
530.41.03 Processes box (the same 87-column box R535 prints; R570+ widens PID, see INDEX.md): PID in 10,
Type in 7, the name in 38 (cut on the left with ``...``), memory right-aligned in 12. That box came from a
public README's nvidia-smi output (GTX 1070), quoted in the golden test. A GPU without MIG (L40S) shows
``N/A`` under ``MIG M.`` as in ``nvidia-smi_default_l40s_1.txt`` (550.127.05); ``-i`` naming no GPU prints
``No devices were found`` as in ``nvidia-smi_-i_missing_t4_r530_1.txt`` (530.30.02, the 89-column layout).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS, GpuModel, bus_id
from study.lab.common import NotSimulated, gpu_uuid, uuid_for
from study.lab.nvidia_smi_q import NO_MEMORY_SENSOR, RESERVED_MIB

if TYPE_CHECKING:
    from study.lab.schema import Gpu, Host

W = 89
NO_DEVICES = "No devices were found"
RULE = "+" + "-" * 41 + "+" + "-" * 22 + "+" + "-" * 22 + "+"
BOX = "+" + "-" * (W - 2) + "+"


def model_of(host: Host) -> GpuModel:
    return MODELS[host.model]


def _cap(gpu: Gpu, model: GpuModel) -> int:
    return gpu.power_cap_w or model.power_cap_w


def _row(a: str, b: str, c: str) -> str:
    return f"|{a}|{b}|{c}|"


def _pad(text: str) -> str:
    return f"| {text:<{W - 4}} |"


def _mig_mode(g: Gpu, model: GpuModel) -> str:
    # A GPU without MIG (L40S) shows N/A, not Disabled (nvidia-smi_default_l40s_1.txt).
    if not model.mig:
        return "N/A"
    return "Enabled" if g.mig_enabled else "Disabled"


def default_table(host: Host, index: int | None = None) -> str:
    """The summary table; with ``index`` (``-i N``) only that GPU, its MIG devices and its processes, or
    ``No devices were found`` when there is no such GPU (nvidia-smi_-i_missing_t4_r530_1.txt)."""
    model = model_of(host)
    if index is not None and all(g.index != index for g in host.gpu_list):
        return NO_DEVICES
    out = [f"{host.date:<31}", BOX,
           f"| NVIDIA-SMI {host.driver:<23}Driver Version: {host.driver:<13}CUDA Version: {host.cuda:<9}|",
           "|" + "-" * 41 + "+" + "-" * 22 + "+" + "-" * 22 + "+",
           "| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |",
           "| Fan  Temp   Perf          Pwr:Usage/Cap |         Memory-Usage | GPU-Util  Compute M. |",
           "|                                         |                      |               MIG M. |",
           "|" + "=" * 41 + "+" + "=" * 22 + "+" + "=" * 22 + "|"]
    gpus = [g for g in host.gpu_list if index is None or g.index == index]
    for g in gpus:
        pm = "On" if g.persistence else "Off"
        ecc = "On" if g.mig_enabled else str(g.ecc.dram_uncorrectable + g.ecc.sram_uncorrectable)
        mem = "N/A" if g.mig_enabled else f"{g.mem_used_mib}MiB / {model.memory_mib}MiB"
        util = "N/A" if g.mig_enabled else f"{g.util_pct}%"
        power = f"{round(g.power_w)}W / {_cap(g, model)}W"
        out.append(_row(f"{g.index:>4}  {model.name[:31]:<31}{pm:<3} ", f" {bus_id(g.index)} Off ", f"{ecc:>21} "))
        out.append(_row(f" N/A{str(g.temp_c) + 'C':>6}{g.perf:>6}{power:>24} ", f"{mem:>21} ",
                        f"{util:>8}{'Default':>13} "))
        out.append(_row(" " * 41, " " * 22, f"{_mig_mode(g, model):>21} "))
        out.append(RULE)
    out.append(" " * W)
    if any(g.mig_enabled for g in gpus):
        out += _mig_devices(host, [g for g in gpus if g.mig_enabled])
        out.append("")
    out += _processes(gpus)
    lost = [g for g in gpus if g.lost]
    if lost:
        # A GPU that fell off the bus (Xid 79) makes nvidia-smi stop at the first handle it cannot get.
        return lost_message(lost[0])
    return "\n".join(out)


def lost_message(g: Gpu) -> str:
    """What nvidia-smi prints, and then stops, when a GPU no longer answers on the bus, with the two spaces
    after "lost." (nvidia-smi_gpu-lost_1.txt; markdown copies such as JosephKJ/OWOD#81 collapse them)."""
    return (f"Unable to determine the device handle for GPU {bus_id(g.index)[4:]}: GPU is lost.  "
            "Reboot the system to recover this GPU")


MIG_RULE = "+------------------+--------------------------------+-----------+-----------------------+"
_BAR1 = {1: 16383, 2: 32767, 3: 65535, 4: 65535, 7: 131071}


def _mig_devices(host: Host, gpus: list[Gpu]) -> list[str]:
    model = model_of(host)
    out = [BOX, _pad("MIG devices:"), MIG_RULE,
           "| GPU  GI  CI  MIG |                   Memory-Usage |        Vol|      Shared           |",
           "|      ID  ID  Dev |                     BAR1-Usage | SM     Unc| CE ENC DEC OFA JPG    |",
           "|                  |                                |        ECC|                       |",
           "|==================+================================+===========+=======================|"]
    any_inst = False
    for g in gpus:
        for dev, inst in enumerate(sorted(g.mig, key=lambda i: i.gi)):
            prof = model.profile(inst.profile)
            if prof is None:
                continue
            any_inst = True
            mem = f"{inst.used_mib}MiB / {prof.memory_mib:>5}MiB"
            bar1 = f"0MiB / {_BAR1.get(prof.compute, 65535):>5}MiB"
            out.append(f"|{g.index:>3}{inst.gi:>5}{inst.ci:>4}{dev:>4}  |{mem:>30}  | {prof.sm:<3}{0:>6} |"
                       f"{prof.ce:>3}{prof.enc:>4}{prof.dec:>5}{prof.ofa:>5}{prof.jpeg:>5} |")
            out.append(f"|                  |{bar1:>30}  |           |                       |")
            out.append(MIG_RULE)
    if not any_inst:
        # The column heads stay; one line under them, and the box closes (R450 sample: same rows at 79).
        out += [_pad(" No MIG devices found"), BOX]
    return out


def _processes(gpus: list[Gpu]) -> list[str]:
    out = [BOX, _pad("Processes:"),
           "|  GPU   GI   CI        PID   Type   Process name                            GPU Memory |",
           "|        ID   ID                                                             Usage      |",
           "|" + "=" * (W - 2) + "|"]
    rows = [(g, p) for g in gpus for p in g.processes]
    if not rows:
        out.append(_pad(" No running processes found"))
    for g, p in rows:
        # A real 530.41.03 box (same layout as R535) gives the name 38 columns, cut on the left with "...".
        name = p.name if len(p.name) <= 38 else "..." + p.name[-35:]
        gi = "N/A" if p.gi is None else str(p.gi)
        ci = "N/A" if p.ci is None else str(p.ci)
        out.append(f"|{g.index:>5}   {gi:>3}  {ci:>3}{p.pid:>10}{p.type:>7}   {name:<38}{str(p.mem_mib) + 'MiB':>12} |")
    out.append(BOX)
    return out


def list_gpus(host: Host) -> str:
    """``nvidia-smi -L``: ``GPU n: name (UUID: GPU-…)``, MIG children indented (R470+ form)."""
    model = model_of(host)
    out = []
    for g in host.gpu_list:
        if g.lost:
            continue
        out.append(f"GPU {g.index}: {model.name} (UUID: {g.uuid or gpu_uuid(host.name, g.index)})")
        for dev, inst in enumerate(sorted(g.mig, key=lambda i: i.gi)):
            out.append(f"  MIG {inst.profile:<12}Device {dev:>2}: (UUID: MIG-{uuid_for(host.name, g.index, inst.gi)})")
    return "\n".join(out)


# --query-gpu fields: name -> (header unit, value function). Units as nvidia-smi --help-query-gpu lists them.
def _fields(host: Host) -> dict[str, tuple[str, object]]:
    m = model_of(host)
    return {
        "index": ("", lambda g: str(g.index)),
        "name": ("", lambda g: m.name),
        "uuid": ("", lambda g: g.uuid or gpu_uuid(host.name, g.index)),
        "pci.bus_id": ("", lambda g: bus_id(g.index)),
        "driver_version": ("", lambda g: host.driver),
        "persistence_mode": ("", lambda g: "Enabled" if g.persistence else "Disabled"),
        "pstate": ("", lambda g: g.perf),
        "temperature.gpu": ("", lambda g: str(g.temp_c)),
        "temperature.memory": ("", lambda g: "N/A" if host.model in NO_MEMORY_SENSOR else str(g.mem_temp_c)),
        "utilization.gpu": ("%", lambda g: "[N/A]" if g.mig_enabled else str(g.util_pct)),
        "utilization.memory": ("%", lambda g: "[N/A]" if g.mig_enabled else str(g.mem_util_pct)),
        "memory.total": ("MiB", lambda g: str(m.memory_mib)),
        "memory.used": ("MiB", lambda g: str(g.mem_used_mib)),
        # Free leaves out what the driver reserves, as -q's FB Memory Usage does.
        "memory.reserved": ("MiB", lambda g: str(RESERVED_MIB.get(host.model, 0))),
        "memory.free": ("MiB", lambda g: str(max(m.memory_mib - RESERVED_MIB.get(host.model, 0) - g.mem_used_mib, 0))),
        "power.draw": ("W", lambda g: f"{g.power_w:.2f}"),
        "power.limit": ("W", lambda g: f"{_cap(g, m):.2f}"),
        "power.max_limit": ("W", lambda g: f"{m.power_cap_w:.2f}"),
        "clocks.sm": ("MHz", lambda g: str(g.sm_clock_mhz or m.max_sm_mhz)),
        "clocks.mem": ("MHz", lambda g: str(g.mem_clock_mhz or m.max_mem_mhz)),
        "clocks.max.sm": ("MHz", lambda g: str(m.max_sm_mhz)),
        "mig.mode.current": ("", lambda g: "[N/A]" if not m.mig else _mig_mode(g, m)),
        "ecc.errors.uncorrected.volatile.total": ("", lambda g: str(g.ecc.dram_uncorrectable + g.ecc.sram_uncorrectable)),
        "ecc.errors.corrected.volatile.total": ("", lambda g: str(g.ecc.dram_correctable + g.ecc.sram_correctable)),
        "clocks_throttle_reasons.active": ("", lambda g: _reasons_mask(g)),
        "clocks_throttle_reasons.hw_thermal_slowdown": ("", lambda g: _active(g, "hw_thermal")),
        "clocks_throttle_reasons.sw_thermal_slowdown": ("", lambda g: _active(g, "sw_thermal")),
        "clocks_throttle_reasons.sw_power_cap": ("", lambda g: _active(g, "sw_power_cap")),
        "clocks_throttle_reasons.hw_slowdown": ("", lambda g: _active(g, "hw_slowdown")),
    }


# Bit values of nvmlClocksEventReasons (NVML API reference), printed as a hex mask.
_MASK = {"idle": 0x1, "applications_clocks": 0x2, "sw_power_cap": 0x4, "hw_slowdown": 0x8, "sync_boost": 0x10,
         "sw_thermal": 0x20, "hw_thermal": 0x40, "hw_power_brake": 0x80, "display_clock": 0x100}


# HW Slowdown is the umbrella of the two hardware causes, as -q nests them under it (nvidia_smi_q).
_UNDER_HW_SLOWDOWN = {"hw_thermal", "hw_power_brake"}


def _reasons(g: Gpu) -> set[str]:
    r: set[str] = set(g.clocks_event)
    return r | {"hw_slowdown"} if r & _UNDER_HW_SLOWDOWN else r


def _reasons_mask(g: Gpu) -> str:
    return f"0x{sum(_MASK[r] for r in _reasons(g)):016X}"


def _active(g: Gpu, reason: str) -> str:
    return "Active" if reason in _reasons(g) else "Not Active"


def query_gpu(host: Host, fields: str, fmt: str, ids: list[int] | None) -> str:
    opts = [o.strip() for o in fmt.split(",")]
    if not opts or opts[0] != "csv" or any(o not in ("csv", "noheader", "nounits") for o in opts):
        raise NotSimulated(f"not simulated in this lab: --format={fmt} (use csv, csv,noheader or csv,noheader,nounits)")
    table = _fields(host)
    names = [f.strip() for f in fields.split(",") if f.strip()]
    bad = [n for n in names if n not in table]
    if bad:
        # nvidia-smi's own wording for an unknown field.
        return f'Field "{bad[0]}" is not a valid field to query.\n\n'
    if ids is not None and not any(g.index in ids for g in host.gpu_list):
        return NO_DEVICES
    lines = []
    if "noheader" not in opts:
        lines.append(", ".join(f"{n} [{table[n][0]}]" if table[n][0] else n for n in names))
    for g in host.gpu_list:
        if g.lost or (ids is not None and g.index not in ids):
            continue
        cells = []
        for n in names:
            unit, fn = table[n]
            value = fn(g)  # type: ignore[operator]
            cells.append(value if not unit or "nounits" in opts or value.startswith("[") else f"{value} {unit}")
        lines.append(", ".join(cells))
    return "\n".join(lines)


LEGEND = """Legend:

  X    = Self
  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)
  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node
  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)
  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)
  PIX  = Connection traversing at most a single PCIe bridge
  NV#  = Connection traversing a bonded set of # NVLinks"""


def _numa(host: Host, i: int) -> int:
    return 0 if i < max(1, host.gpu_count // 2) else 1


def _pcie_link(host: Host, a: int, b: int) -> str:
    if a // 2 == b // 2:
        return "PIX"
    return "NODE" if _numa(host, a) == _numa(host, b) else "SYS"


def topo(host: Host) -> str:
    """``nvidia-smi topo -m``: NV18 between every pair behind NVSwitch (H100 SXM); on a PCIe system, PIX for
    GPUs behind one switch, NODE in one NUMA node, SYS across, and ``NV#`` for bridged pairs."""
    n = host.gpu_count
    nics = [p for p in host.ib if p.link_layer == "InfiniBand"]
    labels = [f"GPU{i}" for i in range(n)] + [f"NIC{k}" for k in range(len(nics))]
    half = max(1, n // 2)
    cpus = ("0-55,112-167", "56-111,168-223")
    bonded = {tuple(sorted(p)) for p in host.nvlink_pairs}

    def link(a: int, b: int) -> str:
        if a == b:
            return " X "
        if a < n and b < n:
            if host.topology == "nvswitch":
                return "NV18"
            if tuple(sorted((a, b))) in bonded:
                return "NV12"
            return _pcie_link(host, a, b)
        ga = a if a < n else nics[a - n].near_gpu
        gb = b if b < n else nics[b - n].near_gpu
        if ga is None or gb is None:
            return "SYS"
        if ga == gb:
            return "PIX"
        return _pcie_link(host, ga, gb) if _pcie_link(host, ga, gb) != "PIX" else "PXB"

    out = ["\t" + "\t".join(labels) + "\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID"]
    for a, name in enumerate(labels):
        cells = [link(a, b) for b in range(len(labels))]
        # A NIC row leaves the CPU Affinity, NUMA Affinity and GPU NUMA ID cells empty: four TABs.
        tail = f"\t{cpus[0 if a < half else 1]}\t{0 if a < half else 1}\t\tN/A" if a < n else "\t\t\t\t"
        out.append(name + "\t" + "\t".join(cells) + tail)
    out += ["", LEGEND]
    if nics:
        out += ["", "NIC Legend:", ""] + [f"  NIC{k}: {p.ca}" for k, p in enumerate(nics)]
    return "\n".join(out) + "\n"
