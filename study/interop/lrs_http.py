"""HTTP to one LRS, on httpx, and every rule about what goes out and what is believed coming back.

- **Origin.** Credentials go only to the configured LRS's scheme, host and port. A POST or PUT never follows a
  redirect (a 3xx is a failure); a GET follows at most ``MAX_REDIRECTS`` redirects, each to the same origin.
- **Deadlines.** Every request ends within ``Limits.request``: the whole answer, headers and body, not one socket
  read (a server dripping a byte a second never resets it). A watchdog shuts the socket at the deadline, since
  httpx's timeouts are per phase and per read. All requests of one client (a sync, an analysis) share
  ``Limits.total``; a cancel event (the app quitting) ends the current request at once.
- **Retries.** Network errors, 5xx and 429 are retried with backoff; ``Retry-After`` is honoured up to
  ``Limits.retry_after_cap``, beyond it the client stops with one line. Anything else is final.
- **Size.** An answer larger than ``Limits.max_bytes`` is refused while it is read, not after.
- **Redaction.** Every message is stripped of the credentials in every form and of control characters, since
  an LRS's error text is untrusted and may echo the token or carry terminal escapes.

httpx is imported here only, when the first client is made, so commands that never talk to an LRS (and
``study --help``) never load an HTTP stack.
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable

from study.interop.lrs_address import LrsError, origin, redact, secrets_of

XAPI_VERSION = "1.0.3"
MAX_REDIRECTS = 3
REDIRECTS = (301, 302, 303, 307, 308)
RETRIED = (429, 500, 502, 503, 504)


@dataclass(frozen=True)
class Limits:
    """How long and how much study will wait for and read from an LRS. Tests make these small."""

    # One request, from connecting to the last byte of the answer: a page of 500 statements is well under a
    # megabyte, seconds even on a poor link.
    request: float = 30.0
    total: float = 300.0  # every request of one sync or one analysis, retries and waits included
    connect: float = 10.0
    retry_after_cap: float = 60.0  # the longest Retry-After study waits for; longer means "try later"
    # One statement of ours is about 1.5 KB; a page of 500 statements of any LRS stays far below this, and
    # the parsed page costs about ten times its size in memory.
    max_bytes: int = 16 * 1024 * 1024
    max_pages: int = 2_000  # per analysis
    max_statements: int = 200_000  # per analysis
    backoff: float = 0.5  # the first wait before a retry; each next one doubles


DEFAULT_LIMITS = Limits()


@dataclass
class Response:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    def json(self) -> Any:
        """The body as JSON, or ``ValueError`` (deep nesting included)."""
        try:
            return json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise ValueError("not JSON") from None

    def detail(self) -> str:
        """The LRS's own reason, if it gave one (Ralph: ``{"detail": ...}``); raw, so redact and escape it."""
        try:
            data = self.json()
        except ValueError:
            if self.content_type == "text/html":
                return "a web page, not an xAPI answer (a captive portal or a proxy's login page?)"
            return " ".join(self.body[:400].decode("utf-8", "replace").split())[:200]
        if isinstance(data, dict) and isinstance(data.get("detail"), str):
            return data["detail"][:200]
        return ""


class _Watchdog:
    """Shuts the request's socket when its deadline passes or the client is cancelled, so a blocked read
    returns; httpcore reports the socket it opened through its ``trace`` extension."""

    def __init__(self, deadline: float, cancel: threading.Event) -> None:
        self.deadline, self.cancel = deadline, cancel
        self.stream: Any = None
        self.fired = ""
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="lrs-watchdog", daemon=True)

    def trace(self, name: str, info: dict[str, Any]) -> None:
        if name in ("connection.connect_tcp.complete", "connection.start_tls.complete"):
            self.stream = info.get("return_value")

    def __enter__(self) -> _Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._done.set()
        self._thread.join()

    def _watch(self) -> None:
        while not self._done.wait(min(0.05, max(0.0, self.deadline - time.monotonic()))):
            if self.cancel.is_set():
                self.fired = "cancelled"
            elif time.monotonic() >= self.deadline:
                self.fired = "deadline"
            else:
                continue
            self._shut()
            return

    def _shut(self) -> None:
        import socket

        sock = getattr(self.stream, "get_extra_info", lambda _name: None)("socket")
        try:
            if sock is not None:
                sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return re.sub(r"^\[Errno -?\d+\] ", "", text)


class _Final(Exception):
    """A failure retrying cannot mend; carries the message."""


class Client:
    """HTTP to one LRS. ``request`` returns the answer to a request, after retries, or raises ``LrsError``."""

    def __init__(self, endpoint: Any, *, retries: int = 4, backoff: float | None = None, timeout: float | None = None,
                 sleep: Callable[[float], None] | None = None, limits: Limits | None = None,
                 cancel: threading.Event | None = None, transport: Any = None) -> None:
        self.endpoint = endpoint
        self.retries = retries
        self.limits = limits or DEFAULT_LIMITS
        if timeout is not None:
            self.limits = dataclasses.replace(self.limits, request=timeout)
        self.backoff = self.limits.backoff if backoff is None else backoff
        self.cancel = cancel or threading.Event()
        self.sleep = sleep or self._wait
        self.origin = origin(endpoint.statements_url)
        self.secrets = secrets_of(endpoint.authorization)
        self._transport = transport
        self._http: Any = None
        self._end = time.monotonic() + self.limits.total

    # --- messages -------------------------------------------------------------------------------------

    def clean(self, text: str) -> str:
        """Untrusted text made fit for a message: credentials out, controls escaped, one line."""
        from study.untrusted import shown

        return shown(redact(text, self.secrets), keep_newlines=False)

    def fail(self, text: str) -> LrsError:
        return LrsError(self.clean(text))

    def _wait(self, seconds: float) -> None:
        if self.cancel.wait(seconds):
            raise self.fail("the sync was stopped")

    # --- the connection -----------------------------------------------------------------------------

    def _client(self) -> Any:
        if self._http is None:
            import httpx

            # No keep-alive: every request opens its own connection, so the watchdog always knows the socket
            # a request reads from. A batch is 100 statements, so the extra handshakes cost little.
            self._http = httpx.Client(follow_redirects=False, transport=self._transport,
                                      limits=httpx.Limits(max_connections=1, max_keepalive_connections=0))
        return self._http

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _headers(self, body: bool) -> dict[str, str]:
        # identity: the size bound counts the bytes that are parsed, so no compressed bomb gets past it.
        headers = {"X-Experience-API-Version": XAPI_VERSION, "Accept": "application/json",
                   "Accept-Encoding": "identity"}
        if body:
            headers["Content-Type"] = "application/json"
        if self.endpoint.authorization:
            headers["Authorization"] = self.endpoint.authorization
        return headers

    def same_origin(self, url: str) -> bool:
        try:
            return origin(url) == self.origin
        except LrsError:
            return False

    # --- one request --------------------------------------------------------------------------------

    def request(self, method: str, url: str, payload: Any = None) -> Response:
        """The LRS's answer to ``method url``; retried while the failure may pass. A redirect of a POST or
        PUT, or one to another origin, is an ``LrsError``: nothing goes anywhere but the configured LRS."""
        if not self.same_origin(url):
            raise self.fail(f"refused to send to {url[:200]}: it is not the LRS at {self.endpoint}")
        body = None if payload is None else json.dumps(payload, ensure_ascii=False,
                                                        separators=(",", ":")).encode("utf-8")
        last = ""
        pause: float | None = None  # what the LRS asked to wait before the next try (Retry-After)
        for attempt in range(self.retries + 1):
            if attempt:
                self.sleep(self.backoff * 2 ** (attempt - 1) if pause is None else pause)
            try:
                response = self._follow(method, url, body)
            except _Final as exc:
                raise self.fail(str(exc)) from None
            except OSError as exc:  # a network failure: may pass
                last, pause = _reason(exc), None
                continue
            if response.status not in RETRIED:
                return response
            why = response.detail()
            last = f"HTTP {response.status}" + (f": {why}" if why else "")
            pause = self._retry_after(response) if response.status in (429, 503) else None
        tries = self.retries + 1
        raise self.fail(f"the LRS at {self.endpoint} did not answer after {tries} tries ({last})")

    def _retry_after(self, response: Response) -> float | None:
        wait = _retry_after(response.headers.get("retry-after", ""))
        if wait is not None and (wait > self.limits.retry_after_cap or time.monotonic() + wait > self._end):
            raise self.fail(f"the LRS at {self.endpoint} is busy and asks to wait {wait:.0f} s (HTTP "
                            f"{response.status}, Retry-After); study waits at most "
                            f"{self.limits.retry_after_cap:.0f} s: try again later")
        return wait

    def _follow(self, method: str, url: str, body: bytes | None) -> Response:
        for _hop in range(MAX_REDIRECTS + 1):
            response = self._once(method, url, body)
            if response.status not in REDIRECTS:
                return response
            location = response.headers.get("location", "")
            if method != "GET":
                raise _Final(f"the LRS at {self.endpoint} answered {method} with a redirect (HTTP "
                             f"{response.status} to {location[:200]!r}); study does not follow redirects when "
                             "sending, so nothing was sent there and nothing is counted as stored")
            target = urllib.parse.urljoin(url, location)
            if not location or not self.same_origin(target):
                raise _Final(f"the LRS at {self.endpoint} redirected to another server ({location[:200]!r}); "
                             "not followed, so your credentials stay with the LRS you configured")
            url = target
        raise _Final(f"the LRS at {self.endpoint} redirected more than {MAX_REDIRECTS} times; stopped")

    def _once(self, method: str, url: str, body: bytes | None) -> Response:
        import httpx

        now = time.monotonic()
        if self.cancel.is_set():
            raise _Final("the sync was stopped")
        if now >= self._end:
            raise _Final(f"the LRS at {self.endpoint} took longer than {self.limits.total:g} s in all; stopped "
                         "(what was acknowledged stays so; the rest goes next time)")
        deadline = min(now + self.limits.request, self._end)
        left = deadline - now
        timeout = httpx.Timeout(left, connect=min(self.limits.connect, left))
        watchdog = _Watchdog(deadline, self.cancel)
        try:
            with watchdog:
                with self._client().stream(method, url, content=body, headers=self._headers(body is not None),
                                           timeout=timeout, extensions={"trace": watchdog.trace}) as resp:
                    data = self._read(resp, deadline)
                    return Response(resp.status_code, data, {k.lower(): v for k, v in resp.headers.items()})
        except httpx.TimeoutException:
            raise OSError(f"no complete answer within {left:.3g} s") from None
        except httpx.UnsupportedProtocol as exc:
            raise _Final(f"cannot send to {url[:200]!r}: {exc}") from None
        except (httpx.LocalProtocolError, httpx.InvalidURL) as exc:
            raise _Final(f"cannot send to the LRS at {self.endpoint}: {exc}") from None
        except (httpx.TransportError, httpx.DecodingError) as exc:
            if watchdog.fired == "cancelled":
                raise _Final("the sync was stopped") from None
            if watchdog.fired == "deadline":
                raise OSError(f"no complete answer within {left:.3g} s") from None
            if isinstance(exc, httpx.RemoteProtocolError):
                raise OSError(f"not a valid HTTP answer: {exc}") from None
            raise OSError(_reason(exc)) from None

    def _read(self, resp: Any, deadline: float) -> bytes:
        size = resp.headers.get("content-length", "")
        if size.isdigit() and len(size) < 20 and int(size) > self.limits.max_bytes:
            raise _Final(self._too_big())
        if resp.is_stream_consumed:  # a transport that read the body itself (httpx.MockTransport in tests)
            if len(resp.content) > self.limits.max_bytes:
                raise _Final(self._too_big())
            return resp.content
        chunks, total = [], 0
        for chunk in resp.iter_raw():
            total += len(chunk)
            if total > self.limits.max_bytes:
                raise _Final(self._too_big())
            if time.monotonic() > deadline:
                raise OSError(f"no complete answer within {self.limits.request:.3g} s")
            chunks.append(chunk)
        return b"".join(chunks)

    def _too_big(self) -> str:
        cap = self.limits.max_bytes
        size = f"{cap // (1024 * 1024)} MB" if cap >= 1024 * 1024 else f"{cap // 1024} KB"
        return (f"the LRS at {self.endpoint} sent more than {size} in one answer; that is not a statements page "
                "(ask for smaller pages)")


def _retry_after(text: str) -> float | None:
    """Seconds from a ``Retry-After`` value: a number of seconds or an HTTP date (RFC 9110, 10.2.3)."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit():
        return float(text[:12])
    import email.utils

    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    import datetime as dt

    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return max(0.0, (when - dt.datetime.now(dt.timezone.utc)).total_seconds())
