"""Bounded fuzzing of the question loader, lint, the quiz and preview with mutated copies of the shipped files.

The rule held here (issue 15): any file gets a result, never an exception; a file's problems are reported in
that file; the other files still load. Messages are not checked, only the rule. Each family of mutations runs
a fixed number of cases from a fixed seed, so a failure reproduces exactly (the case's seed is printed), and
the counts are printed for the CI log: ``fuzz <family>: N cases run, crashes: 0``.
"""

from __future__ import annotations

import os
import random
import re
import traceback
from pathlib import Path
from collections.abc import Callable

import pytest

from study import paths
from study.authoring.preview import preview_question, question_lines
from study.bank.bank import build_bank, builtin_question_files, builtin_topic_files, display_path
from study.bank.lint import lint
from study.bank.load import load_blueprint, load_question_file
from study.quiz.instance import InstanceError, instantiate

SEED = 20261201
# Cases per family: ten families of 100 take 20-30 s on one core. STUDY_FUZZ_CASES=2000 runs a deep search.
CASES = int(os.environ.get("STUDY_FUZZ_CASES", "100"))

Mutator = Callable[[bytes, random.Random], bytes]

TAGS = [
    "!!python/object/apply:os.system ", "!!python/name:os.system ", "!!int ", "!!float ", "!!bool ", "!!binary ",
    "!!set ", "!!timestamp ", "!!null ", "!!str ", "!custom ", "!!map ", "!!seq ", "!!omap ", "!!pairs ",
    "!<tag:yaml.org,2002:int> ", "!!merge ", "!!value ", "!!yaml ",
]
ODD_SCALARS = [
    "0b11", "1:30", "-0x1", "0x_", "0o17", "012", ".nan", ".inf", "-.inf", "1e400", "-1e400", "1e-400", "~", "null",
    "''", '""', "yes", "No", "off", "Y", "2026-13-45", "2026-02-30", "0000-00-00", "9999-12-31T25:61:61Z",
    "1_000", "+5", "-0", "1" * 5000, "-" + "9" * 400, "3.", ".5", "1e3", "0.0000001", "-1", "0", "4294967296",
    "true", "[]", "{}", "[[]]", "{a: }", "!!str", "'unterminated", '"\\x00\\uffff\\U0010ffff"', "@x", "`x",
    "%TAG", "|", ">-", "? x", "- - -", "*nosuch", "&a", "<<: {}", "'it''s'", "\"\\\"\"", "é€漢字", "\u200b",
]
KEYS = ["id", "objective", "topic", "difficulty", "type", "stem", "choices", "choose", "answer", "params",
        "distractors", "explanation", "references", "verified", "volatile", "tags", "value", "calc", "unit",
        "tolerance", "digits", "range", "step", "text", "correct", "why", "title", "url", "Explanation", "Tags",
        "NumericAnswer", "bool", "list[str]", "function-after", "[key]", "0", "1.5", "~", "<<", "questions"]
CALCS = [
    "'140'", "model('llama-2-70b').name", "1/0", "10**10**10", "kv_cache(seq_len=0, model='llama-2-70b')",
    "kv_cache(model='llama-2-70b', seq_len=4096, kv_heads=-8)", "weights_memory(params=-70e9)", "nosuch(1)",
    "(" * 200 + "1" + ")" * 200, "gpu('h100-sxm').memory / 0", "1e308 * 1e308", "[1, 2]", "x.y.z", "",
    "gpu('nosuch').memory", "model(m).layers", "__import__('os')", "lambda: 1", "1 if 2 else 3", "not 1",
]

# The value of a block-level key (`    unit: GB`, `  - id: x`): replacing it keeps the rest of the file valid,
# so mutations reach the checks after parsing. Block scalars (`stem: |`) are left alone, as are flow mappings.
_VALUE = re.compile(rb"(?m)^[ \t]*(?:- )?[A-Za-z_][A-Za-z0-9_]*: ([^|>\n][^\n]*)$")


def _value_spans(data: bytes) -> list[tuple[int, int]]:
    return [m.span(1) for m in _VALUE.finditer(data)]


def _replace_value(data: bytes, rng: random.Random, make: Callable[[bytes], bytes]) -> bytes:
    spans = _value_spans(data)
    if not spans:
        return data
    a, b = rng.choice(spans)
    return data[:a] + make(data[a:b]) + data[b:]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            # Mostly another ASCII character, which stays UTF-8 and reaches the parser; sometimes any byte.
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256) if rng.random() < 0.2 else rng.choice(b" \t\n:-[]{}#&*!|>'\"%@`,?aZ09")
    return bytes(out)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def tag(data: bytes, rng: random.Random) -> bytes:
    return _replace_value(data, rng, lambda v: rng.choice(TAGS).encode() + v)


def odd_scalar(data: bytes, rng: random.Random) -> bytes:
    return _replace_value(data, rng, lambda v: rng.choice(ODD_SCALARS).encode())


def anchors(data: bytes, rng: random.Random) -> bytes:
    spans = _value_spans(data)
    if len(spans) < 2:
        return data
    (a1, b1), (a2, b2) = sorted(rng.sample(spans, 2))
    kind = rng.randrange(4)
    if kind == 0:  # a value reused elsewhere, maybe where another type is expected
        return data[:a1] + b"&x " + data[a1:b1] + data[b1:a2] + b"*x" + data[b2:]
    if kind == 1:  # an alias used before its anchor, or one never defined
        return data[:a1] + b"*x" + data[b1:a2] + b"&x " + data[a2:]
    if kind == 2:  # a small bomb
        bomb = b"&b0 [1, 1]"
        layers = ", ".join(f"&b{i} [*b{i-1}, *b{i-1}, *b{i-1}, *b{i-1}]" for i in range(1, rng.randint(2, 14)))
        return data[:a1] + b"[" + bomb + b", " + layers.encode() + b"]" + data[b1:]
    return data[:a1] + b"&x {a: 1}" + data[b1:a2] + b"{<<: *x, b: 2}" + data[b2:]


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    n = rng.choice([40, 200, 900, 990, 1000, 5000])
    # Flow nesting meets libyaml's depth limit of 1000; block nesting (`- - - x`) meets Python's recursion.
    shapes = [b"[" * n + b"]" * n, b"{a: " * n + b"1" + b"}" * n, b"[" * n, b"{" * n + b"}" * n,
              b"\n" + b" " * 40 + b"- " * n + b"x"]
    return _replace_value(data, rng, lambda v: rng.choice(shapes))


def lines(data: bytes, rng: random.Random) -> bytes:
    rows = data.split(b"\n")
    if len(rows) < 3:
        return data
    i = rng.randrange(len(rows))
    op = rng.randrange(6)
    if op == 0:  # a duplicate key
        rows.insert(i, rows[i])
    elif op == 1:
        del rows[i]
    elif op == 2:
        j = rng.randrange(len(rows))
        rows[i], rows[j] = rows[j], rows[i]
    elif op == 3:  # indentation off by a few spaces either way
        shift = rng.choice([-3, -2, -1, 1, 2, 3, 7])
        rows[i] = b" " * shift + rows[i] if shift > 0 else rows[i][-shift:]
    elif op == 4:  # a key renamed, maybe to one of another level, a capitalised one or a type name
        rows[i] = re.sub(rb"^(\s*-?\s*)[A-Za-z_]+:", lambda m: m.group(1) + rng.choice(KEYS).encode() + b":", rows[i])
    else:  # an unquoted colon in the text
        rows[i] = rows[i] + b": " + rng.choice([b"x", b"", b"[a", b"{b: c}"])
    return b"\n".join(rows)


def encoding(data: bytes, rng: random.Random) -> bytes:
    op = rng.randrange(6)
    pos = rng.randrange(len(data) + 1)
    if op == 0:
        return data[:pos] + rng.choice([b"\xe9", b"\x92", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"]) + data[pos:]
    if op == 1:
        return data[:pos] + b"\x00" + data[pos:]
    if op == 2:
        return b"\xef\xbb\xbf" + data
    if op == 3:
        return data.replace(b"\n", b"\r\n")
    if op == 4:
        return data[:pos] + b"\t" + data[pos:]
    return data.replace(b"\n", b"\r")


def calcs(data: bytes, rng: random.Random) -> bytes:
    spans = [(a, b) for a, b in _value_spans(data) if data[max(0, a - 6):a] in (b"calc: ", b"stem: ")]
    if not spans:
        return _replace_value(data, rng, lambda v: b'"{= ' + rng.choice(CALCS).encode() + b'}"')
    a, b = rng.choice(spans)
    new = rng.choice(CALCS)
    if data[max(0, a - 6):a] == b"stem: ":
        new = "{= " + new + "}"
    return data[:a] + b"'" + new.replace("'", "''").encode() + b"'" + data[b:]


def params(data: bytes, rng: random.Random) -> bytes:
    bad = [b"{range: [0, 1e12], step: 1}", b"{range: [0, 1], step: 1e-300}", b"{range: [0, .inf], step: 1}",
           b"{range: [0, .nan], step: 1}", b"{range: [5, 1], step: 1}", b"{range: [0, 10], step: 0}", b"[]",
           b"{range: [1, 2, 3], step: 1}", b"{range: x, step: y}", b"[.nan, .inf]", b"[-8, 0]", b"[[1], {a: 1}]",
           b"{range: [0, 9999], step: 1}", b"[0]", b"['llama-2-70b', 1e400]"]
    existing = [m.span(2) for m in re.finditer(rb"\n\s+params:\n(\s+\w+: )([^\n]*)", data)]
    if existing and rng.random() < 0.5:
        a, b = rng.choice(existing)
        return data[:a] + rng.choice(bad) + data[b:]
    starts = list(re.finditer(rb"\n(\s*)- id: [^\n]*", data))
    if not starts:
        return data
    m = rng.choice(starts)
    line = m.group(1) + b"  params: {" + rng.choice([b"p", b"m", b"seq", b"x"]) + b": " + rng.choice(bad) + b"}"
    return data[: m.end()] + b"\n" + line + data[m.end():]


FAMILIES: dict[str, Mutator] = {
    "byte-flips": flip_bytes, "truncation": truncate, "tags": tag, "odd-scalars": odd_scalar,
    "anchors": anchors, "deep-nesting": deep_nesting, "lines": lines, "encoding": encoding,
    "calcs": calcs, "params": params,
}


@pytest.fixture(scope="module")
def shipped() -> dict[str, object]:
    blueprint = load_blueprint(paths.content_dir() / "blueprint.yaml")
    files = builtin_question_files()
    return {"blueprint": blueprint, "files": files, "topics": builtin_topic_files()}


def _check_one(path: Path, good: list[Path], shipped: dict[str, object]) -> None:
    """Everything a mutated file goes through; raises on any breach of the rule."""
    shown = display_path(path)
    _, diags = load_question_file(path, shown)
    assert all(d.path == shown for d in diags), "a finding names another file"
    bank = build_bank([*good, path], shipped["topics"], shipped["blueprint"])  # type: ignore[arg-type]
    good_shown = {display_path(p) for p in good}
    assert not [d for d in bank.diagnostics if d.path in good_shown], "a good file got a finding"
    served = {q.source.path for q in bank.questions if q.source}
    assert good_shown <= served, "a good file stopped loading"
    result = lint([path], bank=bank)
    assert all(d.path == shown for d in result.diagnostics), "a lint finding names another file"
    for q in bank.questions:
        if q.source is None or q.source.path != shown:
            continue
        for as_choice in (False, True):
            try:
                instantiate(q, 1, as_choice=as_choice)
            except InstanceError:  # the quiz drops such a question and draws another
                pass
        list(question_lines(preview_question(q, instances=2)))


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_mutated_question_files_never_crash_and_stay_in_their_file(
    family: str, shipped: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str], record_property
) -> None:
    mutate = FAMILIES[family]
    files: list[Path] = shipped["files"]  # type: ignore[assignment]
    crashes: list[str] = []
    for case in range(CASES):
        rng = random.Random(f"{SEED}:{family}:{case}")
        source, *others = rng.sample(files, 3)
        data = source.read_bytes()
        for _ in range(rng.choice([1, 1, 2, 3])):
            data = mutate(data, rng)
        path = tmp_path / f"{family}-{case}.yaml"
        path.write_bytes(data)
        try:
            _check_one(path, others, shipped)
        except Exception as exc:  # noqa: BLE001 - every escape is a finding of this suite
            crashes.append(f"case {case} ({source.name}, kept as {path}): {type(exc).__name__}: {exc}\n"
                           + "".join(traceback.format_exception(exc)[-3:]))
        else:
            path.unlink()
    record_property("fuzz_cases", CASES)  # in the JUnit XML too, where xdist hides the printed line
    record_property("fuzz_crashes", len(crashes))
    with capsys.disabled():
        print(f"\nfuzz {family}: {CASES} cases run, crashes: {len(crashes)}")
    assert not crashes, "\n".join(crashes[:3])
