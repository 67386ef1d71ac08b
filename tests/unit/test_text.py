from __future__ import annotations

from study.text import count


def test_count_reads_as_a_sentence() -> None:
    assert [count(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
    assert count(3, "choose-N question", "choose-N questions") == "3 choose-N questions"
    assert count(1, "analysis", "analyses") == "1 analysis" and count(2, "analysis", "analyses") == "2 analyses"
