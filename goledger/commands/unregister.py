"""Cancelling a mistaken registration (issue 20, item 3): ``goledger unregister``.

A withdrawal (``PlayerWithdrew``) keeps the player in the standings, scored for his missing
rounds as the policy says (``withdrawn`` field); a cancelled registration
(``PlayerUnregistered``) removes an entry that never played from every view.
"""

from __future__ import annotations

from typing import Any

from goledger.commands.record import Outcome, PathLike, _run
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.outputs import one_line
from goledger.replay.players import find_player

__all__ = ["unregister"]


def unregister(
    db: PathLike,
    player: str,
    reason: str = "",
    *,
    actor: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Cancel a mistaken registration: the player leaves every view (standings, lists,
    exports) as if never entered. Refused once he has a game or a bye in any round: a player
    who played withdraws instead (``withdraw``), so that his games keep counting for his
    opponents."""

    def build(state: Any) -> tuple[list[ev.Event], str]:
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
        why = f" ({one_line(reason)})" if reason else ""
        return [ev.PlayerUnregistered(player_id=p.id, reason=reason)], (
            f"registration of {p.id} {p.full_name} cancelled{why}; he no longer appears anywhere")

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)
