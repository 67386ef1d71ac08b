"""A read-only attribute view over a system as plain JSON data, for cached cases.

``study lab ID --run`` is typed like a shell command, so it must answer fast and never builds pydantic models:
its case is JSON data (what ``System.model_dump(mode="json")`` gives, checked by :mod:`study.lab.shape` or
read back from the cache) seen through this view, which offers the same attributes and the two helpers the
renderers use (``Host.gpu_list`` and ``Host.gpu``).
"""

from __future__ import annotations

from typing import Any


# Fields that are mappings in the schema (dict[str, ...]), not nested models: they stay plain dicts.
MAPPINGS = frozenset({"mig_resources", "node_selector", "extra_labels", "gpu_defaults"})


def wrap(value: Any) -> Any:
    if isinstance(value, dict):
        return HostView(value) if "gpu_count" in value and "gpus" in value else View(value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    return value


class View:
    __slots__ = ("_data",)

    def __init__(self, data: dict[str, Any]) -> None:
        object.__setattr__(self, "_data", data)

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._data[name]
            return value if name in MAPPINGS else wrap(value)
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a case is read-only")


class HostView(View):
    __slots__ = ()

    @property
    def gpu_list(self) -> list[Any]:
        return sorted(self.gpus, key=lambda g: g.index)

    def gpu(self, index: int) -> Any:
        return next(g for g in self.gpus if g.index == index)


# The fields of a Pod the GPU Operator's generated pods need (study.lab.schema.Pod's defaults).
POD_DEFAULTS: dict[str, Any] = {"namespace": "default", "ready": "1/1", "status": "Running", "restarts": 0,
                                "age": "5m", "node": None, "image": "nvcr.io/nvidia/pytorch:24.05-py3", "gpus": 0,
                                "resource": "nvidia.com/gpu", "node_selector": {}, "events": []}


def pod(**fields: Any) -> View:
    return View({**POD_DEFAULTS, **fields})
