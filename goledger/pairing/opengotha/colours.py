"""Colour and handicap of a pair, and OpenGotha's deterministic "random" (spec ``pairing.md``
§2.3 "Colour and handicap"; ``Tournament.gameBetween`` and ``Pairing.detRandom`` of 3.51.02).

**Handicap.** Each player's pseudo-rank is his rank, or with ``hdBasedOnMMS`` his McMahon
score after round R−1 halved (Java ``/ 2``) plus 30k, capped at ``hdNoHdRankThreshold``.
The difference, reduced by ``hdCorrection`` towards 0 (never past it) and capped at
``hdCeiling`` either way, is the handicap; the stronger takes White.

**Even games.** The player whose white–black balance (handicap-0 games) is larger takes
Black; on equal balances ``detRandom(1, p1, p2) == 0`` gives White to ``p1``.

**detRandom(max, p1, p2).** ``s`` = the two ``name + firstName`` strings, the one that sorts
first (Java ``compareTo``) first; ``n = (Σ s[i]·(i+1)) · 1234567 mod (max+1)``; if ``p1``'s
string sorted after ``p2``'s the result is ``max − n``. So it is not symmetric.

>>> det_random(10, [65], [66]), det_random(10, [66], [65])
(7, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.pairing.opengotha.facts import MIN_RANK, jdiv

if TYPE_CHECKING:
    from goledger.pairing.opengotha.facts import RoundFacts

__all__ = ["det_random", "game_between", "handicap_of", "pseudo_rank"]


def det_random(maximum: int, name1: list[int], name2: list[int]) -> int:
    """``Pairing.detRandom`` on the UTF-16 code units of the two players' ``name + firstName``
    (``name1`` is the first argument's)."""
    inverse = name1 > name2
    s = name2 + name1 if inverse else name1 + name2
    total = 0
    for i, c in enumerate(s):
        total += c * (i + 1)
    n = (total * 1234567) % (maximum + 1) if maximum + 1 != 0 else 0
    return maximum - n if inverse else n


def pseudo_rank(facts: RoundFacts, pid: str) -> int:
    """The rank the handicap is computed from (see the module docstring)."""
    w = facts.weights
    value = jdiv(facts.mms2[pid], 2) + MIN_RANK if w.hd_based_on_mms else facts.rank[pid]
    return min(value, w.hd_no_hd_rank_threshold)


def handicap_of(facts: RoundFacts, first: str, second: str) -> int:
    """The signed handicap ``gameBetween(first, second)`` gives: > 0 when ``first`` takes
    White and gives that many stones, < 0 when ``second`` does, 0 for an even game."""
    w = facts.weights
    hd = pseudo_rank(facts, first) - pseudo_rank(facts, second)
    if hd > 0:
        hd = max(hd - w.hd_correction, 0)
    if hd < 0:
        hd = min(hd + w.hd_correction, 0)
    return max(-w.hd_ceiling, min(w.hd_ceiling, hd))


def game_between(facts: RoundFacts, first: str, second: str) -> tuple[str, str, int]:
    """(white, black, handicap) of ``gameBetween(first, second)``."""
    hd = handicap_of(facts, first, second)
    if hd > 0:
        return first, second, hd
    if hd < 0:
        return second, first, -hd
    wb1, wb2 = facts.wb[first], facts.wb[second]
    if wb1 > wb2:
        return second, first, 0
    if wb1 < wb2:
        return first, second, 0
    if det_random(1, facts.name_key(first), facts.name_key(second)) == 0:
        return first, second, 0
    return second, first, 0
