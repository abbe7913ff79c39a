"""The players' port's fast path (issue 45, item 1): a kept page answered from the bytes read,
before uvicorn, Starlette or any ASGI machinery.

:class:`FastProtocol` is the asyncio protocol of every connection the players' port
(``goledger serve --public-port``) accepts. It reads requests itself, and answers those it can
answer exactly as the application would, with bytes prepared once per kept page
(:meth:`goledger.web.cached_front.CachedFront.wire`); at the first request it cannot, it hands
the connection (with every byte not answered yet) to uvicorn's protocol, which serves it from
then on as it serves any connection. So the fast path only ever removes work, never a rule:

* **Only the simplest requests.** :func:`simple_request` accepts a ``GET`` or ``HEAD`` in
  HTTP/1.1 whose header block is plain ASCII, every line ends with CRLF, every header is
  ``token: value`` and appears once, the target is a path (no ``%``, no absolute form) and
  nothing announces a body or a change of protocol (``Content-Length``, ``Transfer-Encoding``,
  ``Expect``, ``Upgrade``, ``TE``, ``Trailer``) or a director (``Authorization``). Anything
  else, ambiguous or merely unusual, goes to uvicorn with its bytes as they came: a request
  smuggled past one parser is read by the other exactly as sent, never re-framed.
* **Only kept pages at the head.** A request whose page is not kept at the head the desk
  knows (:class:`goledger.web.live.HeadMark`), or whose language cannot be chosen without the
  ledger, is handed over too.
* **The same bounds as the door.** Headers past :data:`goledger.web.connections.HEAD_LIMIT`
  bytes are handed over (uvicorn answers 400); the next request's headers are due within the
  header timeout after a response (else the connection is closed); a connection serves
  :data:`MAX_REQUESTS` requests, then answers with ``Connection: close``; a client that reads
  nothing while responses pile up past the transport's write limit is no longer read from, and
  after :data:`WRITE_TIMEOUT` seconds of that is dropped. The door counts these connections
  and may close an idle one to make room, as it does uvicorn's.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from email.utils import formatdate
from typing import Any, NamedTuple, cast

from goledger.web.connections import HEAD_LIMIT
from goledger.web.language import is_public_path

__all__ = ["MAX_REQUESTS", "WRITE_TIMEOUT", "FastProtocol", "SimpleRequest", "date_line", "simple_request"]

MAX_REQUESTS = 10_000
"""Requests one connection may make on the fast path; the last is answered ``Connection: close``."""
WRITE_TIMEOUT = 30.0
"""Seconds a connection may leave its responses unread (the transport's buffer full) before it is dropped."""

_HEAD = re.compile(rb"(GET|HEAD) (/[!-$&-~]*) HTTP/1\.1\r\n"
                   rb"((?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t -~]*\r\n)*)\r\n")
"""A whole header block the fast path reads: ``GET|HEAD``, an origin-form target of visible ASCII
without ``%`` (nothing to decode), HTTP/1.1; then lines ``token: value`` (no space before the
colon, visible ASCII, spaces and tabs; no line folded, no CR or LF alone), each ended by CRLF."""
_REFUSED = frozenset({b"content-length", b"transfer-encoding", b"expect", b"upgrade", b"te", b"trailer",
                      b"authorization", b"http2-settings"})
"""Headers that announce a body, another protocol or a director: such requests go to uvicorn."""


class SimpleRequest(NamedTuple):
    """A request the fast path may answer: its method, path, query (raw, after ``?``) and
    headers (names in lower case, each once)."""

    method: str
    path: str
    query: str
    headers: dict[bytes, bytes]

    @property
    def closes(self) -> bool:
        """Whether the client asked to close the connection after this response."""
        return self.headers.get(b"connection", b"").lower() == b"close"


def simple_request(head: bytes) -> SimpleRequest | None:
    """The request of header block ``head`` (up to and including its blank line) if it is one
    the fast path may answer (see the module's text), else ``None``.

    >>> simple_request(b"GET /standings?x=1 HTTP/1.1\\r\\nHost: h\\r\\nAccept-Encoding: gzip\\r\\n\\r\\n")[:3]
    ('GET', '/standings', 'x=1')
    >>> [simple_request(h) for h in (b"GET / HTTP/1.0\\r\\nHost: h\\r\\n\\r\\n",
    ...     b"GET / HTTP/1.1\\r\\nHost: h\\r\\nContent-Length: 0\\r\\n\\r\\n",
    ...     b"GET / HTTP/1.1\\r\\nHost: h\\r\\nHost: i\\r\\n\\r\\n",
    ...     b"GET / HTTP/1.1\\r\\nHost: h\\r\\n x\\r\\n\\r\\n",
    ...     b"GET /%70layer HTTP/1.1\\r\\nHost: h\\r\\n\\r\\n",
    ...     b"GET / HTTP/1.1\\nHost: h\\r\\n\\r\\n")]
    [None, None, None, None, None, None]
    """
    whole = _HEAD.fullmatch(head)
    if whole is None:
        return None  # anything else is framed or read differently by different parsers
    headers: dict[bytes, bytes] = {}
    for line in whole.group(3).split(b"\r\n")[:-1]:
        name, _, value = line.partition(b":")
        name = name.lower()
        if name in headers or name in _REFUSED:
            return None
        headers[name] = value.strip(b" \t")
    connection = headers.get(b"connection", b"keep-alive").lower()
    if b"host" not in headers or connection not in (b"keep-alive", b"close"):
        return None
    target = whole.group(2).decode("ascii")
    if "#" in target:
        return None
    path, _, query = target.partition("?")
    return SimpleRequest(whole.group(1).decode("ascii"), path, query, headers)


_date: tuple[int, bytes] = (0, b"")


def date_line() -> bytes:
    """``date: …\\r\\n`` for now (HTTP's date, made again once a second)."""
    global _date
    now = int(time.time())
    if _date[0] != now:
        _date = (now, f"date: {formatdate(now, usegmt=True)}\r\n".encode("ascii"))
    return _date[1]


Answer = Callable[[SimpleRequest], "tuple[bytes, bytes] | None"]
"""A simple request's response: its status line and headers but the date (each line ended by
CRLF) and its body; or ``None``: uvicorn answers."""
Ask = Callable[[SimpleRequest, Any, Any, asyncio.Event], Awaitable[tuple[bytes, bytes, bool]]]
"""A simple request asked of the application (:func:`goledger.web.fast_asgi.respond` over the
desk's app): ``(request, client, server, gone)`` → status line and headers, body, and whether
to close."""


class FastProtocol(asyncio.Protocol):
    """One connection of the players' port: simple requests for kept pages answered by
    ``answer``; a simple request for a players' page not kept asked of the application with
    ``ask`` (the connection stays here: the next request finds the page kept; requests after it
    wait their turn); the connection handed to ``fallback()`` (uvicorn's protocol, counted by
    ``door``) at the first other request. ``door`` is a
    :class:`goledger.web.connections.Door`: it counts this connection, may close it to make
    room while it is idle, and gives the bytes it read before the connection was made
    (``received_first``)."""

    received_first = b""

    def __init__(self, answer: Answer, fallback: Callable[[], Any], door: Any, header_timeout: float,
                 ask: Ask | None = None) -> None:
        self.answer = answer
        self.ask = ask
        self.asking: asyncio.Task[None] | None = None
        """The request being asked of the application (the next ones wait)."""
        self.gone = asyncio.Event()
        self.fallback = fallback
        self.door = door
        self.header_timeout = header_timeout
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.served = 0
        self.handed = False
        self.paused = False
        self._counted = False
        self._header_timer: asyncio.TimerHandle | None = None
        self._write_timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------------ asyncio's calls

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's classes
        self._counted = True
        self.door.protocols += 1
        first, self.received_first = self.received_first, b""
        self.buffer = first
        self._run()

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.asking is not None and len(self.buffer) > HEAD_LIMIT and self.transport is not None:
            self.transport.pause_reading()  # requests pile up behind the one asked: read on after it
        self._run()

    def eof_received(self) -> bool | None:
        return None  # the transport closes

    def pause_writing(self) -> None:
        self.paused = True
        if self.transport is not None:
            self.transport.pause_reading()
            loop = asyncio.get_running_loop()
            self._write_timer = loop.call_later(WRITE_TIMEOUT, self._abort)

    def resume_writing(self) -> None:
        self.paused = False
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.resume_reading()
            self._run()

    def connection_lost(self, exc: Exception | None) -> None:
        self._uncount()
        self._cancel_timers()
        self.gone.set()

    # ------------------------------------------------------------------ requests

    def _run(self) -> None:
        """Answer every complete simple request in the buffer; hand over at the first other one.
        The buffer is cut once, after the requests answered (not once per request: a burst of
        pipelined requests costs linear time)."""
        transport = self.transport
        buffer, pos = self.buffer, 0
        try:
            while not self.handed and not self.paused and self.asking is None and transport is not None and \
                    not transport.is_closing():
                end = buffer.find(b"\r\n\r\n", pos)
                if end < 0:
                    if len(buffer) - pos > HEAD_LIMIT or buffer.find(b"\n\n", pos) >= 0:
                        self.buffer, buffer, pos = buffer[pos:], b"", 0
                        self._hand_over()  # uvicorn refuses the size, or frames the bare LFs its way
                    else:
                        self._idle()
                    return
                request = simple_request(buffer[pos:end + 4])
                try:
                    response = self.answer(request) if request is not None else None
                except Exception:  # whatever the fast path cannot answer, uvicorn does
                    request = response = None
                if request is None or (response is None and (self.ask is None or not is_public_path(request.path))):
                    self.buffer, buffer, pos = buffer[pos:], b"", 0
                    self._hand_over()
                    return
                self._busy()
                pos = end + 4
                self.served += 1
                closing = request.closes or self.served >= MAX_REQUESTS
                if response is None:
                    self.asking = asyncio.get_running_loop().create_task(self._asked(request, closing))
                    return
                head, body = response
                transport.writelines((head, date_line(), b"connection: close\r\n\r\n" if closing else b"\r\n",
                                      body))
                if closing:
                    transport.close()
                    return
        finally:
            if pos:
                self.buffer = buffer[pos:]

    async def _asked(self, request: SimpleRequest, closing: bool) -> None:
        """Ask the application for ``request``'s answer, write it, and go on with the next requests."""
        assert self.ask is not None and self.transport is not None
        transport = self.transport
        try:
            head, body, close = await self.ask(request, _address(transport.get_extra_info("peername")),
                                               _address(transport.get_extra_info("sockname")), self.gone)
        finally:
            self.asking = None
        if transport.is_closing():
            return
        if not head:
            transport.abort()
            return
        closing = closing or close
        transport.writelines((head, date_line(), b"connection: close\r\n\r\n" if closing else b"\r\n", body))
        if closing:
            transport.close()
            return
        if not self.paused:
            transport.resume_reading()
        self._run()

    def _hand_over(self) -> None:
        """Give the connection, and the bytes not answered yet, to uvicorn's protocol."""
        assert self.transport is not None
        self.handed = True
        self._cancel_timers()
        self._uncount()
        protocol = self.fallback()
        protocol.received_first, self.buffer = self.buffer, b""
        self.transport.set_protocol(protocol)
        protocol.connection_made(self.transport)

    def _idle(self) -> None:
        """Between requests: the door may close this connection, and the next headers are due in time."""
        self.door.idle[self] = None
        if self._header_timer is None:
            self._header_timer = asyncio.get_running_loop().call_later(self.header_timeout, self._abort)

    def _busy(self) -> None:
        if self._header_timer is not None:
            self.door.idle.pop(self, None)
            self._header_timer.cancel()
            self._header_timer = None

    def _abort(self) -> None:
        self._header_timer = self._write_timer = None
        if self.transport is not None and not self.handed:
            self.transport.abort()

    def _cancel_timers(self) -> None:
        for timer in (self._header_timer, self._write_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._write_timer = None
        self.door.idle.pop(self, None)

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            self.door.protocols -= 1


def _address(name: Any) -> tuple[str, int] | None:
    """A socket's address as ASGI names it: ``(host, port)`` (an IPv6 address has two more fields)."""
    return (str(name[0]), int(name[1])) if isinstance(name, tuple) and len(name) >= 2 else None
