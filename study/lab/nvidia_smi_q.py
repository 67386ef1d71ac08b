"""``nvidia-smi -q [-i N] [-d GROUP,...]``: the NVSMI LOG, keys padded so `` : `` sits at column 42.

Follows ``nvidia-smi_-q_-d_ECC-PERFORMANCE-TEMPERATURE-POWER_h100_1.txt`` (driver 535.309.01, H100 80GB
HBM3: "Clocks Event Reasons", split SRAM counters, T.Limit temperatures, Power Samples) for those groups,
and ``nvidia-smi_-q_h100_1.txt`` (565.57.01) / ``nvidia-smi_-q_a100_1.txt`` (555.42.02, absolute
Shutdown/Slowdown temperatures on A100) for MEMORY, CLOCK, UTILIZATION and the Remapped Rows block. The
tail of a full ``-q`` (``Compute Mode`` after the memory blocks, no ``Power Samples``, the ``Processes``
block) follows ``nvidia-smi_-q_processes_t4_r530_1.txt`` (530.30.02, the layout generation of R535), and
``-i`` naming no GPU prints ``No devices were found`` (``nvidia-smi_-i_missing_t4_r530_1.txt``).
``-d UTILIZATION`` adds the four sample blocks of ``nvidia-smi_-q_-d_UTILIZATION_r545_1.txt`` (545.29.06),
``-d CLOCK`` the SM/Memory Clock Samples of ``nvidia-smi_-q_-d_PERFORMANCE-CLOCK-POWER-TEMPERATURE_h100_load_1.txt``
(580.126.20, whose keys are padded to 55; R535 pads to 42). L40S
follows ``nvidia-smi_-q_l40s_1.txt`` (550.127.05: ``N/A`` MIG Mode, T.Limit-relative temperatures, no
memory temperature); no R535 L40S sample was found. The full ``-q`` prints a shortened product block
(the real one has ~40 more identity lines) and then every group below, in nvidia-smi's own order.
Sections always come in that order, whatever order ``-d`` names. The output ends with an empty line, as
the real one does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS, bus_id
from study.lab.common import NotSimulated, gpu_uuid

if TYPE_CHECKING:
    from study.lab.schema import Gpu, Host

GROUPS = ("PERFORMANCE", "MEMORY", "COMPUTE", "UTILIZATION", "ECC", "ROW_REMAPPER", "TEMPERATURE", "POWER",
          "CLOCK", "PIDS")
ORDER = GROUPS


def kv(level: int, key: str, value: object | None = None) -> str:
    pad = " " * (4 * level) + key
    return pad if value is None else f"{pad:<42}: {value}"


def _on(flag: bool) -> str:
    return "Active" if flag else "Not Active"


def _performance(g: Gpu, host: Host) -> list[str]:
    r = set(g.clocks_event)
    return [kv(1, "Performance State", g.perf), kv(1, "Clocks Event Reasons"),
            kv(2, "Idle", _on("idle" in r)),
            kv(2, "Applications Clocks Setting", _on("applications_clocks" in r)),
            kv(2, "SW Power Cap", _on("sw_power_cap" in r)),
            kv(2, "HW Slowdown", _on(bool(r & {"hw_slowdown", "hw_thermal", "hw_power_brake"}))),
            kv(3, "HW Thermal Slowdown", _on("hw_thermal" in r)),
            kv(3, "HW Power Brake Slowdown", _on("hw_power_brake" in r)),
            kv(2, "Sync Boost", _on("sync_boost" in r)),
            kv(2, "SW Thermal Slowdown", _on("sw_thermal" in r)),
            kv(2, "Display Clock Setting", _on("display_clock" in r)),
            # Sparse Operation Mode is a Hopper setting; A100 and L40S print N/A (their full -q samples).
            kv(1, "Sparse Operation Mode", "Disabled" if host.model == "h100-sxm" else "N/A")]


# What each model's driver keeps back (FB "Reserved") and its BAR1 aperture, from the full -q samples:
# H100 454 MiB (nvidia-smi_-q_h100_1.txt), A100 763 MiB (_a100_1), L40S 479 MiB and a 64 GiB BAR1 (_l40s_1).
RESERVED_MIB = {"h100-sxm": 454, "a100-sxm4-80gb": 763, "l40s": 479}
_BAR1_MIB = {"l40s": 65536}


def _memory(g: Gpu, host: Host) -> list[str]:
    m = MODELS[host.model]
    reserved = RESERVED_MIB.get(host.model, 0)
    free = m.memory_mib - reserved - g.mem_used_mib
    bar1 = _BAR1_MIB.get(host.model, 131072)
    return [kv(1, "FB Memory Usage"), kv(2, "Total", f"{m.memory_mib} MiB"), kv(2, "Reserved", f"{reserved} MiB"),
            kv(2, "Used", f"{g.mem_used_mib} MiB"), kv(2, "Free", f"{max(free, 0)} MiB"),
            kv(1, "BAR1 Memory Usage"), kv(2, "Total", f"{bar1} MiB"), kv(2, "Used", "1 MiB"),
            kv(2, "Free", f"{bar1 - 1} MiB"),
            kv(1, "Conf Compute Protected Memory Usage"), kv(2, "Total", "0 MiB"), kv(2, "Used", "0 MiB"),
            kv(2, "Free", "0 MiB")]


def _utilization(g: Gpu, host: Host, samples: bool = True) -> list[str]:
    na = g.mig_enabled
    out = [kv(1, "Utilization"), kv(2, "Gpu", "N/A" if na else f"{g.util_pct} %"),
           kv(2, "Memory", "N/A" if na else f"{g.mem_util_pct} %"), kv(2, "Encoder", "0 %"),
           kv(2, "Decoder", "0 %"), kv(2, "JPEG", "0 %"), kv(2, "OFA", "0 %")]
    if samples:
        # Only ``-d UTILIZATION`` adds the sampled Max/Min/Avg blocks (R545 sample); the lab's load is steady.
        for name, pct in (("GPU", g.util_pct), ("Memory", g.mem_util_pct), ("ENC", 0), ("DEC", 0)):
            value = "N/A" if na and name in ("GPU", "Memory") else f"{pct} %"
            out += [kv(1, f"{name} Utilization Samples"), kv(2, "Duration", "11.75 sec"),
                    kv(2, "Number of Samples", 71), kv(2, "Max", value), kv(2, "Min", value), kv(2, "Avg", value)]
    return out


def _ecc(g: Gpu, host: Host) -> list[str]:
    e = g.ecc
    agg_c = e.aggregate_dram_correctable or e.dram_correctable
    agg_u = e.aggregate_dram_uncorrectable or e.dram_uncorrectable
    return [kv(1, "ECC Mode"), kv(2, "Current", "Enabled"), kv(2, "Pending", "Enabled"), kv(1, "ECC Errors"),
            kv(2, "Volatile"), kv(3, "SRAM Correctable", e.sram_correctable),
            kv(3, "SRAM Uncorrectable Parity", 0), kv(3, "SRAM Uncorrectable SEC-DED", e.sram_uncorrectable),
            kv(3, "DRAM Correctable", e.dram_correctable), kv(3, "DRAM Uncorrectable", e.dram_uncorrectable),
            kv(2, "Aggregate"), kv(3, "SRAM Correctable", e.sram_correctable),
            kv(3, "SRAM Uncorrectable Parity", 0), kv(3, "SRAM Uncorrectable SEC-DED", e.sram_uncorrectable),
            kv(3, "DRAM Correctable", agg_c), kv(3, "DRAM Uncorrectable", agg_u),
            kv(3, "SRAM Threshold Exceeded", "No"), kv(2, "Aggregate Uncorrectable SRAM Sources"),
            kv(3, "SRAM L2", 0), kv(3, "SRAM SM", e.sram_uncorrectable), kv(3, "SRAM Microcontroller", 0),
            kv(3, "SRAM PCIE", 0), kv(3, "SRAM Other", 0)]


# Banks with all their spare rows, per model (an idle GPU's "Max"): H100 2560 (nvidia-smi_-q_h100_1.txt),
# A100 640 (_a100_1, and 639 after one remap in _ecc-remap_a100_1), L40S 192 (_l40s_1).
_BANKS = {"h100-sxm": 2560, "a100-sxm4-80gb": 640, "l40s": 192}


def _remap(g: Gpu, host: Host) -> list[str]:
    r = g.remap
    used = r.correctable + r.uncorrectable
    return [kv(1, "Retired Pages"), kv(2, "Single Bit ECC", "N/A"), kv(2, "Double Bit ECC", "N/A"),
            kv(2, "Pending Page Blacklist", "N/A"), kv(1, "Remapped Rows"),
            kv(2, "Correctable Error", r.correctable), kv(2, "Uncorrectable Error", r.uncorrectable),
            kv(2, "Pending", "Yes" if r.pending else "No"),
            kv(2, "Remapping Failure Occurred", "Yes" if r.failure else "No"),
            kv(2, "Bank Remap Availability Histogram"), kv(3, "Max", f"{_BANKS[host.model] - used} bank(s)"),
            kv(3, "High", f"{used} bank(s)"), kv(3, "Partial", "0 bank(s)"), kv(3, "Low", "0 bank(s)"),
            kv(3, "None", "0 bank(s)")]


# Models whose driver reports temperatures relative to T.Limit: (the limit in C, shutdown and slowdown
# margins). H100 on R535 (-q -d sample: 33 C current, 54 C T.Limit, -8/-2); L40S on R550
# (nvidia-smi_-q_l40s_1.txt: 30 C current, 57 C T.Limit, -5/-2, and no memory sensor on its GDDR6).
_TLIMIT = {"h100-sxm": (87, -8, -2), "l40s": (87, -5, -2)}
NO_MEMORY_SENSOR = {"l40s"}


def _temperature(g: Gpu, host: Host) -> list[str]:
    m = MODELS[host.model]
    out = [kv(1, "Temperature"), kv(2, "GPU Current Temp", f"{g.temp_c} C")]
    mem_now = "N/A" if host.model in NO_MEMORY_SENSOR else f"{g.mem_temp_c} C"
    if host.model in _TLIMIT:
        limit, shutdown, slowdown = _TLIMIT[host.model]
        out += [kv(2, "GPU T.Limit Temp", f"{limit - g.temp_c} C"), kv(2, "GPU Shutdown T.Limit Temp", f"{shutdown} C"),
                kv(2, "GPU Slowdown T.Limit Temp", f"{slowdown} C"), kv(2, "GPU Max Operating T.Limit Temp", "0 C"),
                kv(2, "GPU Target Temperature", "N/A"), kv(2, "Memory Current Temp", mem_now),
                kv(2, "Memory Max Operating T.Limit Temp", "N/A" if host.model in NO_MEMORY_SENSOR else "0 C")]
    else:
        # A100 prints absolute thresholds with T.Limit N/A (nvidia-smi_-q_a100_1.txt).
        out += [kv(2, "GPU T.Limit Temp", "N/A"), kv(2, "GPU Shutdown Temp", f"{m.shutdown_c} C"),
                kv(2, "GPU Slowdown Temp", f"{m.slowdown_c} C"), kv(2, "GPU Max Operating Temp", f"{m.slowdown_c - 4} C"),
                kv(2, "GPU Target Temperature", "N/A"), kv(2, "Memory Current Temp", mem_now),
                kv(2, "Memory Max Operating Temp", "95 C")]
    return out


def _power(g: Gpu, host: Host, samples: bool = True) -> list[str]:
    m = MODELS[host.model]
    cap = g.power_cap_w or m.power_cap_w
    w = g.power_w
    out = [kv(1, "GPU Power Readings"), kv(2, "Power Draw", f"{w:.2f} W"), kv(2, "Current Power Limit", f"{cap:.2f} W"),
           kv(2, "Requested Power Limit", f"{cap:.2f} W"), kv(2, "Default Power Limit", f"{m.power_cap_w:.2f} W"),
           kv(2, "Min Power Limit", f"{m.power_min_w:.2f} W"), kv(2, "Max Power Limit", f"{m.power_cap_w:.2f} W")]
    if samples:
        # Only ``-d POWER`` samples the sensor; a full ``-q`` has no Power Samples block (every full sample).
        out += [kv(1, "Power Samples"), kv(2, "Duration", "2.36 sec"), kv(2, "Number of Samples", 119),
                kv(2, "Max", f"{w * 1.05:.2f} W"), kv(2, "Min", f"{w * 0.93:.2f} W"), kv(2, "Avg", f"{w * 0.99:.2f} W")]
    return out + [kv(1, "Module Power Readings"), kv(2, "Power Draw", "N/A"), kv(2, "Current Power Limit", "N/A"),
                  kv(2, "Requested Power Limit", "N/A"), kv(2, "Default Power Limit", "N/A"),
                  kv(2, "Min Power Limit", "N/A"), kv(2, "Max Power Limit", "N/A")]


def _compute(g: Gpu, host: Host) -> list[str]:
    return [kv(1, "Compute Mode", "Default")]


def _pids(g: Gpu, host: Host) -> list[str]:
    if not g.processes:
        return [kv(1, "Processes", "None")]
    out = [kv(1, "Processes")]
    for p in g.processes:
        # Type, Name and memory sit one level below the ids, as in the R530 sample.
        out += [kv(2, "GPU instance ID", "N/A" if p.gi is None else p.gi),
                kv(2, "Compute instance ID", "N/A" if p.ci is None else p.ci), kv(2, "Process ID", p.pid),
                kv(3, "Type", p.type), kv(3, "Name", p.name), kv(3, "Used GPU Memory", f"{p.mem_mib} MiB")]
    return out


# Video clock (current, max) per model, from the full -q samples: H100 765/1545, A100 585/1290, L40S 1185/1965.
_VIDEO_MHZ = {"h100-sxm": (765, 1545), "a100-sxm4-80gb": (585, 1290), "l40s": (1185, 1965)}
# ``-d CLOCK`` alone adds two sample blocks, which an H100 leaves unfilled (the R580 load sample).
_CLOCK_SAMPLES = [line for name in ("SM", "Memory") for line in
                  [kv(1, f"{name} Clock Samples")] + [kv(2, k, "Not Found") for k in
                                                      ("Duration", "Number of Samples", "Max", "Min", "Avg")]]


def _clock(g: Gpu, host: Host, samples: bool = True) -> list[str]:
    m = MODELS[host.model]
    sm = g.sm_clock_mhz or (345 if "idle" in g.clocks_event else m.max_sm_mhz)
    mem = g.mem_clock_mhz or m.max_mem_mhz
    return [kv(1, "Clocks"), kv(2, "Graphics", f"{sm} MHz"), kv(2, "SM", f"{sm} MHz"), kv(2, "Memory", f"{mem} MHz"),
            kv(2, "Video", f"{_VIDEO_MHZ[host.model][0]} MHz"), kv(1, "Applications Clocks"), kv(2, "Graphics", f"{m.max_sm_mhz} MHz"),
            kv(2, "Memory", f"{m.max_mem_mhz} MHz"), kv(1, "Default Applications Clocks"),
            kv(2, "Graphics", f"{m.max_sm_mhz} MHz"), kv(2, "Memory", f"{m.max_mem_mhz} MHz"),
            kv(1, "Deferred Clocks"), kv(2, "Memory", "N/A"), kv(1, "Max Clocks"),
            kv(2, "Graphics", f"{m.max_sm_mhz} MHz"), kv(2, "SM", f"{m.max_sm_mhz} MHz"),
            kv(2, "Memory", f"{m.max_mem_mhz} MHz"), kv(2, "Video", f"{_VIDEO_MHZ[host.model][1]} MHz"),
            kv(1, "Max Customer Boost Clocks"), kv(2, "Graphics", f"{m.max_sm_mhz} MHz"),
            *(_CLOCK_SAMPLES if samples else []),
            kv(1, "Clock Policy"), kv(2, "Auto Boost", "N/A"), kv(2, "Auto Boost Default", "N/A")]


SECTIONS = {"PERFORMANCE": _performance, "MEMORY": _memory, "COMPUTE": _compute, "UTILIZATION": _utilization,
            "ECC": _ecc, "ROW_REMAPPER": _remap, "TEMPERATURE": _temperature, "POWER": _power, "CLOCK": _clock,
            "PIDS": _pids}
# Groups whose -d output adds sample blocks that a full -q leaves out.
_SAMPLED = {"UTILIZATION": _utilization, "POWER": _power, "CLOCK": _clock}
# -d PAGE_RETIREMENT is the older name; nvidia-smi accepts both.
ALIASES = {"PAGE_RETIREMENT": "ROW_REMAPPER"}


def _product(g: Gpu, host: Host) -> list[str]:
    m = MODELS[host.model]
    # A GPU without MIG prints N/A for both (nvidia-smi_-q_l40s_1.txt).
    mig = "N/A" if not m.mig else "Enabled" if g.mig_enabled else "Disabled"
    return [kv(1, "Product Name", m.name), kv(1, "Product Brand", "NVIDIA"),
            kv(1, "Product Architecture", m.family.split("-")[0].capitalize() if m.family != "ada-lovelace" else "Ada Lovelace"),
            kv(1, "Persistence Mode", "Enabled" if g.persistence else "Disabled"), kv(1, "MIG Mode"),
            kv(2, "Current", mig), kv(2, "Pending", mig), kv(1, "GPU UUID", g.uuid or gpu_uuid(host.name, g.index)),
            kv(1, "Minor Number", g.index), kv(1, "Fan Speed", "N/A")]


def query(host: Host, index: int | None, groups: list[str] | None) -> str:
    wanted: list[str] | None = None
    if groups is not None:
        wanted = []
        for grp in groups:
            name = ALIASES.get(grp.upper(), grp.upper())
            if name not in SECTIONS:
                raise NotSimulated(f"not simulated in this lab: -d {grp} (simulated: {', '.join(GROUPS)})")
            wanted.append(name)
    gpus = host.gpu_list
    if index is not None:
        match = [g for g in gpus if g.index == index]
        if not match:
            return "No devices were found"
        gpus = match
    out = ["", "==============NVSMI LOG==============", "", kv(0, "Timestamp", host.date),
           kv(0, "Driver Version", host.driver), kv(0, "CUDA Version", host.cuda), "",
           kv(0, "Attached GPUs", host.gpu_count)]
    for n, g in enumerate(gpus):
        if n:
            out.append("")
        out.append(f"GPU {bus_id(g.index)}")
        if wanted is None:
            out += _product(g, host)
        for name in ORDER:
            if wanted is None and name in _SAMPLED:
                out += _SAMPLED[name](g, host, samples=False)
            elif wanted is None or name in wanted:
                out += SECTIONS[name](g, host)
    return "\n".join(out) + "\n\n"
