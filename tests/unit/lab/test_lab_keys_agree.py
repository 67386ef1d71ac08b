"""A lab's key is what its own tools print: a learner who reads the output is right.

gpu-memory-free once keyed ``81920 - used`` while ``nvidia-smi -q -d MEMORY`` printed Free = Total - Reserved -
Used (nvidia-smi_-q_a100_1.txt: Total 81920, Reserved 763), so reading the tool was marked wrong; and the GPU at
92 % utilisation printed the idle GPUs' power and temperature.
"""

from __future__ import annotations

import re

import pytest

from study.lab.case import build_case
from study.lab.load import load_lab
from study.lab.shell import run_line
from study.quiz.instance import instantiate


def _gpu_blocks(text: str) -> dict[int, str]:
    """``nvidia-smi -q``'s per-GPU blocks, by their order (GPU 0 first)."""
    parts = re.split(r"^GPU 0{8}:", text, flags=re.M)[1:]
    return dict(enumerate(parts))


@pytest.mark.parametrize("seed", range(10))
def test_free_memory_key_is_the_free_nvidia_smi_prints(seed: int) -> None:
    case = build_case(load_lab("gpu-memory-free"), seed)
    task = next(q for q in case.questions if q.id.endswith(".free"))
    numeric = instantiate(task, 0).numeric
    assert numeric is not None
    key = numeric.value
    gpu = int(case.vars["gpu"])
    block = _gpu_blocks(run_line(case.system, "nvidia-smi -q -d MEMORY"))[gpu]
    fb = block.split("FB Memory Usage", 1)[1].split("BAR1", 1)[0]
    found = re.search(r"Free\s+:\s+(\d+) MiB", fb)
    assert found
    free = int(found.group(1))
    assert key == free
    query = run_line(case.system, "nvidia-smi --query-gpu=index,memory.free --format=csv")
    assert f"{gpu}, {free} MiB" in query.splitlines()


@pytest.mark.parametrize("seed", range(5))
def test_the_busy_gpu_is_not_at_idle_power_and_temperature(seed: int) -> None:
    case = build_case(load_lab("gpu-memory-free"), seed)
    host = case.system.host
    busy = [g for g in host.gpu_list if g.util_pct >= 50]
    idle = [g for g in host.gpu_list if g.util_pct == 0 and not g.processes]
    assert busy and idle
    for g in busy:
        assert g.power_w > max(i.power_w for i in idle) + 100
        assert g.temp_c > max(i.temp_c for i in idle) + 10
