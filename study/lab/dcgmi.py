"""``dcgmi discovery -l``, ``dcgmi health -c [-j]``, ``dcgmi diag -r 1|2|3`` and ``dcgmi dmon -e IDS``.

Follows ``dcgmi_discovery_-l_h800_1.txt`` (DCGM 3.x: ``N GPUs found.``, the 80-column box, the NvSwitch
table), ``dcgmi_diag_-r2_l40s_1.txt`` (DCGM 4.2.3: Metadata rows, lowercase plugin names, per-GPU rows,
messages wrapped at 46 characters), ``dcgmi_health_-c_json_1.txt`` (DCGM 4.x ``-j`` form) and
``dcgmi_dmon_-e_1011-1012_h800_1.txt`` (``#Entity`` header, ``ID`` line, left-aligned columns). The health
*table* was never captured (INDEX.md): its rows follow DCGM's unit-test strings quoted there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import json

from study.lab.catalog import MODELS, bus_id
from study.lab.common import NotSimulated, gpu_uuid, unknown

if TYPE_CHECKING:
    from study.lab.schema import Host

BOX = "+--------+----------------------------------------------------------------------+"


def discovery(host: Host) -> str:
    m = MODELS[host.model]
    gpus = [g for g in host.gpu_list if not g.lost]
    out = [f"{len(gpus)} GPU{'s' if len(gpus) != 1 else ''} found.", BOX,
           f"| GPU ID | {'Device Information':<68} |", BOX]
    for g in gpus:
        out += [f"| {g.index:<6} | {'Name: ' + m.name:<68} |",
                f"|        | {'PCI Bus ID: ' + bus_id(g.index):<68} |",
                f"|        | {'Device UUID: ' + (g.uuid or gpu_uuid(host.name, g.index)):<68} |", BOX]
    switches = 4 if host.topology == "nvswitch" else 0
    out += [f"{switches} NvSwitches found.", "+-----------+", "| Switch ID |", "+-----------+"]
    out += [f"| {10 + k:<9} |" for k in range(switches)]
    out.append("+-----------+")
    return "\n".join(out)


def _wrap(text: str, width: int = 46) -> list[str]:
    # dcgmi cuts messages at the column width mid-word, as the sample shows ("non-zero s" / "tatus 1").
    return [text[i:i + width] for i in range(0, len(text), width)] or [""]


def _cell(left: str, right: str) -> str:
    return f"| {left:<25} | {right:<46} |"


DIAG_TESTS = {
    1: [("Deployment", "software")],
    2: [("Deployment", "software"), ("Hardware", "memory"), ("Integration", "pcie")],
    3: [("Deployment", "software"), ("Hardware", "memory"), ("Integration", "pcie"), ("Hardware", "diagnostic"),
        ("Stress", "targeted_stress"), ("Stress", "targeted_power"), ("Stress", "memory_bandwidth")],
}


def diag(host: Host, level: int) -> str:
    m = MODELS[host.model]
    gpus = [g for g in host.gpu_list if not g.lost]
    out = ["Successfully ran diagnostic for group.",
           "+---------------------------+------------------------------------------------+",
           "| Diagnostic                | Result                                         |",
           "+===========================+================================================+",
           "|-----  Metadata  ----------+------------------------------------------------|",
           _cell("DCGM Version", host.dcgm), _cell("Driver Version Detected", host.driver),
           _cell("GPU Device IDs Detected", ", ".join(m.device_id for _ in gpus))]
    section = "Metadata"
    for category, test in DIAG_TESTS[level]:
        if category != section:
            edge = "|" if section == "Metadata" and category == "Deployment" else "+"
            out.append(f"{edge}-----  {category}  " + "-" * (18 - len(category)) + "+" + "-" * 48 + edge)
            section = category
        found = [d for d in host.diag if d.test == test]
        overall = "Fail" if any(d.result == "Fail" for d in found) else (
            "Warn" if any(d.result == "Warn" for d in found) else "Pass")
        out.append(_cell(test, overall))
        for g in gpus:
            mine = next((d for d in found if d.gpu == g.index), None)
            out.append(_cell("", f"GPU{g.index}: {mine.result if mine else 'Pass'}"))
        for d in found:
            if d.message:
                label = "Warning" if d.result in ("Fail", "Warn") else "Info"
                for n, piece in enumerate(_wrap(d.message)):
                    out.append(_cell(label if n == 0 else "", piece))
    out.append("+---------------------------+------------------------------------------------+")
    return "\n".join(out)


def health(host: Host, as_json: bool) -> str:
    incidents = host.health
    overall = "Healthy"
    if incidents:
        overall = "Failure" if any(i.health == "Failure" for i in incidents) else "Warning"
    if as_json:
        body: dict[str, object] = {"Overall Health": {"value": overall}}
        if incidents:
            body["GPU"] = {str(i.gpu): {i.system: {"value": i.health, "messages": [i.message]}} for i in incidents}
        return json.dumps({"body": body, "header": ["Health Monitor Report"]}, indent="\t")
    rule = "+---------------------------+----------------------------------------------------------+"
    out = [rule, "| Health Monitor Report                                                                |", rule,
           f"| {'Overall Health':<25} | {overall:<56} |"]
    for gpu in sorted({i.gpu for i in incidents}):
        mine = [i for i in incidents if i.gpu == gpu]
        worst = "Failure" if any(i.health == "Failure" for i in mine) else "Warning"
        out.append(f"| {'-> ' + str(gpu):<25} | {worst:<56} |")
        for i in mine:
            out.append(f"| {'      -> ' + i.system + ' system':<25} | {i.health:<56} |")
            for piece in [i.message[k:k + 56] for k in range(0, len(i.message), 56)]:
                out.append(f"| {'':<25} | {piece:<56} |")
    out.append(rule)
    return "\n".join(out)


# DCGM field ids a learner meets (dcgm_fields.h): short names as dcgmi dmon prints them.
FIELDS = {150: ("TMPTR", lambda g: str(g.temp_c)), 155: ("POWER", lambda g: f"{g.power_w:.3f}"),
          203: ("GPUTL", lambda g: str(g.util_pct)), 252: ("FBUSD", lambda g: str(g.mem_used_mib)),
          1002: ("SMACT", lambda g: f"{g.sm_active:.3f}"), 230: ("XIDER", None), 100: ("SMCLK", None)}


def dmon(host: Host, ids: str) -> str:
    try:
        fids = [int(x) for x in ids.split(",") if x.strip()]
    except ValueError:
        raise NotSimulated(f"not simulated in this lab: dcgmi dmon -e {ids}") from None
    bad = [f for f in fids if f not in FIELDS]
    if bad or not fids:
        raise NotSimulated(f"not simulated in this lab: field {bad[0] if bad else ids} (simulated: "
                           f"{', '.join(str(k) for k in FIELDS)})")
    m = MODELS[host.model]
    xid_of = {x.gpu: x.code for x in host.xids}
    out = ["#Entity   " + "".join(f"{FIELDS[f][0]:<28}" for f in fids).rstrip(), "ID"]
    for g in sorted((g for g in host.gpu_list if not g.lost), key=lambda g: -g.index):
        cells = []
        for f in fids:
            fn = FIELDS[f][1]
            if f == 230:
                cells.append(str(xid_of.get(g.index, 0)))
            elif f == 100:
                cells.append(str(g.sm_clock_mhz or m.max_sm_mhz))
            else:
                cells.append(fn(g))  # type: ignore[misc]
        out.append(f"GPU {g.index:<6}" + "".join(f"{c:<28}" for c in cells).rstrip())
    return "\n".join(out)


def run(host: Host, argv: list[str]) -> str:
    if not argv:
        return "Usage: dcgmi <subsystem> ... (simulated: discovery -l, health -c, diag -r 1|2|3, dmon -e IDS)"
    sub, rest = argv[0], argv[1:]
    if sub == "discovery" and rest in (["-l"], ["--list"]):
        return discovery(host)
    if sub == "health" and rest and rest[0] in ("-c", "--check") and set(rest[1:]) <= {"-j", "--json"}:
        return health(host, bool(rest[1:]))
    if sub == "diag" and len(rest) == 2 and rest[0] in ("-r", "--run") and rest[1] in ("1", "2", "3", "quick", "medium", "long"):
        level = {"quick": 1, "medium": 2, "long": 3}.get(rest[1]) or int(rest[1])
        return diag(host, level)
    if sub == "dmon":
        opts = dict(zip(rest[::2], rest[1::2]))
        if len(rest) % 2 == 0 and "-e" in opts and set(opts) <= {"-e", "-c", "-i", "-d"} and \
                all(v.replace(",", "").isdigit() for v in opts.values()):
            return dmon(host, opts["-e"])
    raise unknown("dcgmi", argv)
