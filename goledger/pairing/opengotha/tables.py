"""Table numbers (spec ``pairing.md`` §2.1; ``Tournament.renumberTablesByBestScoreThenRating``
and ``GameComparator.BEST_SCR_ORDER`` of 3.51.02).

Each game is represented by one of its players, as 3.51.02's comparator picks him: White,
except that Black represents the game when White places *strictly better* than Black
(``compare(white, black) == -1``), or when they place equal and White's rating is lower.
Games are sorted by their representative: placement first (the placement criteria at round
R, before it is played), then the higher rating. For two games equal on both the comparator
answers "after" either way, so their order is what Java's TimSort makes of the order the
matching returned the games in; :func:`~goledger.pairing.opengotha.javasort.java_sort` runs
that algorithm. Tables are numbered 1, 2, … skipping the tables already used in the round.

**Fallback (issue 40).** Because that comparator is not a total order, Java's TimSort may
detect the inconsistency during a galloping merge and throw ``IllegalArgumentException:
Comparison method violates its general contract!`` — OpenGotha itself then fails to pair the
round. It happens on big fields with many equal ratings (a 760-player McMahon with real EGD
ratings, round 1 or 2). goledger never fails there: when the faithful sort throws, the games
are ordered by a *stable* sort on the same keys — the representative's placement, better
first, then his rating, higher first — so games equal on both keep the order the matching
returned them in. That order is deterministic (the matching's order is) and is what OpenGotha's
sort leaves on every input where it does not throw, up to the order among such equal games.
:func:`number_tables` then returns :data:`FALLBACK_NOTE` as its note, which ``pair-round``
shows and puts in its JSON ``note``; otherwise the note is empty.

>>> number_tables([("a", "b"), ("c", "d")], {"a": (2,), "b": (2,), "c": (4,), "d": (0,)},
...               {"a": 10, "b": 20, "c": 5, "d": 7}, used=())
Numbering(tables=[(1, 'a', 'b'), (2, 'c', 'd')], note='')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from goledger.pairing.opengotha.javasort import JavaContractError, java_sort

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

__all__ = ["FALLBACK_NOTE", "Numbering", "number_tables", "order_games", "representative"]

FALLBACK_NOTE: Final = (
    "tables numbered by best score, then rating, equal games in the matching's order: OpenGotha's own table "
    "sort fails on this round (its comparator breaks Java's sort contract on games equal in score and rating)")
"""The note of a round whose tables were numbered by the fallback rule (module docstring)."""


class Numbering(NamedTuple):
    """(table, white, black) per game, and the note: :data:`FALLBACK_NOTE` when the fallback
    rule numbered them, else empty."""

    tables: list[tuple[int, str, str]]
    note: str


def representative(white: str, black: str, placement: Mapping[str, tuple[int, ...]],
                   rating: Mapping[str, int]) -> str:
    """The player whose placement and rating order the game (see the module docstring)."""
    pw, pb = placement[white], placement[black]
    best = white
    if pw == pb and rating[white] < rating[black]:
        best = black
    if pw > pb:
        best = black
    return best


def order_games(games: Sequence[tuple[str, str]], placement: Mapping[str, tuple[int, ...]],
                rating: Mapping[str, int]) -> tuple[list[tuple[str, str]], str]:
    """``games`` (given as (white, black) in matching order) in OpenGotha's table order, with
    an empty note; or, where OpenGotha's sort would throw, in the fallback order with
    :data:`FALLBACK_NOTE` (module docstring)."""
    best = {game: representative(game[0], game[1], placement, rating) for game in games}

    def compare(g1: tuple[str, str], g2: tuple[str, str]) -> int:
        b1, b2 = best[g1], best[g2]
        p1, p2 = placement[b1], placement[b2]
        if p1 != p2:
            return -1 if p1 > p2 else 1
        return -1 if rating[b1] > rating[b2] else 1

    try:
        ordered = java_sort(games, compare)
        if sorted(ordered) == sorted(games):  # a permutation, as Java's sort always leaves
            return ordered, ""
    except (JavaContractError, IndexError):
        pass
    # sorted() is stable, with reverse=True too: equal games keep the matching's order.
    return sorted(games, key=lambda g: (placement[best[g]], rating[best[g]]), reverse=True), FALLBACK_NOTE


def number_tables(games: Sequence[tuple[str, str]], placement: Mapping[str, tuple[int, ...]],
                  rating: Mapping[str, int], used: Iterable[int] = ()) -> Numbering:
    """(table, white, black) for ``games`` (given as (white, black) in matching order) in the
    order of :func:`order_games`, numbered from 1 skipping the tables in ``used``; and the note."""
    ordered, note = order_games(games, placement, rating)
    taken = set(used)
    out: list[tuple[int, str, str]] = []
    table = 0
    for white, black in ordered:
        table += 1
        while table in taken:
            table += 1
        out.append((table, white, black))
    return Numbering(out, note)
