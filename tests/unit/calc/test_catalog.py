from __future__ import annotations

import json
from pathlib import Path

import pytest

from study.calc import CatalogError, catalog, gpu, link, model
from study.calc.specs import load

GPU_IDS = ["h100-sxm", "h200-sxm", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb", "h100-pcie", "h100-nvl",
           "l40s", "l4", "a10", "t4", "v100-sxm2-32gb", "b200", "gb200",
           *(LATE_2026 := ["b300", "gb300", "gh200", "a30", "h200-nvl", "rtx-pro-6000-bse"])]
# LATE_2026: added after the shared reference sheet was made; their pinned figures are volatile product-page
# figures, each with its source in gpu_figures.json.
MODEL_IDS = ["llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3-405b", "mistral-7b",
             "mixtral-8x7b", "gpt-3-175b", "bert-base"]
LINK_IDS = ["nvlink-3", "nvlink-4", "nvlink-5", "pcie-gen3-x16", "pcie-gen4-x16", "pcie-gen5-x16", "pcie-gen6-x16",
            "ib-hdr", "ib-ndr", "ib-xdr", "eth-100g", "eth-200g", "eth-400g", "eth-800g"]

SHARED_SHEET = Path("/work/shared/reference/gpu_specs.json")
# The reference figures for each catalog GPU, kept in the repository so the comparison always runs.
FIGURES = json.loads((Path(__file__).parents[2] / "data" / "reference" / "gpu_figures.json").read_text())["gpus"]
DENSE_KEYS = {"tf32": "tf32_tflops_dense", "bf16": "bf16_tflops_dense", "fp16": "fp16_tflops_dense",
              "fp8": "fp8_tflops_dense", "fp4": "fp4_tflops_dense", "int8": "int8_tops_dense"}


@pytest.mark.parametrize("id_", GPU_IDS)
def test_every_promised_gpu(id_: str) -> None:
    g, ref = gpu(id_), FIGURES[id_]
    assert g.id == id_ and g.name.startswith("NVIDIA")
    assert g.memory.value == ref["memory_gb"] * 1e9
    assert g.bandwidth.value == ref["memory_bandwidth_gb_s"] * 1e9
    assert g.tdp.value == ref["tdp_max_w"]
    assert g.fp32_tflops == ref["fp32_tflops"]
    for dtype, key in DENSE_KEYS.items():
        assert g.dense.get(dtype) == ref[key], (id_, dtype)  # None on both sides: the GPU lacks the format
    assert g.source.startswith("https://")


def test_every_catalog_gpu_has_pinned_figures() -> None:
    assert set(catalog().gpus) == set(FIGURES) == set(GPU_IDS)


@pytest.mark.parametrize("id_", MODEL_IDS)
def test_every_promised_model(id_: str) -> None:
    m = model(id_)
    assert m.heads % m.kv_heads == 0 and m.head_dim * m.heads == m.hidden


# GB/s one way and both ways. NVLink: links x per-link rate (bidirectional), half each way. PCIe x16: the raw
# bidirectional figure, and one way after line encoding (Gen3-5: 128b/130b, Gen6: FLIT). Network ports are
# quoted in Gb/s per direction: divided by 8, doubled for both ways.
LINK_FIGURES = {
    "nvlink-3": (300, 600), "nvlink-4": (450, 900), "nvlink-5": (900, 1800),
    "pcie-gen3-x16": (15.75, 32), "pcie-gen4-x16": (31.5, 64), "pcie-gen5-x16": (63, 128), "pcie-gen6-x16": (121, 256),
    "ib-hdr": (25, 50), "ib-ndr": (50, 100), "ib-xdr": (100, 200),
    "eth-100g": (12.5, 25), "eth-200g": (25, 50), "eth-400g": (50, 100), "eth-800g": (100, 200),
}


@pytest.mark.parametrize("id_", LINK_IDS)
def test_every_promised_link(id_: str) -> None:
    lk = link(id_)
    one_way, both = LINK_FIGURES[id_]
    assert (lk.per_direction.value, lk.bidirectional.value) == (one_way * 1e9, both * 1e9)


@pytest.mark.parametrize("key, expected", [
    ("H100 SXM", "h100-sxm"), ("h100_sxm", "h100-sxm"), ("H100-SXM", "h100-sxm"), ("A100 SXM 80GB", "a100-sxm-80gb"),
    ("v100", "v100-sxm2-32gb"),
])
def test_forgiving_gpu_lookup(key: str, expected: str) -> None:
    assert gpu(key).id == expected


def test_forgiving_model_and_link_lookup() -> None:
    assert model("Llama 2 70B").id == "llama-2-70b"
    assert model("llama-3.1-405b").id == "llama-3-405b"
    assert link("NVLink 4").id == "nvlink-4"
    assert link("PCIe Gen5 x16").id == "pcie-gen5-x16"
    assert link("NDR").id == "ib-ndr"


def test_a_miss_suggests_the_nearest_ids() -> None:
    with pytest.raises(CatalogError, match="did you mean h100-sxm"):
        gpu("h100-sxn")
    with pytest.raises(CatalogError, match="llama-2-70b"):
        model("llama-2-71b")


def test_dense_is_half_of_sparse_and_the_default() -> None:
    h = gpu("h100-sxm")
    # NVIDIA prints 1,979 TFLOPS BF16 "with sparsity"; the dense figure used for MFU is half.
    assert h.peak("bf16").value == pytest.approx(989.4e12)
    assert h.peak("bf16", sparse=True).value == pytest.approx(1979e12)
    for g in catalog().gpus.values():
        for d, v in g.sparse.items():
            # NVIDIA rounds: L40S prints 362.05 | 733*, 1.2 % off an exact doubling.
            assert v == pytest.approx(2 * g.dense[d], rel=0.02), (g.id, d)


def test_gpus_without_sparsity_or_a_format_say_so() -> None:
    with pytest.raises(CatalogError, match="sparse"):
        gpu("v100").peak("fp16", sparse=True)
    with pytest.raises(CatalogError, match="fp8"):
        gpu("a100-sxm-80gb").peak("fp8")


@pytest.mark.skipif(not SHARED_SHEET.exists(), reason="the shared reference sheet is outside the repository")
def test_the_pinned_figures_are_still_the_reference_sheet() -> None:
    sheet = {r["name"]: r for r in json.loads(SHARED_SHEET.read_text())}
    assert {gid for gid, p in FIGURES.items() if p["reference_name"] not in sheet} == set(LATE_2026)
    for gid, pinned in FIGURES.items():
        if gid in LATE_2026:
            continue
        row = sheet[pinned["reference_name"]]
        for key, value in pinned.items():
            if key not in ("reference_name", "tdp_max_w"):
                assert row.get(key) == value, (gid, key)


def _llama_params(m) -> int:
    """Parameter count of a Llama/Mistral-style decoder from its shape (untied embeddings, SwiGLU, RMSNorm)."""
    h, L, kv = m.hidden, m.layers, m.kv_heads * m.head_dim
    attn = h * h * 2 + h * kv * 2
    mlp = 3 * h * m.ffn * m.experts + (h * m.experts if m.experts > 1 else 0)
    return 2 * m.vocab * h + L * (attn + mlp + 2 * h) + h


@pytest.mark.parametrize("id_", ["llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b",
                                 "llama-3-405b", "mistral-7b", "mixtral-8x7b"])
def test_stated_parameter_counts_follow_from_the_config(id_: str) -> None:
    m = model(id_)
    assert m.params == _llama_params(m)


def test_mixtral_total_and_active() -> None:
    m = model("mixtral-8x7b")
    assert m.params == pytest.approx(46.7e9, rel=0.002)
    assert m.active_params == pytest.approx(12.9e9, rel=0.002)
    h, L = m.hidden, m.layers
    per_layer_active = 2 * h * h + 2 * h * m.kv_heads * m.head_dim + 2 * 3 * h * m.ffn + h * m.experts + 2 * h
    assert m.active_params == 2 * m.vocab * h + L * per_layer_active + h


def test_bert_base_count() -> None:
    m = model("bert-base")
    h, f = m.hidden, m.ffn
    emb = (m.vocab + m.context + 2) * h + 2 * h
    layer = 4 * (h * h + h) + 2 * h + (h * f + f) + (f * h + h) + 2 * h
    assert m.params == emb + m.layers * layer + h * h + h


def test_llama3_70b_published_shape() -> None:
    m = model("llama-3-70b")
    assert (m.layers, m.hidden, m.heads, m.kv_heads, m.head_dim, m.ffn, m.vocab) == (80, 8192, 64, 8, 128, 28672, 128256)


def test_network_ports_are_bits_converted_to_bytes() -> None:
    assert link("ib-ndr").per_direction.value == 50e9
    assert link("eth-400g").per_direction.value == 50e9
    assert link("ib-hdr").per_direction.value == 25e9
    # NVLink is quoted bidirectional: one direction of NVLink 4 is 450 GB/s.
    assert link("nvlink-4").per_direction.value == 450e9
    assert gpu("h100-sxm").nvlink_bw.value == link("nvlink-4").bidirectional.value


def test_invalid_catalog_file_names_the_entry(tmp_path: Path) -> None:
    src = Path(__file__).resolve().parents[3] / "content" / "specs"
    for name in ("models.yaml", "interconnects.yaml"):
        (tmp_path / name).write_text((src / name).read_text())
    (tmp_path / "gpus.yaml").write_text(
        "gpus:\n  bad:\n    name: X\n    architecture: Y\n    memory: 80 s\n    memory_type: Z\n"
        "    bandwidth: 1 TB/s\n    tdp: 1 W\n    source: https://x\n"
    )
    with pytest.raises(CatalogError, match="bad: memory"):
        load(tmp_path)
    (tmp_path / "gpus.yaml").write_text(
        "gpus:\n  bad:\n    name: X\n    architecture: Y\n    memory: 80 GB\n    memory_type: Z\n"
        "    bandwidth: 1 TB/s\n    tdp: 1 W\n    source: https://x\n    memroy: 1\n"
    )
    with pytest.raises(CatalogError, match="unknown field"):
        load(tmp_path)
    (tmp_path / "gpus.yaml").write_text(
        "gpus:\n  bad:\n    name: X\n    architecture: Y\n    memory: 80 GB\n    memory_type: Z\n"
        "    bandwidth: 1 TB/s\n    tdp: 1 W\n    source: https://x\n"
        "    dense_tflops: {bf16: 100}\n    sparse_tflops: {bf16: 100}\n"
    )
    with pytest.raises(CatalogError, match="twice"):
        load(tmp_path)
