"""questions/README.md's table of catalog look-ups stays true (issue 12, section 3): it lists exactly the
attributes the expression evaluator allows, and each example value is what the evaluator gives today."""

from __future__ import annotations

import re
from pathlib import Path

from study.calc import evaluate
from study.calc.expr import _ATTRS, _METHODS
from study.calc.specs import GPU, Link, Model

README = Path(__file__).parents[3] / "questions" / "README.md"
EXAMPLES = {"gpu": ("g", "h100-sxm", GPU), "model": ("m", "llama-2-70b", Model), "link": ("l", "nvlink-4", Link)}
ROW = re.compile(r"^\| `(gpu|model|link)\((\w)\)\.(\w+)(\('\w+'\))?` \| [^|]+ \| (.+) \|$")


def _rows() -> list[re.Match[str]]:
    text = README.read_text(encoding="utf-8")
    start = text.index("<!-- catalog-attributes:")
    block = text[start:text.index("<!-- /catalog-attributes -->")]
    for kind, (_, example, _) in EXAMPLES.items():
        assert f"{kind}('{example}')" in block.splitlines()[0]  # the marker names the example ids used
    rows = [ROW.match(line) for line in block.splitlines()[3:]]
    assert all(rows), [line for line, m in zip(block.splitlines()[3:], rows) if not m]
    return rows  # type: ignore[return-value]


def test_every_attribute_the_evaluator_allows_is_documented_and_nothing_else() -> None:
    documented = {(m.group(1), m.group(3)) for m in _rows()}
    allowed = {(kind, attr) for kind, (_, _, cls) in EXAMPLES.items() for attr in _ATTRS[cls]}
    allowed |= {(kind, method) for kind, (_, _, cls) in EXAMPLES.items() for owner, method in _METHODS if owner is cls}
    assert documented == allowed


def test_every_example_is_what_the_catalog_gives() -> None:
    for m in _rows():
        kind, var, attr, call, shown = m.groups()
        assert var == EXAMPLES[kind][0]
        src = f"{kind}('{EXAMPLES[kind][1]}').{attr}{call or ''}"
        assert evaluate(src).display == shown, src


def test_the_id_and_the_display_name_are_told_apart() -> None:
    text = README.read_text(encoding="utf-8")
    assert "`{m}` prints\n`llama-2-70b`" in text and "`{= model(m).name}` for the display name (`Llama 2 70B`)" in text
    assert evaluate("model('llama-2-70b').name").display == "Llama 2 70B"
