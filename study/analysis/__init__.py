"""Item analysis: Moodle's quiz statistics over many learners' exported results (``study analyze``).

No Textual here; numpy does the arithmetic. The public surface::

    from study.analysis import load_results, analyse, render
    responses = load_results(["results/"], mode="all")    # Responses: learners x questions first marks
    analysis = analyse(responses, load_bank())             # Analysis: per question and test figures, flags
    analysis.to_dict(); render(analysis)                   # JSON-ready dict; Rich output

``study.analysis.stats`` holds the arithmetic and documents how missing answers are handled.
"""

from __future__ import annotations

from study.analysis.report import Analysis, QuestionReport, analyse, random_guess_score, render
from study.analysis.results import Responses, ResultsError, load_results
from study.analysis.stats import ItemArrays, QuizFigures, item_statistics, quiz_statistics

__all__ = [
    "Analysis",
    "ItemArrays",
    "QuestionReport",
    "Responses",
    "ResultsError",
    "QuizFigures",
    "analyse",
    "item_statistics",
    "load_results",
    "random_guess_score",
    "render",
    "quiz_statistics",
]
