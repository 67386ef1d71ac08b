"""The late-2026 GPUs are in the calculator's catalog with their datasheet figures and work in calculations.

Figures are the ones recorded in content/specs/gpus.yaml from NVIDIA's pages (see each entry's source and
notes); a change to them should be a deliberate edit of both places.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from study.calc import gpu

NEW = {
    # id: (memory GB, bandwidth TB/s, MIG instances, dense BF16 TFLOP/s or None)
    "b300": (270, 7.7, 7, 2250),
    "gb300": (279, 8.0, 0, 2500),
    "gh200": (96, 4.0, 7, 989.4),
    "a30": (24, 0.933, 4, 165),
    "h200-nvl": (141, 4.8, 7, 835.5),
    "rtx-pro-6000-bse": (96, 1.597, 4, None),
}


@pytest.mark.parametrize("gid", sorted(NEW))
def test_new_gpu_figures(gid: str) -> None:
    mem, bw, mig, bf16 = NEW[gid]
    g = gpu(gid)
    assert g.memory.value == pytest.approx(mem * 1e9)
    assert g.bandwidth.value == pytest.approx(bw * 1e12)
    assert g.mig == mig
    assert g.source.startswith("https://") and g.name.startswith("NVIDIA")
    if bf16 is None:
        assert "bf16" not in g.dense
    else:
        assert g.dense["bf16"] == pytest.approx(bf16)


def test_blackwell_ultra_fp4_is_not_a_doubling_so_only_dense_is_stored() -> None:
    # The datasheet prints FP4 as 18 | 14 PF (sparse | dense) for HGX B300: the catalog's "sparse = 2 x dense"
    # rule would be wrong for it, so the sparse FP4 figure lives in the notes.
    b300 = gpu("b300")
    assert b300.dense["fp4"] == 14000 and "fp4" not in b300.sparse and "18" in b300.notes


def test_a_new_gpu_works_in_a_calculation() -> None:
    from study.calc import weights_memory

    need = weights_memory(params=70e9, dtype="fp16").value  # 140 GB
    assert need < gpu("h200-nvl").memory.value and need > gpu("rtx-pro-6000-bse").memory.value


def test_study_calc_gpus_lists_them() -> None:
    out = subprocess.run([sys.executable, "-m", "study", "calc", "gpus"], capture_output=True, text=True, check=True).stdout
    for gid in NEW:
        assert f"\n{gid} " in out
