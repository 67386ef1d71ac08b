"""`study sync` and `study analyze --lrs` against a hostile LRS (tests/lrs/hostile.py), every mode.

For each mode: one ``study: error:`` line (no traceback, no hang), nothing acknowledged, the token in no output
and in no stored setting, no raw control character printed, and no request at all reaching the "other
host" (a second server on 127.0.0.2) or the other port. Deadlines are made small so the suite stays fast; the
defaults are what the learner gets.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from study.cli import main
from study.interop import lrs_http
from study.interop.lrs import statements_url
from study.progress import Attempt, open_store
from tests.lrs.hostile import ESCAPES, MODES, TOKEN, Server, other_host_server

FAST = lrs_http.Limits(request=0.3, total=1.5, connect=0.5, retry_after_cap=5.0, max_bytes=256 * 1024,
                       max_pages=25, max_statements=1000, backoff=0.0)
START = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.timezone.utc)


@pytest.fixture(autouse=True)
def fast_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(lrs_http, "DEFAULT_LIMITS", FAST)
    monkeypatch.setenv("STUDY_LRS_TOKEN", TOKEN)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def others():
    """The servers a hostile LRS points elsewhere at: another host and another port. Both must stay unasked."""
    with other_host_server() as host, Server("ok") as port:
        yield host, port


def hostile(mode: str, others) -> Server:
    host, port = others
    return Server(mode, other=f"http://{host.host}:{host.port}", other_port=port.port)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from study.bank import load_bank

    bank = load_bank()
    qids = sorted(q.id for q in bank.questions if q.type == "single")[:3]
    path = tmp_path_factory.mktemp("template") / "p.db"
    with open_store(path) as store:
        for i, qid in enumerate(qids):
            store.record_attempt(Attempt(qid, bank.content_hash(qid), {}, "A", i % 2 == 0, 20.0, "practice",
                                         at=START + dt.timedelta(minutes=i)))
    return path


@pytest.fixture
def db(template: Path, tmp_path: Path) -> Path:
    """A learner's store with three answers: a copy, since each test writes its own last error."""
    import shutil

    return Path(shutil.copy(template, tmp_path / "p.db"))


def one_clean_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("study: error: "), err
    assert "Traceback" not in err and TOKEN not in err
    assert not any(c in err for c in "\x1b\x07\x9b\r"), repr(err)
    return lines[0]


def no_request_left_the_origin(others) -> None:
    host, port = others
    assert host.seen == [] and port.seen == []


@pytest.mark.parametrize("mode", MODES)
def test_a_sync_to_a_hostile_lrs_is_one_line_and_acknowledges_nothing(mode, others, db, capsys) -> None:
    with hostile(mode, others) as lrs:
        code = main(["--db", str(db), "sync", "--lrs", lrs.url])
        err = capsys.readouterr().err
    assert code == 1
    line = one_clean_error(err)
    no_request_left_the_origin(others)
    with open_store(db) as store:
        assert store.lrs_acked(statements_url(lrs.url)) == set()
        last = store.get_setting("lrs_last_error")
        assert store.get_setting("lrs_last_sync") is None
    assert last and TOKEN not in last and "\x1b" not in last and line.removeprefix("study: error: ") in last
    # Every request carried the token to the configured origin only.
    assert all(s.headers.get("authorization") == f"Bearer {TOKEN}" for s in lrs.seen)
    if mode in ("drip-headers", "drip-body", "silence"):
        # A byte every 50 ms never trips a per-read timeout: only the deadline of the whole answer ends it.
        assert "no complete answer within " in line or f"longer than {FAST.total:g} s in all" in line


@pytest.mark.parametrize("mode", MODES)
def test_an_analysis_from_a_hostile_lrs_is_one_line(mode, others, capsys) -> None:
    with hostile(mode, others) as lrs:
        code = main(["analyze", "--lrs", lrs.url])
        err = capsys.readouterr().err
    assert code == 1
    one_clean_error(err)
    no_request_left_the_origin(others)


@pytest.mark.parametrize("mode", MODES)
def test_the_apps_automatic_sync_with_a_hostile_lrs_is_a_message_and_the_last_error(mode, others, db) -> None:
    from study.bank import load_bank
    from study.interop.sync import auto_sync

    with open_store(db) as store:
        store.set_setting("lrs_auto_sync", True)
    with hostile(mode, others) as lrs:
        with open_store(db) as store:
            store.set_setting("lrs_endpoint", statements_url(lrs.url))
        ok, message = auto_sync(db, load_bank())  # never raises: the app's worker shows what it returns
    assert not ok and message.startswith("Sync to the LRS failed: ")
    assert TOKEN not in message and not any(c in message for c in "\x1b\x07\x9b\r\n")
    no_request_left_the_origin(others)
    with open_store(db) as store:
        assert store.lrs_acked(statements_url(lrs.url)) == set()
        assert message.removeprefix("Sync to the LRS failed: ") in store.get_setting("lrs_last_error")


# --- what the lines say, for the modes a learner meets ------------------------------------------------------


def sync_error(db: Path, url: str, capsys) -> str:
    assert main(["--db", str(db), "sync", "--lrs", url]) == 1
    return one_clean_error(capsys.readouterr().err)


def test_a_redirected_post_is_not_followed_and_says_so(others, db, capsys) -> None:
    with hostile("302-other-host", others) as lrs:
        line = sync_error(db, lrs.url, capsys)
    assert "answered POST with a redirect (HTTP 302" in line and "nothing was sent there" in line
    assert [s.method for s in lrs.seen] == ["POST"]  # a failure the next sync repeats, not retried now


def test_a_captive_portal_is_named_and_not_retried(others, db, capsys) -> None:
    with hostile("captive-portal", others) as lrs:
        line = sync_error(db, lrs.url, capsys)
    assert "without the list of stored statement ids xAPI requires" in line and "captive portal" in line
    assert len(lrs.seen) == 1


def test_retry_after_beyond_the_cap_stops_at_once(others, db, capsys) -> None:
    with hostile("retry-after-3600", others) as lrs:
        line = sync_error(db, lrs.url, capsys)
    assert "asks to wait 3600 s" in line and "try again later" in line and len(lrs.seen) == 1


def test_an_echoed_token_is_redacted(others, db, capsys) -> None:
    with hostile("token-echo", others) as lrs:
        line = sync_error(db, lrs.url, capsys)
    assert "HTTP 401: invalid credentials ***" in line and "check STUDY_LRS_TOKEN" in line
    assert len(lrs.seen) == 1  # a refusal is final


def test_escapes_in_an_lrs_error_are_shown_escaped(others, db, capsys) -> None:
    with hostile("escapes-in-error", others) as lrs:
        line = sync_error(db, lrs.url, capsys)
    assert "bad \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m statement" in line
    assert ESCAPES not in line


def test_endless_pages_stop_at_the_stated_cap(others, capsys) -> None:
    with hostile("endless-more", others) as lrs:
        assert main(["analyze", "--lrs", lrs.url]) == 1
        line = one_clean_error(capsys.readouterr().err)
    assert f"more than {FAST.max_pages} pages" in line and f"at most {FAST.max_pages} pages" in line
    assert len(lrs.seen) == FAST.max_pages


@pytest.mark.parametrize("mode, words", [
    ("more-absolute", "\"more\" link to somewhere else"), ("more-file", "file:///etc/passwd"),
    ("more-data", "\"more\" link to somewhere else"), ("302-https", "redirected to another server"),
    ("redirect-loop", "redirected more than 3 times"), ("redirect-ftp", "redirected to another server"),
    ("huge-body", "sent more than 256 KB in one answer"), ("deep-json", "not JSON"),
])
def test_analysis_refusals_say_why(mode, words, others, capsys) -> None:
    with hostile(mode, others) as lrs:
        assert main(["analyze", "--lrs", lrs.url]) == 1
        line = one_clean_error(capsys.readouterr().err)
    assert words in line

