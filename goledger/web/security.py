"""The desk's guards: the director token, CSRF tokens and the upload limit (issue 17, §3).

* **Director token**: every page that writes, and every director page, needs it. A browser
  proves it once on ``/login`` and then carries a cookie holding an HMAC of the token under
  the server's secret (the token itself never sits in a cookie); scripts send
  ``Authorization: Bearer TOKEN``.
* **CSRF**: each browser gets a random ``goledger_session`` cookie; every form carries
  ``csrf`` = HMAC(secret, session). A POST from a browser whose form token does not match
  its own cookie is refused (403). Bearer requests carry no cookie and need no CSRF token.
* **Uploads**: a request body larger than the limit is refused (413) before the
  application reads it.

>>> keys = DeskKeys(token="t0ken", secret=b"s" * 32)
>>> keys.token_ok("t0ken"), keys.token_ok("guess")
(True, False)
>>> keys.csrf_ok("abc", keys.csrf_for("abc")), keys.csrf_ok("abc", keys.csrf_for("abd"))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["DeskKeys", "UploadLimit", "new_token"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_token() -> str:
    """A director token for when none is given: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class DeskKeys:
    """The director ``token`` and the server's ``secret`` (random per start unless given)."""

    token: str
    secret: bytes

    def _mac(self, purpose: str, text: str) -> str:
        return hmac.new(self.secret, f"{purpose}:{text}".encode(), hashlib.sha256).hexdigest()

    def token_ok(self, candidate: str | None) -> bool:
        """Whether ``candidate`` is the director token (constant-time comparison)."""
        return bool(candidate) and hmac.compare_digest(str(candidate).encode(), self.token.encode())

    def director_cookie(self) -> str:
        """The value of the director cookie set after a successful login."""
        return self._mac("director", self.token)

    def director_cookie_ok(self, value: str | None) -> bool:
        return bool(value) and hmac.compare_digest(str(value), self.director_cookie())

    def csrf_for(self, session: str) -> str:
        """The CSRF token of the browser session ``session``."""
        return self._mac("csrf", session)

    def csrf_ok(self, session: str | None, candidate: str | None) -> bool:
        if not session or not candidate:
            return False
        return hmac.compare_digest(str(candidate), self.csrf_for(session))


class UploadLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413: at once when
    ``Content-Length`` says so, else as soon as the received body passes the limit (the
    body is buffered, up to the limit, before the application sees it)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        limit = self.max_bytes / (1024 * 1024)
        text = f"error: the upload is larger than the desk's {limit:g} MB limit; nothing was read".encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(text)).encode())]})
        await send({"type": "http.response.body", "body": text})
