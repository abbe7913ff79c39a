"""Rating ↔ grade on the EGD scale (spec ``egd.md`` §11, "Rating ↔ grade").

A grade's value is where a new or unrated player starts: 1d = 2100 and 100 points per grade
(1k = 2000, 20k = 100, 30k = −900, 7d = 2700), then the professional scale 1p = 2700 and 30
points per professional grade (9p = 2940).

>>> from goledger.ledger.values import Rank
>>> [grade_value(Rank.parse(g)) for g in ("30k", "1k", "1d", "7d", "1p", "9p")]
[-900, 2000, 2100, 2700, 2700, 2940]
>>> str(grade_of_rating(2049)), str(grade_of_rating(2050)), str(grade_of_rating(-1000))
('1k', '1d', '30k')
"""

from __future__ import annotations

from decimal import ROUND_FLOOR, Decimal

from goledger.ledger.values import Rank

__all__ = ["GRADE_STEP", "grade_of_rating", "grade_value"]

GRADE_STEP = 100
"""Points between two amateur grades."""


def grade_value(rank: Rank) -> int:
    """The EGD rating a player of ``rank`` starts from."""
    if rank.kind == "p":
        return 2700 + 30 * (rank.number - 1)
    if rank.kind == "d":
        return 2100 + GRADE_STEP * (rank.number - 1)
    return 2100 - GRADE_STEP * rank.number


def grade_of_rating(rating: int | Decimal) -> Rank:
    """The amateur grade whose band holds ``rating``: 1d is [2050, 2150), as OpenGotha and
    pairgoth bucket it; clamped to 30k … 9d."""
    value = int(((Decimal(rating) - 2050) / GRADE_STEP).to_integral_value(rounding=ROUND_FLOOR))
    return Rank.from_value(max(-30, min(8, value)))
