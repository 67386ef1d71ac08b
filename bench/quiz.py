"""Quiz engine benchmark: building a 50-question exam with templated questions, and grading numbers.

Run: ``python bench/quiz.py``. Each figure is printed with a ratio against a baseline measured in the same
run on the same machine, so the numbers compare across machines:

- exam build vs. a baseline that only samples 50 questions and formats their stems (no blueprint quotas, no
  calculator): what the engine's selection and instantiation cost on top of the minimum.
- grading 10,000 typed numeric answers with units vs. a baseline that parses 10,000 bare floats and compares
  them: what unit parsing, conversion, tolerance and distractor matching cost.
Aim (issue 4): exam build under 50 ms.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from study.bank.bank import Bank  # noqa: E402
from study.bank.load import load_blueprint  # noqa: E402
from study.bank.schema import Choice, Distractor, NumericAnswer, Question, Range, Reference  # noqa: E402
from study.quiz import build_exam, grade_answer, instantiate  # noqa: E402
from study.quiz.instance import _compiled  # noqa: E402

T0 = dt.datetime(2026, 11, 30, 12, tzinfo=dt.timezone.utc)
REF = [Reference(title="NVIDIA documentation", url="https://docs.nvidia.com/")]
TEMPLATES = [
    ("kv_cache(model=m, seq_len=seq, batch=b, dtype='fp16')", "GB",
     {"m": ["llama-2-70b", "llama-3-70b", "llama-3-8b"], "seq": Range(range=(2048, 8192), step=2048), "b": [1, 4, 8]},
     "Serve {m} with {seq} tokens and batch {b} ({= model(m).kv_heads} KV heads): KV cache size?"),
    ("weights_memory(params=p * 1e9, dtype='fp16')", "GB", {"p": [7, 13, 70, 405]},
     "Weights of a {p}B model in FP16?"),
    ("gpu(g).memory * n", "GB", {"g": ["h100-sxm", "a100-sxm-80gb", "l40s"], "n": [2, 4, 8]},
     "{n} x {= gpu(g).name}: total memory?"),
]


def make_bank(n: int = 600, templated_share: float = 0.3) -> Bank:
    bp = load_blueprint(Path(__file__).resolve().parents[1] / "content" / "blueprint.yaml")
    objectives = bp.objective_ids()
    rng = random.Random(0)
    qs: list[Question] = []
    for i in range(n):
        o = objectives[i % len(objectives)]
        if rng.random() < templated_share:
            calc, unit, params, stem = TEMPLATES[i % len(TEMPLATES)]
            qs.append(Question(
                id=f"t-{i}", objective=o, difficulty=1 + i % 3, type="numeric", stem=stem, params=params,
                answer=NumericAnswer(calc=calc, unit=unit, tolerance="3%"),
                distractors=[Distractor(calc=f"({calc}) / 2", why="half"), Distractor(calc=f"({calc}) * 2", why="double")],
                explanation="x", references=REF, verified=dt.date(2026, 11, 30)))
        else:
            qs.append(Question(
                id=f"s-{i}", objective=o, difficulty=1 + i % 3, type="single", stem=f"Question {i}?",
                choices=[Choice(text=f"choice {k}", correct=k == 0, why="w") for k in range(4)],
                explanation="x", references=REF, verified=dt.date(2026, 11, 30)))
    return Bank(blueprint=bp, questions=tuple(qs), topics=())


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    bank = make_bank()
    questions = list(bank.questions)
    templated = sum(q.is_templated for q in questions)

    base_seeds = iter(range(1, 10**6))

    def baseline_exam():
        picked = random.Random(next(base_seeds)).sample(questions, 50)
        return [q.stem.replace("{", "(") for q in picked]

    seeds = iter(range(10**6))

    def engine_exam():
        return build_exam(bank, seed=next(seeds), now=T0)

    s = engine_exam()
    n_templated = sum(1 for i in s.instances if i.params)
    _compiled.cache_clear()
    cold = timed(engine_exam, 1)[0]
    base = statistics.median(timed(baseline_exam, 50))
    warm = statistics.median(timed(engine_exam, 30))
    print(f"bank: {len(questions)} questions, {templated} templated; an exam draws ~{n_templated} templated")
    print(f"baseline (sample 50 + format stems): {base * 1e3:8.3f} ms")
    print(f"build_exam 50 questions, cold cache: {cold * 1e3:8.3f} ms  ({cold / base:7.1f}x baseline)")
    print(f"build_exam 50 questions, warm (med): {warm * 1e3:8.3f} ms  ({warm / base:7.1f}x baseline)"
          f"  target < 50 ms: {'ok' if warm < 0.05 else 'MISSED'}")

    # Grading: 10,000 typed answers against templated instances, in mixed units.
    inst = [instantiate(q, seed=k) for k, q in enumerate(q for q in questions if q.is_templated)]
    rng = random.Random(1)
    answers = []
    for k in range(10_000):
        i = inst[k % len(inst)]
        v = i.numeric.value * rng.choice([1, 1, 0.5, 1.3])
        unit = rng.choice(["GB", "GiB", "MB", "TB", "B"])
        factor = {"GB": 1, "GiB": 1e9 / 2**30, "MB": 1e3, "TB": 1e-3, "B": 1e9}[unit]
        answers.append((i, f"{v * factor:.6g} {unit}"))
    floats = [(a[0].numeric.value, f"{a[0].numeric.value * 1.01:.6g}") for a in answers]

    def baseline_grade():
        return [abs(float(t) - v) <= 0.02 * v for v, t in floats]

    def engine_grade():
        return [grade_answer(i, t).correct for i, t in answers]

    base_g = statistics.median(timed(baseline_grade, 5))
    eng_g = statistics.median(timed(engine_grade, 3))
    right = sum(engine_grade())
    print(f"baseline (float() + compare) x10,000: {base_g * 1e3:8.2f} ms")
    print(f"grade_answer numeric x10,000:         {eng_g * 1e3:8.2f} ms  ({eng_g / base_g:7.1f}x baseline, "
          f"{eng_g / 10_000 * 1e6:.1f} us each; {right} graded right)")


if __name__ == "__main__":
    main()
