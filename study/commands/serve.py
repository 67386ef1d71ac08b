"""`study serve`: the app in a browser tab (textual-serve), behind a random token, loopback by default."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

from study.commands import add_bank_options
from study.cli import command_help


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0-65535 (0: any free port); got {text!r}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve", help=command_help("serve"),
        description="Serve the app to a browser tab: each tab runs the same app on the same store as `study`. "
        "Prints a URL with a random token; without it every request is refused. ctrl+c stops the server "
        "and every app it started.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; another address lets "
                   "devices on your network in, with the token)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--open", action="store_true", help="open the URL in this machine's web browser")
    add_bank_options(p)
    p.set_defaults(func=run)


def is_loopback(host: str) -> bool:
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_for(host: str, port: int, token: str) -> str:
    import socket

    shown = host.strip("[]")
    if shown in ("0.0.0.0", "::", ""):
        shown = socket.gethostname()  # the wildcard is not an address a browser can open
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/?token={token}"


def launcher_file(url: str) -> str:
    """A page only this user can read that sends the browser on to ``url``, as Jupyter's --open does.

    The browser's command line (``ps`` shows it to every local user) then holds this file's path, not the token."""
    import html
    import json
    import tempfile

    folder = tempfile.mkdtemp(prefix="study-serve-")  # 0700
    path = os.path.join(folder, "open.html")
    page = ('<!DOCTYPE html><meta charset="utf-8"><meta name="referrer" content="no-referrer">'
            f'<meta http-equiv="refresh" content="0;url={html.escape(url)}">'
            f"<script>window.location.replace({json.dumps(url)});</script>"
            f'<p><a href="{html.escape(url)}">Open study</a></p>\n')
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(page)
    return path


def run(args: argparse.Namespace) -> int:
    try:
        from study.serve.auth import new_token
        from study.serve.server import app_command, serve
    except ModuleNotFoundError as exc:  # an install without the dependency (a stale venv)
        print(f"study: error: serve needs {exc.name} (pip install textual-serve)", file=sys.stderr)
        return 1

    host = args.host
    if not is_loopback(host):
        print(f"study: warning: listening on {host}: anyone on that network who gets the URL can use your "
              "progress store, and traffic is not encrypted (no TLS); the token is still required.",
              file=sys.stderr)
    token = new_token()
    argv = app_command(getattr(args, "db", None), getattr(args, "watch", None), args.questions, args.content)

    launchers: list[str] = []

    def on_listening(port: int) -> None:
        url = url_for(host, port, token)
        print(url, flush=True)
        if args.open:
            import webbrowser

            launchers.append(launcher_file(url))
            webbrowser.open(Path(launchers[-1]).as_uri())

    try:
        serve(argv, host=host, port=args.port, token=token, on_listening=on_listening)
    except OSError as exc:
        import errno

        reason = "the port is in use" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        print(f"study: error: cannot listen on {host}:{args.port}: {reason}", file=sys.stderr)
        return 1
    finally:
        for path in launchers:
            shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    return 0
