"""A hostile LRS on the loopback address: every way an answer can lie, stall or break HTTP, one mode each.

Raw sockets, not http.server, because half the modes are answers no well-behaved server library will send
(a malformed status line, a header line of 100 KB, a body that stops half-way, headers dripping a byte at a
time). Bounded as the project's network tests must be: it serves at most ``max_requests`` connections, lives
at most ``lifetime`` seconds, and stops by itself; every request it saw is recorded for the test to inspect.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field

TOKEN = "tok-s3cret-7f1c9e"  # what the tests put in STUDY_LRS_TOKEN; no output may ever hold it
ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x9b31m"


@dataclass
class Seen:
    method: str
    path: str
    headers: dict[str, str]


@dataclass
class Server:
    """One listening socket on ``host``; ``mode`` says how every request is answered."""

    mode: str = "ok"
    host: str = "127.0.0.1"
    max_requests: int = 60
    lifetime: float = 30.0
    other: str = ""  # base URL of the "other host" the redirect and `more` modes point at
    other_port: int = 0  # a second server on this host, another port: another origin too
    seen: list[Seen] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._sock = socket.socket()
        self._sock.bind((self.host, 0))
        self._sock.listen(16)
        self._sock.settimeout(0.05)
        self.port = self._sock.getsockname()[1]
        self._stop = threading.Event()
        self._until = time.monotonic() + self.lifetime
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/xAPI"

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- serving ------------------------------------------------------------------------------------

    def _alive(self) -> bool:
        return not self._stop.is_set() and time.monotonic() < self._until

    def _serve(self) -> None:
        served = 0
        while self._alive() and served < self.max_requests:
            try:
                conn, _addr = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            served += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        conn.settimeout(2.0)
        try:
            request = self._read_request(conn)
            if request is not None:
                self.seen.append(request[0])
                self._answer(conn, request[0], request[1])
        except OSError:
            pass
        finally:
            conn.close()

    def _read_request(self, conn: socket.socket) -> tuple[Seen, bytes] | None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk or len(data) > 1 << 20:
                return None
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path, _version = (lines[0].split(" ") + ["", ""])[:3]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0") or 0)
        while len(body) < length:
            chunk = conn.recv(65536)
            if not chunk:
                break
            body += chunk
        return Seen(method, path, headers), body

    # --- answers ------------------------------------------------------------------------------------

    def _send(self, conn: socket.socket, status: str, body: bytes = b"", content_type: str = "application/json",
              extra: str = "") -> None:
        head = (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
                f"Connection: close\r\n{extra}\r\n")
        conn.sendall(head.encode("latin-1") + body)

    def _hold(self, conn: socket.socket, drip: bytes = b"", every: float = 0.05) -> None:
        """Stall until the client gives up or the server's life ends, sending ``drip`` now and then."""
        while self._alive():
            time.sleep(every)
            if drip:
                conn.sendall(drip)

    def _answer(self, conn: socket.socket, seen: Seen, body: bytes) -> None:
        mode, other = self.mode, self.other
        page = {"statements": [], "more": ""}
        n = len(self.seen)
        if mode == "ok":
            ids = [s["id"] for s in json.loads(body)] if seen.method == "POST" else None
            if seen.method == "POST":
                self._send(conn, "200 OK", json.dumps(ids).encode())
            elif seen.method == "PUT":
                self._send(conn, "204 No Content")
            else:
                self._send(conn, "200 OK", json.dumps(page).encode())
        elif mode in ("302-other-host", "307-other-host"):
            code = mode[:3]
            self._send(conn, f"{code} Found", extra=f"Location: {other}/xAPI/statements\r\n")
        elif mode == "302-other-port":
            self._send(conn, "302 Found", extra=f"Location: http://{self.host}:{self.other_port}/xAPI/statements\r\n")
        elif mode == "302-https":
            self._send(conn, "302 Found", extra=f"Location: https://{self.host}:{self.port}/xAPI/statements\r\n")
        elif mode == "redirect-loop":
            self._send(conn, "302 Found", extra=f"Location: /xAPI/statements?loop={n}\r\n")
        elif mode == "redirect-ftp":
            self._send(conn, "302 Found", extra=f"Location: ftp://{self.host}:{self.port}/statements\r\n")
        elif mode == "captive-portal":
            self._send(conn, "200 OK", b"<html><body>Please log in to the hotel Wi-Fi</body></html>", "text/html")
        elif mode == "wrong-ids":
            self._send(conn, "200 OK", json.dumps(["00000000-0000-0000-0000-000000000000"]).encode())
        elif mode == "put-200":  # POST 204 (all there already, says it), then PUT answered 200 instead of 204
            self._send(conn, "204 No Content" if seen.method == "POST" else "200 OK")
        elif mode == "drip-headers":
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            self._hold(conn, b"X", 0.05)
        elif mode == "drip-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[")
            self._hold(conn, b" ", 0.05)
        elif mode == "silence":
            self._hold(conn)
        elif mode == "endless-more":
            self._send(conn, "200 OK", json.dumps({"statements": [], "more": f"/xAPI/statements?page={n}"}).encode())
        elif mode == "more-absolute":
            self._send(conn, "200 OK", json.dumps({"statements": [], "more": f"{other}/xAPI/statements?p=2"}).encode())
        elif mode == "more-protocol-relative":
            more = f"//{other.split('://', 1)[1]}/xAPI/statements?p=2"
            self._send(conn, "200 OK", json.dumps({"statements": [], "more": more}).encode())
        elif mode == "more-file":
            self._send(conn, "200 OK", json.dumps({"statements": [], "more": "file:///etc/passwd"}).encode())
        elif mode == "more-data":
            more = "data:application/json,%7B%22statements%22%3A%5B%5D%7D"
            self._send(conn, "200 OK", json.dumps({"statements": [], "more": more}).encode())
        elif mode == "huge-body":  # no Content-Length: the bound must hold while reading, not after
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")
            conn.sendall(b'{"statements": [' + b'{"id": "x"},' * 20)
            chunk = b'{"id": "x"},' * 8000
            while self._alive():
                conn.sendall(chunk)
        elif mode == "deep-json":
            self._send(conn, "200 OK", b"[" * 100_000 + b"]" * 100_000)
        elif mode == "bad-status-line":
            conn.sendall(b"HTTP/1.1 OKAY-ISH\r\n\r\n")
        elif mode == "not-http":
            conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
        elif mode == "many-headers":
            extra = "".join(f"X-Filler-{i}: {'v' * 200}\r\n" for i in range(150))
            self._send(conn, "200 OK", b"[]", extra=extra)
        elif mode == "long-line":
            self._send(conn, "200 OK", b"[]", extra=f"X-Long: {'v' * 100_000}\r\n")
        elif mode == "incomplete-body":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[\"a\"")
        elif mode == "token-echo":
            auth = seen.headers.get("authorization", "")
            detail = f"invalid credentials {auth} (token {auth.partition(' ')[2]})"
            self._send(conn, "401 Unauthorized", json.dumps({"detail": detail}).encode())
        elif mode == "escapes-in-error":
            self._send(conn, "400 Bad Request", json.dumps({"detail": f"bad {ESCAPES} statement"}).encode())
        elif mode == "escapes-in-html":
            self._send(conn, "500 Internal Server Error", f"<p>{ESCAPES}</p>".encode(), "text/plain")
        elif mode == "retry-after-3600":
            self._send(conn, "429 Too Many Requests", b'{"detail": "slow down"}', extra="Retry-After: 3600\r\n")
        else:
            raise ValueError(f"unknown mode {mode}")


def other_host_server() -> Server:
    """A well-behaved server on another loopback address (127.0.0.2, as Linux routes all of 127/8); where
    that address is not configured (macOS), on another port of 127.0.0.1, which is another origin too."""
    try:
        return Server("ok", host="127.0.0.2")
    except OSError:
        return Server("ok")


# Every mode; a sync and an analysis must each end in one error line for every one of them.
MODES = [
    "302-other-host", "307-other-host", "302-other-port", "302-https", "redirect-loop",
    "redirect-ftp", "captive-portal", "wrong-ids", "put-200", "drip-headers", "drip-body", "silence",
    "endless-more", "more-absolute", "more-protocol-relative", "more-file", "more-data", "huge-body",
    "deep-json", "bad-status-line", "not-http", "many-headers", "long-line", "incomplete-body", "token-echo",
    "escapes-in-error", "escapes-in-html", "retry-after-3600",
]
