"""``dmesg`` / ``dmesg -T`` and ``journalctl -k``: the kernel ring buffer with the driver's Xid lines.

Xid lines follow the R535+ form in ``kernel_xid_13-109_1.log`` (``NVRM: Xid (PCI:0000:cb:00): 13,
pid='<unknown>', name=<unknown>, …`` under ``dmesg --ctime``) and ``kernel_xid_119_h100_1.log`` (``dmesg
-T``, H100); ``journalctl -k`` prefixes ``kernel:`` as in ``kernel_xid_45_nvlink_1.log``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import bus_id
from study.lab.common import unknown

if TYPE_CHECKING:
    from study.lab.schema import Host

BOOT = ["Linux version 5.15.0-112-generic (buildd@lcy02-amd64-051) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) 11.4.0) #122-Ubuntu SMP",
        "nvidia: loading out-of-tree module taints kernel.",
        "nvidia-nvlink: Nvlink Core is being initialized, major device number 509",
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  {driver}  Sun Aug 20 16:07:07 UTC 2023",
        "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  {driver}",
        "[drm] [nvidia-drm] [GPU ID 0x00001b00] Loading driver"]


def xid_line(host: Host, x) -> str:  # type: ignore[no-untyped-def]
    pci = bus_id(x.gpu)[4:-2].lower()  # 0000:1b:00
    pid = str(x.pid) if x.pid else "'<unknown>'"
    name = x.process or "<unknown>"
    return f"NVRM: Xid (PCI:{pci}): {x.code}, pid={pid}, name={name}, {x.message}"


def entries(host: Host) -> list[tuple[float, str, str]]:
    """(seconds since boot, ctime stamp, message) in order."""
    out = [(1.0 + k * 0.37, "Mon Nov  2 08:15:2%d 2026" % min(k, 9), line.format(driver=host.driver))
           for k, line in enumerate(BOOT)]
    t = 8821.334512
    for k, line in enumerate(host.kernel_log):
        out.append((t + k, host.date, line))
    for k, x in enumerate(host.xids):
        out.append((t + 100 + k * 0.5, x.time, xid_line(host, x)))
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
