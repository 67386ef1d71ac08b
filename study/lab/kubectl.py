"""``kubectl get nodes``, ``kubectl describe node NAME``, ``kubectl get pods -A|-n NS [-o wide]``,
``kubectl describe pod NAME [-n NS]``.

``describe`` output is what kubectl v1.29.4 writes (kubernetes/kubectl ``pkg/describe/describe.go`` at tag
``kubernetes-1.29.4``, the lab nodes' version): the same sections in the same order, laid out by Go's
``text/tabwriter`` with padding 2 (:func:`tabwrite`), so a key column is as wide as its block's longest key
plus two. The result is checked against ``kubectl_describe_node_gfd_h100_1.txt`` (Kubernetes v1.29: keys at
column 20, labels continued at 20, Capacity values aligned past the longest resource),
``kubectl_describe_node_mig-resources_h100_1.txt`` (``nvidia.com/mig-*`` resources, ``Resource Requests
Limits``) and ``kubectl_pending_insufficient-gpu_aks_2.txt`` (the Events table, whose columns kubectl
flushes on their own, and the scheduler's ``Insufficient nvidia.com/gpu`` message). ``get pods`` follows
``kubectl_get_pods_gpu-operator_h100_1.txt`` (GPU Operator pod names, columns padded to the widest cell
plus 3, sorted by namespace and name as the API lists them). GPU Feature Discovery labels as in INDEX.md.
The lab's pods request GPUs only, so they are BestEffort and the node's CPU and memory requests are 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import datetime as dt

from study.lab.catalog import MODELS
from study.lab.common import hex_for, unknown, uuid_for
from study.lab.view import pod

if TYPE_CHECKING:
    from study.lab.schema import K8sNode, Kubernetes, Pod
    from study.lab.view import View

_SUFFIX = "bcdfghjklmnpqrstvwxz2456789"


def _suffix(*parts: object, n: int = 5) -> str:
    h = int(hex_for(*parts), 16)
    out = ""
    for _ in range(n):
        h, r = divmod(h, len(_SUFFIX))
        out += _SUFFIX[r]
    return out


def table(rows: list[list[str]], gap: int = 3) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join((" " * gap).join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def tabwrite(text: str, padding: int = 2) -> str:
    """Go's text/tabwriter (minwidth 0, padding 2, AlignLeft), as kubectl describe uses it: a TAB ends a
    cell, and a column is as wide as the widest cell (+ padding) over the run of consecutive lines that
    have a cell in it; a line without that cell ends the run (tabwriter.Writer.format)."""
    lines = [ln.split("\t") for ln in text.rstrip("\n").split("\n")]
    widths: list[int] = []
    out: list[str] = []

    def write(lo: int, hi: int) -> None:
        for cells in lines[lo:hi]:
            out.append("".join(c.ljust(widths[j]) if j < len(widths) else c for j, c in enumerate(cells)))

    def fmt(lo: int, hi: int) -> None:
        column, this = len(widths), lo
        while this < hi:
            if column >= len(lines[this]) - 1:
                this += 1
                continue
            write(lo, this)
            lo, width = this, 0
            while this < hi and column < len(lines[this]) - 1:
                width = max(width, len(lines[this][column]) + padding)
                this += 1
            widths.append(width)
            fmt(lo, this)
            widths.pop()
            lo = this
        write(lo, hi)

    fmt(0, len(lines))
    return "\n".join(out)


NOW = dt.datetime(2026, 11, 24, 9, 52, 11, tzinfo=dt.timezone.utc)


def _ago(age: str) -> dt.datetime:
    """The moment an age like 41d, 3h or 5m30s points back to, from the labs' fixed now."""
    import re

    units = {"d": 86400, "h": 3600, "m": 60, "s": 1}
    secs = sum(int(n) * units[u] for n, u in re.findall(r"(\d+)([dhms])", age))
    return NOW - dt.timedelta(seconds=secs)


def _rfc1123z(when: dt.datetime) -> str:
    return when.strftime("%a, %d %b %Y %H:%M:%S +0000")


def _multiline(title: str, items: list[str]) -> str:
    """printLabelsMultiline / printTolerationsMultiline: the first item beside the key, the rest under it."""
    if not items:
        return f"{title}:\t<none>\n"
    return f"{title}:\t{items[0]}\n" + "".join(f"\t{x}\n" for x in items[1:])


def labels(node: K8sNode, driver_version: str = "535.104.12", cuda_version: str = "12.2") -> list[str]:
    base = ["beta.kubernetes.io/arch=amd64", "beta.kubernetes.io/os=linux", "kubernetes.io/arch=amd64",
            f"kubernetes.io/hostname={node.name}", "kubernetes.io/os=linux"]
    gfd: list[str] = []
    if node.gpu_model and node.gfd:
        m = MODELS[node.gpu_model]
        product = node.product_label or (m.gfd_product + ("-MIG-" + next(iter(node.mig_resources))[4:]
                                         if node.mig_strategy == "single" and node.mig_resources else ""))
        # GFD's labels on a GPU Operator v24.3.0 node, as in kubectl_node_labels_gfd_h100_1.json (which
        # carries 550.54.15 / 12.4); the versions are the host's, so they match nvidia-smi's banner. machine
        # and the operator's own gpu.deploy.* labels are left out.
        driver = tuple((driver_version.split(".") + ["", "", ""])[:3])
        runtime = tuple((cuda_version.split(".") + ["", ""])[:2])
        shared = product.endswith("-SHARED")
        gfd = [f"nvidia.com/cuda.driver-version.full={'.'.join(driver)}", f"nvidia.com/cuda.driver-version.major={driver[0]}",
               f"nvidia.com/cuda.driver-version.minor={driver[1]}", f"nvidia.com/cuda.driver-version.revision={driver[2]}",
               f"nvidia.com/cuda.driver.major={driver[0]}", f"nvidia.com/cuda.driver.minor={driver[1]}",
               f"nvidia.com/cuda.driver.rev={driver[2]}", f"nvidia.com/cuda.runtime-version.full={'.'.join(runtime)}",
               f"nvidia.com/cuda.runtime-version.major={runtime[0]}", f"nvidia.com/cuda.runtime-version.minor={runtime[1]}",
               f"nvidia.com/cuda.runtime.major={runtime[0]}", f"nvidia.com/cuda.runtime.minor={runtime[1]}",
               f"nvidia.com/gfd.timestamp={int(NOW.timestamp()) - 41}",
               f"nvidia.com/gpu.compute.major={m.compute[0]}", f"nvidia.com/gpu.compute.minor={m.compute[1]}",
               f"nvidia.com/gpu.count={node.gpu_count}", f"nvidia.com/gpu.family={m.family}",
               f"nvidia.com/gpu.memory={m.memory_mib}", "nvidia.com/gpu.present=true",
               f"nvidia.com/gpu.product={product}", f"nvidia.com/gpu.replicas={4 if shared else 1}",
               f"nvidia.com/gpu.sharing-strategy={'time-slicing' if shared else 'none'}",
               f"nvidia.com/mig.capable={'true' if m.mig else 'false'}", "nvidia.com/mps.capable=false"]
        if m.mig:
            gfd.append(f"nvidia.com/mig.strategy={node.mig_strategy if node.mig_strategy != 'none' else 'single'}")
    extra = [f"{k}={v}" for k, v in sorted(node.extra_labels.items())]
    return sorted(base + gfd + extra)


def _resources(node: K8sNode) -> dict[str, str]:
    res = {"cpu": "224", "ephemeral-storage": "1873933640Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
           "memory": "2113411308Ki"}
    if node.gpu_model and node.device_plugin:
        res["nvidia.com/gpu"] = str(0 if node.mig_strategy == "mixed" else
                                    sum(node.mig_resources.values()) if node.mig_strategy == "single" and node.mig_resources
                                    else node.gpu_count)
        if node.mig_strategy == "mixed":
            for k, v in sorted(node.mig_resources.items()):
                res[f"nvidia.com/{k}"] = str(v)
    res["pods"] = "110"
    return res


def _ip(*parts: object) -> str:
    h = int(hex_for(*parts), 16)
    return f"10.0.{h % 250}.{(h >> 8) % 250 + 2}"


def describe_node(k8s: Kubernetes, name: str) -> str:
    node = next((n for n in k8s.nodes if n.name == name), None)
    if node is None:
        return f'Error from server (NotFound): nodes "{name}" not found'
    created = _ago(node.age)
    res = _resources(node)
    ready = node.status.startswith("Ready")
    heartbeat = _rfc1123z(NOW - dt.timedelta(seconds=37))
    text = f"Name:\t{node.name}\nRoles:\t{node.roles}\n" + _multiline("Labels", labels(node, k8s.driver, k8s.cuda))
    text += ("Annotations:\tnode.alpha.kubernetes.io/ttl: 0\n"
             "\tvolumes.kubernetes.io/controller-managed-attach-detach: true\n"
             f"CreationTimestamp:\t{_rfc1123z(created)}\n" + _multiline("Taints", list(node.taints))
             + f"Unschedulable:\t{'true' if 'SchedulingDisabled' in node.status else 'false'}\n")
    text += f"Lease:\n  HolderIdentity:\t{node.name}\n  AcquireTime:\t<unset>\n  RenewTime:\t{heartbeat}\n"
    text += "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n"
    text += "  ----\t------\t-----------------\t------------------\t------\t-------\n"
    for cond, reason, message in (("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
                                  ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
                                  ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
                                  ("Ready", "KubeletReady" if ready else "KubeletNotReady",
                                   "kubelet is posting ready status" if ready else "container runtime is down")):
        status = ("True" if ready else "False") if cond == "Ready" else "False"
        text += f"  {cond} \t{status} \t{heartbeat} \t{_rfc1123z(created)} \t{reason} \t{message}\n"
    text += f"Addresses:\n  InternalIP:\t{_ip(node.name, 'node')}\n  Hostname:\t{node.name}\n"
    for title in ("Capacity", "Allocatable"):
        text += f"{title}:\n" + "".join(f"  {k}:\t{v}\n" for k, v in res.items())
    text += ("System Info:\n" + f"  Machine ID:\t{hex_for(node.name, 'machine', digits=32)}\n"
             f"  System UUID:\t{uuid_for(node.name, 'system')}\n  Boot ID:\t{uuid_for(node.name, 'boot')}\n"
             "  Kernel Version:\t5.15.0-112-generic\n  OS Image:\tUbuntu 22.04.4 LTS\n"
             "  Operating System:\tlinux\n  Architecture:\tamd64\n"
             "  Container Runtime Version:\tcontainerd://1.7.12\n"
             f"  Kubelet Version:\t{node.version}\n  Kube-Proxy Version:\t{node.version}\n")
    cidr = f"10.244.{[n.name for n in k8s.nodes].index(node.name)}.0/24"
    text += f"PodCIDR:\t{cidr}\nPodCIDRs:\t{cidr}\n"
    pods = sorted((p for p in all_pods(k8s) if p.node == node.name and _PHASE.get(p.status, p.status)
                   not in ("Succeeded", "Failed")), key=lambda p: (p.namespace, p.name))
    text += f"Non-terminated Pods:\t({len(pods)} in total)\n"
    text += "  Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n"
    text += "  ---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n"
    for p in pods:
        text += f"  {p.namespace}\t{p.name}\t\t0 (0%)\t0 (0%)\t0 (0%)\t0 (0%)\t{p.age}\n"
    text += "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n"
    text += "  Resource\tRequests\tLimits\n  --------\t--------\t------\n"
    for k in ("cpu", "memory", "ephemeral-storage"):
        text += f"  {k}\t0 (0%)\t0 (0%)\n"
    for k in sorted(k for k in res if k.startswith("hugepages-")):
        text += f"  {k}\t0 (0%)\t0 (0%)\n"
    for k in sorted(k for k in res if k.startswith("nvidia.com/")):
        req = str(node.gpus_requested) if k == "nvidia.com/gpu" else "0"
        text += f"  {k}\t{req}\t{req}\n"
    text += "Events:\t<none>\n"
    return tabwrite(text)


def get_nodes(k8s: Kubernetes, wide: bool = False) -> str:
    rows = [["NAME", "STATUS", "ROLES", "AGE", "VERSION"]]
    rows += [[n.name, n.status, n.roles, n.age, n.version] for n in k8s.nodes]
    return table(rows)


# Container name and image of each GPU Operator pod: NVIDIA/gpu-operator v24.3.0 (assets/*/daemonset and
# deployments/gpu-operator/values.yaml: driver 550.54.15, DCGM 3.3.5), NFD from its bundled chart (v0.15.4).
_VALIDATOR = "nvcr.io/nvidia/cloud-native/gpu-operator-validator:v24.3.0"
_CONTAINERS = {
    "gpu-operator": ("gpu-operator", "nvcr.io/nvidia/gpu-operator:v24.3.0"),
    "node-feature-discovery-gc": ("gc", "registry.k8s.io/nfd/node-feature-discovery:v0.15.4"),
    "node-feature-discovery-master": ("master", "registry.k8s.io/nfd/node-feature-discovery:v0.15.4"),
    "node-feature-discovery-worker": ("worker", "registry.k8s.io/nfd/node-feature-discovery:v0.15.4"),
    "gpu-feature-discovery": ("gpu-feature-discovery", "nvcr.io/nvidia/k8s-device-plugin:v0.15.0-ubi8"),
    "nvidia-container-toolkit-daemonset": ("nvidia-container-toolkit-ctr",
                                           "nvcr.io/nvidia/k8s/container-toolkit:v1.15.0-ubuntu20.04"),
    "nvidia-cuda-validator": ("nvidia-cuda-validator", _VALIDATOR),
    "nvidia-dcgm": ("nvidia-dcgm-ctr", "nvcr.io/nvidia/cloud-native/dcgm:3.3.5-1-ubuntu22.04"),
    "nvidia-dcgm-exporter": ("nvidia-dcgm-exporter", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04"),
    "nvidia-device-plugin-daemonset": ("nvidia-device-plugin", "nvcr.io/nvidia/k8s-device-plugin:v0.15.0-ubi8"),
    "nvidia-driver-daemonset": ("nvidia-driver-ctr", "nvcr.io/nvidia/driver:550.54.15-ubuntu22.04"),
    "nvidia-mig-manager": ("nvidia-mig-manager", "nvcr.io/nvidia/cloud-native/k8s-mig-manager:v0.7.0-ubuntu20.04"),
    "nvidia-operator-validator": ("nvidia-operator-validator", _VALIDATOR),
}


def _operand(daemon: str, name: str, driver: str = "", **fields: object) -> View:
    container, image = _CONTAINERS[daemon]
    if daemon == "nvidia-driver-daemonset" and driver:
        # The driver container runs the host's driver (the operator's driver.version), not the chart default.
        image = f"nvcr.io/nvidia/driver:{driver}-ubuntu22.04"
    return pod(name=name, namespace="gpu-operator", age="41d", container=container, image=image, **fields)


def operator_pods(k8s: Kubernetes) -> list[View]:
    # The operator's pods are generated views shaped like schema.Pod (view.POD_DEFAULTS), not models.
    if not k8s.gpu_operator:
        return []
    first = k8s.nodes[0].name if k8s.nodes else None
    # The operator and its Node Feature Discovery (gc, master, a worker on every node), named as in the sample.
    pods = [_operand("gpu-operator", f"gpu-operator-6bf99d6478-{_suffix('op')}", node=first),
            _operand("node-feature-discovery-gc", f"node-feature-discovery-gc-5495c9b5c9-{_suffix('nfd-gc')}",
                     node=first),
            _operand("node-feature-discovery-master",
                     f"node-feature-discovery-master-6f876b9c85-{_suffix('nfd-master')}", node=first)]
    pods += [_operand("node-feature-discovery-worker", f"node-feature-discovery-worker-{_suffix('nfd-worker', n.name)}",
                      node=n.name) for n in k8s.nodes]
    gpu_nodes = [n for n in k8s.nodes if n.gpu_model]
    for daemon, ready in (("gpu-feature-discovery", "1/1"), ("nvidia-container-toolkit-daemonset", "1/1"),
                          ("nvidia-cuda-validator", "0/1"), ("nvidia-dcgm", "1/1"), ("nvidia-dcgm-exporter", "1/1"),
                          ("nvidia-device-plugin-daemonset", "1/1"), ("nvidia-driver-daemonset", "3/3"),
                          ("nvidia-mig-manager", "1/1"), ("nvidia-operator-validator", "1/1")):
        for n in gpu_nodes:
            status, shown = ("Completed" if daemon == "nvidia-cuda-validator" else "Running"), ready
            if daemon == "gpu-feature-discovery" and not n.gfd:
                continue
            if daemon == "nvidia-device-plugin-daemonset" and not n.device_plugin:
                status, shown = "CrashLoopBackOff", "0/1"
            pods.append(_operand(daemon, f"{daemon}-{_suffix(daemon, n.name)}", driver=k8s.driver, ready=shown,
                                 status=status, node=n.name, restarts=12 if status == "CrashLoopBackOff" else 0))
    return sorted(pods, key=lambda p: p.name)


def all_pods(k8s: Kubernetes) -> list[Pod | View]:
    return [*k8s.pods, *operator_pods(k8s)]


def get_pods(k8s: Kubernetes, namespace: str | None, wide: bool) -> str:
    # The API server lists pods by namespace, then name; kubectl prints them in that order.
    pods = sorted((p for p in all_pods(k8s) if namespace is None or p.namespace == namespace),
                  key=lambda p: (p.namespace, p.name))
    if not pods:
        return f"No resources found in {namespace} namespace." if namespace else "No resources found"
    head = (["NAMESPACE"] if namespace is None else []) + ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    if wide:
        head += ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]
    rows = [head]
    for p in pods:
        row = ([p.namespace] if namespace is None else []) + [p.name, p.ready, p.status, str(p.restarts), p.age]
        if wide:
            running = p.node and _PHASE.get(p.status, p.status) != "Pending"
            row += [_ip(p.name, p.namespace) if running else "<none>", p.node or "<none>", "<none>", "<none>"]
        rows.append(row)
    return table(rows)


# The phase describe prints for a status column value (kubectl get shows the container's reason instead).
_PHASE = {"CrashLoopBackOff": "Running", "Completed": "Succeeded", "Error": "Failed", "ContainerCreating": "Pending"}


def describe_pod(k8s: Kubernetes, name: str, namespace: str) -> str:
    pod = next((p for p in all_pods(k8s) if p.name == name and p.namespace == namespace), None)
    if pod is None:
        return f'Error from server (NotFound): pods "{name}" not found'
    token = f"kube-api-access-{_suffix(pod.name, 'token')}"
    scheduled = pod.node is not None
    phase = _PHASE.get(pod.status, pod.status)
    started = _rfc1123z(_ago(pod.age))
    ip = _ip(pod.name, pod.namespace) if scheduled and phase != "Pending" else ""
    text = f"Name:\t{pod.name}\nNamespace:\t{pod.namespace}\nPriority:\t0\nService Account:\tdefault\n"
    text += f"Node:\t{pod.node}/{_ip(pod.node, 'node')}\n" if pod.node is not None else "Node:\t<none>\n"
    if scheduled:
        text += f"Start Time:\t{started}\n"
    text += f"Labels:\t<none>\nAnnotations:\t<none>\nStatus:\t{phase}\nIP:\t{ip}\n"
    text += f"IPs:\n  IP:\t{ip}\n" if ip else "IPs:\t<none>\n"
    text += f"Containers:\n  {getattr(pod, 'container', 'main')}:\n"  # a lab's own pods run one "main"
    if scheduled and phase != "Pending":
        text += f"    Container ID:\tcontainerd://{hex_for(pod.name, 'container', digits=64)}\n"
    text += f"    Image:\t{pod.image}\n"
    if scheduled and phase != "Pending":
        text += f"    Image ID:\t{pod.image.split(':')[0]}@sha256:{hex_for(pod.image, digits=64)}\n"
    text += "    Port:\t<none>\n    Host Port:\t<none>\n"
    if scheduled and phase != "Pending":
        if pod.status == "CrashLoopBackOff":
            text += ("    State:\tWaiting\n      Reason:\tCrashLoopBackOff\n    Last State:\tTerminated\n"
                     "      Reason:\tError\n      Exit Code:\t1\n")
        elif phase == "Succeeded":
            text += "    State:\tTerminated\n      Reason:\tCompleted\n      Exit Code:\t0\n"
        else:
            text += f"    State:\tRunning\n      Started:\t{started}\n"
        text += f"    Ready:\t{'True' if pod.ready.split('/')[0] == pod.ready.split('/')[-1] else 'False'}\n"
        text += f"    Restart Count:\t{pod.restarts}\n"
    if pod.gpus:
        text += f"    Limits:\n      {pod.resource}:\t{pod.gpus}\n    Requests:\n      {pod.resource}:\t{pod.gpus}\n"
    text += f"    Environment:\t<none>\n    Mounts:\n      /var/run/secrets/kubernetes.io/serviceaccount from {token} (ro)\n"
    text += "Conditions:\n  Type\tStatus\n"
    if not scheduled:
        conditions = [("PodScheduled", "False")]
    else:
        ok = "True" if phase == "Running" and pod.status != "CrashLoopBackOff" else "False"
        conditions = [("PodReadyToStartContainers", "True"), ("Initialized", "True"), ("Ready", ok),
                      ("ContainersReady", ok), ("PodScheduled", "True")]
    text += "".join(f"  {c} \t{v} \n" for c, v in conditions)
    text += (f"Volumes:\n  {token}:\n"
             "    Type:\tProjected (a volume that contains injected data from multiple sources)\n"
             "    TokenExpirationSeconds:\t3607\n    ConfigMapName:\tkube-root-ca.crt\n"
             "    ConfigMapOptional:\t<nil>\n    DownwardAPI:\ttrue\n")
    text += "QoS Class:\tBestEffort\n"
    text += _multiline("Node-Selectors", [f"{k}={v}" for k, v in sorted(pod.node_selector.items())])
    text += _multiline("Tolerations", ["node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
                                       "node.kubernetes.io/unreachable:NoExecute op=Exists for 300s"])
    if not pod.events:
        return tabwrite(text + "Events:\t<none>\n")
    # DescribeEvents flushes the writer first: the events table is aligned on its own.
    events = "Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n"
    events += "".join(f"  {e.type}\t{e.reason}\t{e.age}\t{e.source}\t{e.message}\n" for e in pod.events)
    return tabwrite(text) + "\n" + tabwrite(events)


def run(k8s: Kubernetes | None, argv: list[str]) -> str:
    if k8s is None:
        return "The connection to the server localhost:8080 was refused - did you specify the right host or port?"
    args = list(argv)
    wide = False
    if "-o" in args:
        i = args.index("-o")
        if args[i + 1:i + 2] != ["wide"]:
            raise unknown("kubectl", argv)
        wide = True
        del args[i:i + 2]
    namespace: str | None = "default"
    if "-A" in args or "--all-namespaces" in args:
        namespace = None
        args = [a for a in args if a not in ("-A", "--all-namespaces")]
    for flag in ("-n", "--namespace"):
        if flag in args:
            i = args.index(flag)
            if i + 1 >= len(args):
                return "error: flag needs an argument: 'n' in -n"
            namespace = args[i + 1]
            del args[i:i + 2]
    if args in (["get", "nodes"], ["get", "node"], ["get", "no"]):
        return get_nodes(k8s, wide)
    if len(args) == 3 and args[:2] in (["describe", "node"], ["describe", "nodes"]):
        return describe_node(k8s, args[2])
    if args in (["get", "pods"], ["get", "pod"], ["get", "po"]):
        return get_pods(k8s, namespace, wide)
    if len(args) == 3 and args[:2] in (["describe", "pod"], ["describe", "pods"]):
        return describe_pod(k8s, args[2], namespace or "default")
    raise unknown("kubectl", argv)
