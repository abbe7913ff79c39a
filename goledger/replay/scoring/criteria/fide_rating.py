"""FIDE rating arithmetic for the rating-based tie-breaks (C.07 article 10; spec scoring §4.2).

Two tables of the FIDE Rating Regulations (Handbook B.02, table 8.1):

* **8.1(a)** fractional score p (hundredths) → rating difference dp, used by TPR
  (``ARO + dp``). Symmetric: dp(1 − p) = −dp(p); dp(1.00) = +800, dp(0.00) = −800.
* **8.1(b)** rating difference D → expected score of the higher rated player
  (hundredths), used by PTP.

Averages are rounded to a whole number, halves up (C.07 10.1: "rounded to the nearest
whole number, 0.5 rounded upwards"); p is rounded to hundredths the same way.

>>> dp_for(Fraction(3, 4)), dp_for(Fraction(1, 4)), dp_for(Fraction(1)), dp_for(Fraction(0))
(193, -193, 800, -800)
>>> expected_hundredths(0), expected_hundredths(193), expected_hundredths(-193), expected_hundredths(800)
(50, 75, 25, 100)
>>> round_half_up(Fraction(48975, 20)), round_half_up(Fraction(21697, 9))
(2449, 2411)
"""

from __future__ import annotations

from bisect import bisect_left
from fractions import Fraction
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "DP_TABLE",
    "EXPECTED_TABLE",
    "dp_for",
    "expected_hundredths",
    "perfect_performance",
    "round_half_up",
    "tournament_performance",
]

DP_TABLE: Final[tuple[int, ...]] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,          # p = .50 … .59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,  # .60 … .69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,  # .70 … .79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,  # .80 … .89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,  # .90 … .99
    800,                                            # 1.00
)
"""dp for p = 0.50, 0.51, … 1.00 (FIDE B.02 table 8.1(a))."""

EXPECTED_TABLE: Final[tuple[int, ...]] = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68,
    76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235,
    245, 256, 267, 278, 290, 302, 315, 328, 344, 357,
    374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)
"""Upper bounds of the rating-difference brackets for expected scores 0.50, 0.51, … 0.99
(FIDE B.02 table 8.1(b)); a difference above 735 expects 1.00."""


def round_half_up(value: Fraction) -> int:
    """Nearest whole number, halves rounded upwards (FIDE's rounding of averages)."""
    return (2 * value.numerator + value.denominator) // (2 * value.denominator)


def dp_for(p: Fraction) -> int:
    """Table 8.1(a): the rating difference for a fractional score ``p`` (rounded to hundredths)."""
    hundredths = round_half_up(p * 100)
    hundredths = max(0, min(100, hundredths))
    if hundredths >= 50:
        return DP_TABLE[hundredths - 50]
    return -DP_TABLE[50 - hundredths]


def expected_hundredths(difference: int) -> int:
    """Table 8.1(b): expected score (hundredths) of a player rated ``difference`` above his opponent."""
    magnitude = abs(difference)
    index = bisect_left(EXPECTED_TABLE, magnitude)
    expected = 50 + index if index < len(EXPECTED_TABLE) else 100
    return expected if difference >= 0 else 100 - expected


def tournament_performance(opponent_ratings: Sequence[int], score: Fraction) -> int | None:
    """TPR (C.07 10.2): ARO + dp(score / games), ``None`` without games. ARO is rounded first."""
    if not opponent_ratings:
        return None
    aro = round_half_up(Fraction(sum(opponent_ratings), len(opponent_ratings)))
    return aro + dp_for(score / len(opponent_ratings))


def perfect_performance(opponent_ratings: Sequence[int], score: Fraction) -> int | None:
    """PTP (C.07 10.3): the lowest rating whose expected score against the opponents (table
    8.1(b)) reaches the actual score; a zero score gives the lowest opponent − 800 (10.3's
    only exception). A full score follows the general definition: the first rating where
    every expected score is 1.00, i.e. the highest opponent + 736 (a difference above 735
    expects 1.00). ``None`` without games.

    >>> perfect_performance([1900, 2000, 2100, 2200], Fraction(2))  # .70 + .57 + .43 + .30 = 2
    2047
    >>> perfect_performance([2000, 2000], Fraction(0)), perfect_performance([2000, 2100], Fraction(2))
    (1200, 2836)
    """
    if not opponent_ratings:
        return None
    if score <= 0:
        return min(opponent_ratings) - 800
    score = min(score, Fraction(len(opponent_ratings)))
    target = score * 100
    low, high = min(opponent_ratings) - 800, max(opponent_ratings) + 800
    while low < high:
        mid = (low + high) // 2
        if sum(expected_hundredths(mid - r) for r in opponent_ratings) >= target:
            high = mid
        else:
            low = mid + 1
    return low
