"""Renderings of the players' pages, one per page and head however many ask (issue 45, item 2).

When a result moves the ledger's head, every phone's next request misses the kept pages
(:mod:`goledger.web.page_cache`). :class:`Renders` makes sure each page is rendered once at the
new head:

* **Single flight.** A rendering started for a page at a head is registered at once; any
  request for the same page at the same head waits for it (:meth:`Renders.running`) instead of
  rendering again, and a request that finds the page already kept at that head
  (:meth:`goledger.web.page_cache.PageCache.hit`) takes it. The page is kept as soon as its
  rendering ends, on the event loop, before anyone waiting hears of it.
* **Ahead of the phones.** The pages being watched are rendered again the moment the new head
  is seen (:meth:`Renders.start` with ``ahead``), without waiting for a turn of the event loop
  or a free thread of the request pool: on one thread of their own, one page after another,
  most watched first, so the page the live frames fetch is the first one ready.

A rendering that fails is not kept: its own request gets the error (the page's refusal), the
others waiting for it are told ``None`` and render it themselves.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from goledger.web.page_cache import KeptPage, PageCache

__all__ = ["Renders"]


class Renders:
    """The renderings of the pages of ``cache`` in flight, by page (its key)."""

    def __init__(self, cache: PageCache) -> None:
        self.cache = cache
        self.inflight: dict[str, tuple[int, asyncio.Future[KeptPage | None]]] = {}
        """Page → (the head's sequence number it is being rendered at, told the page when kept)."""
        self._ahead: ThreadPoolExecutor | None = None
        """The thread the watched pages are rendered ahead on (made at the first such page)."""

    def running(self, key: str, seq: int) -> asyncio.Future[KeptPage | None] | None:
        """The rendering of page ``key`` at head ``seq`` in flight on this event loop, if any:
        its future is set to the page when it is kept (``None`` when it failed)."""
        flight = self.inflight.get(key)
        if flight is None or flight[0] != seq or flight[1].get_loop() is not asyncio.get_running_loop():
            return None
        return flight[1]

    def start(self, key: str, seq: int, make: Callable[[], KeptPage], *,
              ahead: bool = False) -> asyncio.Future[KeptPage]:
        """Start ``make()`` (page ``key`` at head ``seq``) in a thread now, in the caller's
        context (its language): on the rendering-ahead thread when ``ahead``, else in the
        event loop's pool. Returns its result (or error); the page is kept when it ends."""
        loop = asyncio.get_running_loop()
        if ahead and self._ahead is None:
            self._ahead = ThreadPoolExecutor(1, thread_name_prefix="goledger-ahead")
        work = loop.run_in_executor(self._ahead if ahead else None, contextvars.copy_context().run, make)
        told: asyncio.Future[KeptPage | None] = loop.create_future()
        self.inflight[key] = (seq, told)

        def ended(work: asyncio.Future[KeptPage]) -> None:
            if self.inflight.get(key, (0, None))[1] is told:
                del self.inflight[key]
            kept = None if work.cancelled() or work.exception() is not None else work.result()
            if kept is not None:
                kept = self.cache.put(key, kept)  # kept only when rendered at a known head
            told.set_result(kept)

        work.add_done_callback(ended)
        return work
