"""``kubectl get nodes``, ``kubectl describe node NAME``, ``kubectl get pods -A|-n NS [-o wide]``,
``kubectl describe pod NAME [-n NS]``.

Layout follows ``kubectl_describe_node_gfd_h100_1.txt`` (Kubernetes v1.29: keys padded to column 20,
continuation labels indented 20, Capacity/Allocatable entries indented 2 with values aligned past the
longest resource name), ``kubectl_describe_node_allocatable_h100_1.txt``,
``kubectl_describe_node_mig-resources_h100_1.txt`` (``nvidia.com/mig-*`` resources, ``Resource Requests
Limits``), ``kubectl_get_pods_gpu-operator_h100_1.txt`` (GPU Operator pod names, columns padded to the
widest cell plus 3) and ``kubectl_pending_insufficient-gpu_aks_2.txt`` (the Events table and the
scheduler's ``Insufficient nvidia.com/gpu`` message). GPU Feature Discovery labels as listed in INDEX.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from study.lab.catalog import MODELS
from study.lab.common import hex_for, unknown
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


def labels(node: K8sNode) -> list[str]:
    base = ["beta.kubernetes.io/arch=amd64", "beta.kubernetes.io/os=linux", "kubernetes.io/arch=amd64",
            f"kubernetes.io/hostname={node.name}", "kubernetes.io/os=linux"]
    gfd: list[str] = []
    if node.gpu_model and node.gfd:
        m = MODELS[node.gpu_model]
        product = node.product_label or (m.gfd_product + ("-MIG-" + next(iter(node.mig_resources))[4:]
                                         if node.mig_strategy == "single" and node.mig_resources else ""))
        gfd = ["nvidia.com/cuda.driver-version.full=535.104.12", "nvidia.com/cuda.runtime-version.full=12.2",
               f"nvidia.com/gpu.compute.major={m.compute[0]}", f"nvidia.com/gpu.compute.minor={m.compute[1]}",
               f"nvidia.com/gpu.count={node.gpu_count}", f"nvidia.com/gpu.family={m.family}",
               f"nvidia.com/gpu.memory={m.memory_mib}", "nvidia.com/gpu.present=true",
               f"nvidia.com/gpu.product={product}", f"nvidia.com/mig.capable={'true' if m.mig else 'false'}"]
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


def _block(title: str, res: dict[str, str]) -> list[str]:
    width = max(len(k) for k in res) + 1
    return [f"{title}:"] + [f"  {k + ':':<{width}}  {v}" for k, v in res.items()]


def describe_node(k8s: Kubernetes, name: str) -> str:
    node = next((n for n in k8s.nodes if n.name == name), None)
    if node is None:
        return f'Error from server (NotFound): nodes "{name}" not found'
    lab = labels(node)
    out = [f"{'Name:':<20}{node.name}", f"{'Roles:':<20}{node.roles}", f"{'Labels:':<20}{lab[0]}"]
    out += [" " * 20 + x for x in lab[1:]]
    taints = node.taints or ["<none>"]
    out.append(f"{'Taints:':<20}{taints[0]}")
    out += [" " * 20 + t for t in taints[1:]]
    out.append(f"{'Unschedulable:':<20}false")
    res = _resources(node)
    out += _block("Capacity", res) + _block("Allocatable", res)
    gpu_keys = [k for k in res if k.startswith("nvidia.com/")]
    rows = [["Resource", "Requests", "Limits"], ["--------", "--------", "------"],
            ["cpu", "8 (3%)", "8 (3%)"], ["memory", "64Gi (3%)", "64Gi (3%)"]]
    for k in gpu_keys:
        req = str(node.gpus_requested) if k == "nvidia.com/gpu" else "0"
        rows.append([k, req, req])
    out += ["Allocated resources:", "  (Total limits may be over 100 percent, i.e., overcommitted.)"]
    out += ["  " + line for line in table(rows, gap=2).split("\n")]
    out.append("Events:              <none>")
    return "\n".join(out)


def get_nodes(k8s: Kubernetes, wide: bool = False) -> str:
    rows = [["NAME", "STATUS", "ROLES", "AGE", "VERSION"]]
    rows += [[n.name, n.status, n.roles, n.age, n.version] for n in k8s.nodes]
    return table(rows)


def operator_pods(k8s: Kubernetes) -> list[View]:
    # The operator's pods are generated views shaped like schema.Pod (view.POD_DEFAULTS), not models.
    if not k8s.gpu_operator:
        return []
    pods = [pod(name=f"gpu-operator-6bf99d6478-{_suffix('op')}", namespace="gpu-operator", age="41d")]
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
            pods.append(pod(name=f"{daemon}-{_suffix(daemon, n.name)}", namespace="gpu-operator", ready=shown,
                            status=status, age="41d", node=n.name,
                            restarts=12 if status == "CrashLoopBackOff" else 0))
    return sorted(pods, key=lambda p: p.name)


def all_pods(k8s: Kubernetes) -> list[Pod | View]:
    return [*k8s.pods, *operator_pods(k8s)]


def get_pods(k8s: Kubernetes, namespace: str | None, wide: bool) -> str:
    pods = [p for p in all_pods(k8s) if namespace is None or p.namespace == namespace]
    if not pods:
        return f"No resources found in {namespace} namespace." if namespace else "No resources found"
    head = (["NAMESPACE"] if namespace is None else []) + ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]
    if wide:
        head += ["IP", "NODE", "NOMINATED NODE", "READINESS GATES"]
    rows = [head]
    for k, p in enumerate(pods):
        row = ([p.namespace] if namespace is None else []) + [p.name, p.ready, p.status, str(p.restarts), p.age]
        if wide:
            ip = f"10.0.{(k * 37) % 250}.{(k * 91) % 250 + 2}" if p.node else "<none>"
            row += [ip, p.node or "<none>", "<none>", "<none>"]
        rows.append(row)
    return table(rows)


def describe_pod(k8s: Kubernetes, name: str, namespace: str) -> str:
    pod = next((p for p in all_pods(k8s) if p.name == name and p.namespace == namespace), None)
    if pod is None:
        return f'Error from server (NotFound): pods "{name}" not found'
    out = [f"{'Name:':<14}{pod.name}", f"{'Namespace:':<14}{pod.namespace}", f"{'Node:':<14}{pod.node or '<none>'}",
           f"{'Status:':<14}{pod.status}", "Containers:", "  main:", f"    {'Image:':<10}{pod.image}"]
    if pod.gpus:
        out += ["    Limits:", f"      {pod.resource}:  {pod.gpus}", "    Requests:", f"      {pod.resource}:  {pod.gpus}"]
    sel = [f"{k}={v}" for k, v in sorted(pod.node_selector.items())] or ["<none>"]
    out.append(f"{'Node-Selectors:':<16}{sel[0]}")
    out += [" " * 16 + s for s in sel[1:]]
    out.append(f"{'Tolerations:':<16}node.kubernetes.io/not-ready:NoExecute op=Exists for 300s")
    if not pod.events:
        out.append("Events:            <none>")
        return "\n".join(out)
    rows = [["Type", "Reason", "Age", "From", "Message"], ["----", "------", "----", "----", "-------"]]
    rows += [[e.type, e.reason, e.age, e.source, e.message] for e in pod.events]
    out.append("Events:")
    out += ["  " + line for line in table(rows, gap=2).split("\n")]
    return "\n".join(out)


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
