"""The --run cache: a case read back from JSON renders exactly what the validated case renders."""

from __future__ import annotations

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
        first = cached_system(lab.id, seed)  # a miss: the validated System, written to the cache
        again = cached_system(lab.id, seed)  # a hit: the JSON view
        assert type(first).__name__ == "System" and type(again).__name__ == "View"
        case = build_case(lab, seed)
        for cmd in lab.commands + ["nvidia-smi", "nvidia-smi -q", "kubectl get pods -A", "sinfo", "ibstat"]:
            assert run_line(again, cmd) == run_line(case.system, cmd), cmd


def test_a_damaged_cache_file_is_ignored(tmp_path, monkeypatch):
    cached_system("power-cap", 3)
    for f in (tmp_path / "lab-cache").iterdir():
        f.write_text("{not json")
    assert type(cached_system("power-cap", 3)).__name__ == "System"


def test_unknown_or_odd_lab_ids_are_lab_errors():
    for bad in ("nope", "../etc/passwd", "A B"):
        with pytest.raises(LabError):
            cached_system(bad, 0)


def test_a_cache_hit_imports_no_pydantic(tmp_path):
    code = ("import sys; from study.cli import main; main(['lab', 'power-cap', '--run', 'nvidia-smi']); "
            "main(['lab', 'power-cap', '--run', 'nvidia-smi']) if 'pydantic' in sys.modules else None; "
            "sys.modules.pop('pydantic', None)")
    env = {"STUDY_LAB_CACHE": str(tmp_path / "c"), "PATH": ""}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    probe = ("import sys; from study.cli import main; main(['lab', 'power-cap', '--run', 'nvidia-smi']); "
             "print('pydantic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True, text=True).stdout
    assert out.strip().endswith("False")


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
