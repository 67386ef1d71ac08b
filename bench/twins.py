"""Twin finder (study.bank.twins): recall on the audit's ten twin pairs and candidates per question.

Issue 35's audit read 60 questions and named ten pairs that test one fact in different words. The method must
propose at least 9 of them while proposing on average at most one candidate per question. Concepts and accepts
are ignored here (the method's raw proposals), so the figures do not improve by marking the bank. Printed:
the recall, the pairs proposed, candidates per question (each pair is a candidate for both its questions, so
2 x pairs / questions) over the comparable questions and over the whole bank, and how many proposals are still
open once the bank's concepts and accepts are applied.
"""

from __future__ import annotations

import argparse



def measure(questions) -> dict[str, float | int | list[str]]:
    from study.bank.twins import AUDIT_PAIRS, candidate_pairs, comparable, marked

    pairs = candidate_pairs(questions)
    found = {frozenset((p.a.id, p.b.id)) for p in pairs}
    missed = [f"{a} / {b}" for a, b in AUDIT_PAIRS if frozenset((a, b)) not in found]
    n_comparable = sum(comparable(q) for q in questions)
    return {
        "recall": len(AUDIT_PAIRS) - len(missed),
        "missed": missed,
        "pairs": len(pairs),
        "comparable": n_comparable,
        "questions": len(questions),
        "per_question": 2 * len(pairs) / n_comparable,
        "per_question_bank": 2 * len(pairs) / len(questions),
        "marked_concept": sum(p.a.concept is not None and p.a.concept == p.b.concept for p in pairs),
        "open": sum(not marked(p) for p in pairs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--list", action="store_true", help="print every proposed pair, open ones marked *")
    args = parser.parse_args()

    from study.bank.bank import load_bank

    from study.bank.twins import AUDIT_PAIRS

    questions = list(load_bank().questions)
    m = measure(questions)
    print(f"audit pairs proposed       {m['recall']} of {len(AUDIT_PAIRS)}  (aim: >= 9)")
    for miss in m["missed"]:  # type: ignore[union-attr]
        print(f"  missed                   {miss}")
    print(f"pairs proposed             {m['pairs']}")
    print(f"candidates per question    {m['per_question']:.2f}  over {m['comparable']} comparable questions (aim: <= 1)")
    print(f"                           {m['per_question_bank']:.2f}  over all {m['questions']} questions")
    print(f"pairs sharing a concept    {m['marked_concept']}")
    print(f"pairs still open           {m['open']}  (neither one concept nor accepted as distinct)")
    if args.list:
        from study.bank.twins import candidate_pairs, marked

        for p in candidate_pairs(questions):
            print(f"{'*' if not marked(p) else ' '} {p.score:.3f} {p.a.id} {p.b.id}  [{', '.join(p.shared)}]")


if __name__ == "__main__":
    main()
