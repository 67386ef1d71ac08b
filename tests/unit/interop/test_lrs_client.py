"""The LRS client's addresses and credentials, and `study settings`: no server needed."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest

from study.cli import main
from study.interop.lrs import CREDENTIALS_FILE, Endpoint, LrsError, read_credentials, statements_url
from study.progress import open_store


@pytest.mark.parametrize("url, expected", [
    ("http://127.0.0.1:8100/xAPI", "http://127.0.0.1:8100/xAPI/statements"),
    ("http://127.0.0.1:8100/xAPI/", "http://127.0.0.1:8100/xAPI/statements"),
    (" https://lrs.example.com/data/xAPI/statements/ ", "https://lrs.example.com/data/xAPI/statements"),
    ("http://lrs.example.com/xAPI/statements?x=1#f", "http://lrs.example.com/xAPI/statements"),
])
def test_an_lrs_address_names_its_statements_resource(url: str, expected: str) -> None:
    assert statements_url(url) == expected


@pytest.mark.parametrize("url", ["ftp://lrs.example.com/xAPI", "lrs.example.com/xAPI", "http:///xAPI", ""])
def test_an_address_that_is_not_http_is_refused(url: str) -> None:
    with pytest.raises(LrsError, match="http:// or https://"):
        statements_url(url)


def test_credentials_in_the_url_are_refused_without_repeating_them() -> None:
    with pytest.raises(LrsError) as info:
        statements_url("http://alice:hunter2@lrs.example.com/xAPI")
    assert "hunter2" not in str(info.value) and "environment" in str(info.value)


def test_credentials_from_the_environment(tmp_path: Path) -> None:
    assert read_credentials(tmp_path, {"STUDY_LRS_TOKEN": " abc "}) == "Bearer abc"
    basic = read_credentials(tmp_path, {"STUDY_LRS_USER": "alice", "STUDY_LRS_PASSWORD": "pw:1"})
    assert basic == "Basic " + base64.b64encode(b"alice:pw:1").decode()
    # The token wins over basic credentials, and nothing at all means no Authorization header.
    assert read_credentials(tmp_path, {"STUDY_LRS_TOKEN": "t", "STUDY_LRS_USER": "a"}) == "Bearer t"
    assert read_credentials(tmp_path, {}) is None


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_the_credentials_file_must_be_owner_only(tmp_path: Path) -> None:
    path = tmp_path / CREDENTIALS_FILE
    path.write_text(json.dumps({"username": "bob", "password": "very-secret"}), encoding="utf-8")
    path.chmod(0o644)
    with pytest.raises(LrsError) as info:
        read_credentials(tmp_path, {})
    assert f"chmod 600 {path}" in str(info.value) and "very-secret" not in str(info.value)
    path.chmod(0o600)
    assert read_credentials(tmp_path, {}) == "Basic " + base64.b64encode(b"bob:very-secret").decode()
    path.write_text(json.dumps({"token": "tok"}), encoding="utf-8")
    assert read_credentials(tmp_path, {}) == "Bearer tok"
    for bad in ("not json", "[]", '{"username": "x"}', '{"token": ""}'):
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(LrsError, match="not a JSON object"):
            read_credentials(tmp_path, {})


def test_an_endpoint_never_shows_its_credentials() -> None:
    endpoint = Endpoint("http://lrs.example.com/xAPI/statements", "Basic c2VjcmV0")
    assert "c2VjcmV0" not in repr(endpoint) and "c2VjcmV0" not in str(endpoint)
    assert endpoint.key == "http://lrs.example.com/xAPI/statements"


# --- study settings ---------------------------------------------------------------------------------------


def test_settings_are_set_checked_and_unset(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "p.db")
    assert main(["--db", db, "settings", "lrs_endpoint", "http://127.0.0.1:8100/xAPI"]) == 0
    assert main(["--db", db, "settings", "lrs_auto_sync", "on"]) == 0
    assert main(["--db", db, "settings", "daily_goal", "35"]) == 0
    with open_store(db) as store:
        assert store.get_setting("lrs_endpoint") == "http://127.0.0.1:8100/xAPI/statements"
        assert store.get_setting("lrs_auto_sync") is True and store.get_setting("daily_goal") == 35
    capsys.readouterr()
    assert main(["--db", db, "settings"]) == 0
    listing = capsys.readouterr().out
    assert "lrs_auto_sync      on" in listing and "daily_goal         35" in listing
    assert main(["--db", db, "settings", "lrs_auto_sync", "--unset"]) == 0
    with open_store(db) as store:
        assert store.get_setting("lrs_auto_sync") is None


@pytest.mark.parametrize("argv, message", [
    (["settings", "daily_goal", "0"], "daily_goal must be from 1 to 10000, not 0"),
    (["settings", "desired_retention", "nan"], "desired_retention must be from 0.70 to 0.97"),
    (["settings", "exam_date", "2027-13-45"], "exam_date must be a date: '2027-13-45': month 13 is not 1 to 12"),
    (["settings", "lrs_endpoint", "lrs.example.com"], "http:// or https://"),
    (["settings", "lrs_auto_sync", "maybe"], "must be on or off"),
    (["settings", "daily_gaol", "3"], "no setting 'daily_gaol'; did you mean daily_goal?"),
    (["settings", "learner_id", "x"], "learner_id is kept by study itself"),
    (["settings", "--unset"], "--unset takes a KEY"),
])
def test_bad_settings_are_one_error_line_and_change_nothing(tmp_path: Path, capsys, argv, message) -> None:
    db = str(tmp_path / "p.db")
    assert main(["--db", db, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("study: error: ") and message in err[0]
    with open_store(db) as store:
        assert store.get_setting("daily_goal") == 20
