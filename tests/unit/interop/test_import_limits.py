"""A GIFT import's question count and an Anki export's earlier target are bounded while reading (issue 19,
defect 13): 100,000 GIFT questions became a 115 MB question file in 39 s, and a 0.5 MB zip bomb at the .apkg
target was inflated in memory (1.07 GB)."""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import pytest

from study.cli import main
from study.interop import anki
from study.interop.gift_syntax import MAX_GIFT_QUESTIONS, TooManyQuestions, parse


def _gift(n: int) -> str:
    return "\n\n".join(f"::q{i}:: Is {i} a number? {{T}}" for i in range(n)) + "\n"


def test_parse_stops_at_the_question_past_the_limit():
    with pytest.raises(TooManyQuestions) as info:
        parse(_gift(MAX_GIFT_QUESTIONS + 500))
    assert info.value.loc.line == 2 * MAX_GIFT_QUESTIONS + 1  # where question 2,001 starts


def test_categories_do_not_count_and_the_limit_itself_reads():
    items, problems = parse("$CATEGORY: a\n\n" + _gift(MAX_GIFT_QUESTIONS))
    assert sum(i.kind == "question" for i in items) == MAX_GIFT_QUESTIONS and not problems


def test_the_import_command_says_one_line_and_writes_nothing(tmp_path, capsys):
    source = tmp_path / "big.gift"
    source.write_text(_gift(MAX_GIFT_QUESTIONS + 1))
    out = tmp_path / "moodle.yaml"
    assert main(["import", str(source), "--out", str(out), "--objective", "1.1"]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("study: error: ") and f"more than {MAX_GIFT_QUESTIONS:,} questions" in line
    assert not out.exists()


def _bomb(inflated: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("collection.anki2", "w", force_zip64=True) as member:
            chunk = b"\0" * (1 << 20)
            for _ in range(inflated >> 20):
                member.write(chunk)
    return buf.getvalue()


def test_a_zip_bomb_at_the_target_is_never_inflated():
    data = _bomb(anki.MAX_EARLIER_BYTES + (4 << 20))
    assert len(data) < anki.MAX_EARLIER_BYTES // 100
    tracemalloc.start()
    try:
        assert anki.earlier_note_times(data) == {}
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"{peak:,} bytes allocated reading a bomb"


def test_an_earlier_collection_within_the_bound_is_streamed_not_held(tmp_path):
    data = _bomb(16 << 20)  # 16 MB of zeros: not a database, read to disk in pieces
    tracemalloc.start()
    try:
        assert anki.earlier_note_times(data) == {}
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"{peak:,} bytes allocated reading a 16 MB collection"
