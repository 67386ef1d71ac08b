"""What a second reader checked in the late-2026 content stays true.

The MIG card's table of supported GPUs is the place a learner memorises instance counts; it must agree with
the calculator's catalog, which records them per GPU with a source. Figures the second reader could not
confirm at an official source were taken out of the questions; these tests keep them out until someone
cites a source and updates the catalog notes.
"""

from __future__ import annotations

import re

from study.bank import load_bank
from study.calc import catalog

from tests.unit.content.test_content import GPU_NAMES


def _mig_table_rows(body: str):
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("GPU", "---"):
            yield cells[0], cells[2]


def _card(bank, card_id: str):
    return next(c for c in bank.cards if c.id == card_id)


def test_mig_card_counts_agree_with_the_catalog() -> None:
    cat = catalog()
    checked, wrong = 0, []
    for gpus_cell, count_cell in _mig_table_rows(_card(load_bank(), "mig/supported-gpus").body):
        n = re.match(r"\d+", count_cell)
        expected = 0 if count_cell.lower().startswith("no mig") else int(n.group()) if n else None
        if expected is None:  # e.g. "listed for DGX Station": the catalog leaves the count blank
            continue
        for pattern, ids in GPU_NAMES.items():
            if re.search(pattern, gpus_cell):
                for gid in ids:
                    checked += 1
                    if cat.gpus[gid].mig != expected:
                        wrong.append(f"{gid}: card says {count_cell!r}, catalog says {cat.gpus[gid].mig}")
    assert checked >= 10, "the table should name most catalog GPUs"
    assert not wrong, "\n".join(wrong)


def test_the_mig_table_check_reads_a_row() -> None:
    rows = list(_mig_table_rows("Intro.\n| GPU | Memory | Max |\n|---|---|---|\n"
                                "| B300 (about 270 GB) | HBM3e | 7 (1g.34gb up to 7g.269gb) |\n\nText | not a row\n"))
    assert rows == [("B300 (about 270 GB)", "7 (1g.34gb up to 7g.269gb)")]


# (item id, text that states a figure no official source reachable to the second reader confirmed)
UNCONFIRMED = [
    ("d2-gpu-selection-13", "450 to 1,000 W"),  # GH200 module power range
    ("d2-gpu-selection-11", "600 W"),  # H200 NVL board power
    ("d2-gpu-selection-12", "1.2 TFLOPS FP64"),  # B300 FP64: copies print 1.2 or 1.25
]


def _question_text(q) -> str:
    parts = [q.stem, q.explanation] + [t for c in (q.choices or ()) for t in (c.text, c.why)]
    return " ".join(p or "" for p in parts)


def test_unconfirmed_figures_stay_out_of_the_questions() -> None:
    bank = {q.id: q for q in load_bank().questions}
    found = [f"{qid}: {figure}" for qid, figure in UNCONFIRMED if figure in _question_text(bank[qid])]
    assert not found, "\n".join(found)


def test_netdata_card_gives_the_gpu_collectors_real_defaults() -> None:
    # Netdata's nvidia_smi collector polls every 10 s by default and does not auto-detect GPUs
    # (src/go/plugin/go.d/collector/nvidia_smi in netdata/netdata); the card must not imply per-second GPU
    # readings out of the box.
    netdata = _card(load_bank(), "monitoring-stack/elk-netdata").body.split("**Netdata**", 1)[1].split("\n\n", 1)[0]
    assert "10 s" in netdata and "auto-detect" in netdata
