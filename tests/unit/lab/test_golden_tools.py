"""Golden tests: dcgmi, kubectl, Slurm, InfiniBand, kernel log and dcgm-exporter against their samples."""

from __future__ import annotations

import json
import re

from study.lab import dcgmi, exporter, ib, kernel, kubectl, slurm
from study.lab.schema import System

from .golden import sample, shape, system


def test_dcgmi_discovery_box_matches_the_dcgm3_sample():
    s = system(model="h100-sxm", gpu_count=8, topology="pcie")
    ours = dcgmi.discovery(s.host).split("\n")
    ref = sample("dcgmi_discovery_-l_h800_1.txt")
    assert len(ours) == len(ref)
    for mine, real in zip(ours, ref):
        assert len(mine) == len(real)
        assert shape(mine.replace("H100 80GB HBM3", "H800")[:24]) == shape(real[:24]) or "Device UUID" in real


_CHILD = "There was an internal error during the test: 'A child process ({}) exited with non-zero status 1' " \
    "Check DCGM and system logs for errors. Reset GPU. Restart DCGM. Rerun diagnostics."
_PARSE = "There was an internal error during the test: 'Output of child process ({}) couldn't be parsed: " \
    "'* Line 1, Column 1   Syntax error: value, object or array expected. '' Check DCGM and system logs for " \
    "errors. Reset GPU. Restart DCGM. Rerun diagnostics."


def test_dcgmi_diag_reproduces_the_dcgm4_sample_line_for_line():
    # The sample's pcie errors belong to no GPU (the child process died), so they print as plain Warning rows
    # before the GPU rows, which still read Pass.
    fails = [{"test": "pcie", "result": "Fail", "message": m.format(pid)} for m in (_CHILD, _PARSE) for pid in (152, 153)]
    s = system(model="l40s", gpu_count=4, dcgm="4.2.3", driver="570.148.08", diag=fails)
    ours = dcgmi.diag(s.host, 2).split("\n")
    ref = sample("dcgmi_diag_-r2_l40s_1.txt")[1:]  # the first line is the author's kubectl wrapper
    assert ours[:-1] == ref  # the paste lost the closing border
    assert ours[-1] == ours[1]


def test_dcgmi_diag_passing_run_matches_the_dcgm442_sample_shape():
    s = system(model="l40s", gpu_count=1, dcgm="4.4.2", driver="580.105.08")
    ours = dcgmi.diag(s.host, 2).replace("26b9", "2237").split("\n")
    assert ours == sample("dcgmi_diag_-r2_a10g_1.txt")


def test_dcgmi_diag_gpu_errors_follow_their_gpu_row_as_diag_cpp_prints_them():
    s = system(model="h100-sxm", gpu_count=4, dcgm="4.2.3", diag=[
        {"test": "memory", "result": "Fail", "gpu": 2, "message": "x" * 50},
        {"test": "diagnostic", "result": "Warn", "gpu": 1}])
    out = dcgmi.diag(s.host, 3).split("\n")
    at = out.index("|                           | GPU2: Fail                                     |")
    assert out[at + 1] == "| Warning: GPU2             | " + "x" * 45 + "  |"  # cut every 45 characters
    assert out[at + 2] == "|                           | xxxxx                                          |"
    assert "| diagnostic                | Warn                                           |" in out
    assert "|                           | GPU1: Fail                                     |" in out  # a GPU's Warn
    # Each category once, in Diag.cpp's order, whatever order the tests ran in.
    rules = [ln.split()[1] for ln in out if ln.startswith(("|-----  ", "+-----  "))]
    assert rules == ["Metadata", "Deployment", "Hardware", "Integration", "Stress"]


def test_dcgmi_health_json_is_jsoncpps_styled_text_as_in_the_sample():
    healthy = dcgmi.health(system(model="h100-sxm", gpu_count=1).host, True)
    ref = sample("dcgmi_health_-c_json_1.txt")
    assert healthy.expandtabs(8).split("\n") == ref[ref.index("{"):]  # the paste turned TABs into 8 spaces


def test_dcgmi_health_table_has_the_rows_dcgms_unit_tests_check():
    # dcgmi/tests/HealthTests.cpp (DCGM 4.6.0) checks these substrings of the same report.
    s = system(model="h100-sxm", gpu_count=2, health=[
        {"gpu": 0, "system": "Memory", "health": "Warning",
         "message": "The car is red? Are you sure because that doesn't seem like the color I ordered."},
        {"gpu": 1, "system": "Memory", "health": "Failure", "message": "Green can be emerald and beautiful, but "
         "there are shades of green which are sure to disappoint."}])
    out = dcgmi.health(s.host, False)
    for row in ("| Overall Health            | Failure", "| -> 0                      | Warning",
                "| The car is red? Are you sure because that doesn't seem   |",
                " | like the color I ordered.                                |", "| -> 1                      | Failure",
                "|       -> Memory system    | Failure", "| Green can be emerald and beautiful, but there are        |",
                "| shades of green which are sure to disappoint.            |"):
        assert row in out
    lines = out.split("\n")
    assert {len(ln) for ln in lines} == {88} and lines[2].startswith("+====")
    data = json.loads(dcgmi.health(s.host, True))
    assert data["body"]["GPU"]["children"]["1"]["children"]["Errors"]["children"]["Memory system"]["value"] == "Failure"


def _k8s() -> System:
    return System.model_validate({"host": {"model": "h100-sxm", "gpu_count": 8}, "kubernetes": {
        "nodes": [{"name": "gpu-node-1", "gpu_model": "h100-sxm", "gpu_count": 8},
                  {"name": "gpu-node-2", "gpu_model": "h100-sxm", "gpu_count": 8}],
        "pods": [{"name": "vllm-1", "namespace": "llm", "status": "Pending", "ready": "0/1", "gpus": 1, "events": [
            {"reason": "FailedScheduling", "age": "2m12s (x2 over 7m14s)",
             "message": "0/2 nodes are available: 2 Insufficient nvidia.com/gpu."}]}]}})


def test_kubectl_get_pods_uses_the_operator_names_and_column_rule():
    ours = kubectl.get_pods(_k8s().kubernetes, "gpu-operator", wide=True).split("\n")
    ref = sample("kubectl_get_pods_gpu-operator_h100_1.txt")
    assert ours[0].split() == ref[0].split()
    stems = lambda lines: {re.sub(r"-[a-z0-9]{5}$", "", ln.split()[0]) for ln in lines[1:]}  # noqa: E731
    assert stems(ours) == stems(ref)  # the operator, NFD and every operand DaemonSet of the sample
    workers = sorted(ln.split()[6] for ln in ours[1:] if ln.startswith("node-feature-discovery-worker"))
    assert workers == ["gpu-node-1", "gpu-node-2"]
    # kubectl pads every column to its widest cell plus three spaces, as the sample's first columns show.
    assert ours[0].index("READY") == max(len(ln.split()[0]) for ln in ours) + 3
    assert ref[0].index("READY") == max(len(ln.split()[0]) for ln in ref) + 3


def test_kubectl_describe_node_pads_keys_to_column_20_and_lists_gfd_labels():
    out = kubectl.describe_node(_k8s().kubernetes, "gpu-node-1").split("\n")
    ref = sample("kubectl_describe_node_gfd_h100_1.txt")
    assert [ln[:20] for ln in out[:3]] == [ln[:20] for ln in ref[:3]]
    assert " " * 20 + "nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3" in out
    assert " " * 20 + "nvidia.com/gpu.count=8" in out
    cap = out[out.index("Capacity:") + 1:out.index("Allocatable:")]
    assert all(ln.startswith("  ") for ln in cap) and len({ln.index(ln.split()[1]) for ln in cap}) == 1
    assert "  nvidia.com/gpu:     8" in cap


def test_kubectl_describe_pod_events_table_matches_the_sample_header():
    out = kubectl.describe_pod(_k8s().kubernetes, "vllm-1", "llm").split("\n")
    ref = sample("kubectl_pending_insufficient-gpu_aks_2.txt")
    ev = out[out.index("Events:"):]
    assert ev[1].split() == ref[1].split() and ev[2].split() == ref[2].split()
    assert ev[3].split()[:3] == ["Warning", "FailedScheduling", "2m12s"]
    assert ev[1].index("Reason") == len("  Warning  ")  # two spaces after the widest Type, as kubectl prints


def _slurm() -> System:
    return System.model_validate({"host": {"model": "h100-sxm", "gpu_count": 8}, "slurm": {
        "partitions": [{"name": "dev", "nodes": ["hgpn01", "hgpn02", "hgpn03"], "timelimit": "4:00:00"}],
        "nodes": [{"name": "hgpn01", "state": "mix", "gpus_alloc": 2, "cpus": 112, "cpus_alloc": 9,
                   "memory_mb": 1900000},
                  {"name": "hgpn02", "state": "mix"}, {"name": "hgpn03", "state": "idle"}],
        "jobs": [{"id": 300101, "partition": "dev", "name": "ev-adapt", "user": "a3xxx810", "state": "PD",
                  "reason": "Dependency"},
                 {"id": 300081, "partition": "dev", "name": "ev-adapt", "user": "a3xxx810", "state": "R",
                  "time": "0:01", "nodelist": "hgpn01"}]}})


def test_sinfo_columns_match_the_sample():
    out = slurm.sinfo(_slurm().slurm).split("\n")
    ref = sample("slurm_sinfo_h100_1.txt")
    ref = ref[ref.index("[userA@25a-lgn01 ~]$ sinfo") + 1:]
    assert out[0] == ref[0]
    ends = lambda ln: [m.end() for m in re.finditer(r"\S+", ln)][:5]  # noqa: E731
    assert ends(out[1]) == ends(ref[1])  # dev up 4:00:00 <nodes> mix: right-aligned to the same columns
    assert out[1].endswith("mix hgpn[01-02]") and out[2].endswith("idle hgpn03")


def test_squeue_default_format_matches_the_sample():
    out = slurm.squeue(_slurm().slurm).split("\n")
    ref = sample("slurm_squeue_pending_1.txt")[1:]
    assert out[0] == ref[0]
    assert out[1] == ref[1]  # 300101 dev ev-adapt a3xxx810 PD 0:00 1 (Dependency)
    assert out[2] == ref[3].replace("hgpn01", "hgpn01")


def test_scontrol_show_node_has_the_samples_keys_in_order():
    out = slurm.show_node(_slurm().slurm, "hgpn01").split("\n")
    ref = sample("slurm_scontrol_show_node_h100_1.txt")[1:]
    keys = lambda lines: [re.findall(r"(\w+)=", ln) for ln in lines]  # noqa: E731
    assert keys(out)[:len(ref)] == keys(ref)
    for line in ("   Gres=gpu:H100:8(S:0-1)", "   CoreSpecCount=8 CPUSpecList=52-55,108-111",
                 "   CfgTRES=cpu=104,mem=1900000M,billing=104,gres/gpu=8"):
        assert line in out and line in ref
    assert out[1].startswith("   CPUAlloc=9 CPUEfctv=104 CPUTot=112 ")
    assert "   AllocTRES=cpu=9,mem=72G,gres/gpu=2" in out  # whole GiB print as G, as the sample's mem=320G


def test_sacct_with_the_samples_format_matches_its_header_and_step_rows():
    s = _slurm().slurm
    out = slurm.sacct(s, slurm.SAMPLE_FORMAT).split("\n")
    ref = sample("slurm_sacct_gres_1.txt")
    assert ref[0] == "$ sacct -j 1,2,3 --format=" + slurm.SAMPLE_FORMAT
    assert out[:2] == ref[1:3]
    ends = lambda ln: [m.end() for m in re.finditer(r"\S+", ln)]  # noqa: E731
    job, step = out[3], out[4]
    assert job.startswith("300081 ") and step.startswith("300081.batch      batch ")
    assert ends(step)[1:] == ends(ref[4])[1:]  # the right-aligned columns end where "1.batch ... 00:00:20" do
    assert out[2].split()[-2:] == ["PENDING", "0:0"] or out[2].split()[-3:-1] == ["PENDING", "0:0"]


def test_plain_sacct_prints_the_default_columns():
    out = slurm.run(_slurm().slurm, "sacct", []).split("\n")
    assert out[0].split() == ["JobID", "JobName", "Partition", "Account", "AllocCPUS", "State", "ExitCode"]
    assert out[1] == "------------ ---------- ---------- ---------- ---------- ---------- --------"
    assert slurm.run(_slurm().slurm, "sacct", ["--format=JobID,Bogus"]).startswith("sacct: error: Invalid field")


def _ib() -> System:
    return System.model_validate({"host": {"model": "a100-sxm4-80gb", "gpu_count": 8, "ib": [
        {"ca": "mlx5_1", "netdev": "ibp24s0", "rate": 200, "lid": 1369, "sm_lid": 83, "ca_type": "MT4126",
         "firmware": "28.37.1014"},
        {"ca": "mlx5_10", "netdev": "ibp220s0", "state": "Down", "physical": "Polling"}]}})


def test_ibstat_block_matches_the_sample_keys_and_tabs():
    out = ib.ibstat(_ib().host).split("\n")
    ref = sample("ibstat_a100_ib_1.txt")
    block = ref[ref.index("CA 'mlx5_1'"):ref.index("CA 'mlx5_1'") + 17]
    mine = out[:17]
    assert [ln.split(":")[0] for ln in mine] == [ln.split(":")[0] for ln in block]
    for key in ("\tCA type: MT4126", "\t\tState: Active", "\t\tRate: 200", "\t\tBase lid: 1369", "\t\tSM lid: 83",
                "\t\tLink layer: InfiniBand", "\tFirmware version: 28.37.1014", "\t\tCapability mask: 0xa651ec48"):
        assert key in mine and key in block
    assert mine[6] != out[17 + 6]  # each CA has its own system image GUID, as in the sample


def test_ibstat_down_port_matches_the_polling_sample():
    host = System.model_validate({"host": {"model": "h100-sxm", "gpu_count": 8, "ib": [
        {"ca": "mlx5_11", "netdev": "eth11", "state": "Down", "physical": "Polling", "rate": 400,
         "link_layer": "Ethernet"}]}}).host
    out = ib.ibstat(host).split("\n")
    ref = sample("ibstat_h100_roce_down_1.txt")
    block = ref[ref.index("CA 'mlx5_11'"):ref.index("CA 'mlx5_11'") + 17]
    strip = lambda lines: [re.sub(r"0x[0-9a-f]{16}$|[0-9]+\.[0-9]+\.[0-9]+$|MT\d+$", "*", ln) for ln in lines]  # noqa: E731
    assert strip(out) == strip(block)
    assert "\t\tPort GUID: 0x0000000000000000" in out


def test_ibdev2netdev_lines_and_lexical_order():
    out = ib.ibdev2netdev(_ib().host).split("\n")
    pattern = re.compile(r"^mlx5_\d+ port 1 ==> \S+ \((Up|Down)\)$")
    assert all(pattern.match(ln) for ln in out)
    assert all(pattern.match(ln) for ln in sample("ibdev2netdev_dgxh100_1.txt")[2:])
    assert out == ["mlx5_1 port 1 ==> ibp24s0 (Up)", "mlx5_10 port 1 ==> ibp220s0 (Down)"]


def test_xid_line_matches_the_r535_kernel_log_form():
    s = system(model="h100-sxm", gpu_count=8, xids=[{"gpu": 0, "code": 13, "message": "Graphics SM Warp Exception on (GPC 7, TPC 7, SM 0): Illegal Instruction Parameter"}])
    ours = [ln for ln in kernel.dmesg(s.host, human=True).split("\n") if "Xid" in ln][0]
    ref = [ln for ln in sample("kernel_xid_13-109_1.log") if "Xid" in ln][0]
    strip = lambda ln: re.sub(r"^\[[^]]+\] |PCI:[0-9a-f:]+", "", ln)  # noqa: E731
    assert strip(ours) == strip(ref)


def test_exporter_help_lines_and_label_order_match_the_samples():
    s = system(model="h100-sxm", gpu_count=2, driver="580.105.08",
               gpus=[{"index": 0, "processes": [{"pid": 7, "name": "main", "mem_mib": 100}]}])
    ours = exporter.metrics(s.host).split("\n")
    readme = [ln for ln in sample("dcgm-exporter_metrics_readme_1.txt") if ln.startswith("# ")]
    assert [ln for ln in ours if ln.startswith("# ")][:len(readme)] == readme  # SM_CLOCK, MEM_CLOCK, MEMORY_TEMP open the upstream list, in order
    labels = lambda ln: re.findall(r"(\w+)=\"", ln)  # noqa: E731
    ref = sample("dcgm-exporter_metrics_h100_1.txt")
    for metric in ("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_GPU_UTIL"):
        mine = [ln for ln in ours if ln.startswith(metric + "{")]
        theirs = [ln for ln in ref if ln.startswith(metric + "{")]
        assert labels(mine[0]) == labels(theirs[0])  # a GPU a pod holds: pod attribution last
        assert labels(mine[1]) == labels(theirs[1])  # an idle GPU
    assert next(ln for ln in ours if ln.startswith("DCGM_FI_DEV_POWER_USAGE{")).endswith(" 71.000000")
    # Free memory agrees with nvidia-smi -q: total - reserved - used.
    assert next(ln for ln in ours if ln.startswith("DCGM_FI_DEV_FB_FREE{")).endswith(f" {81559 - 454 - 0}")


def test_kubectl_describe_node_mig_mixed_resources_match_the_sample():
    k8s = System.model_validate({"host": {"model": "h100-sxm", "gpu_count": 8}, "kubernetes": {"nodes": [
        {"name": "myworker", "gpu_model": "h100-sxm", "gpu_count": 8, "mig_strategy": "mixed",
         "mig_resources": {"mig-1g.10gb": 16, "mig-2g.20gb": 8, "mig-3g.40gb": 8}}]}}).kubernetes
    out = kubectl.describe_node(k8s, "myworker").split("\n")
    ref = sample("kubectl_describe_node_mig-resources_h100_1.txt")
    # The sample's grep lost the 2-space indent of the resource lines (its header says so): compare stripped.
    cap = [ln.strip() for ln in out[out.index("Capacity:") + 1:out.index("Allocatable:")] if "nvidia.com/" in ln]
    assert cap == ref[ref.index("Capacity:") + 1:ref.index("Allocatable:")]
    head = next(ln for ln in out if ln.strip().startswith("Resource"))
    assert head.strip().index("Requests") == ref[-4].index("Requests")
    rows = [ln.strip().split() for ln in out if ln.strip().startswith("nvidia.com/mig-")][-3:]
    assert rows == [ln.split() for ln in ref[-3:]]


def test_dcgmi_dmon_follows_the_dcgm3_sample_layout():
    from study.lab.shell import run_line

    s = system(model="h100-sxm", gpu_count=4, gpus=[{"index": 1, "util_pct": 97, "sm_active": 0.41}])
    out = run_line(s, "dcgmi dmon -e 203,1002 -c 1").split("\n")
    ref = sample("dcgmi_dmon_-e_1011-1012_h800_1.txt")
    # GPUTL is a width-10 field and SMACT width 5 (dcgm_fields.cpp): columns of 10+6+2 and 5+6+2.
    assert out[0] == "#Entity   GPUTL             SMACT        "
    assert ref[0].index("NVLTX") == out[0].index("GPUTL") == 10 and ref[1] == out[1].rstrip() == "ID"
    assert [ln.split() for ln in out[2:]] == [["GPU", "3", "0", "0.000"], ["GPU", "2", "0", "0.000"],
                                            ["GPU", "1", "97", "0.410"], ["GPU", "0", "0", "0.000"]]
    assert [ln.split()[:2] for ln in ref[2:6]] == [["GPU", "3"], ["GPU", "2"], ["GPU", "1"], ["GPU", "0"]]
    assert run_line(s, "dcgmi dmon -e 203 -x 1").startswith("not simulated in this lab")


def test_dcgmi_dmon_xid_field_matches_the_dcgm4_sample():
    s = system(model="h100-sxm", gpu_count=8, dcgm="4.2.3", xids=[{"gpu": 1, "code": 120, "message": "GSP"}])
    out = dcgmi.run(s.host, ["dmon", "-c", "1", "-e", "230"]).split("\n")
    ref = sample("dcgmi_dmon_-e_230_xid_1.txt")
    ref = ref[ref.index("dcgmi dmon  -c 1 -e 230") + 1:]
    assert out[:-1] == ref[:-1]  # the paste cut the last row short
    assert out[-1].startswith(ref[-1])
    assert dcgmi.run(s.host, ["dmon", "-e", "230", "-i", "1"]).split("\n")[2:] == [ref[3]]


def test_dcgmi_discovery_adds_connectx_from_dcgm4_and_active_from_45():
    s4 = system(model="h100-sxm", gpu_count=2, dcgm="4.2.3", topology="pcie").host
    out = dcgmi.discovery(s4).split("\n")
    assert out[0] == "2 GPUs found." and out[-5:] == ["0 ConnectX found.", "+----------+", "| ConnectX |",
                                                       "+----------+", "+----------+"]
    s45 = system(model="h100-sxm", gpu_count=1, dcgm="4.5.0", topology="pcie").host
    assert dcgmi.discovery(s45).startswith("1 GPU found (Active).\n")


def test_kernel_log_introduces_a_gpus_first_xid_as_the_h100_sample_does():
    s = system(model="h100-sxm", gpu_count=8, xids=[{"gpu": 4, "code": 119, "pid": 2024380, "process": "nvidia-smi",
                                                     "message": "Timeout after 6s of waiting for RPC response"}],
               kernel_log=["NVRM: Rate limiting GSP RPC error prints"])
    human = kernel.dmesg(s.host, human=True).split("\n")
    ref = sample("kernel_xid_119_h100_1.log")[:3]
    nv = [ln for ln in human if "NVRM: GPU" in ln or "Xid" in ln]
    strip = lambda ln: re.sub(r"^\[[^]]+\] |PCI:[0-9a-f:]+|GPU-[0-9a-f-]+|\d{13}|, Timeout.*", "", ln)  # noqa: E731
    assert [strip(ln) for ln in nv] == [strip(ln) for ln in ref]
    assert human[-1].endswith("Rate limiting GSP RPC error prints")  # logged after the Xid, not before
    # Plain dmesg counts seconds from the same boot as -T: 22 days, 1 h 25 min 47 s to the Xid.
    plain = kernel.dmesg(s.host, human=False).split("\n")
    xid = next(ln for ln in plain if "Xid" in ln)
    assert int(float(xid[1:xid.index("]")])) == 22 * 86400 + 3600 + 25 * 60 + 47


def test_tabwrite_aligns_runs_of_lines_as_gos_tabwriter():
    out = kubectl.tabwrite("a:\tx\nlonger key:\ty\nbreak\nk:\tz\n\tcontinued\n").split("\n")
    assert out == ["a:" + " " * 11 + "x", "longer key:  y", "break", "k:  z", "    continued"]


def test_kubectl_describe_pod_events_reproduce_the_aks_sample():
    ref = sample("kubectl_pending_insufficient-gpu_aks_2.txt")
    rows = [re.split(r"\s{2,}", ln.strip(), maxsplit=4) for ln in ref[3:]]
    events = [{"type": t, "reason": r, "age": a, "source": f, "message": m} for t, r, a, f, m in rows]
    # The paste cut the last event, SuccessfulAttachVolume from attachdetach-controller, which sets two widths.
    events.append({"type": "Normal", "reason": "SuccessfulAttachVolume", "age": "9s",
                   "source": "attachdetach-controller", "message": "AttachVolume.Attach succeeded"})
    k8s = System.model_validate({"host": {"model": "h100-sxm", "gpu_count": 8}, "kubernetes": {
        "nodes": [{"name": "aks-gpunp", "gpu_model": "h100-sxm", "gpu_count": 1}],
        "pods": [{"name": "vllm-1", "namespace": "llm", "status": "Pending", "gpus": 1, "events": events}]}}).kubernetes
    out = kubectl.describe_pod(k8s, "vllm-1", "llm").split("\n")
    assert out[out.index("Events:"):][:len(ref)] == ref


def test_kubectl_describe_pod_top_block_is_laid_out_like_the_sample():
    out = kubectl.describe_pod(_k8s().kubernetes, "vllm-1", "llm").split("\n")
    ref = sample("kubectl_describe_pod_pending_gpu_1.txt")[1:]
    keys = lambda lines: [ln.split(":")[0] for ln in lines if re.match(r"[A-Z][\w ]*:", ln)]  # noqa: E731
    assert keys(out)[:6] == keys(ref)[:6] == ["Name", "Namespace", "Priority", "Service Account", "Node", "Labels"]
    assert out[4] == "Node:             <none>" == ref[4]
    top = lambda lines: [ln[:18].rstrip() for ln in lines[:12] if not ln.startswith(" ")][:10]  # noqa: E731
    assert top(out) == top(ref)  # the paste lost IP:'s padding
    at = out.index("    Limits:")
    assert out[at:at + 4] == ref[ref.index("    Limits:"):][:4]  # nvidia.com/gpu:  1 under Limits and Requests
    assert out[out.index("Conditions:"):][:3] == ["Conditions:", "  Type           Status", "  PodScheduled   False "]
    assert "QoS Class:                   BestEffort" in out  # aligned with the projected volume's longest key


def test_kubectl_describe_node_system_info_block_matches_the_sample():
    out = kubectl.describe_node(_k8s().kubernetes, "gpu-node-1").split("\n")
    ref = sample("kubectl_describe_node_sysinfo_1.txt")
    mine = out[out.index("System Info:"):]
    theirs = ref[ref.index("System Info:"):]
    # Machine ID to the pods table header share one tabwriter run: every value starts at column 30.
    assert [ln[:30] for ln in mine[:len(theirs) - 1]] == [ln[:30] for ln in theirs[:-1]]
    assert mine[len(theirs) - 2].startswith("  Namespace                   Name ")
    assert mine[len(theirs) - 1].startswith("  ---------                   ----  ")
    pods = [ln.split()[1] for ln in mine[len(theirs):] if ln.startswith("  gpu-operator ")]
    assert pods and not any(p.startswith("nvidia-cuda-validator") for p in pods)  # Completed is terminated
    alloc = out[out.index("Allocated resources:"):]
    assert [ln.split()[0] for ln in alloc[4:]] == ["cpu", "memory", "ephemeral-storage", "hugepages-1Gi",
                                                    "hugepages-2Mi", "nvidia.com/gpu", "Events:"]


def test_gfd_labels_are_the_samples_keys_and_values():
    ref = json.loads("\n".join(sample("kubectl_node_labels_gfd_h100_1.json")))
    # The sample's node runs driver 550.54.15 / CUDA 12.4; the labels take them from the host.
    k8s = System.model_validate({"host": {"model": "h100-sxm", "gpu_count": 1, "driver": "550.54.15", "cuda": "12.4"},
                                 "kubernetes": {"nodes": [{"name": "n1", "gpu_model": "h100-sxm", "gpu_count": 1}]}}
                                ).kubernetes
    assert k8s is not None
    node = k8s.nodes[0]
    ours = dict(lab.split("=", 1) for lab in kubectl.labels(node, k8s.driver, k8s.cuda) if lab.startswith("nvidia.com/"))
    assert set(ours) <= set(ref)  # no label GFD does not write
    assert {k: v for k, v in ours.items() if k != "nvidia.com/gfd.timestamp"} == \
        {k: ref[k] for k in ours if k != "nvidia.com/gfd.timestamp"}


def test_scontrol_show_job_prints_job_info_cs_lines_in_order():
    # Slurm 23.11.11 src/api/job_info.c (slurm_sprint_job_info): the first key of each line, in order.
    out = slurm.show_job(_slurm().slurm, "300081").split("\n")
    firsts = [re.findall(r"[\w/:]+(?==)", ln)[0] for ln in out]
    assert firsts == ["JobId", "UserId", "Priority", "JobState", "Requeue", "RunTime", "SubmitTime", "AccrueTime",
                      "StartTime", "SuspendTime", "Partition", "ReqNodeList", "NodeList", "BatchHost", "NumNodes",
                      "ReqTRES", "AllocTRES", "Socks/Node", "MinCPUsNode", "Features", "OverSubscribe", "Command",
                      "WorkDir", "StdErr", "StdIn", "StdOut", "Power", "TresPerNode"]
    assert all(ln.startswith("   ") for ln in out[1:])
    assert out[5] == "   RunTime=00:00:01 TimeLimit=1-00:00:00 TimeMin=N/A"
    pending = slurm.show_job(_slurm().slurm, "300101").split("\n")
    assert "   JobState=PENDING Reason=Dependency Dependency=(null)" in pending
    assert "   AllocTRES=(null)" in pending and not any(ln.startswith("   BatchHost=") for ln in pending)
    assert slurm.show_job(_slurm().slurm, "1") == "slurm_load_jobs error: Invalid job id specified"


def test_xid_table_agrees_with_nvidias_catalogue_copy():
    from study.lab.xid import XIDS

    rows = {}
    for ln in sample("xid_catalog_subset.txt"):
        m = re.search(r'\{Code: (\d+), Mnemonic: "([^"]*)", Description: "([^"]*)", ImmediateResolution: "([^"]*)"', ln)
        if m:
            rows[int(m.group(1))] = (m.group(2).split(" /")[0], m.group(3).split("\\n")[0], m.group(4))
    assert set(XIDS) == set(rows)
    for code, (mnemonic, description, immediate) in XIDS.items():
        assert (mnemonic, immediate) == (rows[code][0], rows[code][2])
        assert rows[code][1].startswith(description)  # 45's long description is cut after its first clause
