"""The simulated shell: one command line in, the text the real tool would print out. Nothing is executed.

The line is split with :mod:`shlex`; a pipe is allowed only into ``grep`` (``-i``, ``-v``, ``-E``) or
``head``/``tail -n N``, which filter the simulated text. Any other program is ``command not found``, as
bash says; a known tool with flags the lab does not simulate says so in one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import re
import shlex

from study.lab.common import NotSimulated, unknown

if TYPE_CHECKING:
    from study.lab.schema import System

TOOLS = ("nvidia-smi", "dcgmi", "kubectl", "sinfo", "squeue", "scontrol", "sacct", "ibstat", "ibdev2netdev",
         "dmesg", "journalctl", "curl")
FILTERS = ("grep", "head", "tail")

# What `help` lists and tab completion offers: the command lines each tool family simulates.
COMMANDS = (
    "nvidia-smi", "nvidia-smi -L", "nvidia-smi -q", "nvidia-smi -q -i 0", "nvidia-smi -q -d PERFORMANCE",
    "nvidia-smi -q -d TEMPERATURE", "nvidia-smi -q -d POWER", "nvidia-smi -q -d MEMORY", "nvidia-smi -q -d ECC",
    "nvidia-smi -q -d ROW_REMAPPER", "nvidia-smi -q -d CLOCK", "nvidia-smi -q -d UTILIZATION",
    "nvidia-smi --query-gpu=index,name,temperature.gpu,power.draw,utilization.gpu,memory.used --format=csv",
    "nvidia-smi topo -m", "nvidia-smi mig -lgip", "nvidia-smi mig -lgi", "nvidia-smi mig -lci",
    "dcgmi discovery -l", "dcgmi health -c", "dcgmi health -c -j", "dcgmi diag -r 1", "dcgmi diag -r 2",
    "dcgmi diag -r 3", "dcgmi dmon -e 150,155,203,1002 -c 1", "curl localhost:9400/metrics",
    "kubectl get nodes", "kubectl describe node NAME", "kubectl get pods -A", "kubectl get pods -n gpu-operator",
    "kubectl describe pod NAME -n NAMESPACE", "sinfo", "squeue", "scontrol show node NAME",
    "scontrol show job ID", "sacct", "ibstat", "ibdev2netdev", "dmesg", "dmesg -T", "dmesg | grep -i xid",
    "journalctl -k",
)

HELP = "\n".join(["Commands this lab simulates (nothing runs on your machine):"] + [f"  {c}" for c in COMMANDS] +
                 ["Pipes: | grep [-i] [-v] [-E] PATTERN, | head -n N, | tail -n N.  Also: help, clear."])


def _nvidia_smi(system: System, argv: list[str]) -> str:
    from study.lab import nvidia_smi as smi

    host = system.host
    lost = [g for g in host.gpu_list if g.lost]
    if argv[:1] == ["topo"]:
        if argv[1:] in (["-m"], ["--matrix"]):
            return smi.topo(host)
        raise unknown("nvidia-smi", argv)
    if not argv:
        return smi.lost_message(lost[0]) if lost else smi.default_table(host)
    if argv in (["-L"], ["--list-gpus"]):
        return smi.lost_message(lost[0]) if lost else smi.list_gpus(host)
    if argv[0] == "mig":
        from study.lab import nvidia_smi_mig as mig

        rest = argv[1:]
        mig_index: int | None = None
        from study.text import whole_number

        if "-i" in rest:  # -i N may come before or after the action, as nvidia-smi allows
            k = rest.index("-i")
            mig_index = whole_number(rest[k + 1]) if k + 1 < len(rest) else None
            if mig_index is None:
                raise unknown("nvidia-smi", argv)
            rest = rest[:k] + rest[k + 2:]
        gi: int | None = None
        if "-gi" in rest:  # -gi N, before or after -lci, picks one GPU instance's compute instances
            k = rest.index("-gi")
            gi = whole_number(rest[k + 1]) if k + 1 < len(rest) else None
            if gi is None:
                raise unknown("nvidia-smi", argv)
            rest = rest[:k] + rest[k + 2:]
        if rest not in (["-lgip"], ["-lgi"], ["-lci"]) or (gi is not None and rest != ["-lci"]):
            raise unknown("nvidia-smi", argv)
        missing = mig.no_mig(host, mig_index)
        if missing:
            return missing
        if rest == ["-lci"]:
            return mig.lci(host, mig_index, gi)
        return {"-lgip": mig.lgip, "-lgi": mig.lgi}[rest[0]](host, mig_index)
    index: int | None = None
    groups: list[str] | None = None
    query = fmt = None
    q = False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-q", "--query"):
            q = True
        elif a in ("-i", "--id") and i + 1 < len(argv) and _whole(argv[i + 1]) is not None:
            index = _whole(argv[i + 1])
            i += 1
        elif a in ("-d", "--display") and i + 1 < len(argv):
            groups = [g for g in argv[i + 1].split(",") if g]
            i += 1
        elif a.startswith("--query-gpu="):
            query = a.split("=", 1)[1]
        elif a.startswith("--format="):
            fmt = a.split("=", 1)[1]
        else:
            raise unknown("nvidia-smi", argv)
        i += 1
    if query is not None:
        if q or groups or fmt is None:
            return "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help." if fmt else \
                "--format is required when --query-gpu is given: nvidia-smi --query-gpu=... --format=csv"
        return smi.lost_message(lost[0]) if lost else smi.query_gpu(host, query, fmt, None if index is None else [index])
    if q:
        from study.lab import nvidia_smi_q

        return smi.lost_message(lost[0]) if lost else nvidia_smi_q.query(host, index, groups)
    if groups is not None or fmt is not None:
        raise unknown("nvidia-smi", argv)
    return smi.lost_message(lost[0]) if lost else smi.default_table(host, index)


def run_tool(system: System, tool: str, argv: list[str]) -> str:
    if tool == "nvidia-smi":
        return _nvidia_smi(system, argv)
    if tool == "dcgmi":
        from study.lab import dcgmi

        return dcgmi.run(system.host, argv)
    if tool == "kubectl":
        from study.lab import kubectl

        return kubectl.run(system.kubernetes, argv)
    if tool in ("sinfo", "squeue", "scontrol", "sacct"):
        from study.lab import slurm

        return slurm.run(system.slurm, tool, argv)
    if tool in ("ibstat", "ibdev2netdev"):
        from study.lab import ib

        return ib.run(system.host, tool, argv)
    if tool in ("dmesg", "journalctl"):
        from study.lab import kernel

        return kernel.run(system.host, tool, argv)
    if tool == "curl":
        from study.lab import exporter

        return exporter.run(system.host, argv)
    return f"bash: {tool}: command not found"


def _whole(text: str) -> int | None:
    from study.text import whole_number  # imported when a count is read: `study lab --run` starts lean

    return whole_number(text)


def _filter(text: str, argv: list[str]) -> str:
    prog, args = argv[0], argv[1:]
    lines = text.split("\n")
    if prog in ("head", "tail"):
        count: int | None = 10
        if args[:1] == ["-n"] and len(args) == 2:
            count = _whole(args[1])
        elif len(args) == 1 and args[0].startswith("-"):
            count = _whole(args[0][1:])
        elif args:
            count = None
        if count is None:
            raise NotSimulated(f"not simulated in this lab: {' '.join(argv)}")
        n = count
        return "\n".join(lines[:n] if prog == "head" else lines[-n:] if n else [])
    flags = [a for a in args if a.startswith("-")]
    words = [a for a in args if not a.startswith("-")]
    letters = set("".join(f[1:] for f in flags))
    if len(words) != 1 or not letters <= set("ivE") or any(f.startswith("--") for f in flags):
        raise NotSimulated(f"not simulated in this lab: {' '.join(argv)}")
    pattern = words[0]
    rx = _grep_regex(pattern if "E" in letters else re.escape(pattern).replace(r"\.\*", ".*"), "i" in letters)
    keep = [ln for ln in lines if bool(rx.search(ln)) != ("v" in letters)]
    return "\n".join(keep)


# A pattern is typed by the learner or written in a question file's exhibit, and run inside the app's own
# process (the TUI, a browser tab): it must give an answer at once whatever it is. RE2 matches in time linear
# in the text (no backtracking, so `(.*.*)*Z` cannot take exponential time), parses without recursion in
# Python, and refuses a program bigger than max_mem; the bounds below keep the parse itself small too.
MAX_PATTERN = 1000
MAX_NESTING = 100
MAX_REPEAT = 1000  # RE2's own limit for {n,m}; a larger count it reads as literal text, where grep refuses it
_COUNT = re.compile(r"\{\s*(\d+)\s*(?:,\s*(\d*)\s*)?\}")


class GrepError(NotSimulated):
    """grep refuses the pattern: one line in grep's words, exit status 2."""


def _grep_regex(source: str, fold: bool) -> Any:
    import re2

    if len(source) > MAX_PATTERN:
        raise GrepError(f"grep: pattern too long (this lab takes {MAX_PATTERN} characters at most)")
    depth = deepest = 0
    for ch in source:
        depth += (ch == "(") - (ch == ")")
        deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        raise GrepError(f"grep: pattern nested too deeply (this lab takes {MAX_NESTING} levels at most)")
    if any(int(n) > MAX_REPEAT for m in _COUNT.finditer(source) for n in m.groups() if n):
        raise GrepError("grep: Regular expression too big")
    options = re2.Options()
    options.log_errors = False  # RE2 would write its own line to stderr for every bad pattern
    options.case_sensitive = not fold
    options.max_mem = 8 << 20
    try:
        return re2.compile(source, options=options)
    except re2.error as exc:
        text = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        if "missing )" in text or "unexpected )" in text:
            raise GrepError("grep: Unmatched ( or \\(") from None
        raise GrepError(f"grep: {text}") from None
    except UnicodeError:  # a lone surrogate (an undecodable byte on the command line) is no text RE2 takes
        raise GrepError("grep: the pattern is not valid UTF-8") from None


def run_line(system: System, line: str) -> str:
    """What ``line`` prints in this system. Never raises for any input: errors are the shell's words."""
    return run_status(system, line)[0]


# Exit statuses as bash gives them: 127 when it finds no such command (here also a command the lab does not
# simulate, which is not found in this lab either), 2 for a syntax error and for grep refusing its pattern.
NOT_FOUND = 127
SYNTAX = 2


def run_status(system: System, line: str) -> tuple[str, int]:
    """:func:`run_line`'s text with the exit status bash would give (``study lab --run`` exits with it)."""
    line = line.strip()
    if not line:
        return "", 0
    if line in ("help", "?"):
        return HELP, 0
    if any(op in line for op in ("&&", "||", ";", ">", "<", "`", "$(")):
        return "not simulated in this lab: only one command, optionally piped into grep, head or tail", SYNTAX
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars="|")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError as exc:
        return f"bash: syntax error: {exc}", SYNTAX
    stages: list[list[str]] = [[]]
    for tok in tokens:
        if tok == "|":
            stages.append([])
        elif set(tok) == {"|"}:
            return f"bash: syntax error near unexpected token `{tok}'", SYNTAX
        else:
            stages[-1].append(tok)
    if any(not s for s in stages):
        return "bash: syntax error near unexpected token `|'", SYNTAX
    tool, *argv = stages[0]
    try:
        if tool.startswith("sudo") and tool == "sudo" and argv:
            tool, *argv = argv
        if tool not in TOOLS:
            return f"bash: {tool}: command not found", NOT_FOUND
        text = run_tool(system, tool, argv)
        for stage in stages[1:]:
            if stage[0] not in FILTERS:
                return (f"bash: {stage[0]}: command not found" if stage[0] not in TOOLS else
                        "not simulated in this lab: piping into " + stage[0]), NOT_FOUND
            text = _filter(text, stage)
        return text, 0
    except GrepError as exc:
        return str(exc), SYNTAX
    except NotSimulated as exc:
        return str(exc), NOT_FOUND


def completions(prefix: str) -> list[str]:
    """Known command lines starting with ``prefix`` (for tab completion)."""
    return [c for c in COMMANDS if c.startswith(prefix) and c != prefix]
