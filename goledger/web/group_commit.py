"""Group commit of many small writes of the same kind (issue 46, item 6: a congress's phones).

Each write through the desk runs in a worker process and takes the ledger's lock, folds the
state and commits on its own (:mod:`goledger.web.isolate`): a few a second on a loaded
machine, so 760 players checking in at once wait minutes. :class:`GroupCommit` queues the
requests instead: while one batch is being written, the requests that arrive wait together,
and the next batch is ALL of them, written by one worker call (``fn(db, items)``, which
decides them in turn and appends them in one transaction,
:func:`goledger.commands.recording.record_many`). Each request is answered with its own
``(status, message)``. Requests in different languages go in different batches (the worker
speaks one). A batch of one is written as soon as it comes: no request waits for others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from pathlib import Path
from typing import Generic, TypeVar

from goledger.web.isolate import Done

__all__ = ["GroupCommit"]

Item = TypeVar("Item", bound=Hashable)
Answer = tuple[int, str]


class GroupCommit(Generic[Item]):
    """Batches ``items`` for ``work(fn, db, items)`` (the desk's :meth:`Pages.work`), at most
    ``limit`` per batch; one batch in flight at a time (they take the ledger's lock anyway)."""

    def __init__(self, work: Callable[..., Awaitable[Done]], fn: Callable[..., Done], db: Path,
                 limit: int = 1000) -> None:
        self.work, self.fn, self.db, self.limit = work, fn, db, limit
        self.pending: dict[str, list[tuple[Item, asyncio.Future[Answer]]]] = {}
        self.running: asyncio.Task[None] | None = None
        self.batches: list[int] = []
        """Each written batch's size, in order (what the benchmark and the tests read)."""

    async def submit(self, item: Item, language: str) -> Answer:
        """Queue ``item`` (its messages in ``language``) and wait for its own answer."""
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self.pending.setdefault(language, []).append((item, future))
        if self.running is None or self.running.done():
            self.running = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        """Write batches until nothing is waiting."""
        from goledger.i18n import use_language

        while self.pending:
            language = next(iter(self.pending))
            waiting = self.pending.pop(language)
            batch, rest = waiting[:self.limit], waiting[self.limit:]
            if rest:
                self.pending[language] = rest
            try:
                with use_language(language):
                    done = await self.work(self.fn, self.db, [item for item, _ in batch])
                answers: list[Answer] = list(done.data) if isinstance(done.data, list) else []
            except Exception as exc:  # the worker itself failed: every request of the batch hears it
                answers, done = [], Done(503, str(exc))
            if len(answers) != len(batch):
                answers = [(done.status if done.status != 200 else 503, done.message)] * len(batch)
            self.batches.append(len(batch))
            for (_, future), answer in zip(batch, answers, strict=True):
                if not future.done():
                    future.set_result(answer)
