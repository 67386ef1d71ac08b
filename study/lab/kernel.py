"""``dmesg`` / ``dmesg -T`` and ``journalctl -k``: the kernel ring buffer with the driver's Xid lines.

Xid lines follow the R535+ form in ``kernel_xid_13-109_1.log`` (``NVRM: Xid (PCI:0000:cb:00): 13,
pid='<unknown>', name=<unknown>, …`` under ``dmesg --ctime``) and ``kernel_xid_119_h100_1.log`` (``dmesg
-T``, H100: a GPU's first Xid after boot follows ``NVRM: GPU at PCI:…: GPU-<uuid>`` and ``NVRM: GPU Board
Serial Number: …``; the driver's follow-up lines come after the Xid). ``journalctl -k`` prefixes
``<Mon DD HH:MM:SS> <host> kernel:`` as in ``kernel_xid_45_nvlink_1.log``. Plain ``dmesg`` stamps are seconds
since boot, computed from the same clock as ``-T`` so both views agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import datetime as dt

from study.lab.catalog import bus_id
from study.lab.common import gpu_uuid, hex_for, unknown

if TYPE_CHECKING:
    from study.lab.schema import Host, Xid

BOOT = ["Linux version 5.15.0-112-generic (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0) #122-Ubuntu SMP",
        "nvidia: loading out-of-tree module taints kernel.",
        "nvidia-nvlink: Nvlink Core is being initialized, major device number 509",
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {driver}  Sun Aug 20 16:07:07 UTC 2023",
        "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  {driver}",
        "[drm] [nvidia-drm] [GPU ID 0x00001b00] Loading driver"]
BOOTED = dt.datetime(2026, 11, 2, 8, 15, 20)
_CTIME = "%a %b %d %H:%M:%S %Y"


def _pci(gpu: int) -> str:
    return bus_id(gpu)[4:-2].lower()  # 0000:1b:00: domain:bus:device, as NVRM prints it


def xid_line(host: Host, x: Xid) -> str:
    pid = str(x.pid) if x.pid else "'<unknown>'"
    name = x.process or "<unknown>"
    return f"NVRM: Xid (PCI:{_pci(x.gpu)}): {x.code}, pid={pid}, name={name}, {x.message}"


def _stamp(when: dt.datetime) -> str:
    return f"{when:%a %b} {when.day:2d} {when:%H:%M:%S %Y}"


def _when(stamp: str, fallback: dt.datetime) -> dt.datetime:
    try:
        return dt.datetime.strptime(" ".join(stamp.split()), _CTIME)
    except ValueError:
        return fallback


def entries(host: Host) -> list[tuple[float, str, str]]:
    """(seconds since boot, ctime stamp, message) in order."""
    out = [(1.0 + k * 0.37, _stamp(BOOTED + dt.timedelta(seconds=1 + k * 0.37)), line.format(driver=host.driver))
           for k, line in enumerate(BOOT)]
    seen: set[int] = set()
    last = BOOTED + dt.timedelta(hours=1)
    for k, x in enumerate(host.xids):
        when = _when(x.time, last)
        sec = (when - BOOTED).total_seconds() + 0.334512 + k * 0.000217
        if x.gpu not in seen:
            seen.add(x.gpu)
            serial = str(int(hex_for(host.name, "serial", x.gpu), 16))[-13:]
            gpu = next((g for g in host.gpus if g.index == x.gpu), None)
            uuid = (gpu.uuid if gpu else None) or gpu_uuid(host.name, x.gpu)
            out += [(sec, x.time, f"NVRM: GPU at PCI:{_pci(x.gpu)}: {uuid}"),
                    (sec, x.time, f"NVRM: GPU Board Serial Number: {serial}")]
        out.append((sec, x.time, xid_line(host, x)))
        last = max(last, when)
    # The scenario's extra lines are what the driver logged after the Xids (rate limiting, resets...).
    now = max(_when(host.date, last), last)
    for k, line in enumerate(host.kernel_log):
        out.append(((now - BOOTED).total_seconds() + 0.581133 + k * 0.000311, _stamp(now), line))
    return out


def dmesg(host: Host, human: bool) -> str:
    if human:
        return "\n".join(f"[{stamp}] {msg}" for _, stamp, msg in entries(host))
    return "\n".join(f"[{sec:12.6f}] {msg}" for sec, _, msg in entries(host))


def journal(host: Host) -> str:
    def short(stamp: str) -> str:
        parts = stamp.split()
        return f"{parts[1]} {int(parts[2]):02d} {parts[3]}" if len(parts) >= 4 else stamp

    return "\n".join(f"{short(stamp)} {host.name} kernel: {msg}" for _, stamp, msg in entries(host))


def run(host: Host, tool: str, argv: list[str]) -> str:
    if tool == "dmesg" and argv in ([], ["-T"], ["--ctime"]):
        return dmesg(host, bool(argv))
    if tool == "journalctl" and argv in (["-k"], ["--dmesg"], ["-k", "--no-pager"]):
        return journal(host)
    raise unknown(tool, argv)
