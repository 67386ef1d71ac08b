"""The web server: textual-serve's protocol and downloads, our page, the token gate and bounded shutdown.

textual-serve runs one app process per browser tab. We keep its message loop, its app-process protocol
(``AppService``) and its download manager, and replace what does not fit a private, offline study tool: the
page (its stock one loads a web font from a CDN), the start-up banner and request log, and the shutdown (its
own leaves an app process running when the app does not answer "quit")."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Any
from collections.abc import Sequence

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from study.serve.auth import page_headers, token_gate
from study.serve.driver import PATH as DRIVER_PATH

HERE = Path(__file__).resolve().parent
# textual.js, xterm.css and the Roboto Mono files ship inside the textual-serve wheel; the page uses them from
# there, so nothing is fetched from another host and nothing is copied into our package.
TEXTUAL_SERVE_STATIC = Path(sys.modules[Server.__module__].__file__ or "").resolve().parent / "static"
QUIT_GRACE_S = 3.0  # an app asked to quit has this long before it is terminated, then as long again before kill
MAX_SESSIONS = 16  # each tab is an app process; a runaway reload loop must not fork the machine to death
# A connection must send a whole request this soon after it opens (aiohttp closes it otherwise), so silent or
# byte-a-minute clients cannot pile up before any token is checked; it is also the idle keep-alive limit.
HEADER_TIMEOUT_S = 10.0
MAX_WIDTH, MAX_HEIGHT = 500, 300  # a 4000x4000 terminal took one app from 83 MB to 1.4 GB


def clamp_size(width: Any, height: Any) -> tuple[int, int]:
    """A terminal size from the page, within what any screen shows: the first size and every resize."""
    return (min(max(to_int(str(width), 80), 20), MAX_WIDTH), min(max(to_int(str(height), 24), 5), MAX_HEIGHT))

log = logging.getLogger("study.serve")


class StudyAppService(AppService):
    """One app process per tab, started without a shell and in its own session.

    An argv list needs no quoting of the store's path; a session of its own means a ctrl+c in the terminal
    reaches only the server, which then ends every app in order instead of racing them."""

    def __init__(self, argv: Sequence[str], **kwargs: Any) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment["TEXTUAL_DRIVER"] = DRIVER_PATH  # textual's driver, plus: exit when the server is gone
        return environment

    async def set_terminal_size(self, width: Any, height: Any) -> None:
        await super().set_terminal_size(*clamp_size(width, height))

    @property
    def process(self) -> asyncio.subprocess.Process | None:
        return self._process

    async def end(self) -> None:
        """Ask the app to quit, then terminate, then kill: each step bounded, so shutdown always ends."""
        try:
            await asyncio.wait_for(self.stop(), QUIT_GRACE_S)
        except (asyncio.TimeoutError, ConnectionError, RuntimeError, AssertionError):
            pass
        process = self._process
        if process is None or process.returncode is not None:
            return
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                process.send_signal(sig)
                await asyncio.wait_for(process.wait(), QUIT_GRACE_S)
                return
            except ProcessLookupError:
                return
            except asyncio.TimeoutError:
                continue


class StudyServer(Server):
    def __init__(self, app_argv: Sequence[str], *, host: str, port: int, token: str) -> None:
        super().__init__(" ".join(app_argv), host=host, port=port, title="study",
                         statics_path=TEXTUAL_SERVE_STATIC, templates_path=HERE / "templates")
        self.app_argv = list(app_argv)
        self.token = token
        self.bound_port = port
        self.services: set[StudyAppService] = set()

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[token_gate(self.token, lambda: self.bound_port)])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path), autoescape=True)
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            web.static("/static", self.statics_path, name="static"),
            web.static("/study-static", HERE / "static", name="study-static"),
        ])
        app.on_shutdown.append(self.on_shutdown)
        return app

    @aiohttp_jinja2.template("index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        # The socket's URL comes from the Host the browser used, so a tablet that reached us by the laptop's
        # address talks back to that address, not to the one we bound.
        scheme = "wss" if request.scheme == "https" else "ws"
        return {
            "font_size": min(max(to_int(request.query.get("fontsize", "16"), 16), 8), 40),
            "app_websocket_url": f"{scheme}://{request.host}/ws",
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if len(self.services) >= MAX_SESSIONS:
            raise web.HTTPServiceUnavailable(text=f"503: {MAX_SESSIONS} tabs are open already; close one\n")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 20)
        width, height = clamp_size(request.query.get("width", "80"), request.query.get("height", "24"))
        await websocket.prepare(request)
        service = StudyAppService(self.app_argv, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                  close=websocket.close, download_manager=self.download_manager)
        self.services.add(service)
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            pass
        except Exception as error:  # a malformed message from the page ends that tab, not the server
            log.warning("study serve: a session ended on %s", type(error).__name__)
        finally:
            await service.end()
            self.services.discard(service)
            await websocket.close()
        return websocket

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's download, with the page's headers: it sends them itself, before our gate could."""
        key = request.match_info["key"]
        try:
            meta = await self.download_manager.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound(text="404: no such download\n") from None
        response = web.StreamResponse()
        response.content_type = meta.mime_type
        if meta.encoding:
            response.charset = meta.encoding
        disposition = "inline" if meta.open_method == "browser" else "attachment"
        # Quoted and stripped of quotes and line breaks: the name comes from the app, not from the request.
        name = "".join(ch for ch in meta.file_name if ch not in '"\\\r\n')
        response.headers["Content-Disposition"] = f'{disposition}; filename="{name}"'
        page_headers(response.headers)
        await response.prepare(request)
        async for chunk in self.download_manager.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    async def on_shutdown(self, app: web.Application) -> None:
        await asyncio.gather(*(service.end() for service in list(self.services)), return_exceptions=True)

    async def run(self, on_listening: Any) -> None:
        """Serve until SIGINT, SIGTERM or SIGHUP; ``on_listening(port)`` runs once the socket is bound.

        SIGHUP is the terminal window closing or an ssh session dropping: it ends the apps as ctrl+c does."""
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(sig, stop.set)
        runner = web.AppRunner(await self._make_app(), access_log=None, handle_signals=False,
                               shutdown_timeout=2 * QUIT_GRACE_S, keepalive_timeout=HEADER_TIMEOUT_S)
        await runner.setup()
        try:
            site = web.TCPSite(runner, self.host, self.port)
            await site.start()
            sockets = getattr(site._server, "sockets", None) or ()
            if sockets:
                self.bound_port = sockets[0].getsockname()[1]
            on_listening(self.bound_port)
            await stop.wait()
        finally:
            await runner.cleanup()


def serve(app_argv: Sequence[str], *, host: str, port: int, token: str, on_listening: Any) -> None:
    # textual-serve logs through "textual-serve"; a learner's terminal shows warnings only, no request log.
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    server = StudyServer(app_argv, host=host, port=port, token=token)
    asyncio.run(server.run(on_listening))


def app_command(db: str | None, watch: bool | None, questions: Sequence[str] | None,
                content: str | None) -> list[str]:
    """The argv each tab runs: this interpreter (so the same venv), the same store and bank as `study`."""
    argv = [sys.executable, "-m", "study"]
    if db:
        argv += ["--db", os.path.abspath(db)]
    if watch is False:
        argv.append("--no-watch")
    argv.append("tui")
    for q in questions or ():
        argv += ["--questions", os.path.abspath(q)]
    if content:
        argv += ["--content", os.path.abspath(content)]
    return argv
