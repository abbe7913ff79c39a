"""The elimination bracket shared by ``knockout`` and the winners' side of ``double-knockout``
(spec ``pairing.md`` §1.1, "Knockout" and "Pairing methods").

For N entrants listed strongest first the bracket has ``size`` = the smallest power of two
≥ N slots and ⌈log₂ N⌉ rounds (the seed's example: 76 players → 7 rounds). The ``size − N``
top seeds get a bye in round 1 (they sit where the standard seeding would put them against a
slot numbered above N). The other entrants meet as the pairing method says:

* ``fold``: 1–N, 2–(N−1), …, placed in the standard seeding order, so that 1 and 2 can meet
  only in the final, 1–4 only from the semi-finals on, and so on;
* ``adjacent``: 1–2, 3–4, …; ``slide``: the upper half against the lower half, 1–(N/2+1),
  2–(N/2+2), … — these fill the round-1 matches in bracket order, and each later round
  pairs the winners of neighbouring matches.

>>> standard_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> first_round(8, "fold")
[(1, 8), (4, 5), (2, 7), (3, 6)]
>>> first_round(8, "adjacent")
[(1, 2), (3, 4), (5, 6), (7, 8)]
>>> first_round(8, "slide")
[(1, 5), (2, 6), (3, 7), (4, 8)]
>>> first_round(5, "fold")
[(1, None), (4, 5), (2, None), (3, None)]
>>> knockout_rounds(76)
7
"""

from __future__ import annotations

from typing import Literal

from goledger.errors import CommandRejected
from goledger.i18n.messages import say

__all__ = ["Method", "first_round", "knockout_rounds", "standard_order"]

Method = Literal["fold", "adjacent", "slide"]


def knockout_rounds(n: int) -> int:
    """⌈log₂ n⌉: the rounds a single knockout of ``n`` entrants needs (0 for one entrant)."""
    return max(0, (n - 1).bit_length())


def standard_order(size: int) -> list[int]:
    """Seed numbers in bracket order for a bracket of ``size`` (a power of two): each seed s
    of the half-size order is followed by its fold partner ``size + 1 − s``."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def first_round(n: int, method: str) -> list[tuple[int, int | None]]:
    """Round 1 as (seed, seed or ``None`` for a bye) pairs in bracket order (see the module
    docstring); the better seed comes first."""
    if n < 2:
        raise CommandRejected(say("an elimination bracket needs at least two entrants"))
    if method not in ("fold", "adjacent", "slide"):
        raise CommandRejected(say("unknown pairing method %(method)r; use fold, adjacent or slide", method=method))
    size = 1 << knockout_rounds(n)
    order = standard_order(size)
    slots = [(order[i], order[i + 1]) for i in range(0, size, 2)]
    if method == "fold":
        return [(a, b if b <= n else None) for a, b in slots]
    byes = size - n
    rest = list(range(byes + 1, n + 1))
    half = len(rest) // 2
    if method == "adjacent":
        pairs = [(rest[2 * i], rest[2 * i + 1]) for i in range(half)]
    else:
        pairs = [(rest[i], rest[i + half]) for i in range(half)]
    out: list[tuple[int, int | None]] = []
    fill = iter(pairs)
    for a, b in slots:
        out.append((a, None) if b > n else next(fill))
    return out
