"""Pair Go and Rengo units by ledger path (``goledger unit list``, the desk's units page).

>>> sorted(unit_rows.__annotations__)
['return', 'state']
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from goledger.replay.scoring.units import UNIT_SIZE, unit_of_player, unit_player, unit_state

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["as_units", "plays_as", "unit_list", "unit_page", "unit_rows"]

PathLike = str | os.PathLike[str]


def unit_rows(state: TournamentState) -> list[dict[str, Any]]:
    """Every unit in the order formed: id, name, the unit's rank and rating (its strength), the
    id it plays under, and its members in their order of play with rank and sex."""
    rows = []
    for unit in state.units.values():
        player = unit_player(state, unit)
        sexes = unit.sexes or ("",) * len(unit.members)
        rows.append({
            "id": unit.id, "name": unit.name, "rank": player.rank, "rating": player.rating,
            "plays_as": unit.representative, "status": player.status,
            "members": [{"id": p, "name": state.players[p].full_name, "rank": state.players[p].rank, "sex": s}
                        for p, s in zip(unit.members, sexes, strict=True)]})
    return rows


def unit_page(state: TournamentState) -> dict[str, Any]:
    """What the desk's units page shows: the system, its unit size (0: not a unit tournament),
    the units (:func:`unit_rows`) and the players in no unit."""
    system = state.settings.system if state.settings is not None else ""
    free = [p for p in state.players.values() if unit_of_player(state, p.id) is None]
    return {"system": system, "size": UNIT_SIZE.get(system, 0), "units": unit_rows(state), "free": free}


def as_units(state: TournamentState) -> TournamentState:
    """The state as the desk's round pages show it: a Pair Go or Rengo tournament's units as its
    players (:func:`goledger.replay.scoring.units.unit_state`), any other tournament as it is."""
    return unit_state(state)


def plays_as(state: TournamentState, player_id: str) -> str:
    """The id ``player_id``'s games are recorded under: his unit's first member's in a Pair Go or
    Rengo tournament, else his own."""
    unit = unit_of_player(state, player_id)
    return unit.representative if unit is not None else player_id


def unit_list(db: PathLike, as_of: int | None = None) -> dict[str, Any]:
    """``goledger unit list``: the tournament's system and its units (:func:`unit_rows`)."""
    # the read views load late: only a listing by ledger path needs them
    from goledger.replay.views import state_as_of

    state = state_as_of(db, as_of)
    system = state.settings.system if state.settings is not None else ""
    return {"system": system, "units": unit_rows(state)}
