"""The browser server's gate and bounds, in process (aiohttp's test server on 127.0.0.1, no browser).

Origins, the tab cap's boundary, the cookie's port, resize clamping and the download's headers: each is a
rule of ours over textual-serve, checked here against the hostile input the issue found (issue 33)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from study.serve.auth import cookie_name
from study.serve.server import MAX_SESSIONS, StudyAppService, StudyServer, clamp_size

TOKEN = "t" * 43


async def started(argv: list[str]) -> tuple[StudyServer, TestServer]:
    study = StudyServer(argv, host="127.0.0.1", port=0, token=TOKEN)
    test_server = TestServer(await study._make_app(), host="127.0.0.1", port=0)
    await test_server.start_server()
    study.bound_port = test_server.port or 0
    return study, test_server


@pytest.fixture
async def marker_server(tmp_path: Path) -> AsyncIterator[tuple[StudyServer, TestServer, Path]]:
    """A server whose "app" only leaves a file behind: a file there means an app process was started."""
    marker = tmp_path / "started"
    study, test_server = await started([sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    try:
        yield study, test_server, marker
    finally:
        await test_server.close()


def ws_url(test_server: TestServer, query: str = f"?token={TOKEN}") -> str:
    return f"ws://127.0.0.1:{test_server.port}/ws{query}"


async def handshake(url: str, headers: dict[str, str] | None = None) -> int:
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers or {}):
                return 101
        except aiohttp.WSServerHandshakeError as error:
            return error.status


async def test_a_page_of_another_origin_is_refused_even_with_the_cookie(marker_server: Any) -> None:
    study, test_server, marker = marker_server
    port = test_server.port
    cookie = {"Cookie": f"{cookie_name(port)}={TOKEN}"}
    for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}",
                   f"http://localhost:{port}", "null", f"http://127.0.0.1:{port}.evil.example"):
        assert await handshake(ws_url(test_server, ""), {**cookie, "Origin": origin}) == 403, origin
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/?token={TOKEN}", headers={"Origin": origin}) as page:
                assert page.status == 403, origin
                assert "Set-Cookie" not in page.headers
    assert not marker.exists()  # no app process was started for any of them
    # The learner's own page (Origin as opened: 127.0.0.1 and this port) still gets its socket.
    assert await handshake(ws_url(test_server, ""), {**cookie, "Origin": f"http://127.0.0.1:{port}"}) == 101


class OpenTab:
    """A tab already open, as far as the cap counts: it ends when the server stops."""

    async def end(self) -> None:
        pass


async def test_with_the_cap_reached_one_more_tab_is_refused_and_starts_nothing(marker_server: Any) -> None:
    study, test_server, marker = marker_server
    study.services.update(OpenTab() for _ in range(MAX_SESSIONS))
    assert await handshake(ws_url(test_server)) == 503
    assert not marker.exists()
    study.services.pop()  # one tab closes: the next one opens
    assert await handshake(ws_url(test_server)) == 101


async def test_two_servers_on_two_ports_set_two_cookies() -> None:
    names = []
    for _ in range(2):
        study, test_server = await started([sys.executable, "-c", "pass"])
        try:
            async with aiohttp.ClientSession() as session:
                async with session.get(f"http://127.0.0.1:{test_server.port}/?token={TOKEN}") as page:
                    assert page.status == 200
                    names.append((next(iter(page.cookies)), test_server.port))
        finally:
            await test_server.close()
    (first, first_port), (second, second_port) = names
    assert first_port != second_port
    assert first == f"study-serve-{first_port}" and second == f"study-serve-{second_port}"


async def test_every_resize_is_clamped_as_the_first_size_is(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[dict[str, Any]] = []
    service = StudyAppService(["true"], write_bytes=None, write_str=None, close=None, download_manager=None)

    async def send_meta(data: dict[str, Any]) -> bool:
        sent.append(data)
        return True

    monkeypatch.setattr(service, "send_meta", send_meta)
    for width, height in ((4000, 4000), (-5, 0), ("9" * 400, None), (120, 40)):
        await service.set_terminal_size(width, height)
    assert [(m["width"], m["height"]) for m in sent] == [(500, 300), (20, 5), (500, 24), (120, 40)]
    assert clamp_size(4000, 4000) == (500, 300)


class OneDownload:
    """textual-serve's download manager, reduced to one file an app offered (a backup of the store)."""

    async def get_download_metadata(self, key: str) -> Any:
        if key != "k":
            raise KeyError(key)
        from textual_serve.download_manager import Download

        return Download(app_service=None,  # type: ignore[arg-type]
                        delivery_key="k", file_name='backup "1".db', open_method="download",
                        mime_type="application/octet-stream")

    async def download(self, key: str) -> AsyncIterator[bytes]:
        yield b"SQLite format 3\x00"


async def test_the_backup_download_carries_the_page_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    study, test_server = await started([sys.executable, "-c", "pass"])
    monkeypatch.setattr(study, "download_manager", OneDownload())
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{test_server.port}/download/k?token={TOKEN}") as response:
                body = await response.read()
                headers = response.headers
            async with session.get(f"http://127.0.0.1:{test_server.port}/download/nope?token={TOKEN}") as missing:
                assert missing.status == 404
    finally:
        await test_server.close()
    assert body == b"SQLite format 3\x00"
    assert headers["Cache-Control"] == "no-store"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert headers["Content-Disposition"] == 'attachment; filename="backup 1.db"'
