"""The desk's front door (issue 27, §2, §4, §14): an ASGI middleware in front of every route.

For every HTTP request, before the application sees it:

* **Headers on every response**: a ``Content-Security-Policy`` (scripts, styles, images,
  connections and forms from the desk itself only, no frames, no plugins), ``X-Frame-Options:
  DENY``, ``Referrer-Policy: same-origin`` and ``X-Content-Type-Options: nosniff``. A route
  that sets its own policy (the audit report, whose styles are inline) keeps it.
* **Writes are judged on their headers alone.** A request other than GET/HEAD/OPTIONS to any
  path but ``/login`` and ``/logout`` needs the director: a director session cookie (see
  :class:`goledger.web.security.Sessions`) or, for ``/api/``, ``Authorization: Bearer
  TOKEN``. Without it the answer is 401 with ``Connection: close`` and **no byte of the body
  is read**, so an anonymous client cannot make the desk buffer anything.
* **Origin**: a write not authenticated by the bearer token (every browser form, the login too) whose
  ``Origin`` (else ``Referer``) names another origin than the desk's own is refused (403).
  A request with neither header (scripts, old browsers) still needs its CSRF token.
* **Bodies are bounded per route** (:meth:`GuardLimits.body_limit`: 16 KB for the login and
  logout forms, the upload limit for the three upload forms (the rating list's too), 1 MB for
  every other write) and
  must arrive in time: each chunk within ``body_idle`` seconds, the whole within ``body_idle``
  plus one second per ``body_rate`` bytes, and an anonymous body (the login and logout forms,
  a few hundred bytes a phone sends with its headers) within ``anonymous_body`` seconds in
  all (issue 41: 900 logins trickling a byte every few seconds held every connection the
  desk may open). Too large: 413; too slow: 408; both close the connection. Until its
  anonymous body is in, a connection is also one the door may close to make room
  (:mod:`goledger.web.connections`), as one still sending its headers.
* **Query strings** are at most ``max_query`` bytes (414); each route checks its own
  parameters (:func:`query_int`, :func:`query_seconds`). A number in the address itself (the
  round of ``/desk/round/N``) has at most 18 digits (400).
* **Server-sent event streams** (``/events/…``) are capped at ``max_streams`` at once; one
  more is answered 503 with ``Retry-After``.

Connections themselves (slow headers, half-open sockets, the descriptor limit) are guarded one
level down, in uvicorn's protocol: :mod:`goledger.web.connections`.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from goledger.errors import CommandRejected

__all__ = [
    "ANONYMOUS_WRITES",
    "CSP",
    "KEY_PREFIX",
    "LOGIN_BODY",
    "SAFE_METHODS",
    "DeskGuard",
    "GuardLimits",
    "is_anonymous_write",
    "query_int",
    "query_seconds",
    "with_security_headers",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "font-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'")
"""The desk's pages: nothing inline, nothing from elsewhere, never inside a frame."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"x-content-type-options", b"nosniff"),
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
ANONYMOUS_WRITES = frozenset({"/login", "/logout"})
"""The paths a client without the director may post to (each checks its CSRF token), beside
those under :data:`KEY_PREFIX`."""
KEY_PREFIX = "/k/"
"""A player's own pages (issue 46): ``/k/KEY/…`` posts act for the key's player alone, with
the CSRF token and the same bounds as a login (:func:`is_anonymous_write`)."""


def is_anonymous_write(path: str) -> bool:
    """Whether a client without the director may post to ``path``: the login, the logout and
    a player's key pages.

    >>> is_anonymous_write("/login"), is_anonymous_write("/k/abc/check-in"), is_anonymous_write("/desk/do/result")
    (True, True, False)
    """
    return path in ANONYMOUS_WRITES or path.startswith(KEY_PREFIX)


UPLOAD_PATHS = frozenset({"/desk/import", "/desk/players/upload", "/desk/ratings/import"})
LOGIN_BODY = 16 * 1024
"""The largest body of an anonymous write (the login and logout forms)."""


@dataclass(frozen=True)
class GuardLimits:
    """The middleware's bounds (sizes in bytes, times in seconds)."""

    upload: int = 32 * 1024 * 1024
    form: int = 1024 * 1024
    login: int = LOGIN_BODY
    body_idle: float = 10.0
    body_rate: int = 64 * 1024
    anonymous_body: float = 5.0
    max_query: int = 4096
    max_streams: int = 256

    def body_limit(self, path: str) -> int:
        """The largest body ``path`` accepts."""
        if is_anonymous_write(path):
            return self.login
        if path in UPLOAD_PATHS:
            return self.upload
        return self.form


Authorizer = Callable[[Mapping[bytes, bytes], str], bool]
"""``(headers, path) → whether the request carries the director`` (from the headers alone)."""


class DeskGuard:
    """The ASGI middleware described above. ``is_director`` decides, from the request's
    headers alone, whether a write comes from the director (:meth:`goledger.web.app.Desk`
    passes its session registry and token check)."""

    def __init__(self, app: ASGIApp, is_director: Authorizer, limits: GuardLimits | None = None) -> None:
        self.app = app
        self.is_director = is_director
        self.limits = limits or GuardLimits()
        self.streams = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_headers(send)
        method, path = scope.get("method", "GET"), scope.get("path", "/")
        if len(scope.get("query_string", b"")) > self.limits.max_query:
            await refuse(send, 414, f"the query string is longer than {self.limits.max_query} bytes")
            return
        if (number := _long_number(path)) is not None:
            await refuse(send, 400, f"{number[:20]}… in the address is not a whole number of at most 18 digits",
                         path.startswith("/api/"))
            return
        headers = {k.lower(): v for k, v in scope.get("headers") or []}
        if method in SAFE_METHODS:
            if path.startswith("/events/"):
                await self._stream(scope, receive, send)
            else:
                await self.app(scope, receive, send)
            return
        if not is_anonymous_write(path) and not self.is_director(headers, path):
            await refuse(send, 401, "this needs the director token: log in on /login (scripts send "
                         "Authorization: Bearer TOKEN)", path.startswith("/api/"))
            return
        if not _bearer_ok(self.is_director, headers) and not same_origin(headers, scope):
            await refuse(send, 403, "this form was sent from another site than the desk's own; "
                         "nothing was recorded", path.startswith("/api/"))
            return
        body = await self._body(scope, receive, send, headers, path)
        if body is None:
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _body(self, scope: Scope, receive: Receive, send: Send, headers: Mapping[bytes, bytes],
                    path: str) -> bytes | None:
        """The whole body, or ``None`` after refusing it (too large, too slow, or the client left)."""
        limit = self.limits.body_limit(path)
        api = path.startswith("/api/")
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or len(length) > 18):
            await refuse(send, 400, "the Content-Length header is not a number", api)
            return None
        if length is not None and int(length) > limit:
            await refuse(send, 413, _too_large(limit), api)
            return None
        expected = int(length) if length is not None else limit
        deadline = time.monotonic() + self.limits.body_idle + expected / self.limits.body_rate
        if is_anonymous_write(path):
            deadline = min(deadline, time.monotonic() + self.limits.anonymous_body)
        chunks: list[bytes] = []
        size = 0
        while True:
            wait = min(self.limits.body_idle, deadline - time.monotonic())
            try:
                if wait <= 0:
                    raise TimeoutError
                message = await asyncio.wait_for(receive(), wait)
            except TimeoutError:
                await refuse(send, 408, "the request's body came too slowly; nothing was read", api)
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(send, 413, _too_large(limit), api)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.streams >= self.limits.max_streams:
            await refuse(send, 503, f"the desk already serves {self.limits.max_streams} live pages; "
                         "reload later", extra=[(b"retry-after", b"30")])
            return
        self.streams += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.streams -= 1


def _bearer_ok(is_director: Authorizer, headers: Mapping[bytes, bytes]) -> bool:
    """Whether the request authenticates by ``Authorization: Bearer`` (a script, not a browser
    form: no Origin check)."""
    return headers.get(b"authorization", b"")[:7].lower() == b"bearer " and is_director(
        {b"authorization": headers[b"authorization"]}, "/api/")


def same_origin(headers: Mapping[bytes, bytes], scope: Scope) -> bool:
    """Whether the request's ``Origin`` (else ``Referer``) is the desk's own origin (the
    scheme and the ``Host`` the request was sent to); true when it carries neither.

    >>> scope = {"scheme": "http"}
    >>> same_origin({b"host": b"127.0.0.1:8000", b"origin": b"http://127.0.0.1:8000"}, scope)
    True
    >>> same_origin({b"host": b"127.0.0.1:8000", b"origin": b"http://127.0.0.1:9000"}, scope)
    False
    >>> same_origin({b"host": b"127.0.0.1:8000", b"origin": b"null"}, scope)
    False
    >>> same_origin({b"host": b"h:1", b"referer": b"http://h:1/desk/players?x=1"}, scope)
    True
    """
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    own = f"{scope.get('scheme', 'http')}://{host}"
    origin = headers.get(b"origin")
    if origin is not None:
        return origin.decode("latin-1").strip().lower() == own
    referer = headers.get(b"referer")
    if referer is None:
        return True
    try:
        parts = urlsplit(referer.decode("latin-1").strip())
    except ValueError:
        return False
    return f"{parts.scheme}://{parts.netloc}".lower() == own


def with_security_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with the security headers every response carries (a route's own CSP stays)."""
    headers = list(headers)
    names = {k.lower() for k, _ in headers}
    if b"content-security-policy" not in names:
        headers.append((b"content-security-policy", CSP.encode()))
    headers.extend(h for h in SECURITY_HEADERS if h[0] not in names)
    return headers


def _with_headers(send: Send) -> Send:
    """``send`` adding the security headers to the response's start (a route's own CSP stays)."""

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": with_security_headers(message.get("headers") or [])}
        await send(message)

    return wrapped


def _too_large(limit: int) -> str:
    shown = f"{limit / (1024 * 1024):g} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
    return f"the request is larger than the desk's {shown} limit for this page; nothing was read"


async def refuse(send: Send, status: int, sentence: str, api: bool = False,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer ``status`` with ``sentence`` (JSON ``{"error": …}`` for the API, else plain
    text) and close the connection: whatever body the client still sends is never read."""
    if api:
        import json

        body, media = (json.dumps({"error": sentence}) + "\n").encode(), b"application/json"
    else:
        body, media = f"error: {sentence}\n".encode(), b"text/plain; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", media), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close"), *(extra or [])]})
    await send({"type": "http.response.body", "body": body})


_WHOLE = re.compile(r"-?[0-9]{1,18}")
_LONG_NUMBER = re.compile(r"(?:^|/)([0-9]{19,})(?=/|$)")


def _long_number(path: str) -> str | None:
    """A part of ``path`` made of more than 18 digits (a round number in ``/desk/round/N``, read
    by Starlette's ``int`` converter before any route could check it: 5,000 digits were a 500).

    >>> _long_number("/desk/round/3/game"), _long_number("/print/slips/" + "9" * 40)[:5]
    (None, '99999')
    """
    found = _LONG_NUMBER.search(path)
    return found.group(1) if found else None
_SECONDS = re.compile(r"[0-9]{1,6}(\.[0-9]{1,3})?")


def query_int(params: Mapping[str, str], name: str) -> int | None:
    """Query parameter ``name`` as a whole number of at most 18 digits (``None`` when absent
    or empty); anything else is refused in one sentence, before any parsing.

    >>> query_int({"round": "3"}, "round"), query_int({}, "round")
    (3, None)
    >>> query_int({"round": "9" * 5000}, "round")
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: round '99999999999999999999…' is not a whole number of at most 18 digits
    """
    text = params.get(name, "").strip()
    if not text:
        return None
    if not _WHOLE.fullmatch(text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CommandRejected(f"{name} {shown!r} is not a whole number of at most 18 digits")
    return int(text)


def query_seconds(params: Mapping[str, str], name: str, default: float) -> float:
    """Query parameter ``name`` as a number of seconds, more than 0 and at most ``default``
    (which it is when absent); ``nan``, ``inf``, ``1e9`` or ``-1`` are refused.

    >>> query_seconds({"lifetime": "0.2"}, "lifetime", 300), query_seconds({}, "lifetime", 300)
    (0.2, 300)
    >>> query_seconds({"lifetime": "nan"}, "lifetime", 300)
    Traceback (most recent call last):
    ...
    goledger.errors.CommandRejected: lifetime 'nan' is not a number of seconds like 30 or 0.5
    """
    text = params.get(name, "").strip()
    if not text:
        return default
    if not _SECONDS.fullmatch(text) or not math.isfinite(value := float(text)) or value <= 0:
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise CommandRejected(f"{name} {shown!r} is not a number of seconds like 30 or 0.5")
    return min(value, default)
