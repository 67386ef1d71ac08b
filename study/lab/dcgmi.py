"""``dcgmi discovery -l``, ``dcgmi health -c [-j]``, ``dcgmi diag -r 1|2|3`` and ``dcgmi dmon -e IDS``.

Every table is laid out as dcgmi's own source draws it (NVIDIA/DCGM ``dcgmi/`` at the tags 3.3.5, 4.2.3 and
4.6.0), checked against real captures in ``reference/tool_outputs/``:

- discovery: ``dcgmi_discovery_-l_h800_1.txt`` (DCGM 3.x: ``N GPUs found.``, the 80-column box, then
  ``N NvSwitches found.``). DCGM 4.0-4.4 (``Query.cpp``) add ``N ConnectX found.`` and its box; 4.5+ print
  ``N GPUs found (Active).``.
- diag: ``dcgmi_diag_-r2_l40s_1.txt`` (DCGM 4.2.3) and ``dcgmi_diag_-r2_a10g_1.txt`` (4.4.2): Metadata rows,
  lowercase plugin names, one ``GPUn: Pass`` row per GPU. ``Diag.cpp`` prints each category once (Deployment,
  Hardware, Integration, Stress), a test's global errors as ``Warning`` rows before the GPU rows and a GPU's
  own errors as ``Warning: GPUn`` right after its row, cut every 45 characters; a GPU's Warn shows as
  ``Fail``. Level 3's plugins are those of ``NvidiaValidationSuite::FillTestVectors`` (4.2.3). This is the
  DCGM 4 layout: 3.x printed Title-case test names and ``Pass - All`` (NVIDIA/DCGM#55), not simulated.
- health: ``dcgmi_health_-c_json_1.txt`` (DCGM 4.x ``-j``: JsonCpp's styled writer, TAB indents,
  ``"key" : `` with the brace on the next line, keys sorted). The table was never captured; it is
  ``Health.cpp``'s ``DcgmiOutputTree(28, 60)`` with the rows its unit tests check (``| -> 0 ... | Warning``,
  ``|       -> Memory system    | Failure``) and messages word-wrapped at 54 characters.
- dmon: ``dcgmi_dmon_-e_1011-1012_h800_1.txt`` (DCGM 3.x: ``#Entity`` padded to 10, GPUs in reverse order)
  and ``dcgmi_dmon_-e_230_xid_1.txt`` (DCGM 4.x: padded to 11, GPUs in order, rows padded with spaces).
  Each column is the field's format width + 6 + 2 (``DeviceMonitor.cpp``, widths from ``dcgm_fields.cpp``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import json

from study.lab.catalog import MODELS, bus_id
from study.lab.common import NotSimulated, gpu_uuid, unknown

if TYPE_CHECKING:
    from collections.abc import Callable

    from study.lab.schema import DiagResult, Gpu, Host

BOX = "+--------+----------------------------------------------------------------------+"


def version(host: Host) -> tuple[int, int]:
    """DCGM's (major, minor); an unreadable version counts as 3.3, the schema's default line."""
    try:
        major, minor = host.dcgm.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return 3, 3


def _id_box(title: str, width: int, ids: list[int]) -> list[str]:
    rule = "+" + "-" * width + "+"
    return [rule, f"| {title:<{width - 2}} |", rule] + [f"| {i:<{width - 2}} |" for i in ids] + [rule]


def discovery(host: Host) -> str:
    m = MODELS[host.model]
    gpus = [g for g in host.gpu_list if not g.lost]
    count = f"{len(gpus)} GPU{'s' if len(gpus) != 1 else ''} found"
    out = [count + (" (Active)." if version(host) >= (4, 5) else "."), BOX,
           f"| GPU ID | {'Device Information':<68} |", BOX]
    for g in gpus:
        out += [f"| {g.index:<6} | {'Name: ' + m.name:<68} |",
                f"|        | {'PCI Bus ID: ' + bus_id(g.index):<68} |",
                f"|        | {'Device UUID: ' + (g.uuid or gpu_uuid(host.name, g.index)):<68} |", BOX]
    switches = 4 if host.topology == "nvswitch" else 0
    out.append(f"{switches} NvSwitch{'es' if switches != 1 else ''} found.")
    out += _id_box("Switch ID", 11, [10 + k for k in range(switches)])
    if version(host) >= (4, 0):
        out.append("0 ConnectX found.")
        out += _id_box("ConnectX", 10, [])
    return "\n".join(out)


def _cell(left: str, right: str) -> str:
    return f"| {left:<25} | {right:<46} |"


def _message(label: str, text: str) -> list[str]:
    # Diag.cpp's DisplayVerboseInfo: the text trimmed, then cut every 45 characters, mid-word.
    text = text.strip()
    return [_cell(label if k == 0 else "", text[k:k + 45]) for k in range(0, len(text), 45)]


# (category, plugin) in the order dcgmi prints them: Diag.cpp walks Deployment, Hardware, Integration,
# Stress, and each category's tests in the order nvvs ran them (FillTestVectors).
DIAG_TESTS = {
    1: [("Deployment", "software")],
    2: [("Deployment", "software"), ("Hardware", "memory"), ("Integration", "pcie")],
    3: [("Deployment", "software"), ("Hardware", "memory"), ("Hardware", "diagnostic"),
        ("Hardware", "nvbandwidth"), ("Integration", "pcie"), ("Stress", "memory_bandwidth"), ("Stress", "targeted_stress"),
        ("Stress", "targeted_power")],
}
_CATEGORY_RULE = {
    "Deployment": "|-----  Deployment  --------+------------------------------------------------|",
    "Hardware": "+-----  Hardware  ----------+------------------------------------------------+",
    "Integration": "+-----  Integration  -------+------------------------------------------------+",
    "Stress": "+-----  Stress  ------------+------------------------------------------------+",
}


def _overall(found: list[DiagResult]) -> str:
    return "Fail" if any(d.result == "Fail" for d in found) else "Warn" if any(d.result == "Warn" for d in found) \
        else "Skip" if found and all(d.result == "Skip" for d in found) else "Pass"


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
    shown: set[str] = set()
    for category, test in DIAG_TESTS[level]:
        if category not in shown:
            out.append(_CATEGORY_RULE[category])
            shown.add(category)
        found = [d for d in host.diag if d.test == test]
        out.append(_cell(test, _overall(found)))
        for d in found:
            if d.gpu is None and d.message and d.result in ("Fail", "Warn"):
                out += _message("Warning", d.message)
        for g in gpus:
            mine = next((d for d in found if d.gpu == g.index), None)
            # A GPU's own result is printed without DDR_DISPLAY_WARN, so Warn falls through to Fail.
            shown_result = "Fail" if mine and mine.result == "Warn" else mine.result if mine else "Pass"
            out.append(_cell("", f"GPU{g.index}: {shown_result}"))
            if mine and mine.message and mine.result in ("Fail", "Warn"):
                out += _message(f"Warning: GPU{g.index}", mine.message)
    out.append("+---------------------------+------------------------------------------------+")
    return "\n".join(out)


# Health.cpp's names for the watched systems (HelperSystemToString).
_SYSTEM = {"PCIe": "PCIe system", "NVLink": "NVLINK system", "Memory": "Memory system",
           "Thermal": "Thermal system", "Power": "Power system", "Inforom": "InfoROM system", "Driver": "Driver"}
_RANK = {"Healthy": 0, "Warning": 1, "Failure": 2}


def _wrap54(msg: str) -> list[str]:
    """Health::AddErrorMessage, statement for statement: pieces of at most 54 characters cut at a space."""
    msg = msg.replace("\n", " ")
    if len(msg) <= 54:
        return [msg]
    pieces: list[str] = []
    p = start = 0
    while start < len(msg):
        p += 54
        if p >= len(msg):
            p = len(msg) - 1
        elif p != len(msg) - 1:
            while msg[p] != " " and msg[p + 1] not in " .,/":
                p -= 1
            while msg[p] == " ":
                p -= 1
        while start < len(msg) and msg[start] == " ":
            start += 1
        if start >= len(msg):
            break
        pieces.append(msg[start:p + 1])
        start = p + 2
    return pieces


def _styled(value: object, indent: str = "") -> str:
    """JsonCpp's Value::toStyledString: TAB indents, keys sorted, `"key" : ` and every object or array
    opened on a line of its own (arrays always one element a line, as the health sample shows)."""
    inner = indent + "\t"
    if isinstance(value, dict | list):
        pairs = sorted(value.items()) if isinstance(value, dict) else [(None, v) for v in value]
        parts = []
        for key, v in pairs:
            head = inner + (f"{json.dumps(key)} : " if key is not None else "")
            if isinstance(v, dict | list):
                parts.append((head + "\n" if key is not None else "") + _styled(v, inner))
            else:
                parts.append(head + json.dumps(v))
        ends = "{}" if isinstance(value, dict) else "[]"
        return indent + ends[0] + "\n" + ",\n".join(parts) + "\n" + indent + ends[1]
    return json.dumps(value)


def health(host: Host, as_json: bool) -> str:
    incidents = host.health
    overall = max((i.health for i in incidents), key=_RANK.__getitem__, default="Healthy")
    # The report tree Health.cpp builds: Overall Health, then GPU -> id -> Errors -> system (+ message lines).
    tree: list[tuple[int, str, str]] = [(0, "Overall Health", overall)]
    body: dict[str, object] = {"Overall Health": {"value": overall}}
    gpus: dict[str, object] = {}
    if incidents:
        tree.append((0, "GPU", ""))
    for gpu in sorted({i.gpu for i in incidents}):
        mine = [i for i in incidents if i.gpu == gpu]
        worst = max((i.health for i in mine), key=_RANK.__getitem__)
        tree += [(1, str(gpu), worst), (2, "Errors", "")]
        errors: dict[str, object] = {}
        for system in dict.fromkeys(i.system for i in mine):
            same = [i for i in mine if i.system == system]
            state = max((i.health for i in same), key=_RANK.__getitem__)
            lines = _wrap54(", ".join(i.message for i in same))
            tree.append((3, _SYSTEM[system], state))
            tree += [(-3, "", piece) for piece in lines]
            errors[_SYSTEM[system]] = {"overflow": lines, "value": state}
        gpus[str(gpu)] = {"children": {"Errors": {"children": errors}}, "value": worst}
    if gpus:
        body["GPU"] = {"children": gpus}
    if as_json:
        return _styled({"body": body, "header": ["Health Monitor Report"]})
    rule = "+" + "-" * 27 + "+" + "-" * 58 + "+"
    out = [rule, f"| {'Health Monitor Report':<85}|", rule.replace("-", "=")]
    for level, label, value in tree:
        # DcgmiOutputTree::rowStr: a child is "-> label" right-aligned in level*3 columns; message lines
        # (overflow, level < 0 here) carry no label.
        left = (" " * (-level * 3)) if level < 0 else (f"{'-> ':>{level * 3}}" + label if level else label)
        out.append(f"| {left:<25} | {value:<56} |")
    out.append(rule)
    return "\n".join(out)


# DCGM field ids a learner meets: dcgmi dmon's short name, unit and format width (dcgm_fields.cpp), and the
# value. Doubles print with 3 decimals (DeviceMonitor.cpp).
FIELDS: dict[int, tuple[str, str, int, Callable[[Gpu, Host], str]]] = {
    100: ("SMCLK", "", 5, lambda g, h: str(g.sm_clock_mhz or MODELS[h.model].max_sm_mhz)),
    150: ("TMPTR", " C", 5, lambda g, h: str(g.temp_c)),
    155: ("POWER", " W", 10, lambda g, h: f"{g.power_w:.3f}"),
    203: ("GPUTL", "", 10, lambda g, h: str(g.util_pct)),
    230: ("XIDER", "", 5, lambda g, h: str(next((x.code for x in reversed(h.xids) if x.gpu == g.index), 0))),
    252: ("FBUSD", "", 10, lambda g, h: str(g.mem_used_mib)),
    1002: ("SMACT", "", 5, lambda g, h: f"{g.sm_active:.3f}"),
}


def dmon(host: Host, ids: str, only: str | None = None) -> str:
    try:
        fids = [int(x) for x in ids.split(",") if x.strip()]
    except ValueError:
        raise NotSimulated(f"not simulated in this lab: dcgmi dmon -e {ids}") from None
    bad = [f for f in fids if f not in FIELDS]
    if bad or not fids:
        raise NotSimulated(f"not simulated in this lab: field {bad[0] if bad else ids} (simulated: "
                           f"{', '.join(str(k) for k in FIELDS)})")
    dcgm4 = version(host) >= (4, 0)
    first = 16 if version(host) >= (4, 5) else 11 if dcgm4 else 10
    widths = [FIELDS[f][2] + 6 + 2 for f in fids]
    out = ["#Entity".ljust(first) + "".join(FIELDS[f][0].ljust(w) for f, w in zip(fids, widths)),
           "ID".ljust(first) + "".join(FIELDS[f][1].ljust(w) for f, w in zip(fids, widths))]
    gpus = [g for g in host.gpu_list if not g.lost and (only is None or str(g.index) in only.split(","))]
    for g in gpus if dcgm4 else reversed(gpus):
        out.append(f"GPU {g.index}".ljust(first) + "".join(FIELDS[f][3](g, host).ljust(w) for f, w in zip(fids, widths)))
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
            return dmon(host, opts["-e"], opts.get("-i"))
    raise unknown("dcgmi", argv)
