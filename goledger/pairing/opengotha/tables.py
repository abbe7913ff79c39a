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

>>> number_tables([("a", "b"), ("c", "d")], {"a": (2,), "b": (2,), "c": (4,), "d": (0,)},
...               {"a": 10, "b": 20, "c": 5, "d": 7}, used=())
[(1, 'a', 'b'), (2, 'c', 'd')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from goledger.pairing.opengotha.javasort import java_sort

__all__ = ["number_tables", "representative"]


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


def number_tables(games: Sequence[tuple[str, str]], placement: Mapping[str, tuple[int, ...]],
                  rating: Mapping[str, int], used: Iterable[int] = ()) -> list[tuple[int, str, str]]:
    """(table, white, black) for ``games`` (given as (white, black) in matching order):
    sorted as the module docstring says, numbered from 1 skipping the tables in ``used``."""
    best = {game: representative(game[0], game[1], placement, rating) for game in games}

    def compare(g1: tuple[str, str], g2: tuple[str, str]) -> int:
        b1, b2 = best[g1], best[g2]
        p1, p2 = placement[b1], placement[b2]
        if p1 != p2:
            return -1 if p1 > p2 else 1
        return -1 if rating[b1] > rating[b2] else 1

    ordered = java_sort(games, compare)
    taken = set(used)
    out: list[tuple[int, str, str]] = []
    table = 0
    for white, black in ordered:
        table += 1
        while table in taken:
            table += 1
        out.append((table, white, black))
    return out
