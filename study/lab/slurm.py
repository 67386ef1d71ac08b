"""``sinfo``, ``squeue``, ``scontrol show node|job``, ``sacct``.

Follows ``slurm_sinfo_h100_1.txt`` (Slurm 23.11: ``PARTITION AVAIL TIMELIMIT NODES STATE NODELIST``, one row
per partition and state, ``*`` on the default partition), ``slurm_squeue_pending_1.txt`` (the default
format ``%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R``), ``slurm_scontrol_show_node_h100_1.txt`` (Slurm 23.11.11:
``Gres=gpu:H100:8(S:0-1)``, CfgTRES/AllocTRES, 3-space continuation indent) and ``slurm_sacct_gres_1.txt``
(the accounting columns and ``gres/gpu`` in AllocTRES).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

    parts = [re.fullmatch(r"(.*?)(\d+)", n) for n in names]
    if not all(parts) or len({(p.group(1), len(p.group(2))) for p in parts}) != 1 or len(names) == 1:  # type: ignore[union-attr]
        return ",".join(names)
    prefix, width = parts[0].group(1), len(parts[0].group(2))  # type: ignore[union-attr]
    nums = sorted(int(p.group(2)) for p in parts)  # type: ignore[union-attr]
    runs: list[str] = []
    start = prev = nums[0]
    for n in nums[1:] + [None]:  # type: ignore[list-item]
        if n is not None and n == prev + 1:
            prev = n
            continue
        runs.append(f"{start:0{width}d}" if start == prev else f"{start:0{width}d}-{prev:0{width}d}")
        if n is not None:
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


def show_node(s: Slurm, name: str) -> str:
    n: SlurmNode | None = next((x for x in s.nodes if x.name == name), None)
    if n is None:
        return f"Node {name} not found"
    parts = [p.name for p in s.partitions if name in p.nodes]
    gpus = _gres_count(n.gres)
    typed = n.gres.split(":")
    gres = f"gpu:{typed[1].upper()}:{typed[2]}(S:0-1)" if len(typed) == 3 else n.gres
    lines = [f"NodeName={n.name} Arch=x86_64 CoresPerSocket={n.cpus // 2}",
             f"   CPUAlloc={n.cpus_alloc} CPUEfctv={n.cpus} CPUTot={n.cpus} CPULoad={n.cpus_alloc * 0.9:.2f}",
             "   AvailableFeatures=(null)", "   ActiveFeatures=(null)", f"   Gres={gres}",
             f"   NodeAddr={n.name} NodeHostName={n.name} Version={s.version}",
             "   OS=Linux 5.15.0-112-generic #122-Ubuntu SMP Tue May 14 16:28:07 UTC 2024",
             f"   RealMemory={n.memory_mb} AllocMem={n.cpus_alloc * 8192} FreeMem={n.memory_mb // 2} Sockets=2 Boards=1",
             "   CoreSpecCount=8 CPUSpecList=52-55,108-111",
             f"   State={_STATE[n.state]} ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A",
             f"   Partitions={','.join(parts)}",
             "   BootTime=2026-11-02T08:15:24 SlurmdStartTime=2026-11-02T08:17:41",
             "   LastBusyTime=2026-11-24T09:30:12 ResumeAfterTime=None",
             f"   CfgTRES=cpu={n.cpus},mem={n.memory_mb}M,billing={n.cpus},gres/gpu={gpus}",
             f"   AllocTRES={'cpu=%d,mem=%dM,gres/gpu=%d' % (n.cpus_alloc, n.cpus_alloc * 8192, n.gpus_alloc) if n.cpus_alloc or n.gpus_alloc else ''}",
             "   CapWatts=n/a", "   CurrentWatts=0 AveWatts=0", "   ExtSensorsJoules=n/a ExtSensorsWatts=0 ExtSensorsTemp=n/a"]
    if n.reason:
        lines.append(f"   Reason={n.reason} [root@2026-11-24T08:02:11]")
    return "\n".join(lines)


def show_job(s: Slurm, job_id: str) -> str:
    j = next((x for x in s.jobs if str(x.id) == job_id), None)
    if j is None:
        return "slurm_load_jobs error: Invalid job id specified"
    reason = j.reason if j.state == "PD" else "None"
    lines = [f"JobId={j.id} JobName={j.name}", f"   UserId={j.user}(1001) GroupId={j.user}(1001) MCS_label=N/A",
             "   Priority=4294901743 Nice=0 Account=research QOS=normal",
             f"   JobState={_JOB_STATE[j.state]} Reason={reason} Dependency=(null)",
             f"   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode={j.exit_code}",
             f"   RunTime={j.time if ':' in j.time and j.time.count(':') == 2 else '00:' + j.time if j.state != 'PD' else '00:00:00'} "
             f"TimeLimit={j.timelimit} TimeMin=N/A",
             f"   Partition={j.partition} AllocNode:Sid=login01:81234",
             "   ReqNodeList=(null) ExcNodeList=(null)",
             f"   NodeList={j.nodelist if j.state != 'PD' and j.nodelist else '(null)'}",
             f"   NumNodes={j.nodes} NumCPUs={j.cpus} NumTasks={j.nodes} CPUs/Task={max(1, j.cpus // max(1, j.nodes))} ReqB:S:C:T=0:0:*:*",
             f"   ReqTRES=cpu={j.cpus},mem={j.cpus * 8192}M,node={j.nodes},billing={j.cpus},gres/gpu={_gres_count(j.gres) * j.nodes}",
             f"   TresPerNode=gres/{j.gres}", f"   Command=/home/{j.user}/{j.name}.sbatch",
             f"   WorkDir=/home/{j.user}"]
    return "\n".join(lines)


def sacct(s: Slurm) -> str:
    rows = [f"{'JobID':<12} {'JobName':>10} {'Partition':>10} {'AllocTRES':>40} {'State':>10} {'ExitCode':>8} {'Elapsed':>10}",
            " ".join("-" * w for w in (12, 10, 10, 40, 10, 8, 10))]
    for j in s.jobs:
        tres = f"billing={j.cpus},cpu={j.cpus},gres/gpu={_gres_count(j.gres) * j.nodes},node={j.nodes}" if j.state != "PD" else ""
        elapsed = j.time if j.time.count(":") == 2 else f"00:{j.time:0>5}"
        rows.append(f"{j.id:<12} {j.name[:10]:>10} {j.partition[:10]:>10} {tres:>40} {_JOB_STATE[j.state]:>10} "
                    f"{j.exit_code:>8} {elapsed:>10}")
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
    if tool == "sacct" and (not argv or argv[0] == "-a" and len(argv) == 1):
        return sacct(s)
    raise unknown(tool, argv)
