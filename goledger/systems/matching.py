"""A small deterministic pairing search for the systems that pair a pool by hand-like rules
(the losers' bracket of a double knockout, the handicap tournament's score groups).

:func:`pair_in_order` takes the players in the order given; the first unpaired player meets
the candidate of lowest integer cost (ties: the earlier in the order), and the search backs
up when a later player is left without an allowed partner. ``cost`` returns ``None`` for a
forbidden pair. It is a depth-first search with a step budget, not a weighted matching: it
returns the first complete pairing in that order, which is what a director pairing by hand
down the list would find.

>>> pair_in_order(["a", "b", "c", "d"], lambda x, y: None if {x, y} == {"a", "b"} else 0)
[('a', 'c'), ('b', 'd')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.errors import CommandRejected
from goledger.i18n.messages import say

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["pair_in_order"]


def pair_in_order(players: Sequence[str], cost: Callable[[str, str], int | None],
                  budget: int = 200_000) -> list[tuple[str, str]] | None:
    """Pair all of ``players`` (an even number) or return ``None`` when no allowed pairing
    exists; refuses when the search exceeds ``budget`` steps."""
    if len(players) % 2:
        raise ValueError("pair_in_order needs an even number of players")
    index = {p: i for i, p in enumerate(players)}
    steps = 0

    def search(rest: list[str]) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        options: list[tuple[int, int, str]] = []
        for q in others:
            c = cost(first, q)
            if c is not None:
                options.append((c, index[q], q))
        options.sort()
        for _, _, q in options:
            steps += 1
            if steps > budget:
                raise CommandRejected(say("no pairing was found within %(budget)d steps; pair this round by hand",
                                          budget=budget))
            tail = search([p for p in others if p != q])
            if tail is not None:
                return [(first, q), *tail]
        return None

    return search(list(players))
