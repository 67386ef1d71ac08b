"""A worked lab as a quiz :class:`~study.quiz.report.Report` (mode ``lab``), so the app's answer review shows
each task as it shows an exam question: the answer given, the right one, why each choice is right or wrong,
the derivation and the explanation.

Graded again from the answers the session kept, with the same grader, so the review cannot disagree with the
feedback given at the time. Only the tasks answered are listed, each under its task number: a task not
answered was never graded or recorded, so it is not shown as wrong; like a practice question passed over,
it counts in ``skipped``, not in ``total``. The Lab screen opens the review once every task is answered.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any


def lab_report(session: Any, objective_titles: dict[str, str] | None = None) -> Any:
    from study.quiz.grade import grade_answer
    from study.quiz.report import QuestionResult, Report, Tally

    titles = objective_titles or {}
    results = []
    tallies: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    domains: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for i, inst in enumerate(session.instances):
        given = session.given[i]
        if given is None:
            continue
        g = grade_answer(inst, given)
        results.append(QuestionResult(
            position=i + 1, id=inst.qid, objective=inst.objective, domain=inst.domain, type=inst.type,
            stem=inst.stem, given=given, given_display=inst.answer_display(given), expected=inst.expected,
            expected_display=inst.expected_display, correct=g.correct, answered=g.answered, flagged=False,
            seconds=session.seconds[i], message=g.message, explanation=inst.explanation,
            derivation=inst.derivation, matched_distractor_why=g.matched_distractor_why,
            references=inst.references, choices=g.picks))
        for table, key in ((tallies, inst.objective), (domains, inst.domain)):
            table[key][0] += g.correct
            table[key][1] += 1
    started = session.started[0] if session.started else session.clock()
    finished = session.clock()
    return Report(
        session_id=session.id, mode="lab", correct=sum(r.correct for r in results),
        total=len(results), skipped=len(session.instances) - len(results), target_percent=0, timed_out=False,
        started_at=started.isoformat(), finished_at=finished.isoformat(),
        seconds=max(0.0, (finished - started).total_seconds()),
        by_domain={k: Tally(v[0], v[1]) for k, v in sorted(domains.items())},
        by_objective={k: Tally(v[0], v[1], name=titles.get(k, "")) for k, v in sorted(tallies.items())},
        questions=tuple(results),
    )
