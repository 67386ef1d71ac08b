"""Golden tests: dcgmi, kubectl, Slurm, InfiniBand, kernel log and dcgm-exporter against their samples."""

from __future__ import annotations

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


def test_dcgmi_diag_metadata_and_rows_match_the_dcgm4_sample():
    s = system(model="l40s", gpu_count=4, dcgm="4.2.3", driver="570.148.08",
               diag=[{"test": "pcie", "result": "Fail", "gpu": 0}])
    ours = dcgmi.diag(s.host, 2).split("\n")
    ref = sample("dcgmi_diag_-r2_l40s_1.txt")[1:]  # the first line is the author's kubectl wrapper
    upto = ref.index("| pcie                      | Fail                                           |")
    assert ours[:upto + 1] == ref[:upto + 1]


def test_dcgmi_health_json_has_the_report_shape():
    import json

    healthy = json.loads(dcgmi.health(system(model="h100-sxm", gpu_count=1).host, True))
    assert healthy == {"body": {"Overall Health": {"value": "Healthy"}}, "header": ["Health Monitor Report"]}


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
    assert stems(ours) - {"gpu-operator-6bf99d6478"} == stems(ref) - {
        "gpu-operator-6bf99d6478", "node-feature-discovery-gc-5495c9b5c9", "node-feature-discovery-master-6f876b9c85",
        "node-feature-discovery-worker"}
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
        "nodes": [{"name": "hgpn01", "state": "mix", "gpus_alloc": 2, "cpus": 104, "cpus_alloc": 9},
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
    assert "   Gres=gpu:H100:8(S:0-1)" in out and "   AllocTRES=cpu=9,mem=73728M,gres/gpu=2" in out


def test_sacct_header_matches_the_sample():
    out = slurm.sacct(_slurm().slurm).split("\n")
    ref = sample("slurm_sacct_gres_1.txt")[1:]
    assert out[:2] == ref[:2]


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
                "\t\tLink layer: InfiniBand", "\tFirmware version: 28.37.1014"):
        assert key in mine and key in block


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


def test_exporter_help_lines_and_label_order_match_the_sample():
    s = system(model="h100-sxm", gpu_count=2)
    ours = exporter.metrics(s.host).split("\n")
    ref = sample("dcgm-exporter_metrics_h100_2.txt")
    ref_help = [ln for ln in ref if ln.startswith("# HELP")]
    for line in ref_help:
        if line.split()[2] in {m[0] for m in exporter.METRICS}:
            assert line in ours
    labels = lambda ln: re.findall(r"(\w+)=\"", ln)  # noqa: E731
    first_ref = next(ln for ln in ref if ln.startswith("DCGM_FI_DEV_SM_CLOCK{"))
    first = next(ln for ln in ours if ln.startswith("DCGM_FI_DEV_SM_CLOCK{"))
    assert labels(first) == labels(first_ref)


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


def test_dcgmi_dmon_header_and_rows_follow_the_sample():
    from study.lab.shell import run_line

    s = system(model="h100-sxm", gpu_count=4, gpus=[{"index": 1, "util_pct": 97, "sm_active": 0.41}])
    out = run_line(s, "dcgmi dmon -e 203,1002 -c 1").split("\n")
    ref = sample("dcgmi_dmon_-e_1011-1012_h800_1.txt")
    assert out[:2] == ["#Entity   GPUTL                       SMACT", "ID"]
    assert out[2:] == ["GPU 3     0                           0.000", "GPU 2     0                           0.000",
                       "GPU 1     97                          0.410", "GPU 0     0                           0.000"]
    assert ref[0].index("NVLRX") == out[0].index("SMACT") and ref[1] == "ID"
    assert run_line(s, "dcgmi dmon -e 203 -x 1").startswith("not simulated in this lab")
