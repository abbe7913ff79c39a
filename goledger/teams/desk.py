"""What the desk's team pages show (issue 30, item 4), as plain data for the templates: a
player's team and match of a round (the players' view), computed from the state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goledger.teams.model import roster
from goledger.teams.standings import matches_of_round

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState


def player_team(state: TournamentState, player_id: str, round_: int) -> dict[str, Any] | None:
    """The team ``player_id`` plays for in ``round_``, his board, and the match of that round
    (opponent team, the two teams' board wins); ``None`` when he is on no team."""
    if not state.teams:
        return None
    ro = roster(state)
    tid = ro.team_of(state, player_id, round_)
    if tid is None:
        return None
    board = next((b for b, p in ro.members(state, tid, round_).items() if p == player_id), None)
    match = next((m for m in matches_of_round(state, round_, ro) if tid in (m.team_a, m.team_b)), None)
    info: dict[str, Any] = {"team": ro.name[tid], "board": board, "round": round_, "opponent": None}
    if match is not None:
        other = match.opponent(tid)
        info |= {"opponent": ro.name[other], "wx2": match.wx2_of(tid), "opponent_wx2": match.wx2_of(other)}
    return info
