"""Plain mode as the README promises: an exam does not name the objective (unless the app's setting asks for
it), and `:report WHY` keeps a report as the app's R does."""

from __future__ import annotations

import datetime as dt
import io

from quiz_fixtures import T0, make_bank
from study.progress import open_store
from study.progress.reports import list_reports
from study.quiz import build_exam, build_practice
from study.quiz.plain import EXAM_OBJECTIVE_SETTING, run_plain


def _clock():
    t = [T0]

    def now():
        t[0] += dt.timedelta(seconds=1)
        return t[0]
    return now


def drive(session, lines):
    out = io.StringIO()
    run_plain(session, io.StringIO("".join(f"{line}\n" for line in lines)), out, _clock())
    return out.getvalue()


def test_an_exam_hides_the_objective_unless_the_setting_shows_it(tmp_path):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        exam = build_exam(make_bank(), seed=2, count=2, minutes=5, now=T0, clock=_clock(), store=store)
        text = drive(exam, [":submit"])
        assert "Question 1 of 2" in text and "objective" not in text
        store.set_setting(EXAM_OBJECTIVE_SETTING, True)
        exam = build_exam(make_bank(), seed=3, count=2, minutes=5, now=T0, clock=_clock(), store=store)
        assert f"Question 1 of 2 (objective {exam.instances[0].objective})" in drive(exam, [":submit"])
    practice = build_practice(make_bank(), seed=2, count=1, now=T0)
    assert f"(objective {practice.instances[0].objective})" in drive(practice, [":quit"])


def test_report_keeps_a_report_like_the_apps_r(tmp_path):
    with open_store(tmp_path / "p.db", fuzz=False) as store:
        exam = build_exam(make_bank(), seed=2, count=2, minutes=5, now=T0, clock=_clock(), store=store)
        first = exam.instances[0]
        text = drive(exam, [":report wrong-key B is right, see the datasheet", ":report", ":2",
                            ":report The stem says MiB but means MB", ":submit"])
        assert text.count("Report kept.") == 2 and "Say what is wrong" in text
        reports = list_reports(store)
    by_item = {r.item_id: r for r in reports}
    assert len(reports) == 2
    kept = by_item[first.qid]
    assert (kept.kind, kept.text, kept.context, kept.session_id) == ("wrong-key", "B is right, see the datasheet",
                                                                     "exam", exam.id)
    assert kept.content_hash == first.content_hash
    other = by_item[exam.instances[1].qid]
    assert (other.kind, other.text) == ("other", "The stem says MiB but means MB")
