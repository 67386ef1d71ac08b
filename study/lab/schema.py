"""A lab scenario as data: the simulated system (one GPU host plus its cluster views) and the tasks.

Models are pydantic v2, frozen, ``extra="forbid"`` like the bank's, so a misspelt key is a lint finding.
A lab file is written with ``{var}`` placeholders; :mod:`study.lab.case` draws the variables for a seed and
validates the filled-in ``system`` into a :class:`System`, the immutable state every renderer reads.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from study.lab.draw import DEFAULT_CUDA, DEFAULT_DRIVER, MAX_GPUS, derive_cluster, merge_gpu_defaults
from study.bank.schema import Choice, Id, ObjectiveId, Reference, SourceRef, Text

Name = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9._/-]*$", max_length=80)]
ClockEvent = Literal["idle", "applications_clocks", "sw_power_cap", "hw_slowdown", "hw_thermal",
                     "hw_power_brake", "sync_boost", "sw_thermal", "display_clock"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Process(_Model):
    pid: int = Field(ge=1)
    name: Text
    mem_mib: int = Field(ge=0)
    type: Literal["C", "G", "C+G"] = "C"
    gi: int | None = None
    ci: int | None = None


class MigInstance(_Model):
    """One GPU instance (with one compute instance) on a MIG-enabled GPU."""

    profile: Text
    start: int = Field(ge=0, le=7)
    gi: int = Field(ge=0)
    ci: int = 0
    used_mib: int = Field(default=0, ge=0)


class Ecc(_Model):
    sram_correctable: int = 0
    sram_uncorrectable: int = 0
    dram_correctable: int = 0
    dram_uncorrectable: int = 0
    aggregate_dram_correctable: int = 0
    aggregate_dram_uncorrectable: int = 0


class RowRemap(_Model):
    correctable: int = 0
    uncorrectable: int = 0
    pending: bool = False
    failure: bool = False


class Gpu(_Model):
    index: int = Field(ge=0, le=15)
    temp_c: int = Field(default=33, ge=0, le=120)
    mem_temp_c: int = Field(default=37, ge=0, le=120)
    power_w: float = Field(default=71, ge=0)
    power_cap_w: int | None = Field(default=None, gt=0)
    util_pct: int = Field(default=0, ge=0, le=100)
    mem_util_pct: int = Field(default=0, ge=0, le=100)
    sm_active: float = Field(default=0.0, ge=0, le=1)
    mem_used_mib: int = Field(default=0, ge=0)
    perf: Literal["P0", "P1", "P2", "P5", "P8", "P12"] = "P0"
    sm_clock_mhz: int | None = None
    mem_clock_mhz: int | None = None
    clocks_event: list[ClockEvent] = Field(default_factory=list)
    persistence: bool = True
    ecc: Ecc = Ecc()
    remap: RowRemap = RowRemap()
    mig_enabled: bool = False
    mig: list[MigInstance] = Field(default_factory=list)
    processes: list[Process] = Field(default_factory=list)
    lost: bool = Field(default=False, description="fallen off the bus: nvidia-smi cannot reach it")
    uuid: str | None = None


class Xid(_Model):
    gpu: int = Field(ge=0)
    code: int = Field(ge=1)
    pid: int | None = None
    process: str | None = None
    message: Text
    time: Text = "Tue Nov 24 09:41:07 2026"


class IbPort(_Model):
    ca: Name
    port: int = 1
    state: Literal["Active", "Down", "Initializing", "Armed"] = "Active"
    physical: Literal["LinkUp", "Disabled", "Polling"] = "LinkUp"
    rate: int = 400
    lid: int = 0
    sm_lid: int = 1
    link_layer: Literal["InfiniBand", "Ethernet"] = "InfiniBand"
    netdev: Name
    firmware: Text = "28.39.1002"
    ca_type: Text = "MT4129"
    near_gpu: int | None = None


class HealthIncident(_Model):
    gpu: int
    system: Literal["PCIe", "NVLink", "Memory", "Thermal", "Power", "Inforom", "Driver"]
    health: Literal["Warning", "Failure"]
    message: Text


class DiagResult(_Model):
    test: Text
    result: Literal["Pass", "Fail", "Warn", "Skip"] = "Pass"
    gpu: int | None = None
    message: Text | None = None


class Host(_Model):
    name: Name = "dgx-01"
    model: Text
    gpu_count: int = Field(ge=1, le=MAX_GPUS)
    driver: Text = DEFAULT_DRIVER
    cuda: Text = DEFAULT_CUDA
    dcgm: Text = "3.3.5"
    date: Text = "Tue Nov 24 09:52:11 2026"
    topology: Literal["nvswitch", "pcie"] = "nvswitch"
    nvlink_pairs: list[tuple[int, int]] = Field(default_factory=list)
    gpu_defaults: dict[str, Any] = Field(default_factory=dict)
    gpus: list[Gpu] = Field(default_factory=list)
    xids: list[Xid] = Field(default_factory=list)
    ib: list[IbPort] = Field(default_factory=list)
    health: list[HealthIncident] = Field(default_factory=list)
    diag: list[DiagResult] = Field(default_factory=list)
    kernel_log: list[Text] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _merge_defaults(cls, data: Any) -> Any:
        return merge_gpu_defaults(data)

    def gpu(self, index: int) -> Gpu:
        return next(g for g in self.gpus if g.index == index)

    @property
    def gpu_list(self) -> list[Gpu]:
        return sorted(self.gpus, key=lambda g: g.index)


class K8sEvent(_Model):
    type: Literal["Normal", "Warning"] = "Warning"
    reason: Text
    age: Text = "2m"
    source: Text = "default-scheduler"
    message: Text


class K8sNode(_Model):
    name: Name
    status: Text = "Ready"
    roles: Text = "<none>"
    age: Text = "41d"
    version: Text = "v1.29.4"
    gpu_model: Text | None = None
    gpu_count: int = 0
    gfd: bool = Field(default=True, description="GPU Feature Discovery labels present")
    device_plugin: bool = Field(default=True, description="nvidia.com/gpu advertised")
    product_label: Text | None = None
    mig_strategy: Literal["none", "single", "mixed"] = "none"
    mig_resources: dict[str, int] = Field(default_factory=dict)
    gpus_requested: int = 0
    taints: list[Text] = Field(default_factory=list)
    extra_labels: dict[str, str] = Field(default_factory=dict)


class Pod(_Model):
    name: Name
    namespace: Name = "default"
    ready: Text = "1/1"
    status: Text = "Running"
    restarts: int = 0
    age: Text = "5m"
    node: Text | None = None
    image: Text = "nvcr.io/nvidia/pytorch:24.05-py3"
    gpus: int = 0
    resource: Text = "nvidia.com/gpu"
    node_selector: dict[str, str] = Field(default_factory=dict)
    events: list[K8sEvent] = Field(default_factory=list)


class Kubernetes(_Model):
    nodes: list[K8sNode] = Field(default_factory=list)
    pods: list[Pod] = Field(default_factory=list)
    gpu_operator: bool = True
    # The host's driver and CUDA versions, copied in by System (never written in a lab): GPU Feature
    # Discovery's cuda.* labels and the operator's driver image read these, so they agree with nvidia-smi.
    driver: Text = DEFAULT_DRIVER
    cuda: Text = DEFAULT_CUDA


class SlurmPartition(_Model):
    name: Name
    nodes: list[Name]
    timelimit: Text = "2-00:00:00"
    default: bool = False


class SlurmNode(_Model):
    name: Name
    state: Literal["idle", "mix", "alloc", "drain", "down", "drng"] = "idle"
    gres: Text = "gpu:h100:8"
    gpus_alloc: int = 0
    cpus: int = 112
    cpus_alloc: int = 0
    memory_mb: int = 2000000
    reason: Text | None = None


class SlurmJob(_Model):
    id: int
    partition: Name
    name: Text
    user: Name = "alice"
    state: Literal["PD", "R", "CG", "CD", "F"] = "R"
    time: Text = "0:00"
    nodes: int = 1
    nodelist: Text | None = None
    reason: Text | None = None
    gres: Text = "gpu:8"
    cpus: int = 16
    timelimit: Text = "1-00:00:00"
    exit_code: Text = "0:0"


class Slurm(_Model):
    partitions: list[SlurmPartition] = Field(default_factory=list)
    nodes: list[SlurmNode] = Field(default_factory=list)
    jobs: list[SlurmJob] = Field(default_factory=list)
    version: Text = "23.11.11"


class System(_Model):
    """The simulated state of one case: what every renderer reads."""

    host: Host
    kubernetes: Kubernetes | None = None
    slurm: Slurm | None = None

    @model_validator(mode="before")
    @classmethod
    def _derive(cls, data: Any) -> Any:
        # The cluster views are derived from the host, not written beside it (a one-line hook call, so the
        # quick path in shape.py runs the same derivation).
        return derive_cluster(data)


VarValue = int | float | str


class Pick(_Model):
    """A variable drawn from ``from`` but different from the variables named in ``not``."""

    from_: Annotated[list[VarValue], Field(min_length=1, alias="from")]
    not_: list[Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$")]] = Field(default_factory=list, alias="not")
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Lookup(_Model):
    """A variable that follows another: ``{by: first, map: {"3g.40gb": 2, "4g.40gb": 1}}``."""

    by: Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$")]
    map: dict[str, VarValue]


VarSpec = Annotated[list[VarValue], Field(min_length=1)] | Pick | Lookup


class Task(_Model):
    """One graded question about the case, asked like a bank question (single, multi or numeric)."""

    id: Id
    type: Literal["single", "multi", "numeric"]
    stem: Text
    choices: list[Choice] | None = None
    choose: int | None = Field(default=None, ge=2)
    # Validated as the bank's NumericAnswer once filled in: ``value: "{free_mib}"`` is a placeholder here.
    answer: dict[str, Any] | None = None
    explanation: Text
    objective: ObjectiveId | None = None
    difficulty: int | None = Field(default=None, ge=1, le=3)


class Lab(_Model):
    id: Id
    title: Text
    objectives: Annotated[list[ObjectiveId], Field(min_length=1)]
    difficulty: int = Field(default=1, ge=1, le=3)
    brief: Text
    commands: Annotated[list[Text], Field(min_length=1)]
    references: Annotated[list[Reference], Field(min_length=1)]
    verified: dt.date
    volatile: bool = False
    vars: dict[Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]*$")], VarSpec] = Field(default_factory=dict)
    system: dict[str, Any]
    tasks: Annotated[list[Task], Field(min_length=1)]
    source: SourceRef | None = Field(default=None, exclude=True)
