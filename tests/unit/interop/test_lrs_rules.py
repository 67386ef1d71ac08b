"""The LRS client's rules one at a time: addresses, credentials files, redaction, what counts as stored,
Retry-After, same-origin redirects and `more` links, and which modules `study --help` loads.

The client is driven through httpx's MockTransport where a socket adds nothing; tests/unit/interop/
test_lrs_hostile.py drives it over real sockets.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from study.cli import main
from study.interop import lrs_http
from study.interop.lrs import Client, Endpoint, LrsError, fetch_pages, read_credentials, send, statements_url
from study.interop.lrs_address import CREDENTIALS_FILE, secrets_of
from tests.lrs.hostile import TOKEN, Server

URL = "http://lrs.test:8100/xAPI/statements"


class Acks:
    """The two store methods `send` uses."""

    def __init__(self) -> None:
        self.acked: list[str] = []

    def lrs_acked(self, key: str) -> set[str]:
        return set(self.acked)

    def record_lrs_acks(self, key: str, ids) -> None:
        self.acked += list(ids)


def client(handler, auth: str | None = f"Bearer {TOKEN}", **kwargs) -> Client:
    return Client(Endpoint(URL, auth), transport=httpx.MockTransport(handler), sleep=kwargs.pop("sleep", None)
                  or (lambda s: None), **kwargs)


STATEMENTS = [{"id": f"00000000-0000-4000-8000-00000000000{i}"} for i in range(4)]


# --- what counts as stored ----------------------------------------------------------------------------------


def test_a_post_is_stored_only_for_the_ids_the_lrs_names_and_the_rest_is_put() -> None:
    puts: list[str] = []

    def lrs(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":  # Ralph's answer when it already had two of them
            return httpx.Response(200, json=[s["id"] for s in STATEMENTS[:2]])
        puts.append(request.url.params["statementId"])
        return httpx.Response(204)

    store = Acks()
    outcome = send(client(lrs), store, STATEMENTS)
    assert store.acked == [s["id"] for s in STATEMENTS] and outcome.sent == 4
    assert puts == [s["id"] for s in STATEMENTS[2:]]


@pytest.mark.parametrize("answer", [
    httpx.Response(200, json=["not-sent"]),
    httpx.Response(200, json=[STATEMENTS[0]["id"], STATEMENTS[0]["id"]]),
    httpx.Response(200, json={"ids": []}),
    httpx.Response(200, text="<html>login</html>", headers={"content-type": "text/html"}),
    httpx.Response(202, json=[s["id"] for s in STATEMENTS]),
])
def test_any_other_answer_to_a_post_stores_nothing(answer: httpx.Response) -> None:
    store = Acks()
    with pytest.raises(LrsError):
        send(client(lambda request: answer), store, STATEMENTS)
    assert store.acked == []


def test_a_put_is_stored_only_on_204() -> None:
    def lrs(request: httpx.Request) -> httpx.Response:
        return httpx.Response(204 if request.method == "POST" else 200, json=[])

    store = Acks()
    with pytest.raises(LrsError, match="not the 204 xAPI defines"):
        send(client(lrs), store, STATEMENTS)
    assert store.acked == []


# --- retries ---------------------------------------------------------------------------------------------


def test_retry_after_is_honoured_when_short() -> None:
    answers = [httpx.Response(503, headers={"Retry-After": "2"}), httpx.Response(429, headers={"Retry-After": "1"})]

    def lrs(request: httpx.Request) -> httpx.Response:
        return answers.pop(0) if answers else httpx.Response(200, json=[s["id"] for s in STATEMENTS])

    waits: list[float] = []
    store = Acks()
    send(client(lrs, sleep=waits.append, backoff=5.0), store, STATEMENTS)
    assert waits == [2.0, 1.0] and len(store.acked) == 4  # the LRS's wait instead of the backoff


def test_a_refusal_is_final_and_not_retried() -> None:
    calls: list[int] = []

    def lrs(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(403, json={"detail": "forbidden"})

    with pytest.raises(LrsError, match="HTTP 403: forbidden"):
        send(client(lrs), Acks(), STATEMENTS)
    assert len(calls) == 1


# --- origin ------------------------------------------------------------------------------------------------


def test_a_get_follows_a_same_origin_redirect_with_the_token_and_a_relative_more() -> None:
    seen: list[tuple[str, str]] = []

    def lrs(request: httpx.Request) -> httpx.Response:
        seen.append((str(request.url), request.headers.get("authorization", "")))
        if "moved" not in str(request.url) and "p=2" not in str(request.url):
            return httpx.Response(307, headers={"Location": "/xAPI/statements?moved=1"})
        if "moved" in str(request.url):
            return httpx.Response(200, json={"statements": [{"id": "a"}], "more": "/xAPI/statements?p=2"})
        return httpx.Response(200, json={"statements": [{"id": "b"}], "more": ""})

    pages = list(fetch_pages(client(lrs), "https://example.invalid/course"))
    assert [p["statements"][0]["id"] for p in pages] == ["a", "b"]
    assert all(url.startswith("http://lrs.test:8100/") and auth == f"Bearer {TOKEN}" for url, auth in seen)


@pytest.mark.parametrize("location", ["http://lrs.test:8101/x", "https://lrs.test:8100/x", "http://other.test:8100/x",
                                      "//other.test:8100/x", "ftp://lrs.test:8100/x", "http://lrs.test:8100/a b"])
def test_a_get_never_follows_a_redirect_to_another_origin(location: str) -> None:
    seen: list[str] = []

    def lrs(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(302, headers={"Location": location})

    with pytest.raises(LrsError, match="redirected to another server"):
        list(fetch_pages(client(lrs), "https://example.invalid/course"))
    assert len(seen) == 1


def test_a_request_to_another_origin_is_refused_before_it_is_sent() -> None:
    with pytest.raises(LrsError, match="it is not the LRS"):
        client(lambda r: httpx.Response(200)).request("GET", "http://other.test/xAPI/statements")


# --- redaction ----------------------------------------------------------------------------------------------


def test_every_form_of_basic_credentials_is_redacted() -> None:
    auth = "Basic " + base64.b64encode(b"teacher:pa55word-x").decode()
    c = client(lambda r: httpx.Response(200), auth=auth)
    text = f"{auth} | {auth.split()[1]} | teacher:pa55word-x | pa55word-x"
    assert c.clean(text) == "*** | *** | *** | ***"
    assert secrets_of(None) == []


@pytest.mark.parametrize("token, why", [(f"{TOKEN}\r\nX-Evil: 1", "holds a line break"),
                                        (f"{TOKEN}-\u00e9t\u00e9", "holds a character that is not ASCII")])
def test_a_token_that_cannot_be_a_header_is_refused_once_and_never_shown(monkeypatch, tmp_path, capsys, token,
                                                                         why) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("STUDY_LRS_TOKEN", token)
    with Server("ok") as lrs:
        assert main(["--db", str(tmp_path / "p.db"), "sync", "--lrs", lrs.url]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"STUDY_LRS_TOKEN {why}" in err and TOKEN not in err
    assert lrs.seen == []  # permanent: nothing sent, nothing retried
    from study.progress import open_store

    with open_store(tmp_path / "p.db") as store:
        assert TOKEN not in (store.get_setting("lrs_last_error") or "")


# --- addresses ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["http://127.0.0.1:9/a b", "http://[::1:9/x", "http://h:99999/x", "http://h:x/y",
                                 "http://h/\x1b[2J", "http://h\r\nX: y/", "http://bad_host!/x"])
def test_a_malformed_lrs_address_is_refused_when_it_is_set(tmp_path, capsys, url) -> None:
    assert main(["--db", str(tmp_path / "p.db"), "settings", "lrs_endpoint", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("study: error: lrs_endpoint: the LRS address '") and err.count("\n") == 1
    assert "\x1b" not in err and "\\\\" not in err  # an escape is shown once: \x1b, not \\x1b


@pytest.mark.parametrize("argv, code", [
    (["sync", "--lrs", "http://[::1:9/x"], 1),
    (["sync", "--lrs", "http://127.0.0.1:8100/xAPI", "--xapi-base", "http://[::1:9/x"], 2),
    (["sync", "--lrs", "http://127.0.0.1:8100/xAPI", "--actor", "http://[::1:9/x|bob"], 2),
    (["analyze", "--lrs", "http://[::1:9/x"], 1),
    (["analyze", "--lrs", "http://127.0.0.1:8100/xAPI", "--xapi-base", "http://[::1:9/x"], 2),
])
def test_an_invalid_ipv6_url_in_any_option_is_one_line(tmp_path, capsys, argv, code) -> None:
    try:
        result = main(["--db", str(tmp_path / "p.db"), *argv])
    except SystemExit as exc:
        result = exc.code
    assert result == code
    err = capsys.readouterr().err
    assert err.startswith("study: error: ") and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("url", ["http://[::1]:8100/xAPI", "https://lrs.example.com/xAPI", "http://localhost/x"])
def test_good_addresses_pass(url: str) -> None:
    assert statements_url(url).endswith("/statements")


# --- the credentials file -------------------------------------------------------------------------------


posix = pytest.mark.skipif(os.name != "posix", reason="file modes and FIFOs are POSIX")


@posix
def test_a_credentials_fifo_is_one_line_and_never_blocks(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    folder.mkdir(mode=0o700)
    os.mkfifo(folder / CREDENTIALS_FILE, 0o600)
    result: list[BaseException] = []
    # The read runs in a thread so that a regression shows as a failure, not a stalled suite.
    worker = threading.Thread(target=lambda: _catch(result, folder), daemon=True)
    worker.start()
    worker.join(30)
    assert not worker.is_alive() and len(result) == 1 and "not a regular file" in str(result[0])


def _catch(result: list[BaseException], folder: Path) -> None:
    try:
        read_credentials(folder, {})
    except LrsError as exc:
        result.append(exc)


@posix
def test_a_credentials_folder_is_named_as_a_folder(tmp_path: Path) -> None:
    (tmp_path / CREDENTIALS_FILE).mkdir()
    with pytest.raises(LrsError, match="is a folder, not a credentials file"):
        read_credentials(tmp_path, {})


@posix
def test_a_private_file_in_a_folder_others_can_write_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    path = folder / CREDENTIALS_FILE
    path.write_text(json.dumps({"token": "abc-secret"}), encoding="utf-8")
    path.chmod(0o600)
    folder.chmod(0o777)
    with pytest.raises(LrsError, match="can be written by others") as info:
        read_credentials(folder, {})
    assert "abc-secret" not in str(info.value)
    folder.chmod(0o700)
    assert read_credentials(folder, {}) == "Bearer abc-secret"


# --- start-up ---------------------------------------------------------------------------------------------


def test_help_and_the_store_never_load_an_http_stack() -> None:
    code = (
        "import sys, contextlib, io\n"
        "import study.progress.settings\n"
        "assert not any(m.startswith('study.interop') for m in sys.modules), 'progress imports interop'\n"
        "from study.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "print(sorted(m for m in ('httpx', 'httpcore', 'urllib.request', 'http.client', 'ssl', 'email')"
        " if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_limits_default_to_bounded_values() -> None:
    limits = lrs_http.Limits()
    assert 0 < limits.request <= limits.total <= 3600 and limits.max_bytes <= 64 * 1024 * 1024
    assert limits.retry_after_cap < 3600 and limits.max_pages > 0 and limits.max_statements > 0
