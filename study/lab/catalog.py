"""The GPUs a lab can simulate, with the numbers the renderers print and lint checks against.

Figures come from the real outputs in ``reference/tool_outputs/`` (names, memory totals, power caps, MIG
profile tables from ``nvidia-smi mig -lgip``) and NVIDIA's MIG user guide (placements). Memory totals are
what nvidia-smi reports (MiB), not the marketing "80 GB".
"""

from __future__ import annotations

from typing import NamedTuple


class MigProfile(NamedTuple):
    """One GPU instance profile as ``nvidia-smi mig -lgip`` lists it.

    ``slices`` is the number of the GPU's 8 memory slices it takes, ``starts`` the slice positions where it
    may be placed (MIG user guide, "Supported MIG Profiles" placement diagrams), ``compute`` its g count.
    """

    name: str
    id: int
    total: int
    memory_gib: str
    sm: int
    dec: int
    enc: int
    ce: int
    jpeg: int
    ofa: int
    slices: int
    starts: tuple[int, ...]
    memory_mib: int

    @property
    def compute(self) -> int:
        return int(self.name.split("g.", 1)[0])


class GpuModel(NamedTuple):
    key: str
    name: str  # as nvidia-smi prints it
    memory_mib: int
    power_cap_w: int
    power_min_w: int
    max_sm_mhz: int
    max_mem_mhz: int
    device_id: str  # PCI device id, as dcgmi diag lists it
    family: str  # GPU Feature Discovery's nvidia.com/gpu.family
    compute: tuple[int, int]
    slowdown_c: int  # where HW slowdown starts
    shutdown_c: int
    tlimit_relative: bool  # H100 on R535+ prints limits relative to T.Limit
    mig: tuple[MigProfile, ...] = ()
    slurm_type: str = ""

    def profile(self, name: str) -> MigProfile | None:
        return next((p for p in self.mig if p.name == name), None)

    @property
    def gfd_product(self) -> str:
        return self.name.replace(" ", "-")


# H100 80GB HBM3: names, ids and memory as in nvidia-smi_default_mig_h100_1.txt (40448/20096/9984 MiB) and
# the H100 NVL -lgip sample's SM/engine pattern (same Hopper slice layout, 132 SMs on the full GPU).
_H100_MIG = (
    MigProfile("1g.10gb", 19, 7, "9.75", 16, 1, 0, 1, 1, 0, 1, (0, 1, 2, 3, 4, 5, 6), 9984),
    MigProfile("1g.10gb+me", 20, 1, "9.75", 16, 1, 0, 1, 1, 1, 1, (0, 1, 2, 3, 4, 5, 6), 9984),
    MigProfile("1g.20gb", 15, 4, "19.62", 26, 1, 0, 1, 1, 0, 2, (0, 2, 4, 6), 20096),
    MigProfile("2g.20gb", 14, 3, "19.62", 32, 2, 0, 2, 2, 0, 2, (0, 2, 4), 20096),
    MigProfile("3g.40gb", 9, 2, "39.50", 60, 3, 0, 3, 3, 0, 4, (0, 4), 40448),
    MigProfile("4g.40gb", 5, 1, "39.50", 64, 4, 0, 4, 4, 0, 4, (0,), 40448),
    MigProfile("7g.80gb", 0, 1, "79.25", 132, 7, 0, 8, 7, 1, 8, (0,), 80896),
)
# A100 80GB: exactly the rows of nvidia-smi_mig_-lgip_a100-80gb_1.txt (driver 515.86.01).
_A100_MIG = (
    MigProfile("1g.10gb", 19, 7, "9.50", 14, 0, 0, 1, 0, 0, 1, (0, 1, 2, 3, 4, 5, 6), 9728),
    MigProfile("1g.10gb+me", 20, 1, "9.50", 14, 1, 0, 1, 1, 1, 1, (0, 1, 2, 3, 4, 5, 6), 9728),
    MigProfile("2g.20gb", 14, 3, "19.50", 28, 1, 0, 2, 0, 0, 2, (0, 2, 4), 19968),
    MigProfile("3g.40gb", 9, 2, "39.25", 42, 2, 0, 3, 0, 0, 4, (0, 4), 40192),
    MigProfile("4g.40gb", 5, 1, "39.25", 56, 2, 0, 4, 0, 0, 4, (0,), 40192),
    MigProfile("7g.80gb", 0, 1, "79.00", 98, 5, 0, 7, 1, 1, 8, (0,), 80896),
)

MODELS: dict[str, GpuModel] = {
    m.key: m
    for m in (
        # nvidia-smi_default_h100_4.txt / -q_h100_1.txt: 81559 MiB, 700 W cap, 200 W min, 1980/2619 MHz max.
        GpuModel("h100-sxm", "NVIDIA H100 80GB HBM3", 81559, 700, 200, 1980, 2619, "2330", "hopper", (9, 0),
                 87, 95, True, _H100_MIG, "H100"),
        # nvidia-smi_default_a100_1.txt / -q_a100_1.txt: 81920 MiB, 400 W, 1410/1593 MHz.
        GpuModel("a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB", 81920, 400, 100, 1410, 1593, "20b2", "ampere",
                 (8, 0), 89, 92, False, _A100_MIG, "A100"),
        # nvidia-smi_-q_l40s_1.txt: 46068 MiB, 350 W; no MIG.
        GpuModel("l40s", "NVIDIA L40S", 46068, 350, 100, 2520, 9001, "26b9", "ada-lovelace", (8, 9), 88, 93,
                 False, (), "L40S"),
    )
}

# Bus ids of an HGX/DGX H100 8-GPU board (nvidia-smi_default_mig_h100_1.txt, DGX H100).
DGX_BUS_IDS = ("1B", "43", "52", "61", "9D", "C3", "D1", "DF")


def bus_id(index: int) -> str:
    bus = DGX_BUS_IDS[index] if index < len(DGX_BUS_IDS) else f"{0x20 + index * 0x10:02X}"
    return f"00000000:{bus}:00.0"


def fits(model: GpuModel, placed: list[tuple[str, int]], profile_name: str) -> list[int]:
    """The start slices where one more ``profile_name`` instance could go next to ``placed``
    ((profile, start) pairs). Empty when it does not fit (memory slices taken, or 7 compute slices used)."""
    prof = model.profile(profile_name)
    if prof is None:
        return []
    used: set[int] = set()
    compute = 0
    for name, start in placed:
        p = model.profile(name)
        if p is None:
            continue
        used.update(range(start, start + p.slices))
        compute += p.compute
    if compute + prof.compute > 7:
        return []
    return [s for s in prof.starts if not used & set(range(s, s + prof.slices))]


def free_count(model: GpuModel, placed: list[tuple[str, int]], profile_name: str) -> int:
    """How many more instances of one profile fit, placing them greedily at the lowest free start."""
    placed = list(placed)
    n = 0
    while n < 8:
        starts = fits(model, placed, profile_name)
        if not starts:
            break
        placed.append((profile_name, starts[0]))
        n += 1
    prof = model.profile(profile_name)
    return min(n, prof.total) if prof else 0
