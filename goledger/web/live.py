"""Live updates: one watcher of the ledger's head, many server-sent event streams (issue 32,
item 2).

One daemon thread per desk (while any stream is open) looks every ``poll`` seconds at the
ledger's files (their size and modification time) and reads the head, from a connection
opened for that read, when they changed, at least once a second, and at once when the desk
itself has just written (:meth:`HeadWatcher.written`: the desk's worker processes returned),
so a result entered at a desk reaches every open page without waiting for the next poll, and
a result written by the command line within ``poll`` seconds. Each stream waits on its own
:class:`asyncio.Event`, set from the thread with ``call_soon_threadsafe``: a hall of phones
costs one look per poll, not one per phone per poll, and no stream holds the ledger open.

The number of open streams is bounded by :class:`goledger.web.guard.DeskGuard`
(``GuardLimits.max_streams``: one more is answered ``503`` with ``Retry-After``). Every stream
ends after ``lifetime`` seconds; the browser reconnects.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import NamedTuple

__all__ = ["HeadMark", "HeadWatcher", "PublicPage", "public_page_of"]

KEEPALIVE = 15.0
"""Seconds between comment lines on an idle stream (proxies close silent connections)."""
FULL_READ = 1.0
"""Seconds after which the head is read even though the files look unchanged."""
RACY = 0.1
"""A file signature is trusted only when the files were last changed this many seconds or more
before the head was read with it (file times are coarse: an append in the same tick as the
read could otherwise keep the old signature)."""


def file_signature(db: Path | tuple[str, str]) -> tuple[tuple[int, int], ...]:
    """What changes when anything is appended to ledger ``db`` (a path, or the names of its
    file and its write-ahead log, :func:`ledger_files`): their size and modification time (two
    ``stat`` calls, no SQLite); ``(-1, -1)`` for a missing file."""
    out = []
    for path in ledger_files(db) if isinstance(db, Path) else db:
        try:
            st = os.stat(path)
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((-1, -1))
    return tuple(out)


def ledger_files(db: Path) -> tuple[str, str]:
    """The names of ledger ``db``'s file and of its write-ahead log."""
    return str(db), str(db.with_name(db.name + "-wal"))


class HeadMark:
    """The ledger's head (sequence number and hash) as the desk knows it (issue 45, item 1):
    read from SQLite only when the ledger's files have changed since the last read.

    Every public request asks whether its kept page is still current; opening the ledger for
    that (a connection, its meta row, the protection checks) cost most of a cached page's time.
    Instead the head is read once and kept with the files' signature (:func:`file_signature`);
    a later call costs two ``stat`` calls while the signature is the same. The kept head is
    trusted only when the files' last change was :data:`RACY` seconds before it was read
    (git's "racily clean" rule), so an append that lands in the same tick as a read is never
    missed. Anything appended changes the signature: the desk's worker processes, the command
    line, another desk.
    """

    def __init__(self, db: Path) -> None:
        self.db = db
        self._files = ledger_files(db)
        self._kept: tuple[tuple[tuple[int, int], ...], tuple[int, str]] | None = None
        """The files' signature and the head read with it (replaced whole: one assignment)."""

    def _read(self) -> tuple[int, str]:
        from goledger.ledger.store import Ledger

        with Ledger.open(self.db) as ledger:
            head = ledger.head()
            return head.seq, head.hash

    def current(self) -> tuple[int, str]:
        """``(seq, hash)`` of the head; ``(0, "")`` when there is no ledger yet."""
        signature = file_signature(self._files)
        if signature[0] == (-1, -1):
            return 0, ""
        kept = self._kept
        if kept is not None and kept[0] == signature:
            return kept[1]
        before = time.time_ns()
        mark = self._read()
        newest = max(mtime for _, mtime in signature)
        if file_signature(self._files) == signature and before - newest >= RACY * 1e9:
            self._kept = (signature, mark)
        return mark


class PublicPage(NamedTuple):
    """A players' page as rendered at one head: the event's sequence number and hash (``""``
    when it must not be kept), the whole page, and its ``<main>``'s content, what an open page
    swaps in when the head moves (the same bytes, cut from the page)."""

    seq: int
    hash: str
    body: bytes
    main: bytes


def public_page_of(seq: int, head_hash: str, text: str) -> PublicPage:
    """The page ``text`` rendered at event ``seq`` (hash ``head_hash``), with its ``<main>``'s
    content cut out (everything between the page's one ``<main>`` and its last ``</main>``:
    names on the page are escaped, so neither tag can come from the data).

    >>> public_page_of(3, "ab", "<body><main><p>x</p></main></body>").main
    b'<p>x</p>'
    """
    body = text.encode("utf-8")
    start, end = body.find(b"<main>"), body.rfind(b"</main>")
    main = body[start + len(b"<main>"):end] if 0 <= start < end else body
    return PublicPage(seq, head_hash, body, main)


class HeadWatcher:
    """The ledger head as last read, and the streams waiting for it to change."""

    def __init__(self, db: Path, poll: float) -> None:
        self.db = db
        self.poll = poll
        self.head = -1
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self._listeners: list[tuple[asyncio.AbstractEventLoop, Callable[[int], None]]] = []
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the thread

    def _read(self) -> int:
        """The head, from a connection opened for this one read (no connection is held
        between reads: a reader kept open while worker processes append was seen to read a
        malformed page)."""
        from goledger.ledger.store import Ledger

        if not self.db.exists():
            return 0
        with Ledger.open(self.db, check_protection=False) as ledger:  # a number to wake pages; they check
            return ledger.head().seq

    def _signature(self) -> tuple[tuple[int, int], ...]:
        """What changes when anything is appended (:func:`file_signature`)."""
        return file_signature(self.db)

    def _run(self) -> None:
        seen: tuple[tuple[int, int], ...] | None = None
        last_read = 0.0
        while True:
            with self._lock:
                if not self._waiters:
                    self._thread = None
                    return
            signature = self._signature()
            woken = self._wake.is_set()
            self._wake.clear()
            if woken or signature != seen or time.monotonic() - last_read >= FULL_READ:
                try:
                    seq = self._read()
                    seen, last_read = signature, time.monotonic()
                except Exception:  # a ledger being created or damaged: read again next time
                    seq = self.head
                if seq != self.head:
                    self.head = seq
                    self._notify()
            self._wake.wait(self.poll)

    def _notify(self, listeners_too: bool = True) -> None:
        with self._lock:
            waiters = list(self._waiters)
            listeners = list(self._listeners) if listeners_too else []
        for loop, callback in listeners:  # first: the pages are being rendered before the phones ask
            try:
                loop.call_soon_threadsafe(callback, self.head)
            except RuntimeError:  # that loop has closed
                with self._lock:
                    if (loop, callback) in self._listeners:
                        self._listeners.remove((loop, callback))
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

    def listen(self, loop: asyncio.AbstractEventLoop, callback: Callable[[int], None]) -> None:
        """Call ``callback(head)`` on ``loop`` whenever the watcher sees the head move (while
        any stream is open: without one nothing is watched live), before the streams are woken."""
        with self._lock:
            self._listeners.append((loop, callback))

    def watching(self) -> bool:
        """Whether any stream is open (then the watcher runs and calls its listeners)."""
        with self._lock:
            return bool(self._waiters)

    def written(self) -> None:
        """The desk has just appended: read the head now rather than at the next poll."""
        self._wake.set()

    def seen(self, seq: int) -> None:
        """Head ``seq`` was read on an event loop (the players' port's fast path reads it for
        every turn): the open streams are told now, without waiting for this watcher's thread
        to read it again (under a hall of phones that thread waits for the interpreter behind
        the rendering the new head starts). The listeners are not called: whoever saw the head
        has started what they start (:meth:`goledger.web.app._Pages.head_moved`)."""
        if seq > self.head >= 0:
            self.head = seq
            self._notify(listeners_too=False)

    # ------------------------------------------------------------------ the streams

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
