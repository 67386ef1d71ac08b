"""`study serve` against what a careful tester threw at it (issue 33), with real processes and sockets.

Everything is on 127.0.0.1 and bounded: each wait is a hang guard (WAIT_S), not a speed assertion."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import socket
import stat
import time
from pathlib import Path

import aiohttp
import pytest

from study.serve.auth import cookie_name
from study.serve.server import HEADER_TIMEOUT_S

from .harness import WAIT_S, Served, start_server
from .test_serve_http import alive, children_of, websocket_status

pytestmark = pytest.mark.slow


def open_tabs(server: Served, count: int) -> list[int]:
    """Open ``count`` tabs, wait until each app paints, and return the app processes (the tabs stay open)."""
    ws = server.base.replace("http://", "ws://") + f"/ws?token={server.token}&width=80&height=24"

    async def run() -> list[int]:
        session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT_S))
        tabs = [await session.ws_connect(ws) for _ in range(count)]
        for tab in tabs:
            await tab.receive(timeout=WAIT_S)
        # Leave the sockets open (not closed by us): what happens next is the server's doing.
        opened.append((session, tabs))
        return children_of(server.proc.pid)

    opened: list[object] = []
    loop = asyncio.new_event_loop()
    server_loops.append(loop)
    return loop.run_until_complete(run())


server_loops: list[asyncio.AbstractEventLoop] = []


def gone_within(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def test_a_closed_terminal_sighup_stops_the_server_and_its_apps(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    try:
        apps = open_tabs(server, 2)
        assert len(apps) == 2
        server.proc.send_signal(signal.SIGHUP)
        assert server.proc.wait(WAIT_S) == 0
        assert gone_within(apps, WAIT_S) == []
        assert server.proc.stderr is not None and "Traceback" not in server.proc.stderr.read()
    finally:
        server.stop()


def test_apps_of_a_killed_server_exit_by_themselves_and_the_store_stays_whole(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    try:
        apps = open_tabs(server, 2)
        assert len(apps) == 2
        server.proc.kill()  # kill -9: the server cannot end anything; only the apps' closed stdin tells them
        server.proc.wait(WAIT_S)
        assert gone_within(apps, WAIT_S) == []
        assert server.stats()["attempts"] == 0  # the store opens and reads after the apps' own exit
    finally:
        server.stop()
        for pid in apps if "apps" in locals() else []:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_an_origin_other_than_the_page_is_refused_on_the_real_server(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    try:
        port = int(server.base.rsplit(":", 1)[1])
        cookie = f"{cookie_name(port)}={server.token}"
        ws = server.base.replace("http://", "ws://") + "/ws"

        async def with_origin(origin: str) -> int:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=WAIT_S)) as session:
                try:
                    async with session.ws_connect(ws, headers={"Cookie": cookie, "Origin": origin}) as tab:
                        await tab.receive(timeout=WAIT_S)
                        return 101
                except aiohttp.WSServerHandshakeError as error:
                    return error.status

        assert asyncio.run(with_origin("http://evil.example")) == 403
        assert asyncio.run(with_origin(f"http://127.0.0.1:{port + 1}")) == 403
        assert children_of(server.proc.pid) == []
        assert asyncio.run(with_origin(server.base)) == 101
        assert asyncio.run(websocket_status(ws, cookie=cookie)) == 101  # no Origin: not a browser page
    finally:
        server.stop()


def test_silent_and_slow_header_connections_are_closed(tmp_path: Path) -> None:
    server = start_server(tmp_path)
    port = int(server.base.rsplit(":", 1)[1])
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) for _ in range(4)]
    try:
        silent, *dripping = sockets
        request = f"GET /?token={server.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n".encode()
        for conn in dripping:
            conn.setblocking(False)
        closed: set[int] = set()
        deadline = time.monotonic() + 3 * HEADER_TIMEOUT_S  # the old server kept them 45 s and more
        sent = 0
        while len(closed) < len(sockets) and time.monotonic() < deadline:
            for i, conn in enumerate(sockets):
                if i in closed:
                    continue
                if conn is not silent and sent < len(request):
                    try:
                        conn.send(request[sent:sent + 1])
                    except OSError:
                        closed.add(i)
                        continue
                conn.setblocking(False)
                try:
                    if conn.recv(4096) == b"":
                        closed.add(i)
                except BlockingIOError:
                    pass
                except OSError:
                    closed.add(i)
            sent += 1
            time.sleep(0.25)
        assert sorted(closed) == [0, 1, 2, 3]
        assert server.proc.poll() is None  # the server goes on
    finally:
        for conn in sockets:
            conn.close()
        server.stop()


def test_open_hands_the_browser_a_private_file_not_the_token_url(monkeypatch: pytest.MonkeyPatch) -> None:
    import webbrowser

    from study.commands import serve as serve_command
    from study.serve import server as serve_server

    opened: list[str] = []
    seen: dict[str, object] = {}

    def fake_serve(argv: list[str], *, host: str, port: int, token: str, on_listening: object) -> None:
        on_listening(8123)  # type: ignore[operator]
        path = opened[0].removeprefix("file://")
        seen["mode"] = stat.S_IMODE(os.stat(path).st_mode)
        seen["text"] = Path(path).read_text()
        seen["token"] = token

    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    monkeypatch.setattr(serve_server, "serve", fake_serve)
    args = argparse.Namespace(host="127.0.0.1", port=8123, open=True, questions=None, content=None)
    assert serve_command.run(args) == 0
    assert len(opened) == 1 and opened[0].startswith("file://") and str(seen["token"]) not in opened[0]
    assert seen["mode"] == 0o600
    assert f"http://127.0.0.1:8123/?token={seen['token']}" in str(seen["text"])
    assert not os.path.exists(opened[0].removeprefix("file://"))  # removed once the server stopped
