"""The desk's connections (issue 27, §2): uvicorn's HTTP protocol with two more guards.

* **Slow headers time out.** A connection must finish its request's headers within
  ``header_timeout`` seconds of opening (or of its first byte after a finished response);
  otherwise it is closed. uvicorn only times out idle keep-alive connections, and a byte
  every few seconds defeats that (slowloris).
* **Connections are capped below the descriptor limit.** At most ``max_connections`` are
  open at once (by default the process's ``RLIMIT_NOFILE`` minus a reserve for the ledger's
  files, the thread pool and one burst of accepts). When a new connection would pass the
  cap, the oldest connection that is *not* in the middle of a request (half-open, or idle
  between requests) is closed to make room; if every connection is busy the new one is
  closed instead. So a flood of half-sent requests can never exhaust the descriptors: the
  accept loop keeps accepting, and a real request, whose headers arrive at once, is served.

:func:`protocol_class` makes the class uvicorn's ``http=`` option takes.
"""

from __future__ import annotations

import asyncio
import resource
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["BACKLOG", "ConnectionLimits", "default_limits", "protocol_class"]

BACKLOG = 64
"""The listening socket's backlog, which is also how many connections asyncio accepts in one
go: the descriptor reserve below covers a few such bursts before the cap closes their
victims."""
THREADS = 40
"""Starlette's thread pool (anyio's default): each thread may hold a ledger open (3 files)."""


@dataclass(frozen=True)
class ConnectionLimits:
    """``max_connections`` open at once; ``header_timeout`` seconds to send a request's headers."""

    max_connections: int
    header_timeout: float = 10.0


def default_limits(header_timeout: float = 10.0, nofile: int | None = None) -> ConnectionLimits:
    """The cap for this process: its soft ``RLIMIT_NOFILE`` (or ``nofile``) minus a reserve of
    4 accept bursts, 3 files per pool thread and 64 for everything else; at most 4,096 and at
    least 16.

    >>> default_limits(nofile=1024).max_connections
    584
    """
    if nofile is None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        nofile = soft if soft != resource.RLIM_INFINITY else 1 << 20
    reserve = 4 * BACKLOG + 3 * THREADS + 64
    return ConnectionLimits(max(16, min(4096, nofile - reserve)), header_timeout)


class _Registry:
    """The connections of one server, and those among them that are between requests
    (oldest first)."""

    def __init__(self) -> None:
        self.open = 0
        self.idle: OrderedDict[Any, None] = OrderedDict()


def protocol_class(limits: ConnectionLimits) -> type[H11Protocol]:
    """A subclass of uvicorn's h11 protocol enforcing ``limits`` over all its connections."""
    registry = _Registry()

    class GuardedH11Protocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None
        _counted = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._counted = True
            registry.open += 1
            if registry.open > limits.max_connections and not self._make_room():
                transport.abort()
                return
            self._idle()

        def _make_room(self) -> bool:
            """Close the oldest connection between requests; ``False`` when none is."""
            while registry.idle:
                victim, _ = registry.idle.popitem(last=False)
                if victim is not self and not victim.transport.is_closing():
                    victim.transport.abort()
                    return True
            return False

        def _idle(self) -> None:
            """This connection waits for a request: remember it, start the header clock."""
            registry.idle[self] = None
            registry.idle.move_to_end(self)
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(limits.header_timeout, self._too_slow)

        def _busy(self) -> None:
            registry.idle.pop(self, None)
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if self.cycle is None or self.cycle.response_complete:
                registry.idle.pop(self, None)
                if not self.transport.is_closing():
                    self.transport.abort()

        def data_received(self, data: bytes) -> None:
            was = self.cycle
            super().data_received(data)
            if self.cycle is not None and self.cycle is not was and not self.cycle.response_complete:
                self._busy()  # the headers of a new request are in
            elif (self.cycle is None or self.cycle.response_complete) and self._header_timer is None:
                self._idle()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
                registry.idle[self] = None
                registry.idle.move_to_end(self)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._counted:
                registry.open -= 1
                self._counted = False
            self._busy()
            super().connection_lost(exc)

    return GuardedH11Protocol
