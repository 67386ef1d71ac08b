"""A learner's statements to a learning record store, and a class's statements back (xAPI 1.0.3).

Only the standard statements resource is used: ``POST /statements`` with a JSON array, ``PUT
/statements?statementId=`` for one statement, ``GET /statements`` with ``activity``, ``related_activities``,
``since`` and ``limit``, following the relative ``more`` link. Any conformant LRS works; the tests run a real
one (Ralph) on the loopback address.

What makes a sync safe to interrupt: a batch is acknowledged in the store only after the LRS answered it
with success, in its own transaction. A kill or a dropped network between the LRS storing a batch and the
acknowledgement being written means that batch is sent again next time; an LRS stores nothing twice for the
same statement id (xAPI 1.0.3, Data 2.4.1), so the class's record is still exact.

Credentials never leave this module except in the ``Authorization`` header: not in messages, not in
``repr``, not in the store.
"""

from __future__ import annotations

import base64
import json
import os
import stat
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

XAPI_VERSION = "1.0.3"
TOKEN_ENV = "STUDY_LRS_TOKEN"
USER_ENV, PASSWORD_ENV = "STUDY_LRS_USER", "STUDY_LRS_PASSWORD"
CREDENTIALS_FILE = "lrs-credentials.json"
DEFAULT_BATCH = 100
PAGE_LIMIT = 500
# One statement of ours is about 1.5 KB; a page of 500 stays far below this. A bigger answer is not an LRS.
MAX_RESPONSE_BYTES = 64 * 1024 * 1024


class LrsError(Exception):
    """The sync or the read could not complete; ``str(exc)`` is one line, free of credentials."""


@dataclass(frozen=True)
class Endpoint:
    """Where statements go: the LRS's statements resource, and how to authenticate (never shown)."""

    statements_url: str
    authorization: str | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        """What acknowledgements are recorded against: the resource, without credentials or query."""
        return self.statements_url

    def __str__(self) -> str:
        return self.statements_url


def statements_url(url: str) -> str:
    """``http://host:8100/xAPI`` or ``.../xAPI/statements`` -> the statements resource, checked."""
    text = url.strip()
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LrsError(f"the LRS address must be an http:// or https:// URL, not {url!r}")
    if parts.username or parts.password:
        raise LrsError("put the LRS credentials in the environment or the credentials file, not in the URL "
                       f"(see `study sync --help`)")
    path = parts.path.rstrip("/")
    if not path.endswith("/statements"):
        path += "/statements"
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def read_credentials(config_dir: Path, env: Mapping[str, str] = os.environ) -> str | None:
    """The ``Authorization`` header value: a bearer token or basic credentials, from the environment first,
    then ``<config dir>/lrs-credentials.json`` (``{"token": ...}`` or ``{"username": ..., "password": ...}``),
    which must be readable by its owner only, as ssh insists for its keys."""
    token = env.get(TOKEN_ENV, "").strip()
    if token:
        return f"Bearer {token}"
    user = env.get(USER_ENV, "")
    if user:
        return _basic(user, env.get(PASSWORD_ENV, ""))
    path = config_dir / CREDENTIALS_FILE
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LrsError(f"cannot read {path}: {exc.strerror or exc}") from None
    if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise LrsError(f"{path} can be read by others: run `chmod 600 {path}` (it holds your LRS credentials)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        raise LrsError(f"{path} is not a JSON object with \"token\" or \"username\" and \"password\"") from None
    if isinstance(data, dict) and isinstance(data.get("token"), str) and data["token"].strip():
        return f"Bearer {data['token'].strip()}"
    if isinstance(data, dict) and isinstance(data.get("username"), str) and isinstance(data.get("password"), str):
        return _basic(data["username"], data["password"])
    raise LrsError(f"{path} is not a JSON object with \"token\" or \"username\" and \"password\"")


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


@dataclass
class Response:
    status: int
    body: bytes

    def detail(self) -> str:
        """The LRS's own one-line reason, if it gave one (Ralph: ``{"detail": ...}``)."""
        try:
            data = json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return " ".join(self.body.decode("utf-8", "replace").split())[:200]
        if isinstance(data, dict) and isinstance(data.get("detail"), str):
            return data["detail"][:200]
        return ""


class Client:
    """HTTP to one LRS, with retries and backoff for what may pass (network errors, 5xx, 429)."""

    def __init__(self, endpoint: Endpoint, *, retries: int = 4, backoff: float = 0.5, timeout: float = 30.0,
                 sleep: Callable[[float], None] | None = None) -> None:
        self.endpoint = endpoint
        self.retries = retries
        self.backoff = backoff
        self.timeout = timeout
        self.sleep = sleep or time.sleep

    def _headers(self, body: bool) -> dict[str, str]:
        headers = {"X-Experience-API-Version": XAPI_VERSION, "Accept": "application/json"}
        if body:
            headers["Content-Type"] = "application/json"
        if self.endpoint.authorization:
            headers["Authorization"] = self.endpoint.authorization
        return headers

    def request(self, method: str, url: str, payload: Any = None) -> Response:
        body = None if payload is None else json.dumps(payload, ensure_ascii=False,
                                                        separators=(",", ":")).encode("utf-8")
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                self.sleep(self.backoff * 2 ** (attempt - 1))
            req = urllib.request.Request(url, data=body, method=method, headers=self._headers(body is not None))
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 (http/https only)
                    return Response(resp.status, _read_bounded(resp))
            except urllib.error.HTTPError as exc:
                response = Response(exc.code, _read_bounded(exc))
                if exc.code >= 500 or exc.code == 429:
                    last = f"HTTP {exc.code}" + (f": {response.detail()}" if response.detail() else "")
                    continue
                return response
            except (urllib.error.URLError, OSError, ValueError) as exc:
                reason = getattr(exc, "reason", exc)
                last = f"{getattr(reason, 'strerror', None) or reason}"
                continue
        tries = self.retries + 1
        raise LrsError(f"the LRS at {self.endpoint} did not answer after {tries} tries ({last})")


def _read_bounded(resp: Any) -> bytes:
    data = resp.read(MAX_RESPONSE_BYTES + 1)
    if len(data) > MAX_RESPONSE_BYTES:
        raise LrsError("the LRS sent more than 64 MB in one answer; that is not a statements page")
    return data


# --- sending ---------------------------------------------------------------------------------------------


@dataclass
class Conflict:
    statement_id: str
    detail: str


@dataclass
class SyncOutcome:
    pending: int = 0  # not acknowledged before this run
    sent: int = 0  # acknowledged by this run
    already: int = 0  # acknowledged by an earlier run, not sent
    conflicts: list[Conflict] = field(default_factory=list)


def pending(statements: Sequence[Mapping[str, Any]], acked: set[str]) -> list[Mapping[str, Any]]:
    return [s for s in statements if s.get("id") not in acked]


def batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def send(client: Client, store: Any, statements: Sequence[Mapping[str, Any]], *, batch_size: int = DEFAULT_BATCH,
         progress: Callable[[int], None] | None = None) -> SyncOutcome:
    """Send what the LRS has not acknowledged yet, a batch at a time, acknowledging each batch once stored.

    A batch answered 409 holds a statement the LRS already has in another form: its statements are then put
    one by one, so the identical ones are acknowledged and each differing one is reported, not hidden.
    Raises ``LrsError`` when the LRS refuses or stays unreachable; what was acknowledged before stays so.
    """
    key = client.endpoint.key
    acked = store.lrs_acked(key)
    todo = pending(statements, acked)
    outcome = SyncOutcome(pending=len(todo), already=len(statements) - len(todo))
    for batch in batches(todo, batch_size):
        response = client.request("POST", client.endpoint.statements_url, list(batch))
        if response.status in (200, 204):
            store.record_lrs_acks(key, [s["id"] for s in batch])
            outcome.sent += len(batch)
        elif response.status == 409:
            _one_by_one(client, store, batch, outcome)
        else:
            raise LrsError(_refusal(client.endpoint, response))
        if progress is not None:
            progress(len(batch))
    return outcome


def _one_by_one(client: Client, store: Any, batch: Sequence[Mapping[str, Any]], outcome: SyncOutcome) -> None:
    key = client.endpoint.key
    for st in batch:
        url = f"{client.endpoint.statements_url}?{urllib.parse.urlencode({'statementId': st['id']})}"
        response = client.request("PUT", url, st)
        if response.status in (200, 204):
            store.record_lrs_acks(key, [st["id"]])
            outcome.sent += 1
        elif response.status == 409:
            outcome.conflicts.append(Conflict(str(st["id"]), response.detail() or "a different statement exists"))
        else:
            raise LrsError(_refusal(client.endpoint, response))


def _refusal(endpoint: Endpoint, response: Response) -> str:
    why = response.detail()
    hint = ""
    if response.status in (401, 403):
        hint = f" (check {TOKEN_ENV}, or {USER_ENV} and {PASSWORD_ENV}, or the credentials file)"
    return f"the LRS at {endpoint} refused the statements: HTTP {response.status}" + (f": {why}" if why else "") + hint


# --- reading ---------------------------------------------------------------------------------------------


def fetch_pages(client: Client, activity: str, since: str | None = None,
                limit: int = PAGE_LIMIT) -> Iterator[dict[str, Any]]:
    """Every StatementResult page about ``activity`` (and, through ``related_activities``, everything grouped
    under it), one page in memory at a time, following ``more`` until it is empty."""
    query = {"activity": activity, "related_activities": "true", "limit": str(limit)}
    if since:
        query["since"] = since
    url: str | None = f"{client.endpoint.statements_url}?{urllib.parse.urlencode(query)}"
    seen: set[str] = set()
    while url:
        if url in seen:
            raise LrsError(f"the LRS at {client.endpoint} sent the same \"more\" link twice; stopped reading")
        seen.add(url)
        response = client.request("GET", url)
        if response.status != 200:
            raise LrsError(_refusal(client.endpoint, response).replace("refused the statements",
                                                                      "refused to list statements"))
        try:
            page = json.loads(response.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise LrsError(f"the LRS at {client.endpoint} answered with something that is not JSON") from None
        if not isinstance(page, dict) or not isinstance(page.get("statements"), list):
            raise LrsError(f"the LRS at {client.endpoint} answered without a \"statements\" list")
        yield page
        more = page.get("more")
        url = urllib.parse.urljoin(client.endpoint.statements_url, more) if isinstance(more, str) and more else None


def iter_statements(pages: Iterable[Mapping[str, Any]]) -> Iterator[Any]:
    for page in pages:
        yield from page["statements"]
