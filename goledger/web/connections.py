"""The desk's connections (issue 27, §2): a front door of its own in front of uvicorn's HTTP protocol.

A connection costs one file descriptor from the moment it is accepted, and a process has a
limit (``RLIMIT_NOFILE``, often 1,024). Someone on the network can open more connections
than that and send half a request on each (slowloris), or open them again as fast as they
are closed (a connection flood). The desk stays reachable because:

* **A connection is not HTTP until its headers are in.** :class:`Door` accepts connections
  itself and holds each as a bare socket (no uvicorn protocol, no asyncio transport, no
  task) until the first request's headers have arrived (a blank line), then hands the
  socket and the bytes read to uvicorn's h11 protocol. A real client's headers come in the
  same packet as, or right after, the connection, so it is handed over at once, usually at
  accept time; a half-open connection costs the server a descriptor and a few bytes.
* **Slow headers time out.** Headers must be complete within ``header_timeout`` seconds of
  the connection (and, for a keep-alive connection, of the end of the previous response);
  otherwise the connection is closed. Bytes trickling in do not restart the clock.
* **Connections are capped below the descriptor limit** (:func:`default_limits`: the soft
  ``RLIMIT_NOFILE`` minus a reserve for the ledger's files of each pool thread, one burst
  of accepts and everything else). At the cap a new connection makes room: the **oldest**
  connection that is not in the middle of a request (still sending its headers, or idle
  between keep-alive requests) is closed at once, its descriptor freed before the next
  accept, so the descriptors do not run out (asyncio's own accept loop stops for a whole
  second after ``EMFILE``; should it happen here, a descriptor is freed and accepting goes
  on). A client that sends its request at once is handed over at once, so it is never the
  one chosen. Only when every connection is busy is the newcomer refused.
* **An anonymous body is waited for like headers** (issue 41): an anonymous write (``POST
  /login``, ``/logout``, a player's key pages: :func:`goledger.web.guard.is_anonymous_write`) declaring a
  ``Content-Length`` within the login limit is held bare until its body is in too, within
  the same ``header_timeout`` (a phone sends its few hundred bytes with its headers, so it is
  handed over at once), and is shed like a half-sent request. Any other such request whose
  body is not all in yet (sent in chunks) is, for making room, the next to go after the
  half-sent ones, and :class:`goledger.web.guard.DeskGuard` refuses an anonymous body that
  takes more than a few seconds in all (408). Slow logins reopened as fast as they are
  closed cannot keep a player's page out.
* **One address cannot push the others out**: at the cap, a newcomer from an address
  holding more than its share of the waiting connections closes that address's own oldest
  one; a newcomer from elsewhere closes the oldest of all.
* **A refusal is read, not reset** (lingering close, as nginx does): a response that closes
  the connection before the request's body was read (413, 401, 408) is followed by a FIN,
  and what the client still sends is read and dropped for up to :data:`LINGER_SECONDS` (at
  most :data:`LINGER_BYTES`) before the socket is closed. Closing a socket with unread bytes
  makes the kernel answer RST, and a client still sending its body then loses the answer
  ("connection reset" instead of "too large"). A lingering connection may be closed at once
  to make room, like an idle one.
* **The listen queue is long** (``queue``, 4,096 by default; Linux caps it at
  ``net.core.somaxconn``): when connections arrive faster than they are accepted the kernel
  keeps them instead of dropping a client's SYN, which that client would only send again
  after one second, then three. Accepting is decoupled from it: at most :data:`BURST` per
  turn of the event loop, so the loop keeps serving requests between bursts.

:func:`serve` runs uvicorn with this door; :func:`protocol_class` makes the protocol class.
"""

from __future__ import annotations

import asyncio
import errno
import re
import resource
import socket
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

from uvicorn.protocols.http.h11_impl import H11Protocol

from goledger.web.guard import LOGIN_BODY, SAFE_METHODS, is_anonymous_write

__all__ = ["BURST", "LINGER_BYTES", "LINGER_SECONDS", "ConnectionLimits", "Door", "LingeringTransport",
           "default_limits", "fast_protocol_class", "protocol_class", "serve"]

BURST = 16
"""Connections accepted in one turn of the event loop at most."""
EMFILE_ROOM = 8
"""Connections closed to make room when an accept finds no descriptor left."""
SWEEP = 64
"""Connections closed for their slow headers in one turn of the event loop at most."""
THREADS = 40
"""Starlette's thread pool (anyio's default): each thread may hold a ledger open (3 files)."""
HEAD_LIMIT = 16 * 1024
"""Bytes of headers held before the connection is handed to h11 anyway (which refuses them:
its own limit is the same)."""
LINGER_SECONDS = 2.0
"""How long a closing connection keeps reading (and dropping) what its client still sends."""
LINGER_BYTES = 64 * 1024 * 1024
"""Bytes a closing connection reads and drops at most before it is closed anyway."""
_OUT_OF_DESCRIPTORS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


@dataclass(frozen=True)
class ConnectionLimits:
    """``max_connections`` open at once; ``header_timeout`` seconds to send a request's
    headers; a listen queue of ``queue`` connections."""

    max_connections: int
    header_timeout: float = 10.0
    queue: int = 4096


def default_limits(header_timeout: float = 10.0, nofile: int | None = None) -> ConnectionLimits:
    """The cap for this process: its soft ``RLIMIT_NOFILE`` (or ``nofile``) minus a reserve of
    one accept burst, 3 files per pool thread and 64 for everything else; at most 16,384
    and at least 16.

    >>> default_limits(nofile=1024).max_connections
    824
    """
    if nofile is None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        nofile = soft if soft != resource.RLIM_INFINITY else 1 << 20
    reserve = BURST + 3 * THREADS + 64
    return ConnectionLimits(max(16, min(16384, nofile - reserve)), header_timeout)


class _Waiting:
    """A connection whose request headers are not complete yet: its socket, address, the
    bytes read so far, and when its time is up."""

    __slots__ = ("address", "data", "deadline", "sock")

    def __init__(self, sock: socket.socket, address: str, data: bytes, deadline: float) -> None:
        self.sock, self.address, self.data, self.deadline = sock, address, data, deadline


_BLANK_LINE = re.compile(rb"\n\r?\n")
_REQUEST_LINE = re.compile(rb"[ \t\r\n]*POST[ \t]+(/[^ \t?]*)(?:\?[^ \t]*)?[ \t]+HTTP/1\.[01][ \t]*\r?\n")
_CONTENT_LENGTH = re.compile(rb"^content-length[ \t]*:[ \t]*([0-9]{1,18})[ \t]*\r?$", re.I | re.M)
_TRANSFER_ENCODING = re.compile(rb"^(transfer-encoding|expect)[ \t]*:", re.I | re.M)
"""A body in chunks, or one sent only after ``100 Continue``: handed over with the headers."""


def _complete(data: bytes) -> bool:
    """Whether ``data`` holds what the door waits for: a whole header block (a blank line;
    h11 takes bare ``\\n`` too) and, for an anonymous write (``POST /login``, ``/logout``)
    declaring a ``Content-Length`` within the login limit, its whole body too (issue 41: a
    body that never comes then costs a bare socket, timed and shed as half-sent headers are).

    >>> _complete(b"GET / HTTP/1.1\\r\\nHost: h\\r\\n\\r\\n"), _complete(b"GET / HTTP/1.1\\r\\nHost: h\\r\\n")
    (True, False)
    >>> login = b"POST /login HTTP/1.1\\r\\nHost: h\\r\\nContent-Length: 9\\r\\n\\r\\n"
    >>> _complete(login + b"csrf="), _complete(login + b"csrf=1234")
    (False, True)
    >>> _complete(login.replace(b"/login", b"/log%69n") + b"csrf=")  # the path as uvicorn reads it
    False
    """
    blank = _BLANK_LINE.search(data)
    if blank is None:
        return len(data) >= HEAD_LIMIT
    head, body = data[:blank.end()], data[blank.end():]
    line = _REQUEST_LINE.match(head)
    if line is None or not is_anonymous_write(unquote_to_bytes(line.group(1)).decode("latin-1")) \
            or _TRANSFER_ENCODING.search(head):
        return True
    length = _CONTENT_LENGTH.search(head)
    if length is None or int(length.group(1)) > LOGIN_BODY:
        return True  # no body, or one the guard refuses at once (413)
    return len(body) >= int(length.group(1))


class Door:
    """Every connection of one desk: those still sending their headers (held here, oldest
    first, also per address) and those handed to the HTTP protocol (counted; the ones idle
    between requests kept oldest first), within ``limits``."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.waiting: OrderedDict[socket.socket, _Waiting] = OrderedDict()
        self.by_address: dict[str, OrderedDict[socket.socket, None]] = {}
        self.idle: OrderedDict[Any, None] = OrderedDict()  # protocols between requests
        self.bodies: OrderedDict[Any, None] = OrderedDict()  # protocols awaiting an anonymous body
        self.protocols = 0  # connections handed to the protocol and not lost yet
        self.handing = 0  # handed over, the protocol not made yet
        self.closed = 0  # connections closed to make room (for tests and the benchmark)
        self._listeners: list[tuple[asyncio.AbstractEventLoop, socket.socket, Callable[[], Any]]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Handle | None = None

    # ------------------------------------------------------------------ counts

    @property
    def open(self) -> int:
        return len(self.waiting) + self.protocols + self.handing

    # ------------------------------------------------------------------ the listening sockets

    def listen(self, loop: asyncio.AbstractEventLoop, sock: socket.socket, factory: Callable[[], Any]) -> Door:
        """Accept connections on ``sock`` (already bound) with protocols from ``factory``."""
        sock.listen(self.limits.queue)
        sock.setblocking(False)
        self._loop = loop
        self._listeners.append((loop, sock, factory))
        loop.add_reader(sock.fileno(), self._accept, loop, sock, factory)
        return self

    def close(self) -> None:
        """Stop accepting; close the connections still sending their headers."""
        for loop, sock, _ in self._listeners:
            if sock.fileno() >= 0:
                loop.remove_reader(sock.fileno())
        for sock in list(self.waiting):
            self._drop(sock)
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        self._listeners.clear()

    async def wait_closed(self) -> None:
        return None

    def _accept(self, loop: asyncio.AbstractEventLoop, sock: socket.socket, factory: Callable[[], Any]) -> None:
        for _ in range(BURST):
            try:
                conn, address = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:
                if exc.errno not in _OUT_OF_DESCRIPTORS:
                    raise
                # out of descriptors after all (keep-alive victims not closed yet, many ledgers
                # open at once): free a few, for the requests' own files too, and go on next
                # turn; with nothing to free, wait a moment
                freed = sum(self._make_room(None) for _ in range(EMFILE_ROOM))
                if not freed:
                    loop.remove_reader(sock.fileno())
                    loop.call_later(0.05, self._resume, loop, sock, factory)
                return
            conn.setblocking(False)
            self._admit(loop, conn, address[0] if isinstance(address, tuple) else "", factory)

    def _resume(self, loop: asyncio.AbstractEventLoop, sock: socket.socket, factory: Callable[[], Any]) -> None:
        if any(s is sock for _, s, _ in self._listeners) and sock.fileno() >= 0:
            loop.add_reader(sock.fileno(), self._accept, loop, sock, factory)

    def _admit(self, loop: asyncio.AbstractEventLoop, conn: socket.socket, address: str,
               factory: Callable[[], Any]) -> None:
        data = _read(conn, b"")
        if data is None:
            conn.close()
            return
        if self.open >= self.limits.max_connections and not self._make_room(address):
            conn.close()  # every connection is in the middle of a request
            return
        if _complete(data):
            self._hand_over(loop, conn, data, factory)
            return
        self.waiting[conn] = _Waiting(conn, address, data, loop.time() + self.limits.header_timeout)
        self.by_address.setdefault(address, OrderedDict())[conn] = None
        loop.add_reader(conn.fileno(), self._on_bytes, loop, conn, factory)
        if self._sweeper is None:
            self._sweeper = loop.call_later(self._sweep_every(), self._sweep, loop)

    def _make_room(self, address: str | None) -> bool:
        """Close one connection not in the middle of a request; ``False`` when there is none.

        A newcomer from ``address`` holding more than its share of the waiting connections
        closes that address's oldest; otherwise the oldest waiting connection of all goes,
        else the oldest still sending an anonymous body, else the oldest idle keep-alive
        connection."""
        if self.waiting:
            own = self.by_address.get(address) if address is not None else None
            if own and len(own) * len(self.by_address) > len(self.waiting):
                victim = next(iter(own))
            else:
                victim = next(iter(self.waiting))
            self._drop(victim)
            self.closed += 1
            return True
        while self.bodies:
            protocol, _ = self.bodies.popitem(last=False)
            transport = protocol.transport
            if transport is not None and not transport.is_closing():
                transport.abort()
                self.closed += 1
                return True
        while self.idle:
            protocol, _ = self.idle.popitem(last=False)
            transport = protocol.transport
            if isinstance(transport, LingeringTransport) and transport.lingering:
                transport.abort()
                self.closed += 1
                return True
            if transport is not None and not transport.is_closing():
                transport.abort()
                self.closed += 1
                return True
        return False

    def _forget(self, sock: socket.socket) -> _Waiting | None:
        held = self.waiting.pop(sock, None)
        if held is not None:
            own = self.by_address.get(held.address)
            if own is not None:
                own.pop(sock, None)
                if not own:
                    del self.by_address[held.address]
            if self._loop is not None:
                self._loop.remove_reader(sock.fileno())
        return held

    def _drop(self, sock: socket.socket) -> None:
        self._forget(sock)
        sock.close()

    def _on_bytes(self, loop: asyncio.AbstractEventLoop, conn: socket.socket, factory: Callable[[], Any]) -> None:
        held = self.waiting.get(conn)
        if held is None:
            return
        data = _read(conn, held.data)
        if data is None:
            self._drop(conn)
        elif _complete(data):
            self._forget(conn)
            self._hand_over(loop, conn, data, factory)
        else:
            held.data = data

    def _sweep_every(self) -> float:
        return max(0.05, min(0.5, self.limits.header_timeout / 4))

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Close the connections whose headers did not come in time, oldest first, at most
        :data:`SWEEP` in one turn of the event loop (1,000 of them timing out together would
        otherwise hold the loop for a noticeable time)."""
        self._sweeper = None
        now = loop.time()
        for _ in range(SWEEP):
            if not self.waiting:
                return
            sock, held = next(iter(self.waiting.items()))
            if held.deadline > now:
                break
            self._drop(sock)
        else:
            self._sweeper = loop.call_soon(self._sweep, loop)
            return
        self._sweeper = loop.call_later(self._sweep_every(), self._sweep, loop)

    def _hand_over(self, loop: asyncio.AbstractEventLoop, conn: socket.socket, data: bytes,
                   factory: Callable[[], Any]) -> None:
        """Give ``conn`` and the ``data`` read from it to a new HTTP protocol."""

        def make() -> Any:
            protocol = factory()
            protocol.received_first = data
            return protocol

        async def connect() -> None:
            try:
                await loop.connect_accepted_socket(make, conn)
            except (OSError, RuntimeError):
                conn.close()
            finally:
                self.handing -= 1

        self.handing += 1
        loop.create_task(connect())


def _read(sock: socket.socket, data: bytes) -> bytes | None:
    """``data`` and what ``sock`` has to read now; ``None`` when it was closed."""
    try:
        more = sock.recv(HEAD_LIMIT + LOGIN_BODY)
    except (BlockingIOError, InterruptedError):
        return data
    except OSError:
        return None
    return data + more if more else None


class LingeringTransport(asyncio.Transport):
    """``transport`` whose :meth:`close` first lingers: the response already written goes out,
    then a FIN (``write_eof``); reading goes on, and :meth:`drop` discards what arrives, until
    the client closes its side, :data:`LINGER_SECONDS` pass or :data:`LINGER_BYTES` arrive.
    Everything else is the wrapped transport's."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop,
                 on_linger: Callable[[], None]) -> None:
        super().__init__()
        self.wrapped = transport
        self.lingering = False
        self.dropped = 0
        self._loop = loop
        self._on_linger = on_linger
        self._timer: asyncio.TimerHandle | None = None

    def close(self) -> None:
        if self.lingering or self.wrapped.is_closing():
            return
        if not self.wrapped.can_write_eof():
            self.wrapped.close()
            return
        self.lingering = True
        self.wrapped.write_eof()
        self.wrapped.resume_reading()  # uvicorn may have paused it while the body waited
        self._timer = self._loop.call_later(LINGER_SECONDS, self.wrapped.close)
        self._on_linger()

    def drop(self, data: bytes) -> None:
        """Discard bytes read while lingering; close when they exceed :data:`LINGER_BYTES`."""
        self.dropped += len(data)
        if self.dropped > LINGER_BYTES:
            self.wrapped.close()

    def abort(self) -> None:
        self.stop_lingering()
        self.wrapped.abort()

    def stop_lingering(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def is_closing(self) -> bool:
        return self.lingering or self.wrapped.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.wrapped.get_extra_info(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.wrapped.write(data)

    def writelines(self, list_of_data: Any) -> None:
        self.wrapped.writelines(list_of_data)

    def write_eof(self) -> None:
        self.wrapped.write_eof()

    def can_write_eof(self) -> bool:
        return self.wrapped.can_write_eof()

    def pause_reading(self) -> None:
        if not self.lingering:
            self.wrapped.pause_reading()

    def resume_reading(self) -> None:
        self.wrapped.resume_reading()

    def is_reading(self) -> bool:
        return self.wrapped.is_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self.wrapped.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self.wrapped.get_write_buffer_size()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.wrapped.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.wrapped.get_protocol()


def protocol_class(door: Door, base: type[H11Protocol] | None = None) -> type[H11Protocol]:
    """uvicorn's h11 protocol (or ``base``: :func:`fast_protocol_class`) counting its
    connections in ``door``: it first reads the bytes the door read, and keeps the header clock
    between keep-alive requests."""
    limits = door.limits

    class GuardedH11Protocol(base or H11Protocol):  # type: ignore[misc]
        received_first = b""
        _header_timer: asyncio.TimerHandle | None = None
        _counted = False

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(LingeringTransport(transport, self.loop, self._lingers))
            self._counted = True
            door.protocols += 1
            self._idle()
            first, self.received_first = self.received_first, b""
            if first:
                self.data_received(first)

        def _idle(self) -> None:
            """This connection waits for a request: remember it, start the header clock."""
            door.idle[self] = None
            door.idle.move_to_end(self)
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(limits.header_timeout, self._too_slow)

        def _busy(self) -> None:
            door.idle.pop(self, None)
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.cycle is None or self.cycle.response_complete:
                door.idle.pop(self, None)
                if not self.transport.is_closing():
                    self.transport.abort()

        def _body_awaited(self) -> None:
            """Tell the door whether this connection's request is an anonymous write whose
            body is still coming in: then it may close it to make room (:meth:`Door._make_room`)."""
            cycle = self.cycle
            if (cycle is not None and cycle.more_body and not cycle.response_complete
                    and is_anonymous_write(cycle.scope["path"]) and cycle.scope["method"] not in SAFE_METHODS):
                door.bodies[self] = None
            else:
                door.bodies.pop(self, None)

        def _lingers(self) -> None:
            """Closing after a response: no request can follow, and the door may close this
            connection at once to make room (it waits for nothing)."""
            self._busy()
            door.idle[self] = None

        def data_received(self, data: bytes) -> None:
            if isinstance(self.transport, LingeringTransport) and self.transport.lingering:
                self.transport.drop(data)
                return
            was = self.cycle
            super().data_received(data)
            if self.cycle is not None and self.cycle is not was and not self.cycle.response_complete:
                self._busy()  # the headers of a new request are in
            elif (self.cycle is None or self.cycle.response_complete) and self._header_timer is None:
                self._idle()
            self._body_awaited()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            door.bodies.pop(self, None)
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                self._idle()  # between requests: the next one's headers are due in time

        def connection_lost(self, exc: Exception | None) -> None:
            if isinstance(self.transport, LingeringTransport):
                self.transport.stop_lingering()
                self.transport.lingering = False
            if self._counted:
                door.protocols -= 1
                self._counted = False
            door.bodies.pop(self, None)
            self._busy()
            super().connection_lost(exc)

    return GuardedH11Protocol


def fast_protocol_class(door: Door) -> type[H11Protocol]:
    """:func:`protocol_class` over uvicorn's httptools protocol (a parser in C, about five times
    the requests per second of h11 for a kept page), where httptools is installed; else h11.
    h11 refuses headers past its size limit itself; here the bytes of a request's headers are
    counted (keep-alive requests after the first, which the door has bounded already) and past
    :data:`HEAD_LIMIT` the connection is answered 400 and closed."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools is not installed: h11
        return protocol_class(door)

    class BoundedHeaders(HttpToolsProtocol):
        _header_bytes = 0
        _in_body = False

        def data_received(self, data: bytes) -> None:
            if not self._in_body:
                self._header_bytes += len(data)
            super().data_received(data)
            if not self._in_body and self._header_bytes > HEAD_LIMIT and not self.transport.is_closing():
                self.send_400_response("Request headers too large.")

        def on_headers_complete(self) -> None:
            self._in_body, self._header_bytes = True, 0
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._in_body = False
            super().on_message_complete()

    return protocol_class(door, BoundedHeaders)  # type: ignore[arg-type]


def serve(app: Any, host: str, port: int, limits: ConnectionLimits, *, fast: bool = False, **options: Any) -> None:
    """Run ``app`` with uvicorn on ``host:port`` behind a :class:`Door` within ``limits``
    (``options``: more of uvicorn's settings) until interrupted; ``fast``: over httptools
    (:func:`fast_protocol_class`), for the players' view."""
    import uvicorn

    door = Door(limits)
    http = fast_protocol_class(door) if fast else protocol_class(door)
    config = uvicorn.Config(app, host=host, port=port, http=http, backlog=limits.queue, **options)

    class DeskServer(uvicorn.Server):
        """uvicorn's server with the door instead of asyncio's accept loop."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await self.lifespan.startup()
            if self.lifespan.should_exit:
                raise SystemExit(3)
            loop = asyncio.get_running_loop()

            def create_protocol() -> asyncio.Protocol:
                return config.http_protocol_class(  # type: ignore[call-arg]
                    config=config, server_state=self.server_state, app_state=self.lifespan.state, _loop=loop)

            self.servers = [door.listen(loop, sock, create_protocol) for sock in sockets or ()]  # type: ignore[misc]
            self.started = True

    DeskServer(config).run(sockets=[config.bind_socket()])
