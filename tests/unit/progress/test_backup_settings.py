"""A backup never redirects a learner's sync (issue 19, defect 3).

LRS settings and sync state stay with the store that made them: they are not exported, and a backup that
holds them anyway (edited, or from an older study) is imported without them, with a one-line notice. Every
other setting in a backup passes the rule ``study settings KEY VALUE`` applies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from study.cli import main
from study.progress import Attempt, open_store
from study.progress.transfer import ImportFormatError

from .conftest import NOW

HOSTILE_SETTINGS = {
    "lrs_endpoint": "http://attacker.example/xAPI/statements",
    "lrs_auto_sync": True,
    "lrs_last_error": "2026-11-30 all fine",
    "lrs_last_sync": "2026-11-30T10:00:00+00:00",
}


def _backup(tmp_path: Path, **settings) -> dict:
    with open_store(tmp_path / "source.db", fuzz=False) as s:
        s.record_attempt(Attempt("q1", "h", {}, "B", True, 30.0, "quiz", None, NOW))
        data = s.export_data()
    data["settings"].update(settings)
    return data


def test_lrs_settings_and_sync_state_are_not_exported(tmp_path):
    with open_store(tmp_path / "mine.db", fuzz=False) as s:
        for key, value in HOSTILE_SETTINGS.items():
            s.set_setting(key, value)
        s.set_setting("daily_goal", 30)
        s.record_lrs_acks("http://127.0.0.1:9/xAPI/statements", ["a" * 36])
        data = s.export_data()
        learner = s.get_setting("learner_id")  # every export carries the learner id (issue 36.3)
    assert data["settings"] == {"daily_goal": 30, "learner_id": learner}
    assert "lrs" not in json.dumps(data)


@pytest.mark.parametrize("replace", [False, True], ids=["merge", "replace"])
def test_lrs_settings_in_a_backup_are_ignored_and_the_rest_imports(tmp_path, replace):
    data = _backup(tmp_path, daily_goal=25, **HOSTILE_SETTINGS)
    with open_store(tmp_path / "mine.db", fuzz=False) as s:
        s.set_setting("lrs_endpoint", "http://127.0.0.1:8100/xAPI/statements")
        added = s.import_data(data, replace=replace)
        settings = s.settings()
    assert added["attempts"] == 1
    assert added["ignored_settings"] == sorted(HOSTILE_SETTINGS)
    if replace:
        assert "lrs_endpoint" not in settings  # a restore keeps no LRS, rather than take the backup's
    else:
        assert settings["lrs_endpoint"] == "http://127.0.0.1:8100/xAPI/statements"
    assert not any(settings.get(k) == v for k, v in HOSTILE_SETTINGS.items() if k != "lrs_endpoint")
    assert settings["daily_goal"] == 25


def test_the_import_command_names_what_it_ignored_in_one_line(tmp_path, capsys):
    file = tmp_path / "shared.json"
    file.write_text(json.dumps(_backup(tmp_path, **HOSTILE_SETTINGS)))
    db = tmp_path / "mine.db"
    assert main(["--db", str(db), "import", str(file)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    (notice,) = [line for line in err if "ignored" in line]
    assert "lrs_endpoint" in notice and "lrs_auto_sync" in notice
    with open_store(db, fuzz=False) as s:
        assert s.get_setting("lrs_endpoint") is None and not s.get_setting("lrs_auto_sync")


def test_an_unknown_setting_is_ignored_not_stored(tmp_path):
    data = _backup(tmp_path, colour_of_the_day="\x1b]0;owned\x07")
    with open_store(tmp_path / "mine.db", fuzz=False) as s:
        added = s.import_data(data)
        assert added["ignored_settings"] == ["colour_of_the_day"]
        assert "colour_of_the_day" not in s.settings()


@pytest.mark.parametrize("key, value, message", [
    ("theme", "solarized", "must be dark or light"),
    ("theme", "Dark", "must be written as 'dark'"),
    ("learner_id", "root\nadmin", "learner_id"),
    ("daily_goal", 0, "daily_goal"),
    ("exam_date", "soon", "not a date"),
])
def test_other_settings_pass_the_rule_study_settings_applies(tmp_path, key, value, message):
    data = _backup(tmp_path, **{key: value})
    path = tmp_path / "mine.db"
    with open_store(path, fuzz=False) as s:
        with pytest.raises(ImportFormatError) as info:
            s.import_data(data)
        assert message in str(info.value)
        assert s.settings().get(key) != value and s._query("SELECT COUNT(*) FROM attempts") == [(0,)]


def test_a_known_theme_imports(tmp_path):
    with open_store(tmp_path / "mine.db", fuzz=False) as s:
        s.import_data(_backup(tmp_path, theme="light"))
        assert s.get_setting("theme") == "light"
