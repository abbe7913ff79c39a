"""Live updates: one watcher of the ledger's head, many server-sent event streams (issue 32,
item 2).

One daemon thread per desk reads the ledger's head (a one-row query) every ``poll`` seconds,
and at once when the desk itself has just written (:meth:`HeadWatcher.written`), so a result
entered at a desk reaches every open page without waiting for the next poll, and a result
written by the command line within ``poll`` seconds. Each stream waits on its own
:class:`asyncio.Event`, set from the thread with ``call_soon_threadsafe``: a hall of phones
costs one query per poll, not one per phone per poll.

The number of open streams is bounded (:data:`MAX_STREAMS` unless the desk is told
otherwise): a stream beyond it is answered ``503`` with ``Retry-After``, and the page falls
back to its plain links. Every stream ends after ``lifetime`` seconds; the browser reconnects.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

__all__ = ["MAX_STREAMS", "HeadWatcher"]

MAX_STREAMS = 2000
"""Open live streams per desk (each is one idle connection and one asyncio event)."""

KEEPALIVE = 15.0
"""Seconds between comment lines on an idle stream (proxies close silent connections)."""


class HeadWatcher:
    """The ledger head as last read, and the streams waiting for it to change."""

    def __init__(self, db: Path, poll: float, max_streams: int = MAX_STREAMS) -> None:
        self.db = db
        self.poll = poll
        self.max_streams = max_streams
        self.head = -1
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the thread

    def _read(self) -> int:
        from goledger.ledger.store import Ledger

        if not self.db.exists():
            return 0
        with Ledger.open(self.db) as ledger:
            return ledger.head().seq

    def _run(self) -> None:
        from goledger.ledger.store import Ledger

        ledger = None
        try:
            while True:
                with self._lock:
                    if not self._waiters:
                        self._thread = None
                        return
                try:
                    if ledger is None and self.db.exists():
                        ledger = Ledger.open(self.db)
                    seq = ledger.head().seq if ledger is not None else 0
                except Exception:  # a ledger being replaced or damaged: read again next time
                    if ledger is not None:
                        ledger.close()
                    ledger, seq = None, self.head
                if seq != self.head:
                    self.head = seq
                    self._notify()
                self._wake.wait(self.poll)
                self._wake.clear()
        finally:
            if ledger is not None:
                ledger.close()

    def _notify(self) -> None:
        with self._lock:
            waiters = list(self._waiters)
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop has closed; its stream is gone
                with self._lock:
                    self._waiters.discard((loop, event))

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="goledger-head-watcher", daemon=True)
                self._thread.start()

    def written(self) -> None:
        """The desk has just appended: read the head now rather than at the next poll."""
        self._wake.set()

    # ------------------------------------------------------------------ the streams

    def full(self) -> bool:
        """Whether no further stream may open now."""
        with self._lock:
            return len(self._waiters) >= self.max_streams

    async def stream(self, lifetime: float, disconnected: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
        """``event: head`` with the head now and at every change, until ``lifetime`` seconds
        have passed or the client has gone (``await disconnected()`` is true)."""
        loop = asyncio.get_running_loop()
        event = asyncio.Event()
        key = (loop, event)
        with self._lock:
            self._waiters.add(key)
        self._ensure_thread()
        end = time.monotonic() + lifetime
        last = None
        try:
            yield "retry: 2000\n\n"
            if self.head < 0:
                self.head = await asyncio.to_thread(self._read)
            while True:
                seq = self.head
                if seq != last:
                    last = seq
                    yield f"event: head\ndata: {seq}\n\n"
                left = end - time.monotonic()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(event.wait(), min(left, KEEPALIVE))
                except TimeoutError:
                    if await disconnected():
                        break
                    if time.monotonic() < end:
                        yield ": keepalive\n\n"
                event.clear()
        finally:
            with self._lock:
                self._waiters.discard(key)
