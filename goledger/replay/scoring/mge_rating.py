"""The handicap-equalised rating difference of the Hungarian federation's rules (Magyar Go
Egyesület, "Versenyszabályok"; seed example ``mge-rating.json``).

MGE rates a handicap game on the *equalised* difference: the raw rating difference less what
the stones given are worth, and a stone is worth the step between the lower rating limits of
the ranks it spans. For a 1 dan rated 1910 receiving 2 stones from a 3 dan rated 2020, with the
lower limits of 1 dan and 3 dan 140 points apart: raw difference 110, compensation 140,
equalised difference 110 − 140 = −30. The handicap is worth 30 points more than the rating gap,
so the 3 dan plays that game as the 30-point underdog. A result counts with that difference, so
a win earns the 3 dan more than an even game would. That is how we read the document's
"30 points in favour of the 3 dan"; its rule and its numbers agree on the size, 30.

MGE's table of lower limits per rank is not in the documents this project was founded on. The
caller gives the lower limits as a function of rank, and goledger does not make one up. The
example's numbers only fix the difference between the 1 dan and 3 dan limits.

The document's other rules are stated without numbers, so they are not implemented here: the
game-point curve ("opposite game points in [−1, 1]; ½ / −½ at equal equalised rating"), the
split of tournaments whose constant × rounds exceeds 300, and unrated players (they start from
their rank's lower limit, which needs the table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from goledger.ledger.values import Rank

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["equalised_difference"]

STRONGEST = Rank.parse("9d")


def equalised_difference(
    stronger: tuple[int, Rank], weaker: tuple[int, Rank], stones: int, lower_limit: Callable[[Rank], int]
) -> int:
    """The rating difference of a handicap game, stronger-ranked minus weaker-ranked player,
    less the worth of the ``stones`` given: ``lower_limit(weaker rank + stones) −
    lower_limit(weaker rank)``. Positive: the stronger-ranked player is still the favourite.
    Negative: the stones more than make up the gap. An even game (0 stones) is the raw
    difference.

    The players are (rating, rank) pairs. The stones move the weaker player's rank up, one rank
    per stone. ``lower_limit`` gives the MGE lower rating limit of a rank.

    The seed example, with lower limits 140 apart from 1 dan to 3 dan (the other limits here
    are placeholders):

    >>> limits = {"1d": 1900, "2d": 1970, "3d": 2040}.__getitem__
    >>> equalised_difference((2020, Rank.parse("3d")), (1910, Rank.parse("1d")), 2, lambda r: limits(str(r)))
    -30
    >>> equalised_difference((2020, Rank.parse("3d")), (1910, Rank.parse("1d")), 0, lambda r: limits(str(r)))
    110
    """
    (high_rating, high_rank), (low_rating, low_rank) = stronger, weaker
    if stones < 0:
        raise ValueError(f"stones must be 0 or more, not {stones}")
    if low_rank > high_rank:
        raise ValueError(f"{low_rank} is stronger than {high_rank}: give the stronger-ranked player first")
    raw = high_rating - low_rating
    if stones == 0:
        return raw
    if low_rank.value + stones > STRONGEST.value:
        raise ValueError(f"{stones} stones take {low_rank} beyond {STRONGEST}")
    received = Rank.from_value(low_rank.value + stones)
    return raw - (lower_limit(received) - lower_limit(low_rank))
