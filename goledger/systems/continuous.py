"""The MGE continuous handicap tournament (spec ``pairing.md`` §1.4, "Continuous handicap"):
no rounds; players choose their opponents by mutual consent, possibly the same one again; a
maximum grade difference applies, and the games between two players are capped (usually 2).

There is no pairing engine: the director records each game with ``goledger pair`` in any
round both players are free in (the round number is only a slot of the log). Refused with one
sentence: a game between two players who already played ``max_games_per_pair`` games, and a
pair more than ``max_rank_difference`` grades apart.

Ranking (the seeds ask for "a function that rewards many games and a high win ratio"): the
option ``ranking`` names one of

* ``wins-times-ratio`` (default): W × W / G, that is the wins weighted by the win ratio
  (W wins, a jigo ½, G games). 10 games with 5 wins score 2½; 16 games with 8 wins score 4,
  so they rank above, as the seed's example wants; 16 games with 7 wins score 3 1/16, below
  16 with 8 and *above* 10 with 5.
* ``wins-minus-half-losses``: W − L/2. 10/5 scores 2½, 16/8 scores 4; 16/7 scores 2½, level
  with 10/5, and the tiebreak (the higher win ratio) puts 10/5 first.

Ties are broken by the win ratio, then by the number of games. Values are exact fractions.

>>> from fractions import Fraction
>>> RANKINGS["wins-times-ratio"](Fraction(5), 10) < RANKINGS["wins-times-ratio"](Fraction(8), 16)
True
>>> RANKINGS["wins-times-ratio"](Fraction(7), 16)
Fraction(49, 16)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import msgspec

from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.systems.common import Place, Places, read_options, share_places
from goledger.systems.handicap import check_rank_difference

__all__ = ["RANKINGS", "ContinuousOptions", "check", "places"]


def _wins_times_ratio(wins: Fraction, games: int) -> Fraction:
    return wins * wins / games if games else Fraction(0)


def _wins_minus_half_losses(wins: Fraction, games: int) -> Fraction:
    return wins - (games - wins) / 2


RANKINGS: dict[str, Callable[[Fraction, int], Fraction]] = {
    "wins-times-ratio": _wins_times_ratio,
    "wins-minus-half-losses": _wins_minus_half_losses,
}
"""The named ranking functions: (wins, games) → the ranking value (see the module docstring)."""


class ContinuousOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system continuous-handicap --option max-games-per-pair=2``."""

    max_games_per_pair: int = 2
    max_rank_difference: int = 9
    ranking: str = "wins-times-ratio"


OPTIONS = ContinuousOptions


def options_of(state: Any) -> ContinuousOptions:
    opts = read_options(ContinuousOptions, state.settings.system_options, "continuous-handicap")
    if opts.ranking not in RANKINGS:
        raise CommandRejected(f"unknown ranking {opts.ranking!r}; use one of {', '.join(RANKINGS)}")
    if opts.max_games_per_pair < 1:
        raise CommandRejected("max-games-per-pair is 1 or more")
    return opts


def check(state: Any, event: ev.Event) -> None:
    """Refuse a game beyond the pair cap or the rank-difference limit, and byes."""
    if isinstance(event, ev.ByeAssigned):
        raise CommandRejected("a continuous handicap tournament has no byes: players choose their games")
    if not isinstance(event, ev.GamePaired):
        return
    opts = options_of(state)
    check_rank_difference(state, (event.white, event.black), opts.max_rank_difference, "continuous-handicap")
    pair = {event.white, event.black}
    count = sum(1 for g in state.all_games() if {g.white, g.black} == pair)
    if count >= opts.max_games_per_pair:
        a, b = (state.players[p] for p in (event.white, event.black))
        raise CommandRejected(f"{a.id} {a.full_name} and {b.id} {b.full_name} have played {count} games together, "
                              f"the most this tournament allows")


def records(state: Any) -> dict[str, tuple[Fraction, int]]:
    """Every player's (wins, games with a result); a jigo is half a win."""
    out = {p: (Fraction(0), 0) for p in state.players}
    for g in state.all_games():
        if g.result is Result.UNKNOWN:
            continue
        for pid in (g.white, g.black):
            wins, games = out[pid]
            out[pid] = (wins + Fraction(g.points2(pid), 2), games + 1)
    return out


def places(state: Any) -> Places:
    """Players by the named ranking, then win ratio, then games; equal players share."""
    opts = options_of(state)
    fn = RANKINGS[opts.ranking]
    rec = records(state)

    def key(pid: str) -> tuple[Fraction, Fraction, int]:
        wins, games = rec[pid]
        return (fn(wins, games), wins / games if games else Fraction(0), games)

    order = sorted(rec, key=lambda p: (key(p), -state.players[p].registered_seq), reverse=True)
    groups: list[tuple[list[tuple[str, str, str]], bool]] = []
    i = 0
    while i < len(order):
        k = key(order[i])
        members = [p for p in order[i:] if key(p) == k]
        wins, games = rec[members[0]]
        why = f"{_num(wins)} wins in {games} games: {opts.ranking} {_num(k[0])}"
        groups.append(([(p, state.players[p].full_name, why) for p in members], False))
        i += len(members)
    rows: tuple[Place, ...] = share_places(groups)
    return Places(system="continuous-handicap", round=state.last_round_with_games(), finished=False, rows=rows,
                  notes=(f"ranking {opts.ranking}; at most {opts.max_games_per_pair} games per pair, "
                         f"{opts.max_rank_difference} grades apart",))


def _num(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    whole, rest = divmod(value.numerator, value.denominator)
    return f"{whole} {rest}/{value.denominator}" if whole else f"{rest}/{value.denominator}"
