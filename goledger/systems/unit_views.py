"""Pair Go and Rengo units by ledger path (``goledger unit list``, the desk's units page).

>>> sorted(unit_rows.__annotations__)
['return', 'state']
"""

from __future__ import annotations

import os
from typing import Any

from goledger.replay.fold.state import TournamentState
from goledger.replay.scoring.units import unit_player

__all__ = ["unit_list", "unit_rows"]

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


def unit_list(db: PathLike, as_of: int | None = None) -> dict[str, Any]:
    """``goledger unit list``: the tournament's system and its units (:func:`unit_rows`)."""
    from goledger.replay.views import state_as_of

    state = state_as_of(db, as_of)
    system = state.settings.system if state.settings is not None else ""
    return {"system": system, "units": unit_rows(state)}
