"""The GPU, model and interconnect catalog (``content/specs/*.yaml``), loaded and validated once.

Ids are slugs (``h100-sxm``, ``llama-2-70b``, ``nvlink-4``); look-ups ignore case, spaces, dots, hyphens and
underscores, accept the aliases listed in the YAML, and suggest the nearest ids on a miss.
Tensor throughput is stored dense and sparse separately and ``peak()`` is dense unless asked: vendor pages
print sparse figures for Hopper and Blackwell, and mixing them up doubles every MFU (calculator.md, pitfall 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from study.calc.units import BANDWIDTH, BYTES, FLOP_RATE, POWER, Dim, Quantity, parse_quantity


class CatalogError(LookupError, ValueError):
    """An unknown id (with suggestions) or an invalid catalog file."""


_T = TypeVar("_T")

_NORM = re.compile(r"[\s._\-/]+")


def normalize(key: str) -> str:
    return _NORM.sub("", key.strip().lower())


@dataclass(frozen=True)
class GPU:
    id: str
    name: str
    architecture: str
    memory_bytes: float
    memory_type: str
    bandwidth_bytes_s: float
    tdp_watts: float
    dense: dict[str, float]  # TFLOP/s (TOPS for integer formats), tensor cores, without sparsity
    sparse: dict[str, float]  # with 2:4 structured sparsity; empty on GPUs without it
    fp32_tflops: float | None
    nvlink: str | None
    nvlink_bandwidth_bytes_s: float | None  # bidirectional total per GPU, as NVIDIA quotes it
    pcie: str | None
    mig: int
    form_factor: str
    source: str
    notes: str = ""
    volatile: bool = False
    aliases: tuple[str, ...] = ()

    @property
    def memory(self) -> Quantity:
        return Quantity(self.memory_bytes, BYTES)

    @property
    def bandwidth(self) -> Quantity:
        return Quantity(self.bandwidth_bytes_s, BANDWIDTH)

    @property
    def tdp(self) -> Quantity:
        return Quantity(self.tdp_watts, POWER)

    @property
    def nvlink_bw(self) -> Quantity | None:
        b = self.nvlink_bandwidth_bytes_s
        return None if b is None else Quantity(b, BANDWIDTH)

    def peak_flops(self, dtype: str = "bf16", sparse: bool = False) -> float:
        """Peak tensor FLOP/s for ``dtype``; dense unless ``sparse``. ``fp32`` is the non-tensor rate."""
        from study.calc.registry import DTYPE_ALIASES

        d = DTYPE_ALIASES.get(normalize(dtype), normalize(dtype))
        if d == "fp32" and not sparse:
            if self.fp32_tflops is None:
                raise CatalogError(f"{self.name}: no FP32 figure in the catalog")
            return self.fp32_tflops * 1e12
        table = self.sparse if sparse else self.dense
        if d not in table:
            kind = "sparse" if sparse else "dense"
            have = ", ".join(sorted(table)) or "none"
            raise CatalogError(f"{self.name} has no {kind} {d} tensor throughput (catalog has: {have})")
        return table[d] * 1e12

    def peak(self, dtype: str = "bf16", sparse: bool = False) -> Quantity:
        return Quantity(self.peak_flops(dtype, sparse), FLOP_RATE)


@dataclass(frozen=True)
class Model:
    id: str
    name: str
    params: float
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int
    vocab: int
    context: int
    active_params: float
    experts: int = 1
    experts_per_token: int = 1
    gated_mlp: bool = True
    params_exact: bool = True
    source: str = ""
    notes: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def is_moe(self) -> bool:
        return self.experts > 1


@dataclass(frozen=True)
class Link:
    id: str
    name: str
    kind: str  # nvlink | pcie | infiniband | ethernet
    per_direction_bytes_s: float
    bidirectional_bytes_s: float
    quoted: str  # how the vendor quotes it, e.g. "900 GB/s bidirectional" or "400 Gb/s per port"
    source: str
    notes: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def per_direction(self) -> Quantity:
        return Quantity(self.per_direction_bytes_s, BANDWIDTH)

    @property
    def bidirectional(self) -> Quantity:
        return Quantity(self.bidirectional_bytes_s, BANDWIDTH)


@dataclass
class Catalog:
    gpus: dict[str, GPU] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    links: dict[str, Link] = field(default_factory=dict)
    _index: dict[str, dict[str, str]] = field(default_factory=dict)

    def find(self, kind: str, key: str) -> GPU | Model | Link:
        """Look ``key`` up in the ``kind`` table (``gpu``, ``model`` or ``link``)."""
        if kind == "gpu":
            return self.gpu(key)
        if kind == "model":
            return self.model(key)
        if kind == "link":
            return self.link(key)
        raise CatalogError(f"unknown catalog kind {kind!r}")

    def _lookup(self, kind: str, table: dict[str, _T], key: str) -> _T:
        if key in table:
            return table[key]
        idx = self._index[kind]
        hit = idx.get(normalize(key))
        if hit is not None:
            return table[hit]
        import difflib

        near = difflib.get_close_matches(normalize(key), list(idx), n=3, cutoff=0.5)
        ids = list(dict.fromkeys(idx[n] for n in near))
        hint = f"; did you mean {', '.join(ids)}?" if ids else f"; try `study calc {kind}s`"
        raise CatalogError(f"unknown {kind} {key!r}{hint}")

    def ambiguous(self, kind: str, key: str) -> list[str]:
        """The parts ``key`` could mean when it names more than one, else ``[]``.

        ``h100`` resolves to the H100 SXM (an alias), but the PCIe card and the NVL match it too; a lint
        that accepted it would give an author who meant the PCIe card the wrong figures. A key is ambiguous
        when it is not an id itself and each of its words starts a word of two or more ids (``a100 80gb``:
        the SXM and the PCIe 80 GB)."""
        table: dict[str, GPU] | dict[str, Model] | dict[str, Link] = (
            self.gpus if kind == "gpu" else self.models if kind == "model" else self.links)
        if key in table or normalize(key) in {normalize(i) for i in table}:
            return []
        words = [w for w in _NORM.split(key.strip().lower()) if w]
        if not words:
            return []
        hits = [i for i in table
                if all(any(part.startswith(w) for part in _NORM.split(i.lower())) for w in words)]
        return hits if len(hits) > 1 else []

    def gpu(self, key: str) -> GPU:
        return self._lookup("gpu", self.gpus, key)

    def model(self, key: str) -> Model:
        return self._lookup("model", self.models, key)

    def link(self, key: str) -> Link:
        return self._lookup("link", self.links, key)


def _specs_dir() -> Path:
    from study import paths

    return paths.specs_dir()


# A catalog file is a few tens of kB; anything far larger is not one.
MAX_CATALOG_BYTES = 4_000_000


def _cache_file(path: Path, raw: bytes) -> Path | None:
    """Where the parsed form of this exact file content is kept, or None when there is no cache folder.

    The name carries a hash of the bytes, so an edited catalog is parsed afresh and a cache is never stale."""
    import hashlib

    from study.paths import cache_folder

    folder = cache_folder("catalog", "STUDY_CALC_CACHE")
    return None if folder is None else folder / f"{path.stem}-{hashlib.sha256(raw).hexdigest()[:24]}.json"


def _load_yaml(path: Path) -> Any:
    """The parsed catalog file. Parsed once per content: PyYAML costs ``study calc`` some 35 ms to import and
    parse, the JSON copy in the user cache about 1 ms. The copy is only an accelerator: it is size-bounded, a
    damaged or unreadable one is ignored, and what it holds is validated like the YAML it came from."""
    import json

    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_CATALOG_BYTES + 1)
    except OSError as exc:
        raise CatalogError(f"cannot read catalog file {path}: {exc}") from None
    if len(raw) > MAX_CATALOG_BYTES:
        raise CatalogError(f"{path}: larger than {MAX_CATALOG_BYTES:,} bytes: not a catalog file")
    cache = _cache_file(path, raw)
    if cache is not None:
        try:
            if cache.stat().st_size <= MAX_CATALOG_BYTES:
                return json.loads(cache.read_bytes())
        except (OSError, ValueError, RecursionError):
            pass
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        data = yaml.load(raw.decode("utf-8"), Loader=loader)
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{path}: not UTF-8 text: {exc}") from None
    except yaml.YAMLError as exc:
        raise CatalogError(f"{path}: invalid YAML: {exc}") from None
    if cache is not None:
        _keep(cache, data)
    return data


def _keep(cache: Path, data: Any) -> None:
    import json

    try:
        text = json.dumps(data)
        if json.loads(text) != data:  # dates or non-string keys would come back changed: parse the YAML each time
            return
    except (TypeError, ValueError):
        return
    from study.paths import write_cache

    write_cache(cache, text.encode("utf-8"))  # a read-only or full cache folder only costs speed


class _Entry:
    """Typed access to one YAML mapping with errors that name the file and entry."""

    def __init__(self, path: Path, key: str, data: Any) -> None:
        if not isinstance(data, dict):
            raise CatalogError(f"{path.name}: {key}: expected a mapping")
        self.path, self.key, self.data = path, key, data
        self.used: set[str] = set()

    def fail(self, msg: str) -> CatalogError:
        return CatalogError(f"{self.path.name}: {self.key}: {msg}")

    def get(self, name: str, default: Any = ..., kind: type | tuple[type, ...] | None = None) -> Any:
        self.used.add(name)
        if name not in self.data or self.data[name] is None:
            if default is ...:
                raise self.fail(f"missing field {name!r}")
            return default
        v = self.data[name]
        if kind is not None and not isinstance(v, kind):
            raise self.fail(f"field {name!r} should be {kind}, got {v!r}")
        return v

    def qty(self, name: str, dim: Dim) -> float:
        """A required quantity in ``dim``'s unit, as a plain SI float."""
        return self._to(name, dim, self.get(name))

    def qty_opt(self, name: str, dim: Dim) -> float | None:
        """An optional quantity: ``None`` when the field is absent or null."""
        v = self.get(name, None)
        return None if v is None else self._to(name, dim, v)

    def _to(self, name: str, dim: Dim, v: object) -> float:
        try:
            q = parse_quantity(str(v))
        except ValueError as exc:
            raise self.fail(f"{name}: {exc}") from None
        if q.dim != dim:
            raise self.fail(f"{name}: {v!r} has the wrong unit")
        return float(q.value)

    def done(self) -> None:
        extra = set(self.data) - self.used
        if extra:
            raise self.fail(f"unknown field(s) {', '.join(sorted(extra))}")


def _rates(e: _Entry, name: str) -> dict[str, float]:
    table = e.get(name, {}, dict)
    out = {}
    for k, v in table.items():
        if k not in ("fp64", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "fp4", "fp6"):
            raise e.fail(f"{name}: unknown precision {k!r}")
        if not isinstance(v, (int, float)) or v <= 0:
            raise e.fail(f"{name}.{k}: expected a positive number of TFLOP/s, got {v!r}")
        out[k] = float(v)
    return out


def load(specs: Path | None = None) -> Catalog:
    """Read and validate the three catalog files; raises ``CatalogError`` naming the bad entry."""
    specs = specs or _specs_dir()
    cat = Catalog()
    index: dict[str, dict[str, str]] = {"gpu": {}, "model": {}, "link": {}}

    def add(kind: str, id_: str, aliases: tuple[str, ...]) -> None:
        for key in (id_, *aliases):
            n = normalize(key)
            prev = index[kind].get(n)
            if prev is not None and prev != id_:
                raise CatalogError(f"{kind} alias {key!r} is used by both {prev} and {id_}")
            index[kind][n] = id_

    gp = specs / "gpus.yaml"
    for id_, data in (_load_yaml(gp) or {}).get("gpus", {}).items():
        e = _Entry(gp, id_, data)
        dense, sparse = _rates(e, "dense_tflops"), _rates(e, "sparse_tflops")
        for k, v in sparse.items():
            if k in dense and abs(v - 2 * dense[k]) > 0.02 * v:
                raise e.fail(f"sparse {k} {v} is not twice dense {dense[k]}: check the datasheet footnote")
        g = GPU(
            id=id_,
            name=e.get("name", kind=str),
            architecture=e.get("architecture", kind=str),
            memory_bytes=e.qty("memory", BYTES),
            memory_type=e.get("memory_type", kind=str),
            bandwidth_bytes_s=e.qty("bandwidth", BANDWIDTH),
            tdp_watts=e.qty("tdp", POWER),
            dense=dense,
            sparse=sparse,
            fp32_tflops=e.get("fp32_tflops", None, (int, float)),
            nvlink=e.get("nvlink", None, str),
            nvlink_bandwidth_bytes_s=e.qty_opt("nvlink_bandwidth", BANDWIDTH),
            pcie=e.get("pcie", None, str),
            mig=e.get("mig", 0, int),
            form_factor=e.get("form_factor", "", str),
            source=e.get("source", kind=str),
            notes=str(e.get("notes", "")).strip(),
            volatile=e.get("volatile", False, bool),
            aliases=tuple(e.get("aliases", [], list)),
        )
        e.done()
        cat.gpus[id_] = g
        add("gpu", id_, g.aliases)

    mp = specs / "models.yaml"
    for id_, data in (_load_yaml(mp) or {}).get("models", {}).items():
        e = _Entry(mp, id_, data)
        heads = e.get("heads", kind=int)
        hidden = e.get("hidden", kind=int)
        params = float(e.get("params", kind=(int, float)))
        m = Model(
            id=id_,
            name=e.get("name", kind=str),
            params=params,
            layers=e.get("layers", kind=int),
            hidden=hidden,
            heads=heads,
            kv_heads=e.get("kv_heads", heads, int),
            head_dim=e.get("head_dim", hidden // heads, int),
            ffn=e.get("ffn", kind=int),
            vocab=e.get("vocab", kind=int),
            context=e.get("context", kind=int),
            active_params=float(e.get("active_params", params, (int, float))),
            experts=e.get("experts", 1, int),
            experts_per_token=e.get("experts_per_token", 1, int),
            gated_mlp=e.get("gated_mlp", True, bool),
            params_exact=e.get("params_exact", True, bool),
            source=e.get("source", kind=str),
            notes=str(e.get("notes", "")).strip(),
            aliases=tuple(e.get("aliases", [], list)),
        )
        e.done()
        if m.heads % m.kv_heads:
            raise e.fail("heads must be a multiple of kv_heads")
        if m.active_params > m.params:
            raise e.fail("active_params exceeds params")
        cat.models[id_] = m
        add("model", id_, m.aliases)

    lp = specs / "interconnects.yaml"
    for id_, data in (_load_yaml(lp) or {}).get("links", {}).items():
        e = _Entry(lp, id_, data)
        kind = e.get("kind", kind=str)
        if kind not in ("nvlink", "pcie", "infiniband", "ethernet"):
            raise e.fail(f"unknown kind {kind!r}")
        link = Link(
            id=id_,
            name=e.get("name", kind=str),
            kind=kind,
            per_direction_bytes_s=e.qty("per_direction", BANDWIDTH),
            bidirectional_bytes_s=e.qty("bidirectional", BANDWIDTH),
            quoted=e.get("quoted", kind=str),
            source=e.get("source", kind=str),
            notes=str(e.get("notes", "")).strip(),
            aliases=tuple(e.get("aliases", [], list)),
        )
        e.done()
        cat.links[id_] = link
        add("link", id_, link.aliases)

    for g in cat.gpus.values():
        for ref in (g.nvlink, g.pcie):
            if ref is not None and ref not in cat.links:
                raise CatalogError(f"gpus.yaml: {g.id}: unknown link {ref!r}")
    cat._index = index
    return cat


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The built-in catalog, loaded on first use and cached for the life of the process."""
    return load()


def gpu(key: str) -> GPU:
    return catalog().gpu(key)


def model(key: str) -> Model:
    return catalog().model(key)


def link(key: str) -> Link:
    return catalog().link(key)
