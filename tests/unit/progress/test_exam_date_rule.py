"""One rule for the exam date, wherever it is typed: `study settings exam_date`, `study stats --exam-date`
and the app's Settings form all refuse a day that has passed (the CLI took 2020-01-01, the form did not)."""

from __future__ import annotations

import datetime as dt

import pytest

from study.cli import main
from study.progress import open_store
from study.progress.settings import exam_date_setting, parse_setting


def test_the_rule_takes_today_and_later_and_refuses_the_past():
    today = dt.date(2026, 11, 30)
    assert exam_date_setting("2026-11-30", today) == "2026-11-30"
    assert exam_date_setting("2027-01-15", today) == "2027-01-15"
    with pytest.raises(ValueError, match=r"must be today \(30 Nov 2026\) or later: 29 Nov 2026 has passed"):
        exam_date_setting("2026-11-29", today)
    with pytest.raises(ValueError, match="must be a date"):
        exam_date_setting("soon", today)


def test_study_settings_uses_the_rule_with_todays_date():
    tomorrow = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    assert parse_setting("exam_date", tomorrow) == tomorrow
    with pytest.raises(ValueError, match="has passed"):
        parse_setting("exam_date", "2020-01-01")


@pytest.mark.parametrize("argv", [["settings", "exam_date", "2020-01-01"], ["stats", "--exam-date", "2020-01-01"]])
def test_a_past_exam_date_is_one_error_line_and_stores_nothing(tmp_path, capsys, argv):
    db = str(tmp_path / "p.db")
    assert main(["--db", db, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("study: error: ")
    assert "or later: 01 Jan 2020 has passed" in err[0]
    with open_store(db) as store:
        assert store.get_setting("exam_date") is None
