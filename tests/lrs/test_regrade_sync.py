"""A regrade reaches a real LRS (Ralph, on the loopback address) as xAPI says a correction must (issue 36.6):
the statements of the old grade stay as they were and are voided (verb ``voided``, a ``StatementRef`` to each,
xAPI 1.0.3 Data 2.3.2), the new grade comes under new ids, and ``study analyze --lrs`` counts the new grade.
Before, the regraded answer changed under its old id: the second sync sent nothing and the LRS kept the old
grade. What the LRS holds is read from Ralph's own statement file, never from our client."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from study.analysis.results import load_results, load_results_from_pages
from study.cli import main
from study.interop.lrs import Client, Endpoint, fetch_pages, read_credentials, statements_url
from study.interop.xapi import DEFAULT_BASE
from tests.unit.analysis.classgen import FLIP_ID, take_exam, write_bank

pytestmark = pytest.mark.slow
VOIDED = "http://adlnet.gov/expapi/verbs/voided"


def _verb(st: dict) -> str:
    return st["verb"]["id"].rsplit("/", 1)[1]


def _regrade(db: Path, fixed: Path) -> None:
    # A real `study regrade` process, as an instructor's learner runs it.
    done = subprocess.run([sys.executable, "-m", "study", "--db", str(db), "regrade", "--questions", str(fixed)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "1 answer(s) changed" in done.stdout


def _flip_mark_in_lrs(url: str) -> float:
    pages = fetch_pages(Client(Endpoint(statements_url(url), read_credentials(Path("/nonexistent")))), DEFAULT_BASE)
    results = load_results_from_pages(pages, url)
    assert len(results.learners) == 1
    return float(results.marks[0, results.questions.index(FLIP_ID)])


def test_a_regrade_reaches_the_lrs_as_voids_and_new_statements(ralph, credentials, tmp_path, capsys) -> None:
    flipped = write_bank(tmp_path / "flipped", flipped=True).parent
    fixed = write_bank(tmp_path / "fixed", flipped=False).parent
    db = tmp_path / "me.db"
    take_exam(db, flipped)
    assert main(["--db", str(db), "sync", "--lrs", ralph.url, "--questions", str(flipped)]) == 0
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)  # the same store on another machine, regraded and synced there too
    first = ralph.stored()
    assert len(first) == 8  # six answers, completed and failed
    assert _flip_mark_in_lrs(ralph.url) == 0.0

    _regrade(db, fixed)
    assert main(["--db", str(db), "sync", "--lrs", ralph.url, "--questions", str(fixed)]) == 0
    err = capsys.readouterr().err
    assert "sent 6 statements" in err and "conflict" not in err
    stored = ralph.stored()
    assert stored[:len(first)] == first  # nothing the LRS held changed
    new = stored[len(first):]
    voids = [s for s in new if s["verb"]["id"] == VOIDED]
    old_ids = {_verb(s) if _verb(s) != "answered" or FLIP_ID not in s["object"]["id"] else "flip": s["id"]
               for s in first if _verb(s) in ("completed", "failed") or s["object"]["id"].endswith(FLIP_ID)}
    assert sorted(v["object"]["id"] for v in voids) == sorted(old_ids.values())
    assert sorted(_verb(s) for s in new if s not in voids) == ["answered", "completed", "passed"]
    regraded = next(s for s in new if _verb(s) == "answered")
    assert regraded["result"]["success"] is True and regraded["id"] not in {s["id"] for s in first}
    assert regraded["context"]["statement"]["id"] == old_ids["flip"]

    # The analysis from the LRS honours the voids (Ralph returns voided statements: the client leaves them
    # out) and equals the analysis of the learner's export file.
    assert _flip_mark_in_lrs(ralph.url) == 1.0
    export = tmp_path / "me.jsonl"
    assert main(["--db", str(db), "export", "--format", "xapi", "--questions", str(fixed), str(export)]) == 0
    assert load_results([export]).marks.sum() == 5  # all but the hardest question, the regraded one right
    capsys.readouterr()
    main(["analyze", "--lrs", ralph.url, "--json", "--min-responses", "1"])
    by_lrs = json.loads(capsys.readouterr().out)
    main(["analyze", str(export), "--json", "--min-responses", "1"])
    by_file = json.loads(capsys.readouterr().out)
    # The LRS holds the voided answer and says so; the file never held it.
    assert by_lrs.pop("skipped") == ["1 xAPI answer statement(s) voided by a later statement (a regrade replaced "
                                     "them): not counted"]
    assert by_file.pop("skipped") == []
    for report in (by_lrs, by_file):
        report.pop("files")
    assert by_lrs == by_file and by_lrs["answers"] == 6

    # The copy, regraded later and synced, sends the same six statements: the LRS has them all already, so
    # there is no conflict and nothing is stored twice.
    _regrade(copy, fixed)
    assert main(["--db", str(copy), "sync", "--lrs", ralph.url, "--questions", str(fixed)]) == 0
    err = capsys.readouterr().err
    assert "sent 6 statements" in err and "conflict" not in err
    assert len(ralph.stored()) == len(stored)
