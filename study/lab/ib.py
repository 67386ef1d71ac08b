"""``ibstat`` and ``ibdev2netdev``.

Follows ``ibstat_a100_ib_1.txt`` (infiniband-diags 47.0: ``CA 'mlx5_N'`` blocks, TAB-indented keys, Rate in
Gb/s, Base lid / SM lid, IB capability mask ``0xa651ec48``, a system image GUID per CA, Link layer) and
``ibstat_h100_roce_down_1.txt`` (ports Down with Polling / Disabled: ``Rate: 40``, Port GUID all zeros), and
``ibdev2netdev_dgxh100_1.txt`` (MLNX_OFED: ``mlx5_N port 1 ==> ibpXXs0 (Up)``, lexical device order).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.common import hex_for, unknown

if TYPE_CHECKING:
    from study.lab.schema import Host, IbPort


def _lexical(ports: list[IbPort]) -> list[IbPort]:
    return sorted(ports, key=lambda p: p.ca)  # both tools list mlx5_10 right after mlx5_1


def ibstat(host: Host, ca: str | None = None) -> str:
    ports = _lexical(host.ib)
    if ca is not None:
        ports = [p for p in ports if p.ca == ca]
        if not ports:
            # IBPANIC prints the process id, the function and errno's text.
            return f"ibpanic: [{4000 + int(hex_for(host.name, ca), 16) % 60000}] main: stat of IB device '{ca}' " \
                "failed: No such file or directory"
    out = []
    for p in ports:
        guid = hex_for(host.name, p.ca)
        down = p.state != "Active"
        out += [f"CA '{p.ca}'", f"\tCA type: {p.ca_type}", "\tNumber of ports: 1", f"\tFirmware version: {p.firmware}",
                "\tHardware version: 0", f"\tNode GUID: 0x{guid}", f"\tSystem image GUID: 0x{hex_for(host.name, p.ca, 'sys')}",
                f"\tPort {p.port}:", f"\t\tState: {p.state}", f"\t\tPhysical state: {p.physical}",
                # Ports without a link print Rate: 40 in the "some down" sample, whatever their speed.
                f"\t\tRate: {40 if p.physical != 'LinkUp' else p.rate}",
                f"\t\tBase lid: {0 if p.link_layer == 'Ethernet' or down else p.lid}", "\t\tLMC: 0",
                f"\t\tSM lid: {0 if p.link_layer == 'Ethernet' or down else p.sm_lid}",
                f"\t\tCapability mask: {'0x00010000' if p.link_layer == 'Ethernet' else '0xa651ec48'}",
                f"\t\tPort GUID: 0x{'0' * 16 if p.physical != 'LinkUp' else guid}", f"\t\tLink layer: {p.link_layer}"]
    return "\n".join(out)


def ibdev2netdev(host: Host) -> str:
    return "\n".join(f"{p.ca} port {p.port} ==> {p.netdev} ({'Up' if p.state == 'Active' else 'Down'})"
                     for p in _lexical(host.ib))


def run(host: Host, tool: str, argv: list[str]) -> str:
    if not host.ib:
        return "IB device 'mlx5_0' not found" if tool == "ibstat" else ""
    if tool == "ibstat" and len(argv) <= 1 and not (argv and argv[0].startswith("-")):
        return ibstat(host, argv[0] if argv else None)
    if tool == "ibdev2netdev" and not argv:
        return ibdev2netdev(host)
    raise unknown(tool, argv)
