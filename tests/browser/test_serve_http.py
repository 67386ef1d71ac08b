"""`study serve` over plain HTTP and a websocket client: the token gate, ctrl+c, and the error lines.

No browser needed; every request goes to the server's own 127.0.0.1 port and is bounded in time."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest

from study.commands.serve import is_loopback, url_for
from study.serve.auth import cookie_name

from .harness import WAIT_S, Served, start_server, study_env

pytestmark = pytest.mark.slow


def status_of(url: str, cookie: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=WAIT_S) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


async def websocket_status(url: str, cookie: str | None = None) -> int:
    """101 when the websocket opened (and the app sent its first bytes), else the refusal's status."""
    headers = {"Cookie": cookie} if cookie else {}
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT_S)) as session:
        try:
            async with session.ws_connect(url, headers=headers) as ws:
                await ws.receive(timeout=WAIT_S)
                return 101
        except aiohttp.WSServerHandshakeError as error:
            return error.status


def children_of(pid: int) -> list[int]:
    """Every live process whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_without_the_token_page_assets_socket_and_downloads_are_refused(served: Served) -> None:
    base, token = served.base, served.token
    good_cookie = f"{cookie_name(int(base.rsplit(':', 1)[1]))}={token}"
    near_miss = token[:-1] + ("B" if token.endswith("A") else "A")  # one character off, never the token itself
    for path in ("/", "/static/js/textual.js", "/static/fonts/RobotoMono-VariableFont_wght.ttf",
                 "/study-static/page.js", "/download/anything", "/no-such-page"):
        assert status_of(base + path) == 403, path
        assert status_of(base + path + "?token=" + near_miss) == 403, path
    # A cookie for another port's server (cookies do not keep ports apart) does not open this one.
    assert status_of(base + "/", cookie=f"study-serve-1={token}") == 403
    assert status_of(base + "/", cookie=f"{cookie_name(int(base.rsplit(':', 1)[1]))}=wrong") == 403
    assert status_of(base + "/?token=" + token) == 200
    assert status_of(base + "/static/js/textual.js", cookie=good_cookie) == 200
    ws = base.replace("http://", "ws://") + "/ws"
    assert asyncio.run(websocket_status(ws)) == 403
    assert asyncio.run(websocket_status(ws + "?token=nope")) == 403
    assert asyncio.run(websocket_status(ws, cookie=good_cookie)) == 101


def test_a_malformed_message_ends_that_tab_only(served: Served) -> None:
    ws = served.base.replace("http://", "ws://") + f"/ws?token={served.token}"

    async def send_garbage() -> aiohttp.WSMsgType:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT_S)) as session:
            async with session.ws_connect(ws) as tab:
                await tab.receive(timeout=WAIT_S)
                await tab.send_str("{not json")
                while True:
                    message = await tab.receive(timeout=WAIT_S)
                    if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                        return message.type

    assert asyncio.run(send_garbage()) in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert status_of(served.url) == 200  # the server goes on serving other tabs
    assert served.proc.poll() is None
    deadline = time.monotonic() + WAIT_S
    while children_of(served.proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert children_of(served.proc.pid) == []  # the closed tabs' apps ended with them


def test_the_page_sets_an_httponly_strict_cookie_and_a_same_origin_policy(served: Served) -> None:
    with urllib.request.urlopen(served.url, timeout=WAIT_S) as response:
        cookie = response.headers["Set-Cookie"]
        policy = response.headers["Content-Security-Policy"]
        page = response.read().decode()
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and served.token in cookie
    assert "default-src 'none'" in policy and "connect-src 'self'" in policy
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert "googleapis" not in page and "https://" not in page  # the stock template's web font is gone


def test_ctrl_c_stops_the_server_and_every_app_it_started(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    try:
        ws = server.base.replace("http://", "ws://") + f"/ws?token={server.token}&width=80&height=24"

        async def two_tabs_then_interrupt() -> list[int]:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT_S)) as session:
                tabs = [await session.ws_connect(ws), await session.ws_connect(ws)]
                for tab in tabs:
                    await tab.receive(timeout=WAIT_S)  # the app is up and painting
                apps = children_of(server.proc.pid)
                server.proc.send_signal(signal.SIGINT)  # what ctrl+c sends; the tabs stay open meanwhile
                for tab in tabs:
                    await tab.receive(timeout=WAIT_S)  # the server closes them as it stops
                return apps

        apps = asyncio.run(two_tabs_then_interrupt())
        assert len(apps) == 2
        assert server.proc.wait(WAIT_S) == 0
        deadline = time.monotonic() + 5
        while any(alive(pid) for pid in apps) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [pid for pid in apps if alive(pid)] == []
        assert server.proc.stdout is not None and server.proc.stdout.read() == ""  # the URL was the only line
        assert server.proc.stderr is not None and "Traceback" not in server.proc.stderr.read()
    finally:
        server.stop()


def run_serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "study", "--db", str(tmp_path / "p.db"), "serve", *args],
                          env=study_env(tmp_path), text=True, capture_output=True, timeout=WAIT_S)


def test_a_port_in_use_is_one_error_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = run_serve(tmp_path, "--port", str(taken.getsockname()[1]))
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("study: error: cannot listen on 127.0.0.1:")
    assert "in use" in lines[0]


def test_another_host_warns_and_a_bad_port_is_a_usage_error(tmp_path: Path) -> None:
    # 192.0.2.1 is a documentation address no machine has: the bind fails, so nothing listens beyond loopback.
    result = run_serve(tmp_path, "--host", "192.0.2.1", "--port", "0")
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and result.stdout == ""
    assert lines[0].startswith("study: warning: listening on 192.0.2.1") and "token" in lines[0]
    assert lines[1].startswith("study: error: cannot listen on 192.0.2.1:0")
    bad = run_serve(tmp_path, "--port", "70000")
    assert bad.returncode == 2 and bad.stderr.startswith("study: error: serve: argument --port")


def test_loopback_and_url_forms() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.8.0.1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5") and not is_loopback("example.org")
    assert url_for("::1", 8000, "t") == "http://[::1]:8000/?token=t"
    assert url_for("127.0.0.1", 8001, "abc") == "http://127.0.0.1:8001/?token=abc"
    assert url_for("0.0.0.0", 8000, "t") != "http://0.0.0.0:8000/?token=t"  # a wildcard is no address to open


def test_the_app_command_keeps_this_interpreter_store_and_bank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from study.serve.server import app_command

    monkeypatch.chdir(tmp_path)
    argv = app_command("rel.db", False, ["qs"], "content")
    assert argv[:3] == [sys.executable, "-m", "study"]
    assert argv[3:] == ["--db", str(tmp_path / "rel.db"), "--no-watch", "tui", "--questions", str(tmp_path / "qs"),
                        "--content", str(tmp_path / "content")]
