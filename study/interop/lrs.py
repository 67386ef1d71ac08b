"""A learner's statements to a learning record store, and a class's statements back (xAPI 1.0.3).

Only the standard statements resource is used: ``POST /statements`` with a JSON array, ``PUT
/statements?statementId=`` for one statement, ``GET /statements`` with ``activity``, ``related_activities``,
``since`` and ``limit``, following the relative ``more`` link. Any conformant LRS works; the tests run a real
one (Ralph) on the loopback address.

What makes a sync safe to interrupt: a batch is acknowledged in the store only after the LRS answered it
with success, in its own transaction. A kill or a dropped network between the LRS storing a batch and the
acknowledgement being written means that batch is sent again next time; an LRS stores nothing twice for the
same statement id (xAPI 1.0.3, Data 2.4.1), so the class's record is still exact.

What counts as stored is what xAPI 1.0.3 says an LRS answers when it stored something (Communication 2.1):
``200`` with the JSON array of the ids of the statements it stored, for a POST; ``204`` for a PUT. A captive
portal's ``200`` web page or a proxy's answer is none of these, so nothing is acknowledged for it.

The HTTP rules (origin, deadlines, retries, sizes, redaction) are in :mod:`study.interop.lrs_http`; the address
and credential checks, which need no network, in :mod:`study.interop.lrs_address`.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from study.interop.lrs_address import (  # noqa: F401 (the names callers import from here)
    CREDENTIALS_FILE,
    PASSWORD_ENV,
    TOKEN_ENV,
    USER_ENV,
    LrsError,
    read_credentials,
    statements_url,
)
from study.interop.lrs_http import DEFAULT_LIMITS, XAPI_VERSION, Client, Limits, Response  # noqa: F401

__all__ = [
    "CREDENTIALS_FILE", "DEFAULT_BATCH", "DEFAULT_LIMITS", "PAGE_LIMIT", "PASSWORD_ENV", "TOKEN_ENV", "USER_ENV",
    "XAPI_VERSION", "Client", "Conflict", "Endpoint", "Limits", "LrsError", "Response", "SyncOutcome", "batches",
    "fetch_pages", "iter_statements", "pending", "read_credentials", "send", "statements_url",
]

DEFAULT_BATCH = 100
PAGE_LIMIT = 500


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
    """Send what the LRS has not acknowledged yet, a batch at a time, acknowledging what the LRS said it stored.

    A ``200`` names the ids stored; an LRS that already had some (Ralph leaves them out, or answers ``204``
    when it had them all) is asked for each of the rest by PUT, whose ``204`` means stored or already there.
    A batch answered 409 holds a statement the LRS already has in another form: its statements are then put
    one by one, so the identical ones are acknowledged and each differing one is reported, not hidden.
    Raises ``LrsError`` when the LRS refuses, answers something xAPI does not define, or stays unreachable;
    what was acknowledged before stays so, and the rest is sent again next time.
    """
    key = client.endpoint.key
    acked = store.lrs_acked(key)
    todo = pending(statements, acked)
    outcome = SyncOutcome(pending=len(todo), already=len(statements) - len(todo))
    for batch in batches(todo, batch_size):
        response = client.request("POST", client.endpoint.statements_url, list(batch))
        if response.status == 200:
            stored = _stored_ids(client, response, [str(s["id"]) for s in batch])
            store.record_lrs_acks(key, [s["id"] for s in batch if str(s["id"]).lower() in stored])
            outcome.sent += len(stored)
            rest = [s for s in batch if str(s["id"]).lower() not in stored]
            if rest:
                _one_by_one(client, store, rest, outcome)
        elif response.status in (204, 409):
            _one_by_one(client, store, batch, outcome)
        else:
            raise _refused(client, "refused the statements", response)
        if progress is not None:
            progress(len(batch))
    return outcome


def _stored_ids(client: Client, response: Response, sent: list[str]) -> set[str]:
    """The ids a POST's ``200`` says were stored: a JSON array of ids we sent, each once (xAPI 1.0.3,
    Communication 2.1.2), or ``LrsError``: a web page or another list is no acknowledgement."""
    try:
        data = response.json()
    except ValueError:
        raise _not_xapi(client, response) from None
    wanted = {i.lower() for i in sent}
    if not (isinstance(data, list) and all(isinstance(i, str) for i in data)):
        raise _not_xapi(client, response)
    ids = [i.lower() for i in data]
    if len(set(ids)) != len(ids) or not set(ids) <= wanted:
        raise client.fail(f"the LRS at {client.endpoint} answered the statements with ids it was not sent; "
                          "nothing is counted as stored (is something between you and the LRS?)")
    return set(ids)


def _not_xapi(client: Client, response: Response) -> LrsError:
    what = response.detail() or f"{len(response.body)} bytes of {response.content_type or 'unknown type'}"
    return client.fail(f"the LRS at {client.endpoint} answered HTTP {response.status} without the list of stored "
                       f"statement ids xAPI requires ({what}); nothing is counted as stored")


def _one_by_one(client: Client, store: Any, batch: Sequence[Mapping[str, Any]], outcome: SyncOutcome) -> None:
    key = client.endpoint.key
    for st in batch:
        url = f"{client.endpoint.statements_url}?{urllib.parse.urlencode({'statementId': st['id']})}"
        response = client.request("PUT", url, st)
        if response.status == 204:
            store.record_lrs_acks(key, [st["id"]])
            outcome.sent += 1
        elif response.status == 409:
            why = client.clean(response.detail() or "a different statement exists")
            outcome.conflicts.append(Conflict(client.clean(str(st["id"])), why))
        elif 200 <= response.status < 300:
            raise client.fail(f"the LRS at {client.endpoint} answered a statement's PUT with HTTP "
                              f"{response.status}, not the 204 xAPI defines; nothing more is counted as stored")
        else:
            raise _refused(client, "refused the statements", response)


def _refused(client: Client, what: str, response: Response) -> LrsError:
    why = response.detail()
    hint = ""
    if response.status in (401, 403):
        hint = f" (check {TOKEN_ENV}, or {USER_ENV} and {PASSWORD_ENV}, or the credentials file)"
    return client.fail(f"the LRS at {client.endpoint} {what}: HTTP {response.status}" + (f": {why}" if why else "")
                       + hint)


# --- reading ---------------------------------------------------------------------------------------------


def fetch_pages(client: Client, activity: str, since: str | None = None,
                limit: int = PAGE_LIMIT) -> Iterator[dict[str, Any]]:
    """Every StatementResult page about ``activity`` (and, through ``related_activities``, everything grouped
    under it), one page in memory at a time, following ``more`` until it is empty: at most
    ``Limits.max_pages`` pages and ``Limits.max_statements`` statements, each ``more`` on the LRS's own origin."""
    query = {"activity": activity, "related_activities": "true", "limit": str(limit)}
    if since:
        query["since"] = since
    url: str | None = f"{client.endpoint.statements_url}?{urllib.parse.urlencode(query)}"
    caps = client.limits
    seen: set[str] = set()
    pages = statements = 0
    while url:
        if url in seen:
            raise client.fail(f"the LRS at {client.endpoint} sent the same \"more\" link twice; stopped reading")
        if pages >= caps.max_pages:
            raise client.fail(f"the LRS at {client.endpoint} has more than {caps.max_pages} pages of statements; "
                              f"study reads at most {caps.max_pages} pages and {caps.max_statements} statements "
                              "per analysis (narrow it with --since)")
        seen.add(url)
        response = client.request("GET", url)
        if response.status != 200:
            raise _refused(client, "refused to list statements", response)
        try:
            page = response.json()
        except ValueError:
            raise client.fail(f"the LRS at {client.endpoint} answered with something that is not JSON "
                              f"({response.detail() or response.content_type or 'no content type'})") from None
        if not isinstance(page, dict) or not isinstance(page.get("statements"), list):
            raise client.fail(f"the LRS at {client.endpoint} answered without a \"statements\" list")
        pages += 1
        statements += len(page["statements"])
        if statements > caps.max_statements:
            raise client.fail(f"the LRS at {client.endpoint} holds more than {caps.max_statements} statements for "
                              f"this course; study reads at most {caps.max_statements} statements and "
                              f"{caps.max_pages} pages per analysis (narrow it with --since)")
        yield page
        url = _next_page(client, url, page.get("more"))


def _next_page(client: Client, url: str, more: Any) -> str | None:
    """The absolute URL of the next page, which must be on the LRS's own origin (xAPI: a relative IRL)."""
    if more is None or more == "":
        return None
    if not isinstance(more, str):
        raise client.fail(f"the LRS at {client.endpoint} sent a \"more\" link that is not a string; stopped")
    target = urllib.parse.urljoin(url, more.strip())
    if not client.same_origin(target):
        raise client.fail(f"the LRS at {client.endpoint} sent a \"more\" link to somewhere else "
                          f"({more[:120]!r}); study reads only from the LRS you configured")
    return target


def iter_statements(pages: Iterable[Mapping[str, Any]]) -> Iterator[Any]:
    for page in pages:
        yield from page["statements"]
