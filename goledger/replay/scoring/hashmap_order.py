"""The order in which OpenGotha 3.51.02 iterates its games (issue 19.3).

OpenGotha keeps a tournament's games in a ``java.util.HashMap<Integer, Game>`` keyed by
``(round − 1) · 1000 + (table − 1)`` (``Tournament.addGame``, ``Gotha.MAX_NUMBER_OF_TABLES``
= 1000). When a player has several games in one round (an invalid file that OpenGotha loads
as it is), its scoring pass calls ``ScoredPlayer.setGame(round, game)`` for every game in
``hmGames.values()`` order, so the game iterated **last** is the one the SOS family, SODOS,
SOSOS and EXT/EXR see; NBW, MMS and CPS add the points of every game.

Java's HashMap, as these keys meet it:

* ``Integer.hashCode()`` is the value; the map spreads it as ``h ^ (h >>> 16)`` and the
  bucket is ``hash & (capacity − 1)``;
* the capacity starts at 16 and doubles each time the size passes ¾ of it (a file loads
  into a fresh map, so the capacity is the smallest 16·2^k with size ≤ ¾·16·2^k);
* iteration runs through the buckets in index order and, inside a bucket, in insertion
  order (a resize splits a bucket keeping the relative order). Insertion order is the
  order the games were paired (the file's order on import).

A bucket only becomes a red-black tree (another order) with 9 keys in it and a capacity of
at least 64; these keys never get there in files within OpenGotha's 20 rounds (checked for
every full tournament of 1–20 rounds and 1–1,000 tables: at most 6 keys share a bucket).

>>> capacity(12), capacity(13), capacity(48), capacity(49)
(16, 32, 64, 128)
>>> bucket(game_key(1, 1), 16), bucket(game_key(2, 3), 16), bucket(game_key(2, 3), 64)
(0, 10, 42)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["bucket", "capacity", "game_key", "iteration_order"]


class _Game(Protocol):
    @property
    def round(self) -> int: ...

    @property
    def table(self) -> int: ...

    @property
    def paired_seq(self) -> int: ...


def game_key(round_: int, table: int) -> int:
    """OpenGotha's ``hmGames`` key of a game (rounds and tables counted from 1 here)."""
    return (round_ - 1) * 1000 + (table - 1)


def capacity(size: int) -> int:
    """The table size of a fresh ``HashMap`` after ``size`` insertions (default 16, load ¾)."""
    cap = 16
    while size > cap * 3 // 4:
        cap *= 2
    return cap


def bucket(key: int, cap: int) -> int:
    """The bucket of an ``Integer`` key in a table of ``cap`` buckets (``HashMap.hash``)."""
    h = key & 0xFFFFFFFF
    return (h ^ (h >> 16)) & (cap - 1)


G = TypeVar("G", bound=_Game)


def iteration_order(games: Iterable[G], size: int) -> list[G]:
    """``games`` (all of one map holding ``size`` games) in ``HashMap.values()`` order."""
    cap = capacity(size)
    return sorted(games, key=lambda g: (bucket(game_key(g.round, g.table), cap), g.paired_seq))
