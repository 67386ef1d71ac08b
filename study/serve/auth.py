"""The token gate in front of every route (page, static files, websocket, downloads), as Jupyter does it.

The URL printed at start-up carries ``?token=``; the page's own asset and websocket URLs do not, so the first
request with the right token sets an HttpOnly, SameSite=Strict cookie and later requests may show either."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from aiohttp.typedefs import Middleware

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# The page loads its scripts, styles, fonts and socket from this server only; a crafted ``?ping=`` (textual.js
# fetches it) or any injected URL to another host is blocked by the browser itself. xterm.js sets inline styles.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; font-src 'self'; "
    "img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
CROSS_ORIGIN = "403: this server answers only its own page, not a page from another address or port\n"
REFUSAL = "403: this server needs the token from the URL that `study serve` printed\n"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    # Cookies are shared by every port of a host: two servers on one machine must not overwrite each other's.
    return f"study-serve-{port}"


def page_headers(headers: MutableMapping[str, str]) -> None:
    """The headers every response of ours carries, the page's and a download's alike."""
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    # The address bar holds the token until the page script removes it: no Referer may carry it away.
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Cache-Control", "no-store")


def same_origin(request: web.Request) -> bool:
    """True unless the request says it comes from a page of another origin.

    SameSite=Strict does not keep other ports of this host out (they are the same *site*), so a page on any
    local port could open our websocket with the learner's cookie. A browser always sends ``Origin`` on a
    websocket and on a cross-origin request; it must be exactly the origin the learner opened (scheme, host as
    typed, port), which is the scheme and Host of this very request. No ``Origin`` at all is a same-origin GET
    or a client that is not a browser, and those still need the token."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin.lower() == f"{request.scheme}://{request.host}".lower()


def _matches(candidate: str | None, token: str) -> bool:
    if not candidate:
        return False
    # compare_digest on str accepts ASCII only; a stray non-ASCII guess must be a refusal, not a 500.
    return hmac.compare_digest(candidate.encode("utf-8", "replace"), token.encode("utf-8"))


def token_gate(token: str, port_of: Callable[[], int]) -> Middleware:
    """An aiohttp middleware refusing with 403 whatever shows neither the token nor its cookie.

    ``port_of`` gives the bound port (known only after the socket is bound when the user asked for port 0)."""

    @web.middleware
    async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not same_origin(request):
            raise web.HTTPForbidden(text=CROSS_ORIGIN, headers={"Cache-Control": "no-store"})
        name = cookie_name(port_of())
        by_query = _matches(request.query.get("token"), token)
        if not (by_query or _matches(request.cookies.get(name), token)):
            raise web.HTTPForbidden(text=REFUSAL, headers={"Cache-Control": "no-store"})
        response = await handler(request)
        if not response.prepared:  # a websocket or a streamed download has sent its headers already
            if by_query:
                response.set_cookie(name, token, httponly=True, samesite="Strict", path="/")
            page_headers(response.headers)
        return response

    return gate
