"""Library entry points by ledger path for the team views (``goledger standings --teams``,
``explain --team``, ``team list``): each resolves the state as of an event and calls the pure
function of :mod:`goledger.teams.standings`."""

from __future__ import annotations

import os
from typing import Any

from goledger.replay.views import state_as_of
from goledger.teams.model import roster, team_criteria
from goledger.teams.standings import TeamStandings, explain_team, team_standings

__all__ = ["team_explanation", "team_list", "team_standings_at"]

PathLike = str | os.PathLike[str]


def team_standings_at(db: PathLike, round_: int | None = None, as_of: int | None = None
                      ) -> tuple[TeamStandings, dict[str, Any]]:
    """The team standings after ``round_`` as of event ``as_of``, and their JSON."""
    state = state_as_of(db, as_of)
    standings = team_standings(state, round_)
    return standings, standings.to_dict(state)


def team_explanation(db: PathLike, team: str, round_: int | None = None, as_of: int | None = None) -> dict[str, Any]:
    """``explain --team``: every team criterion of ``team`` term by term."""
    return explain_team(state_as_of(db, as_of), team, round_)


def team_list(db: PathLike, round_: int | None = None, as_of: int | None = None) -> dict[str, Any]:
    """Every team with its number, short name and the members of round ``round_`` (default 1)."""
    state = state_as_of(db, as_of)
    ro = roster(state)
    r = round_ or 1
    out = []
    for tid in sorted(ro.ids, key=lambda t: ro.number[t]):
        team = state.teams[tid]
        members = ro.members(state, tid, r)
        out.append({"id": tid, "name": ro.name[tid], "short_name": team.short_name, "number": ro.number[tid],
                    "boards": team.boards or ro.size,
                    "members": [{"board": b, "id": p, "name": state.players[p].full_name}
                                for b, p in sorted(members.items())]})
    return {"round": r, "team_size": ro.size, "criteria": [c for c in team_criteria(state) if c != "NULL"],
            "teams": out}
