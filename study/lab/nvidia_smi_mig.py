"""``nvidia-smi mig -lgip``, ``-lgi`` and ``-lci``.

Boxes as in ``nvidia-smi_mig_-lgip_a100-80gb_1.txt``, ``nvidia-smi_mig_-lgi_a100-80gb_1.txt`` and
``nvidia-smi_mig_-lci_a100-80gb_1.txt`` (driver 515.86.01, A100 80GB PCIe) and
``nvidia-smi_mig_-lgip_h100nvl_1.txt`` (550.127.06, H100 NVL: the same 79-column layout on Hopper). The
Free/Total column counts what still fits beside the instances already created, placed as the MIG user
guide's placement rules allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS, free_count

if TYPE_CHECKING:
    from study.lab.schema import Gpu, Host

GIP_RULE = "+" + "-" * 77 + "+"


def _mig_gpus(host: Host, index: int | None) -> list[Gpu]:
    return [g for g in host.gpu_list if g.mig_enabled and (index is None or g.index == index)]


def no_mig(host: Host, index: int | None) -> str | None:
    if MODELS[host.model].mig == ():
        return "No MIG-supported devices found."
    if not _mig_gpus(host, index):
        return "No MIG-enabled devices found."
    return None


def lgip(host: Host, index: int | None) -> str:
    model = MODELS[host.model]
    out = [GIP_RULE, f"| {'GPU instance profiles:':<75} |",
           "| GPU   Name             ID    Instances   Memory     P2P    SM    DEC   ENC  |",
           "|                              Free/Total   GiB              CE    JPEG  OFA  |",
           "|" + "=" * 77 + "|"]
    for g in _mig_gpus(host, index):
        placed = [(i.profile, i.start) for i in g.mig]
        for p in model.mig:
            free = free_count(model, placed, p.name)
            inst = f"{free}/{p.total}"
            name = f"MIG {p.name}"
            out.append(f"|{g.index:>4}  {name:<17}{p.id:>3}     {inst:<11}{p.memory_gib:<11}No     {p.sm:<7}{p.dec:<6}{p.enc:<4}|")
            out.append(f"|{'':61}{p.ce:<6}{p.jpeg:<6}{p.ofa:<4}|")
            out.append(GIP_RULE)
    return "\n".join(out)


def lgi(host: Host, index: int | None) -> str:
    model = MODELS[host.model]
    rule = "+" + "-" * 55 + "+"
    out = [rule, f"| {'GPU instances:':<53} |",
           "| GPU   Name             Profile  Instance   Placement  |",
           "|                          ID       ID       Start:Size |",
           "|" + "=" * 55 + "|"]
    rows = 0
    for g in _mig_gpus(host, index):
        for inst in sorted(g.mig, key=lambda i: i.gi):
            p = model.profile(inst.profile)
            if p is None:
                continue
            rows += 1
            where = f"{inst.start}:{p.slices}"
            out.append(f"|{g.index:>4}  MIG {inst.profile:<14}{p.id:>4}{inst.gi:>9}{'':10}{where:<8}|")
            out.append(rule)
    if not rows:
        return "No GPU instances found: Not Found"
    return "\n".join(out)


def lci(host: Host, index: int | None) -> str:
    model = MODELS[host.model]
    rule = "+" + "-" * 68 + "+"
    out = [rule, f"| {'Compute instances:':<66} |",
           "| GPU     GPU       Name             Profile   Instance   Placement  |",
           "|       Instance                       ID        ID       Start:Size |",
           "|         ID                                                         |",
           "|" + "=" * 68 + "|"]
    rows = 0
    for g in _mig_gpus(host, index):
        for inst in sorted(g.mig, key=lambda i: i.gi):
            p = model.profile(inst.profile)
            if p is None:
                continue
            rows += 1
            # One compute instance spanning the whole GPU instance: the default (largest) CI profile.
            ci_profile = {1: 0, 2: 1, 3: 2, 4: 3, 7: 4}[p.compute]
            name = f"MIG {p.name.split('+')[0]}"
            where = f"0:{p.compute}"
            out.append(f"|{g.index:>4}{inst.gi:>7}       {name:<19}{ci_profile:>3}{inst.ci:>10}{'':10}{where:<8}|")
            out.append(rule)
    if not rows:
        return "No compute instances found: Not Found"
    return "\n".join(out)
