"""From a response matrix to the item-analysis report: figures per question with their bank location,
flags for questions that look broken, the whole-test figures, and their JSON and Rich forms."""

from __future__ import annotations

import math
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

import numpy as np

from study.analysis.learner_reports import by_question, render_reports
from study.analysis.rekey import Keys
from study.analysis.response_view import render_responses
from study.analysis.responses import ResponseTable, regrade_marks, response_tables
from study.analysis.results import Responses
from study.analysis.stats import ItemArrays, QuizFigures, item_statistics, quiz_statistics

if TYPE_CHECKING:
    from rich.console import Console

    from study.bank import Bank
    from study.bank.schema import Question

# Below this many first answers a facility or a correlation says more about the sample than the question.
MIN_RESPONSES = 10
FACILITY_LOW, FACILITY_HIGH = 5.0, 95.0

FLAG_NEGATIVE = "negative discrimination"
FLAG_HARD = "facility under 5%"
FLAG_EASY = "facility over 95%"
FLAG_FEW = "too few responses"
FLAG_KEY = "key may be wrong"
_SHORT = {FLAG_NEGATIVE: "discr<0", FLAG_HARD: "facil<5%", FLAG_EASY: "facil>95%", FLAG_FEW: "few",
          FLAG_KEY: "key?"}
# CIC, error ratio and standard error rest on every question's variance and its covariance with the rest of
# the test: with most questions answered by a handful of learners they are noise (Moodle computes them from
# complete attempts of one fixed quiz). Our rule: shown only when at least this share of the questions
# counted has ``min_responses`` first answers or more, and the class has at least that many learners.
RELIABLE_SHARE = 0.8


@dataclass(frozen=True)
class QuestionReport:
    id: str
    location: str | None  # file:line in the bank, None when the bank has no such question
    type: str | None
    responses: int  # learners whose first answers are counted
    rest_responses: int  # of those, the ones who answered another question too: the n of the correlations
    facility: float | None
    sd: float | None
    discrimination: float | None
    discriminative_efficiency: float | None
    intended_weight: float | None
    effective_weight: float | None
    random_guess: float | None
    flags: tuple[str, ...]
    objective: str | None = None  # the blueprint objective, None when the bank has no such question
    key_location: str | None = None  # file:line of the key (``answer:``, or the first ``correct: true``)


@dataclass(frozen=True)
class Analysis:
    mode: str
    min_responses: int
    learners: int
    files: int
    answers: int
    test: QuizFigures
    questions: tuple[QuestionReport, ...]  # flagged first, then bank order
    skipped: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()  # learners merged or likely mixed up (the command prints them on stderr)
    reports: dict[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)  # by question id
    responses: dict[str, ResponseTable] = field(default_factory=dict)  # by question id
    regraded: dict[str, int] = field(default_factory=dict)  # question id -> marks the current key changed
    reliability_withheld: str | None = None  # why CIC, error ratio and standard error are not shown
    forms: tuple[dict[str, Any], ...] = ()  # the class exam forms the results hold (study.analysis.forms)
    form: str | None = None  # the form analysed alone (--form), None: every answer

    @property
    def flagged(self) -> tuple[QuestionReport, ...]:
        return tuple(q for q in self.questions if q.flags)

    @property
    def broken(self) -> tuple[QuestionReport, ...]:
        """Flagged for what the answers say about the question, not merely for too few answers."""
        return tuple(q for q in self.flagged if FLAG_FEW not in q.flags)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "study-item-analysis",
            "mode": self.mode,
            "min_responses": self.min_responses,
            "learners": self.learners,
            "files": self.files,
            "answers": self.answers,
            "test": {k: None if self.reliability_withheld and k in _RELIABILITY else _num(v)
                     for k, v in asdict(self.test).items()},
            "reliability_withheld": self.reliability_withheld,
            "regraded": dict(self.regraded),
            "questions": [{**asdict(q), "flags": list(q.flags), "reports": list(self.reports.get(q.id, ())),
                           "response_analysis": self.responses[q.id].to_dict() if q.id in self.responses else None,
                           "regraded": self.regraded.get(q.id, 0)}
                          for q in self.questions],
            "skipped": list(self.skipped),
            "warnings": list(self.warnings),
            "reports": {q: list(rs) for q, rs in self.reports.items()},
            "form": self.form,
            "forms": [dict(f) for f in self.forms],
        }


_RELIABILITY = ("cic", "error_ratio", "standard_error")


def reliability_withheld(answered: np.ndarray, learners: int, min_responses: int) -> str | None:
    """Why the data cannot carry a reliability figure (see ``RELIABLE_SHARE``), None when it can."""
    enough = int((answered >= min_responses).sum())
    total = len(answered)
    if total and learners >= min_responses and enough >= RELIABLE_SHARE * total:
        return None
    return (f"CIC, error ratio and standard error left out: {enough} of {total} questions have "
            f"{min_responses} or more first answers and {learners} learner(s) answered; they need "
            f"{RELIABLE_SHARE:.0%} of the questions and {min_responses} learners at least")


def _num(value: Any) -> Any:
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    value = float(value)
    return None if math.isnan(value) else value


def random_guess_score(question: Question, mode: str) -> float | None:
    """Expected mark (%) from guessing, for questions answered by picking (Moodle shows it for choice types).

    single: one right among n, 1/n. true/false: 1/2. multi: the app takes exactly ``choose`` picks and marks
    all or nothing, so 1/C(n, choose). numeric: typed in practice (no guess), picked among the answer and its
    distractors in exams, so 1/(1 + distractors) only when the analysis is of exam answers.
    """
    if question.type == "true_false":
        return 50.0
    choices = question.choices or []
    if question.type == "single" and choices:
        return 100 / len(choices)
    if question.type == "multi" and choices:
        right = sum(c.correct for c in choices)
        pick = question.choose or right
        return 100 / math.comb(len(choices), pick) if pick == right else 0.0
    if question.type == "numeric" and mode == "exam" and question.distractors:
        return 100 / (1 + len(question.distractors))
    return None


def _flags(responses: int, facility: float, discrimination: float, min_responses: int) -> tuple[str, ...]:
    if responses < min_responses:
        return (FLAG_FEW,)
    flags = []
    if discrimination < 0:
        flags.append(FLAG_NEGATIVE)
    if facility < FACILITY_LOW:
        flags.append(FLAG_HARD)
    if facility > FACILITY_HIGH:
        flags.append(FLAG_EASY)
    return tuple(flags)


def analyse(responses: Responses, bank: Bank | None = None, *, mode: str = "all",
            min_responses: int = MIN_RESPONSES) -> Analysis:
    known = {q.id: q for q in bank.questions} if bank is not None else {}
    keys = Keys()
    # Every response is graded against the current key: a fixed key changes the figures at once.
    marks, regraded = regrade_marks(responses.marks, responses.questions, responses.given, known, keys)
    items: ItemArrays = item_statistics(marks)
    test = quiz_statistics(marks)
    tables = response_tables(marks, responses.questions, responses.given, known, keys,
                             min_responses=min_responses)
    from study.analysis.responses import key_location

    rows = []
    for j, qid in enumerate(responses.questions):
        q = known.get(qid)
        fac, disc = float(items.facility[j]), float(items.discrimination[j])
        rows.append(QuestionReport(
            id=qid,
            location=f"{q.source.path}:{q.source.line}" if q is not None and q.source else None,
            type=q.type if q is not None else None,
            responses=int(items.responses[j]),
            rest_responses=int(items.rest_responses[j]),
            facility=_num(fac),
            sd=_num(items.sd[j]),
            discrimination=_num(disc),
            discriminative_efficiency=_num(items.efficiency[j]),
            intended_weight=_num(items.intended_weight[j]),
            effective_weight=_num(items.effective_weight[j]),
            random_guess=random_guess_score(q, mode) if q is not None else None,
            flags=_flags(int(items.responses[j]), fac, disc, min_responses)
            + ((FLAG_KEY,) if qid in tables and tables[qid].hint else ()),
            objective=q.objective if q is not None else None,
            key_location=tables[qid].key_location if qid in tables else key_location(q) if q is not None else None,
        ))
    order = {q.id: n for n, q in enumerate(bank.questions)} if bank is not None else {}

    def rank(r: QuestionReport) -> tuple:
        worry = 0 if r.flags and FLAG_FEW not in r.flags else 1 if r.flags else 2
        return (worry, order.get(r.id, len(order)), r.id)

    return Analysis(
        mode=mode,
        min_responses=min_responses,
        learners=len(responses.learners),
        files=responses.files,
        answers=responses.answers,
        test=test,
        questions=tuple(sorted(rows, key=rank)),
        skipped=responses.skipped,
        warnings=responses.warnings,
        reports=by_question(responses.reports),
        responses=tables,
        regraded=regraded,
        reliability_withheld=reliability_withheld(items.responses, len(responses.learners), min_responses),
        forms=responses.forms,
        form=responses.form,
    )


def _fmt(value: float | None, digits: int = 0, suffix: str = "") -> str:
    return "-" if value is None or (isinstance(value, float) and np.isnan(value)) else f"{value:.{digits}f}{suffix}"


def _locations(analysis: Analysis, roots: Sequence[Path]) -> tuple[dict[str, str], Path | None]:
    """Each flagged question's location as shown: relative to the working directory when below it, else to
    the folder holding the bank root it is in (returned, to be named once), else absolute."""
    from study.bank.bank import display_path

    shown: dict[str, str] = {}
    base: Path | None = None
    for q in analysis.questions:
        if q.location is None:
            continue
        path, _, line = q.location.rpartition(":")
        text = display_path(Path(path))
        if os.path.isabs(text):
            resolved = Path(path).resolve()
            for root in roots:
                root = root.resolve()
                parent = root.parent  # "questions/d2-.../file.yaml" still names the bank folder
                if resolved.is_relative_to(root) and base in (None, parent):
                    base = parent
                    text = str(resolved.relative_to(parent))
                    break
        shown[q.id] = f"{text}:{line}"
    return shown, base


def _table(rows: Sequence[QuestionReport], width: int) -> Any:
    """One line per question, always: the figures take what they need and the id gets the rest, cut with an
    ellipsis when the terminal is too narrow (the check list spells out the flagged ones in full), because a
    folded id reads as two questions."""
    from rich.table import Table

    headers = ("n", "facil", "SD", "discr", "effic", "guess", "iw", "ew", "flags")
    cells = [(str(q.responses), _fmt(q.facility, 1, "%"), _fmt(q.sd, 0, "%"), _fmt(q.discrimination, 0),
              _fmt(q.discriminative_efficiency, 0, "%"), _fmt(q.random_guess, 0, "%"),
              _fmt(q.intended_weight, 0, "%"), _fmt(q.effective_weight, 0, "%"),
              " ".join(_SHORT[f] for f in q.flags)) for q in rows]
    widths = [max(len(h), *(len(c[k]) for c in cells)) for k, h in enumerate(headers)]
    # One space between columns; the mark column is one wide.
    room = width - 1 - sum(widths) - len(headers) - 1
    table = Table(box=None, pad_edge=False, padding=(0, 0, 0, 1), header_style="bold", expand=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("question", no_wrap=True, overflow="ellipsis",
                     width=max(8, min(room, max(len("question"), *(len(q.id) for q in rows)))))
    for k, name in enumerate(headers):
        table.add_column(name, justify="left" if name == "flags" else "right", no_wrap=True, width=widths[k])
    for q, row in zip(rows, cells):
        mark = "[red]![/]" if q.flags and FLAG_FEW not in q.flags else "[yellow]?[/]" if q.flags else ""
        table.add_row(mark, q.id, *row)
    return table


def render(analysis: Analysis, console: Console | None = None, *, flagged_only: bool = False,
           roots: Sequence[Path] = ()) -> None:
    """The test summary, one row per question (flagged first, marked !), then where to find the flagged ones.

    ``roots`` are the question folders or files of the bank: locations outside the working directory are
    shown relative to them rather than as long absolute paths."""
    from rich.console import Console

    console = console or Console()
    t = analysis.test
    scope = {"all": "", "exam": " (exam answers only)", "practice": " (practice answers only)",
             "lab": " (lab answers only)"}[analysis.mode]
    if analysis.form is not None:
        scope += f" in exam form {analysis.form}"
    console.print(f"[bold]Item analysis[/] of first answers{scope}", highlight=False)
    from study.analysis.forms import form_lines

    for line in form_lines(analysis.forms, analysis.form):
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    console.print(f"Learners     {t.attempts}  questions {t.questions}  answered per learner "
                  f"{_fmt(t.test_length, 1)}", highlight=False)
    console.print(
        f"Scores       mean {_fmt(t.mean, 1, '%')}  median {_fmt(t.median, 1, '%')}  SD {_fmt(t.sd, 1, '%')}  "
        f"skewness {_fmt(t.skewness, 2)}  kurtosis {_fmt(t.kurtosis, 2)}", highlight=False,
    )
    if analysis.reliability_withheld:
        console.print(f"Reliability  {analysis.reliability_withheld}", highlight=False, soft_wrap=False)
    else:
        console.print(
            f"Reliability  CIC {_fmt(t.cic, 1, '%')}{'' if t.complete else ' (pairwise)'}  error ratio "
            f"{_fmt(t.error_ratio, 1, '%')}  standard error {_fmt(t.standard_error, 1, '%')}", highlight=False,
        )
    if analysis.regraded:
        changed = sum(analysis.regraded.values())
        console.print(f"Regraded     {changed} answer(s) of {len(analysis.regraded)} question(s) marked again "
                      "against the current key", highlight=False)
    rows = analysis.flagged if flagged_only else analysis.questions
    if rows:
        console.print(_table(rows, console.width), highlight=False)
    broken = analysis.broken
    if not broken:
        console.print("No question looks broken (negative discrimination, facility under 5% or over 95%).",
                      highlight=False)
    else:
        shown, base = _locations(analysis, roots)
        head = "[bold]Check these questions[/]"
        if base is None:
            console.print(f"{head}:")
        elif len(f"Check these questions (files under {base}):") <= console.width:
            console.print(f"{head} (files under {base}):", highlight=False, soft_wrap=True)
        else:  # a long install path: on a line of its own rather than broken at 80 columns
            console.print(f"{head}, files under\n  {base}:", highlight=False, soft_wrap=True)
        # The id and what is wrong on one line, where it is on the next: together they passed 80 columns.
        for q in broken:
            console.print(f"  {q.id}: {', '.join(q.flags)}", highlight=False, soft_wrap=True)
            console.print(f"    {shown.get(q.id, 'not in the question bank')}", highlight=False, soft_wrap=True)
    render_reports(analysis, console)
    render_responses(analysis, console, flagged_only=flagged_only)
    few = sum(FLAG_FEW in q.flags for q in analysis.questions)
    if few:
        console.print(f"{few} question(s) have fewer than {analysis.min_responses} first answers: "
                      "too few to judge (figures shown, no other flag raised).")
    console.print("[dim]facil = facility index (mean mark), discr = discrimination index (item-rest correlation x "
                  "100), effic = discriminative efficiency, guess = random guess score, iw / ew = intended / effective "
                  "weight."
                  + ("" if t.complete else " Learners answered different questions: each figure uses those who "
                     "answered; CIC from pairwise covariances.") + "[/]")
    for note in analysis.skipped:
        console.print(f"[dim]skipped {note}[/]", highlight=False)
