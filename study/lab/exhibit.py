"""A lab command's output as an exhibit in an ordinary question: a fenced, monospace block.

The app and Anki render the fence as a code block, plain mode keeps its lines as they are, and GIFT
exports it inside ``[markdown]``. Blank lines are dropped from the block because plain text splits
paragraphs at blank lines and would re-flow the half below one.
"""

from __future__ import annotations

from functools import lru_cache


class ExhibitError(ValueError):
    """The exhibit names a lab that does not exist, or a command the lab does not simulate."""


@lru_cache(maxsize=256)
def exhibit_output(lab_id: str, run: str, seed: int) -> str:
    from study.lab.case import CaseError, build_case
    from study.lab.load import load_lab
    from study.lab.shell import run_status
    from study.lab.where import LabError
    from study.untrusted import shown

    try:
        case = build_case(load_lab(lab_id), seed)
    except (LabError, CaseError) as exc:
        raise ExhibitError(f"exhibit: {exc}") from None
    text, status = run_status(case.system, run)
    # Any status bash would not give 0 (not found, not simulated, a syntax error, a pattern grep refuses) is
    # the author's mistake, as is a block with nothing in it: the learner would be shown an error or nothing.
    if status != 0:
        first = text.splitlines()[0] if text else f"exit status {status}"
        raise ExhibitError(f"exhibit: {shown(run, keep_newlines=False)!r} in lab {lab_id!r}: {shown(first)}")
    if not text.strip():
        raise ExhibitError(f"exhibit: {shown(run, keep_newlines=False)!r} in lab {lab_id!r} prints nothing, so "
                           "the question would show an empty block")
    return text


def exhibit_block(lab_id: str, run: str, seed: int = 0) -> str:
    from study.untrusted import shown

    lines = [ln.expandtabs(8).rstrip() for ln in exhibit_output(lab_id, run, seed).split("\n")]
    body = "\n".join(ln for ln in lines if ln.strip())
    fence = "~~~~" if "```" in body else "```"
    return f"{fence}text\n$ {shown(run, keep_newlines=False)}\n{shown(body)}\n{fence}"
