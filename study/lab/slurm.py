"""``sinfo``, ``squeue``, ``scontrol show node|job``, ``sacct``.

Follows ``slurm_sinfo_h100_1.txt`` (Slurm 23.11: ``PARTITION AVAIL TIMELIMIT NODES STATE NODELIST``, one row
per partition and state, ``*`` on the default partition), ``slurm_squeue_pending_1.txt`` (the default
format ``%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R``), ``slurm_scontrol_show_node_h100_1.txt`` (Slurm 23.11.11:
``Gres=gpu:H100:8(S:0-1)``, CfgTRES/AllocTRES, 3-space continuation indent) and ``slurm_sacct_gres_1.txt``
(the accounting columns and ``gres/gpu`` in AllocTRES).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import datetime as dt

from study.lab.common import unknown

if TYPE_CHECKING:
    from study.lab.schema import Slurm, SlurmJob, SlurmNode

_STATE = {"idle": "IDLE", "mix": "MIXED", "alloc": "ALLOCATED", "drain": "IDLE+DRAIN", "down": "DOWN",
          "drng": "MIXED+DRAIN"}
_JOB_STATE = {"PD": "PENDING", "R": "RUNNING", "CG": "COMPLETING", "CD": "COMPLETED", "F": "FAILED"}


def _hostlist(names: list[str]) -> str:
    """Slurm's compressed host list (``gpu[01-03,05]``) for names sharing a prefix and a digit width."""
    if not names:
        return ""
    import re

    parts = [m for m in (re.fullmatch(r"(.*?)(\d+)", n) for n in names) if m]
    if len(parts) != len(names) or len(names) == 1 or len({(p.group(1), len(p.group(2))) for p in parts}) != 1:
        return ",".join(names)
    prefix, width = parts[0].group(1), len(parts[0].group(2))
    nums = sorted(int(p.group(2)) for p in parts)
    runs: list[str] = []
    start = prev = nums[0]
    for n in [*nums[1:], -1]:  # -1 closes the last run
        if n == prev + 1:
            prev = n
            continue
        runs.append(f"{start:0{width}d}" if start == prev else f"{start:0{width}d}-{prev:0{width}d}")
        start = prev = n
    return f"{prefix}[{','.join(runs)}]"


def sinfo(s: Slurm) -> str:
    rows = [f"{'PARTITION':<13} {'AVAIL':>5}  {'TIMELIMIT':>9}  {'NODES':>5}  {'STATE':>5} NODELIST"]
    for p in s.partitions:
        by_state: dict[str, list[str]] = {}
        for n in s.nodes:
            if n.name in p.nodes:
                by_state.setdefault(n.state, []).append(n.name)
        name = p.name + ("*" if p.default else "")
        for state in ("mix", "alloc", "idle", "drng", "drain", "down"):
            if state in by_state:
                names = by_state[state]
                rows.append(f"{name:<13} {'up':>5}  {p.timelimit:>9}  {len(names):>5}  {state:>5} {_hostlist(names)}")
    return "\n".join(rows)


def _reason(j: SlurmJob) -> str:
    return f"({j.reason})" if j.state == "PD" else (j.nodelist or "")


def squeue(s: Slurm, user: str | None = None) -> str:
    rows = [f"{'JOBID':>18} {'PARTITION':>9} {'NAME':>8} {'USER':>8} {'ST':>2} {'TIME':>10} {'NODES':>6} NODELIST(REASON)"]
    for j in s.jobs:
        if j.state in ("CD", "F") or (user and j.user != user):
            continue
        rows.append(f"{j.id:>18} {j.partition[:9]:>9} {j.name[:8]:>8} {j.user[:8]:>8} {j.state:>2} {j.time:>10} "
                    f"{j.nodes:>6} {_reason(j)}")
    return "\n".join(rows)


def _gres_count(gres: str) -> int:
    try:
        return int(gres.rsplit(":", 1)[-1].split("(")[0])
    except ValueError:
        return 0


def _mem(mb: int) -> str:
    """A memory TRES as Slurm prints it: whole GiB/TiB get their unit (327680M -> 320G), others stay M."""
    for unit in ("T", "G"):
        size = 1024 ** (2 if unit == "T" else 1)
        if mb and mb % size == 0:
            return f"{mb // size}{unit}"
    return f"{mb}M"


def _spec(cpus: int) -> tuple[int, str]:
    """CoreSpecCount=8 as in the sample: the last 4 cores of each of the 2 sockets are kept for the system."""
    half = cpus // 2
    return 8, f"{half - 4}-{half - 1},{cpus - 4}-{cpus - 1}"


def show_node(s: Slurm, name: str) -> str:
    n: SlurmNode | None = next((x for x in s.nodes if x.name == name), None)
    if n is None:
        return f"Node {name} not found"
    parts = [p.name for p in s.partitions if name in p.nodes]
    gpus = _gres_count(n.gres)
    typed = n.gres.split(":")
    gres = f"gpu:{typed[1].upper()}:{typed[2]}(S:0-1)" if len(typed) == 3 else n.gres
    spec, spec_list = _spec(n.cpus)
    efctv = n.cpus - spec  # CPUs left to jobs; CfgTRES counts these, as the sample's 104 of 112 shows
    lines = [f"NodeName={n.name} Arch=x86_64 CoresPerSocket={n.cpus // 2}",
             f"   CPUAlloc={n.cpus_alloc} CPUEfctv={efctv} CPUTot={n.cpus} CPULoad={n.cpus_alloc * 0.9:.2f}",
             "   AvailableFeatures=(null)", "   ActiveFeatures=(null)", f"   Gres={gres}",
             f"   NodeAddr={n.name} NodeHostName={n.name} Version={s.version}",
             "   OS=Linux 5.15.0-112-generic #122-Ubuntu SMP Tue May 14 16:28:07 UTC 2024",
             f"   RealMemory={n.memory_mb} AllocMem={n.cpus_alloc * 8192} FreeMem={n.memory_mb // 2} Sockets=2 Boards=1",
             f"   CoreSpecCount={spec} CPUSpecList={spec_list}",
             f"   State={_STATE[n.state]} ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A",
             f"   Partitions={','.join(parts)}",
             "   BootTime=2026-11-02T08:15:24 SlurmdStartTime=2026-11-02T08:17:41",
             "   LastBusyTime=2026-11-24T09:30:12 ResumeAfterTime=None",
             f"   CfgTRES=cpu={efctv},mem={_mem(n.memory_mb)},billing={efctv},gres/gpu={gpus}",
             "   AllocTRES=" + (f"cpu={n.cpus_alloc},mem={_mem(n.cpus_alloc * 8192)},gres/gpu={n.gpus_alloc}"
                               if n.cpus_alloc or n.gpus_alloc else ""),
             "   CapWatts=n/a", "   CurrentWatts=0 AveWatts=0", "   ExtSensorsJoules=n/a ExtSensorsWatts=0 ExtSensorsTemp=n/a"]
    if n.reason:
        lines.append(f"   Reason={n.reason} [root@2026-11-24T08:02:11]")
    return "\n".join(lines)


NOW = dt.datetime(2026, 11, 24, 9, 52, 11)  # the labs' "now" (Host.date)


def _secs(t: str) -> int:
    """Slurm's [D-][HH:]MM:SS as seconds."""
    days, _, rest = t.rpartition("-")
    parts = [int(x) for x in rest.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return (int(days) if days else 0) * 86400 + parts[0] * 3600 + parts[1] * 60 + parts[2]


def _span(secs: int) -> str:
    """secs2time_str: D-HH:MM:SS once a day is reached, else HH:MM:SS."""
    d, r = divmod(secs, 86400)
    clock = f"{r // 3600:02d}:{r % 3600 // 60:02d}:{r % 60:02d}"
    return f"{d}-{clock}" if d else clock


def _iso(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%S")


def show_job(s: Slurm, job_id: str) -> str:
    """Slurm 23.11.11's slurm_sprint_job_info (src/api/job_info.c): its lines, in its order."""
    j = next((x for x in s.jobs if str(x.id) == job_id), None)
    if j is None:
        return "slurm_load_jobs error: Invalid job id specified"
    pending = j.state == "PD"
    gpus = _gres_count(j.gres) * j.nodes
    mem = _mem(j.cpus * 8192)
    tres = f"cpu={j.cpus},mem={mem},node={j.nodes},billing={j.cpus},gres/gpu={gpus}"
    run = 0 if pending else _secs(j.time)
    start = NOW - dt.timedelta(seconds=run)
    submit = (NOW - dt.timedelta(minutes=61)) if pending else start - dt.timedelta(seconds=47)
    limit = _secs(j.timelimit)
    lines = [f"JobId={j.id} JobName={j.name}", f"UserId={j.user}(1001) GroupId={j.user}(1001) MCS_label=N/A",
             "Priority=4294901743 Nice=0 Account=research QOS=normal",
             f"JobState={_JOB_STATE[j.state]} Reason={j.reason if pending and j.reason else 'None'} Dependency=(null)",
             f"Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode={j.exit_code}",
             f"RunTime={_span(run)} TimeLimit={j.timelimit} TimeMin=N/A",
             f"SubmitTime={_iso(submit)} EligibleTime={_iso(submit)}", f"AccrueTime={_iso(submit)}",
             "StartTime=Unknown EndTime=Unknown Deadline=N/A" if pending else
             f"StartTime={_iso(start)} EndTime={_iso(start + dt.timedelta(seconds=limit))} Deadline=N/A",
             f"SuspendTime=None SecsPreSuspend=0 LastSchedEval={_iso(NOW if pending else start)} Scheduler=Main",
             f"Partition={j.partition} AllocNode:Sid=login01:81234", "ReqNodeList=(null) ExcNodeList=(null)",
             f"NodeList={j.nodelist if not pending and j.nodelist else '(null)'}"]
    if not pending and j.nodelist:
        lines.append(f"BatchHost={_first_host(j.nodelist)}")
    lines += [f"NumNodes={f'{j.nodes}-{j.nodes}' if pending else j.nodes} NumCPUs={j.cpus} NumTasks={j.nodes} "
              f"CPUs/Task={max(1, j.cpus // max(1, j.nodes))} ReqB:S:C:T=0:0:*:*",
              f"ReqTRES={tres}", f"AllocTRES={'(null)' if pending else tres}",
              "Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*",
              f"MinCPUsNode={max(1, j.cpus // max(1, j.nodes))} MinMemoryNode={_mem(j.cpus * 8192 // max(1, j.nodes))} "
              "MinTmpDiskNode=0",
              "Features=(null) DelayBoot=00:00:00", "OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)",
              f"Command=/home/{j.user}/{j.name}.sbatch", f"WorkDir=/home/{j.user}",
              f"StdErr=/home/{j.user}/slurm-{j.id}.out", "StdIn=/dev/null", f"StdOut=/home/{j.user}/slurm-{j.id}.out",
              "Power=", f"TresPerNode=gres/{j.gres}"]
    return "\n   ".join(lines)


def _first_host(nodelist: str) -> str:
    """The first host of a compressed list (``hgx[01-02]`` -> ``hgx01``): the batch host."""
    import re

    m = re.fullmatch(r"(.*?)\[(\d+)[^]]*\]", nodelist)
    return m.group(1) + m.group(2) if m else nodelist.split(",")[0]


# sacct's default columns (man sacct: JobID, JobName, Partition, Account, AllocCPUS, State, ExitCode) and the
# sample's --format list; each is (name, width, left-aligned). JobID is the one left-aligned column.
DEFAULT_FORMAT = [("JobID", 12, True), ("JobName", 10, False), ("Partition", 10, False), ("Account", 10, False),
                  ("AllocCPUS", 10, False), ("State", 10, False), ("ExitCode", 8, False)]
SAMPLE_FORMAT = "JobID,JobName,Partition,AllocTRES%40,State,ExitCode,Elapsed"
_WIDTH = {"JobID": 12, "JobName": 10, "Partition": 10, "Account": 10, "AllocCPUS": 10, "AllocTRES": 10,
          "State": 10, "ExitCode": 8, "Elapsed": 10}


def _format(spec: str) -> list[tuple[str, int, bool]] | None:
    cols = []
    for item in spec.split(","):
        name, _, width = item.partition("%")
        if name not in _WIDTH or (width and not width.isdigit()):
            return None
        cols.append((name, int(width) if width else _WIDTH[name], name == "JobID"))
    return cols


def _rows(j: SlurmJob) -> list[dict[str, str]]:
    """The job's row and, once it has run, its batch step's row (as the sample's ``1`` / ``1.batch``)."""
    gpus = _gres_count(j.gres)
    mem = _mem(j.cpus * 8192)
    elapsed = j.time if j.time.count(":") == 2 else f"00:{j.time:0>5}"
    ran = j.state != "PD"
    job = {"JobID": str(j.id), "JobName": j.name, "Partition": j.partition, "Account": "research",
           "AllocCPUS": str(j.cpus if ran else 0), "State": _JOB_STATE[j.state], "ExitCode": j.exit_code,
           "Elapsed": elapsed if ran else "00:00:00",
           "AllocTRES": f"billing={j.cpus},cpu={j.cpus},gres/gpu={gpus * j.nodes},mem={mem},node={j.nodes}" if ran else ""}
    if not ran:
        return [job]
    per_node = j.cpus // max(1, j.nodes)
    step = {**job, "JobID": f"{j.id}.batch", "JobName": "batch", "Partition": "", "AllocCPUS": str(per_node),
            "AllocTRES": f"cpu={per_node},gres/gpu={gpus},mem={_mem(per_node * 8192)},node=1"}
    return [job, step]


def sacct(s: Slurm, fmt: str | None = None) -> str:
    cols = _format(fmt) if fmt else DEFAULT_FORMAT
    if cols is None:
        return f"sacct: error: Invalid field requested: \"{fmt}\""

    def line(cells: dict[str, str]) -> str:
        # sacct truncates a value to its column and marks the cut with a trailing +.
        out = []
        for name, width, left in cols:
            v = cells.get(name, "")
            v = v if len(v) <= width else v[:width - 1] + "+"
            out.append(v.ljust(width) if left else v.rjust(width))
        return " ".join(out)

    rows = [line({n: n for n, _, _ in cols}), " ".join("-" * w for _, w, _ in cols)]
    for j in s.jobs:
        rows += [line(r) for r in _rows(j)]
    return "\n".join(rows)


def run(s: Slurm | None, tool: str, argv: list[str]) -> str:
    if s is None:
        return f"{tool}: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host"
    if tool == "sinfo" and not argv:
        return sinfo(s)
    if tool == "squeue" and not argv:
        return squeue(s)
    if tool == "squeue" and len(argv) == 2 and argv[0] in ("-u", "--user"):
        return squeue(s, argv[1])
    if tool == "scontrol" and len(argv) == 3 and argv[0] == "show" and argv[1] in ("node", "job"):
        return show_node(s, argv[2]) if argv[1] == "node" else show_job(s, argv[2])
    if tool == "sacct":
        rest = [a for a in argv if a not in ("-a", "--allusers")]
        fmt = next((a.split("=", 1)[1] for a in rest if a.startswith(("--format=", "-o="))), None)
        if len(rest) == (1 if fmt else 0):
            return sacct(s, fmt)
    raise unknown(tool, argv)
