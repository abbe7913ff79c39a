"""Cancelling a mistaken registration (issue 20, item 3): ``goledger unregister``.

A withdrawal (``PlayerWithdrew``) keeps the player in the standings, scored for his missing
rounds as the policy says (``withdrawn`` field); a cancelled registration
(``PlayerUnregistered``) removes an entry that never played from every view.
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.recording import Appending, Outcome, PathLike, first_event, record
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.outputs import one_line
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState

__all__ = ["decide_unregister", "unregister"]


def decide_unregister(state: TournamentState, player: str, reason: str = "") -> list[ev.Event]:
    """The ``PlayerUnregistered`` of ``player``: refused once he has a game or a bye in any
    round (a player who played withdraws instead, so that his games keep counting for his
    opponents)."""
    p = find_player(state, player)
    for r in sorted(state.table_of):
        if p.id in state.table_of[r]:
            raise CommandRejected(
                f"{p.id} {p.full_name} has a game in round {r}; a player who played withdraws instead "
                f"(goledger withdraw {p.id} --from-round R)")
    for r in sorted(state.byes):
        if p.id in state.byes[r]:
            raise CommandRejected(
                f"{p.id} {p.full_name} has the bye of round {r}; remove it (unbye) or withdraw him instead")
    return [ev.PlayerUnregistered(player_id=p.id, reason=reason)]


def unregister_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``registration of p0009 Abe Ann cancelled (typed twice); he no longer appears anywhere``."""
    event = first_event(events, ev.PlayerUnregistered)
    p = state.players[event.player_id]
    why = f" ({one_line(event.reason)})" if event.reason else ""
    return f"registration of {p.id} {p.full_name} cancelled{why}; he no longer appears anywhere"


def unregister(db: PathLike, player: str, reason: str = "", **plumbing: Unpack[Appending]) -> Outcome:
    """Cancel a mistaken registration (:func:`decide_unregister`): the player leaves every view
    (standings, lists, exports) as if never entered."""
    return record(db, lambda state: decide_unregister(state, player, reason), unregister_message, reason=reason,
                  **plumbing)
