"""The commented YAML skeleton ``study new question`` writes.

Every value the author must write is an empty string followed by a ``# TODO:`` comment saying what goes
there. An empty value is a lint error at its own line and column ("stem is empty", "difficulty must be 1, 2
or 3, found ''"), so a half-filled question cannot reach learners by accident; once every TODO is replaced,
the question lints clean.
"""

from __future__ import annotations

from dataclasses import dataclass

QUESTION_TYPES = ("single", "multi", "true_false", "numeric")
TODO_MARK = '""  # TODO:'

FILE_HEADER = """\
# Questions for the NCA-AIIO study bank: format in questions/README.md, checked by `study lint`.
# Values marked TODO are empty on purpose: `study lint` reports each one until it is written.
questions:
"""

_TYPE_NAMES = {
    "single": "single-answer",
    "multi": "choose-two",
    "true_false": "true-or-false",
    "numeric": "numeric",
}

# A worked `calc` for the comment: it is the README's example and evaluates with the shipped calculator.
CALC_EXAMPLE = "weights_memory(params=70e9, dtype='fp16')"


@dataclass(frozen=True)
class SkeletonSpec:
    qtype: str
    qid: str
    objective: str
    objective_title: str
    topic: str | None = None
    topic_hint: tuple[str, ...] = ()  # topics that teach the objective, suggested when none is given
    difficulty: int | None = None


def _choice_lines(qtype: str) -> list[str]:
    if qtype == "single":
        lines = ["# Exactly one choice is correct (the quiz shuffles them). Make the wrong ones true statements",
                 "# about the wrong component, about as long as the right one."]
        right = 1
        total = 4
    else:
        lines = ["# `choose` choices are correct (the quiz shuffles them). Make the wrong ones true statements",
                 "# about the wrong component, about as long as the right ones."]
        right = 2
        total = 5
    lines.append("choices:")
    for i in range(total):
        if i < right:
            lines += [f"  - text: {TODO_MARK} a right answer", "    correct: true",
                      f"    why: {TODO_MARK} why it is right"]
        else:
            lines += [f"  - text: {TODO_MARK} a wrong answer", f"    why: {TODO_MARK} why it is wrong"]
    return lines


def _numeric_lines() -> list[str]:
    return [
        "# params:  # optional: values drawn for each quiz; {name} in the stem shows one, calc uses the name",
        "#   params_b: [7, 13, 70]",
        "#   dtype: [fp16, fp8]",
        "answer:",
        "  # calc computes the answer with the calculator (`study calc` lists the functions, `study calc NAME",
        "  # --help` their parameters) and is converted to `unit`. For example:",
        f'  #   calc: "{CALC_EXAMPLE}"   with   unit: GB   (140 GB)',
        "  # For a fixed number without the calculator, write `value: 140` instead of calc.",
        f"  calc: {TODO_MARK} a calculator expression",
        f"  unit: {TODO_MARK} the answer's unit: GB, GB/s, s, ms, TFLOP/s, W, kWh, GPUs, ...",
        "  tolerance: 2%  # relative (2%) or absolute with a unit (0.5 GB)",
        "# Wrong answers that model a real mistake. An exam asks the question as multiple choice among the",
        "# answer and these; in practice a typed answer matching one shows its `why`. Delete the ones you",
        "# do not need.",
        "distractors:",
        f"  - calc: {TODO_MARK} a typical mistake, e.g. dtype='fp32' where fp16 was asked",
        f"    why: {TODO_MARK} the mistake this models",
        f"  - calc: {TODO_MARK} another typical mistake, e.g. a factor of 2 or of 8 (bits for bytes)",
        f"    why: {TODO_MARK} the mistake this models",
        f"  - calc: {TODO_MARK} a third mistake",
        f"    why: {TODO_MARK} the mistake this models",
    ]


def question_lines(spec: SkeletonSpec) -> list[str]:
    """The question's lines without indentation: the first starts with ``- id:``, the others with two spaces."""
    if spec.qtype not in QUESTION_TYPES:
        raise ValueError(f"unknown question type {spec.qtype!r}")
    body: list[str] = [f'objective: "{spec.objective}"  # {spec.objective_title}']
    if spec.topic:
        body.append(f"topic: {spec.topic}  # the topic file in content/topics/ that teaches this")
    elif spec.topic_hint:
        body.append(f"# topic: {spec.topic_hint[0]}  # optional; topics for {spec.objective}: {', '.join(spec.topic_hint)}")
    else:
        body.append("# topic: TOPIC-ID  # optional: a topic file in content/topics/ that teaches this")
    if spec.difficulty is not None:
        body.append(f"difficulty: {spec.difficulty}  # 1 recall, 2 apply, 3 analyse a scenario")
    else:
        body.append(f"difficulty: {TODO_MARK} 1 (recall), 2 (apply) or 3 (analyse a scenario)")
    body.append(f"type: {spec.qtype}")
    if spec.qtype == "multi":
        body.append("choose: 2  # how many choices are correct; the stem ends with \"Choose two.\"")
    body.append("tags: []  # optional labels: scenario, calculator, troubleshooting")
    body.append("# concept: CONCEPT-ID  # optional: the fact tested, shared with its twins (one per exam)")
    if spec.qtype == "multi":
        stem_hint = 'a short scenario and a constraint, then the question, ending "Choose two."'
    elif spec.qtype == "true_false":
        stem_hint = "one statement that is plainly true or false"
    elif spec.qtype == "numeric":
        stem_hint = "a scenario with the numbers needed, then what to compute (Markdown)"
    else:
        stem_hint = 'a short scenario and a constraint, then the question ("Which is the BEST ...?")'
    body.append(f"stem: {TODO_MARK} {stem_hint}")
    if spec.qtype in ("single", "multi"):
        body += _choice_lines(spec.qtype)
    elif spec.qtype == "true_false":
        body.append(f"answer: {TODO_MARK} true or false")
    else:
        body += _numeric_lines()
    body += [
        f"explanation: {TODO_MARK} the teaching point, shown after the answer",
        "references:  # at least one; prefer official NVIDIA documentation",
        f"  - title: {TODO_MARK} the document's title",
        f"    url: {TODO_MARK} https://docs.nvidia.com/...",
        f"verified: {TODO_MARK} the date you checked the facts against the references, like 2026-11-30",
        "volatile: false  # true when the fact may change: product names, prices, line-ups, policies",
    ]
    head = [f"# New {_TYPE_NAMES[spec.qtype]} question for objective {spec.objective}: replace every TODO.",
            f"- id: {spec.qid}"]
    return head + ["  " + line for line in body]


def render_question(spec: SkeletonSpec, indent: int = 2) -> str:
    """The question as a list item whose dash sits at column ``indent`` (to match the file it joins)."""
    pad = " " * indent
    return "".join(f"{pad}{line}\n" for line in question_lines(spec))


def render_file(spec: SkeletonSpec) -> str:
    return FILE_HEADER + render_question(spec)


def todo_count(text: str) -> int:
    return text.count(TODO_MARK)
