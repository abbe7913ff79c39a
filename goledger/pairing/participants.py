"""Who takes part in the pairing of a round (spec ``pairing.md`` §2, "Who is paired").

A player is paired in round R when he is registered as final (OpenGotha's ``FIN``; a
preliminary entry is never paired), has not withdrawn before or at R, has not announced an
absence for R, and is not already in a game or given the bye of R. The order is the ledger's
registration order; engines sort as their own rules say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["players_to_pair"]


def players_to_pair(state: TournamentState, round_: int) -> tuple[str, ...]:
    """The ids of the players round ``round_`` still has to pair (see the module docstring)."""
    busy = set(state.table_of.get(round_, {})) | set(state.byes.get(round_, {}))
    return tuple(
        p.id for p in state.players.values()
        if p.status == "final" and not p.is_withdrawn(round_) and round_ not in p.absences and p.id not in busy
    )
