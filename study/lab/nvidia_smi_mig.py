"""``nvidia-smi mig -lgip``, ``-lgi`` and ``-lci``.

Boxes as in ``nvidia-smi_mig_-lgip_a100-80gb_1.txt``, ``nvidia-smi_mig_-lgi_a100-80gb_1.txt`` and
``nvidia-smi_mig_-lci_a100-80gb_1.txt`` (driver 515.86.01, A100 80GB PCIe) and
``nvidia-smi_mig_-lgip_h100nvl_1.txt`` (550.127.06, H100 NVL: the same 79-column layout on Hopper). With
nothing to list they print nvidia-smi's one-line answers (``No GPU instances found: Not Found``, and
``No MIG-enabled devices found.`` as in ``nvidia-smi_mig_-lgip_no-mig_t4_r530_1.txt``, 530.30.02). The
Free/Total column counts what still fits beside the instances already created, placed as the MIG user
guide's placement rules allow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS, free_count

if TYPE_CHECKING:
    from study.lab.catalog import MigProfile
    from study.lab.schema import Gpu, Host, MigInstance

def _box(width: int, title: str, head: list[str], entries: list[list[str]]) -> str:
    """The frame all three listings share: a titled box ``width`` wide inside its borders, the column heads,
    a ``=`` rule, then each entry's lines closed by a ``-`` rule."""
    rule = "+" + "-" * width + "+"
    out = [rule, f"| {title:<{width - 2}} |", *head, "|" + "=" * width + "|"]
    for lines in entries:
        out += [*lines, rule]
    return "\n".join(out)


def _mig_gpus(host: Host, index: int | None) -> list[Gpu]:
    return [g for g in host.gpu_list if g.mig_enabled and (index is None or g.index == index)]


def no_mig(host: Host, index: int | None) -> str | None:
    if index is not None and all(g.index != index for g in host.gpu_list):
        # ``-i`` is resolved before anything MIG: the same line as ``nvidia-smi -i N`` (see nvidia_smi.py).
        return "No devices were found"
    # A GPU without MIG (a T4 in nvidia-smi_mig_-lgip_no-mig_t4_r530_1.txt) gets the same line as one with
    # MIG switched off.
    if not _mig_gpus(host, index):
        return "No MIG-enabled devices found."
    return None


def lgip(host: Host, index: int | None) -> str:
    model = MODELS[host.model]
    entries = []
    for g in _mig_gpus(host, index):
        placed = [(i.profile, i.start) for i in g.mig]
        for p in model.mig:
            inst = f"{free_count(model, placed, p.name)}/{p.total}"
            name = f"MIG {p.name}"
            entries.append([f"|{g.index:>4}  {name:<17}{p.id:>3}     {inst:<11}{p.memory_gib:<11}No     "
                            f"{p.sm:<7}{p.dec:<6}{p.enc:<4}|",
                            f"|{'':61}{p.ce:<6}{p.jpeg:<6}{p.ofa:<4}|"])
    return _box(77, "GPU instance profiles:", [
        "| GPU   Name             ID    Instances   Memory     P2P    SM    DEC   ENC  |",
        "|                              Free/Total   GiB              CE    JPEG  OFA  |"], entries)


def _instances(host: Host, index: int | None, gi: int | None = None) -> list[tuple[Gpu, MigInstance, MigProfile]]:
    """The GPU instances that exist, in GI order per GPU, with their profile (unknown profiles skipped)."""
    model = MODELS[host.model]
    out = []
    for g in _mig_gpus(host, index):
        for inst in sorted(g.mig, key=lambda i: i.gi):
            p = model.profile(inst.profile)
            if p is not None and (gi is None or inst.gi == gi):
                out.append((g, inst, p))
    return out


def lgi(host: Host, index: int | None) -> str:
    entries = [[f"|{g.index:>4}  MIG {inst.profile:<14}{p.id:>4}{inst.gi:>9}{'':10}{f'{inst.start}:{p.slices}':<8}|"]
               for g, inst, p in _instances(host, index)]
    if not entries:
        return "No GPU instances found: Not Found"
    return _box(55, "GPU instances:", [
        "| GPU   Name             Profile  Instance   Placement  |",
        "|                          ID       ID       Start:Size |"], entries)


# One compute instance spanning its whole GPU instance uses the largest CI profile: its ID by slice count
# (``-lcip`` marks it with ``*``: ID 2 for the 3 slices of a 3g.40gb).
_FULL_CI = {1: 0, 2: 1, 3: 2, 4: 3, 7: 4}


def lci(host: Host, index: int | None, gi: int | None = None) -> str:
    """``-lci``, or ``-gi N -lci`` for the compute instances of one GPU instance."""
    entries = []
    for g, inst, p in _instances(host, index, gi):
        name = f"MIG {p.name.split('+')[0]}"
        entries.append([f"|{g.index:>4}{inst.gi:>7}       {name:<19}{_FULL_CI[p.compute]:>3}{inst.ci:>10}{'':10}"
                        f"{f'0:{p.compute}':<8}|"])
    if not entries:
        return "No compute instances found: Not Found"
    return _box(68, "Compute instances:", [
        "| GPU     GPU       Name             Profile   Instance   Placement  |",
        "|       Instance                       ID        ID       Start:Size |",
        "|         ID                                                         |"], entries)
