"""The --run path: a case checked without pydantic, or read back from the cache, renders exactly what the
validated case renders."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from study.lab.case import build_case
from study.lab.load import all_labs
from study.lab.quick import cached_system
from study.lab.shell import run_line
from study.lab.where import LabError


@pytest.mark.parametrize("lab", all_labs(), ids=lambda lab: lab.id)
def test_cached_case_renders_every_command_like_the_validated_one(lab):
    for seed in (0, 1):
        first = cached_system(lab.id, seed)  # a miss: checked by study.lab.shape, written to the cache
        again = cached_system(lab.id, seed)  # a hit: read back
        case = build_case(lab, seed)
        for cmd in lab.commands + ["nvidia-smi", "nvidia-smi -q", "kubectl get pods -A", "sinfo", "ibstat"]:
            want = run_line(case.system, cmd)
            assert run_line(first, cmd) == want, cmd
            assert run_line(again, cmd) == want, cmd


def test_a_damaged_cache_file_is_ignored_and_rewritten(tmp_path, monkeypatch):
    want = run_line(build_case(next(lab for lab in all_labs() if lab.id == "power-cap"), 3).system, "nvidia-smi")
    cached_system("power-cap", 3)
    files = list((tmp_path / "lab-cache").iterdir())
    assert files
    for f in files:
        f.write_text("{not json")
    assert run_line(cached_system("power-cap", 3), "nvidia-smi") == want
    assert all(json.loads(f.read_text()) for f in files)


def test_unknown_or_odd_lab_ids_are_lab_errors():
    for bad in ("nope", "../etc/passwd", "A B"):
        with pytest.raises(LabError):
            cached_system(bad, 0)


@pytest.mark.parametrize("cache", ["empty", "filled", "off"])
def test_a_run_imports_no_pydantic_whether_or_not_the_case_is_cached(tmp_path, cache):
    # Building pydantic's models costs more than the whole command may take (bench/lab_run.py).
    env = {"STUDY_LAB_CACHE": "" if cache == "off" else str(tmp_path / "c"), "PATH": ""}
    probe = ("import sys; from study.cli import main; main(['lab', 'thermal-slowdown', '--run', 'nvidia-smi', "
             "'--seed', '7']); print('pydantic' in sys.modules)")
    runs = 2 if cache == "filled" else 1
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True)
    assert "NVIDIA-SMI" in out.stdout
    assert out.stdout.strip().endswith("False")
    assert (tmp_path / "c").is_dir() == (cache != "off")


def test_every_mapping_field_of_the_system_stays_a_dict_in_the_view():
    import typing

    from pydantic import BaseModel

    from study.lab import schema
    from study.lab.view import MAPPINGS

    found = set()
    for model in vars(schema).values():
        if isinstance(model, type) and issubclass(model, BaseModel) and model not in (schema.Lab, schema.Lookup):
            for name, field in model.model_fields.items():
                if typing.get_origin(field.annotation) is dict:
                    found.add(name)
    assert found == set(MAPPINGS)
