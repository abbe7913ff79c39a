"""Rate limits for the players' reports (issue 46, item 5): token buckets in memory, bounded.

A :class:`RateLimit` keeps one bucket per name (a player's key, a client address): each holds
at most ``burst`` tokens and gains ``per_minute`` of them a minute; a request takes one or is
refused. At most ``max_names`` buckets are kept: the one used least recently is forgotten
first (a forgotten name starts again with a full bucket, so the bound costs an attacker who
cycles through more names than that nothing he could not have had with a fresh address). The
buckets live in the server process; a restart empties them.

The desk uses two (:data:`KEY_LIMIT`, :data:`ADDRESS_LIMIT`): per key, a few reports a
minute (a player reports his game once or twice); per address, generously (a congress hall's
phones may all reach the desk from one address), which is what bounds guessing keys.

>>> limit = RateLimit(per_minute=60, burst=2, max_names=2, clock=lambda: 0.0)
>>> [limit.allow("a") for _ in range(3)]
[True, True, False]
>>> limit.allow("b"), limit.allow("c"), len(limit)
(True, True, 2)
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

__all__ = ["ADDRESS_LIMIT", "KEY_LIMIT", "RateLimit"]


class RateLimit:
    """Token buckets by name: ``burst`` at most, ``per_minute`` refilled, ``max_names`` kept."""

    def __init__(self, per_minute: int, burst: int, max_names: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_minute / 60
        self.burst = burst
        self.max_names = max_names
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def allow(self, name: str) -> bool:
        """Take a token from ``name``'s bucket; ``False`` when it is empty."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(name, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
            allowed = tokens >= 1
            self._buckets[name] = (tokens - 1 if allowed else tokens, now)
            while len(self._buckets) > self.max_names:
                self._buckets.popitem(last=False)
            return allowed

    def __len__(self) -> int:
        return len(self._buckets)


KEY_LIMIT: Final = (6, 6, 50_000)
"""Per key: 6 reports a minute, 6 at once; 50,000 keys kept (per_minute, burst, max_names)."""
ADDRESS_LIMIT: Final = (3_000, 2_000, 50_000)
"""Per address: 3,000 requests to the report form a minute, 2,000 at once (a whole congress
behind one address, 760 players each opening the form and posting it, 1,520 requests, at
once: at 1,000 the EGC 2011 benchmark had 272 of its 760 reports refused); 50,000 addresses
kept."""
