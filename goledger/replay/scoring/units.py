"""Pair Go and Rengo: a unit seen as one player (issue 47; docs/pairgo.md).

A Pair Go or Rengo tournament (``goledger new --system pairgo|rengo2|rengo3``) pairs *units*
(``UnitFormed``: two or three registered players who play one game together as one side).
The ledger records each unit's game under its first member (the *representative*), so every
recording command, the pairing engines, the standings and the printouts work on units through
one projection, :func:`unit_state`: the tournament with each unit as one player.

* **Strength** (pairgoth's ``TeamTournament.Team``, ``List<Int>.average``): the unit's rank is
  the mean of its members' ranks (OpenGotha's integers, 30k = −30 … 9d = 8) rounded to the
  nearest integer, a half towards the weaker rank (pairgoth subtracts 0.0001 before rounding);
  its rating the same mean of the members' ratings (``None`` when a member has none).
* **Name**: the unit's name, and as first name its members' surnames joined by ``/`` in their
  order of play (OpenGotha refuses a player without a first name).
* **Club, country**: the members' common one, else empty (pairgoth's ``Team.club``).
* **Final** only when every member is a final registration (pairgoth's ``final`` = all members
  final); a unit is withdrawn from the first round any member is, absent in every round any
  member is.
* The projection's system is the unit tournament's pairing family, ``mcmahon`` (default) or
  ``swiss`` (``--option pairing=swiss``): the McMahon start scores, the criteria and the
  OpenGotha engine see an ordinary individual tournament of units, and the handicap of a game
  is the tournament's handicap rule applied to the two units' ranks.

>>> mean_rank((0, -1)), mean_rank((2, 3)), mean_rank((-5, -10, -12))
(-1, 2, -9)
"""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import TYPE_CHECKING, Final

import msgspec

from goledger.ledger.values import Rank

if TYPE_CHECKING:
    from goledger.replay.fold.state import GameState, PlayerState, TournamentState, UnitState

__all__ = ["UNIT_SIZE", "UNIT_SYSTEMS", "is_unit_tournament", "mean_rank", "pairing_family", "unit_of_player",
           "unit_player", "unit_state"]

UNIT_SIZE: Final = {"pairgo": 2, "rengo2": 2, "rengo3": 3}
"""System → players per unit (pairgoth's ``Tournament.Type.playersNumber``)."""

UNIT_SYSTEMS: Final = frozenset(UNIT_SIZE)


def is_unit_tournament(state: TournamentState) -> bool:
    """Whether ``state`` is a Pair Go or Rengo tournament."""
    return state.settings is not None and state.settings.system in UNIT_SYSTEMS


def pairing_family(state: TournamentState) -> str:
    """``mcmahon`` or ``swiss``: how a unit tournament's rounds are paired and scored."""
    assert state.settings is not None
    return str(state.settings.system_options.get("pairing", "mcmahon"))


def mean_rank(values: tuple[int, ...]) -> int:
    """The integer nearest to the mean of ``values``, a half going to the lower integer
    (pairgoth: ``((sum − 0.0001) / n).roundToInt()``), in exact arithmetic."""
    mean = Fraction(sum(values), len(values))
    nearest = floor(mean + Fraction(1, 2))
    return nearest - 1 if mean + Fraction(1, 2) == nearest else nearest


def _common(values: list[str]) -> str:
    distinct = {v for v in values}
    return values[0] if len(distinct) == 1 else ""


def unit_player(state: TournamentState, unit: UnitState) -> PlayerState:
    """The unit as one player, under its representative's id (see the module docstring)."""
    members = [state.players[p] for p in unit.members]
    first = members[0]
    rank = mean_rank(tuple(Rank.parse(m.rank).value for m in members))
    ratings = [m.rating for m in members]
    rating = None if any(r is None for r in ratings) else mean_rank(tuple(r for r in ratings if r is not None))
    withdrawn = [m.withdrawn_from for m in members if m.withdrawn_from is not None]
    absences: dict[int, int | None] = {}
    for m in members:
        absences.update(m.absences)
    return msgspec.structs.replace(
        first, surname=unit.name, first_name="/".join(m.surname for m in members), rank=str(Rank.from_value(rank)),
        grade="", rating=rating,
        rating_origin="", club=_common([m.club for m in members]), country=_common([m.country for m in members]),
        egd_pin="", status="final" if all(m.status == "final" for m in members) else "preliminary",
        ids={}, extras={"members": ", ".join(m.full_name for m in members)}, rating_list=None,
        withdrawn_from=min(withdrawn) if withdrawn else None, absences=absences)


def unit_of_player(state: TournamentState, player_id: str) -> UnitState | None:
    """The unit ``player_id`` plays in, if any."""
    return next((u for u in state.units.values() if player_id in u.members), None)


def unit_state(state: TournamentState) -> TournamentState:
    """``state`` with every complete unit as one player under its representative's id and no
    other player; the games and byes of representatives only; the system the pairing family.
    A state that is not a unit tournament is returned as it is."""
    if not is_unit_tournament(state):
        return state
    assert state.settings is not None
    family = pairing_family(state)
    players = {u.representative: unit_player(state, u) for u in state.units.values()
               if all(p in state.players for p in u.members)}
    games: dict[int, dict[int, GameState]] = {
        r: {t: g for t, g in tables.items() if g.white in players and g.black in players}
        for r, tables in state.games.items()}
    table_of = {r: {p: t for p, t in by.items() if p in players} for r, by in state.table_of.items()}
    byes = {r: {p: v for p, v in by.items() if p in players} for r, by in state.byes.items()}
    return msgspec.structs.replace(
        state, settings=msgspec.structs.replace(state.settings, system=family),
        round_settings={r: msgspec.structs.replace(s, system=family) for r, s in state.round_settings.items()},
        players=players, games=games, table_of=table_of, byes=byes, teams={})
