"""A players' page the fast path has not kept, asked of the desk's ASGI application without
leaving the fast path (issue 45): :func:`respond`.

When a result moves the head, every phone's next request misses the kept pages: the page is
rendered again (once, :meth:`goledger.web.app._Pages.public_page`). Those requests are simple
(:func:`goledger.web.fast_path.simple_request`: ``GET``/``HEAD``, no body), so
:class:`goledger.web.fast_path.FastProtocol` hands them to the application itself, the whole
stack the desk's guard included, and writes its answer; the connection stays on the fast path
for the next request, which finds the page kept. Handing the connection to uvicorn instead would
keep it on the slow path for good after the first result.

**One asks, the others wait** (:class:`Asker`): when a result moves the head, 200 phones ask
for the standings at once; the first request for a page at a head is asked of the application,
and the others for the same page at the same head wait for its answer and are then answered
from the page it kept, so a head's move costs one trip through the application, not one per
phone (each trip read the head from SQLite and held the event loop while the page rendered).

The application's response is buffered whole (a players' page, at most :data:`MAX_BODY`
bytes) and sent with its ``Content-Length``; a response the application ends with an error
before it started is answered ``500`` and the connection closed, as uvicorn does.
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from typing import Any

from goledger.web.cached_front import CachedFront
from goledger.web.fast_path import SimpleRequest

__all__ = ["MAX_BODY", "Asker", "respond"]

MAX_BODY = 64 * 1024 * 1024
"""Bytes of one buffered response at most (a players' page is a few hundred KB)."""
_ERROR = (b"HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain; charset=utf-8\r\n"
          b"content-length: 21\r\n", b"Internal Server Error")


def _status_line(status: int) -> bytes:
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = ""
    return f"HTTP/1.1 {status} {phrase}\r\n".encode("latin-1")


async def respond(app: Any, request: SimpleRequest, client: Any, server: Any,
                  gone: asyncio.Event) -> tuple[bytes, bytes, bool]:
    """``request`` answered by ASGI ``app``: the status line and headers (each line ended by
    CRLF; no date, no blank line), the body (none for ``HEAD``), and whether the connection
    must close after it. ``client`` and ``server`` are the connection's addresses; ``gone`` is
    set when the client has gone (the application then receives ``http.disconnect``)."""
    target = request.path + ("?" + request.query if request.query else "")
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": request.method, "scheme": "http", "path": request.path, "raw_path": target.encode("ascii"),
             "query_string": request.query.encode("ascii"), "root_path": "",
             "headers": list(request.headers.items()), "client": client, "server": server, "state": {}}
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    start: dict[str, Any] | None = None
    chunks: list[bytes] = []
    size = 0
    done = False

    async def send(message: dict[str, Any]) -> None:
        nonlocal start, size, done
        if message["type"] == "http.response.start" and start is None:
            start = message
        elif message["type"] == "http.response.body" and start is not None and not done:
            body = message.get("body", b"")
            size += len(body)
            if size > MAX_BODY:
                raise RuntimeError("a response larger than the fast path buffers")
            chunks.append(body)
            done = not message.get("more_body", False)

    try:
        await app(scope, receive, send)
    except Exception:
        if start is None:
            return _ERROR[0], b"" if request.method == "HEAD" else _ERROR[1], True
        return b"", b"", True  # begun and broken: close without an answer
    if start is None or not done:
        return _ERROR[0], b"" if request.method == "HEAD" else _ERROR[1], True
    body = b"".join(chunks)
    headers = [(bytes(name).lower(), bytes(value)) for name, value in start.get("headers", [])]
    close = any(name == b"connection" and value.lower() == b"close" for name, value in headers)
    lines = [_status_line(int(start["status"]))]
    lines += [name + b": " + value + b"\r\n" for name, value in headers if name != b"connection"]
    if not any(name == b"content-length" for name, _ in headers) and start["status"] not in (204, 304):
        lines.append(b"content-length: %d\r\n" % len(body))
    return b"".join(lines), b"" if request.method == "HEAD" else body, close


class Asker:
    """Simple requests for players' pages not kept, asked of ASGI ``app`` one per page and
    head (:class:`goledger.web.fast_path.Ask`); ``front`` names each request's page and
    answers it once it is kept."""

    def __init__(self, app: Any, front: CachedFront) -> None:
        self.app = app
        self.front = front
        self.asking: dict[tuple[str, int, str], asyncio.Future[None]] = {}
        """(page, head's number, head's hash) → the request asked of the application for it."""

    async def __call__(self, request: SimpleRequest, client: Any, server: Any,
                      gone: asyncio.Event) -> tuple[bytes, bytes, bool]:
        where = await self.front.key_read(request)
        if where is None:
            return await respond(self.app, request, client, server, gone)
        made = self.front.wire(request)  # kept while the language was read (rendered ahead, or asked by another)
        if made is not None:
            return made[0], made[1], False
        first = self.asking.get(where)
        if first is not None:
            await asyncio.shield(first)
            made = self.front.wire(request)
            if made is not None:
                return made[0], made[1], False
            return await respond(self.app, request, client, server, gone)  # the first was refused: ask too
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.asking[where] = future
        try:
            return await respond(self.app, request, client, server, gone)
        finally:
            del self.asking[where]
            future.set_result(None)
