"""The tournament without one event, built from the state with it (DESIGN §6, what-if).

``fold(events minus E)`` refolds the whole rest of the log for every event an audit leaves
out: the audit report does it for every withdrawal, correction and player update. Most such
events act on one *key* of the state only, and the fold of the other keys never reads it:

* a result (``ResultRecorded`` / ``ResultCorrected`` of round r, table t) sets the result of
  the game at (r, t); without it, that game keeps the result of the last other result event
  since it was paired (none: unknown). Pairings, byes and every other game are unchanged.
* a player's own event (``PlayerUpdated``, ``PlayerWithdrew``, ``PlayerReinstated``,
  ``ParticipationChanged``) changes that player's record only; without it, the record is the
  fold of his other own events since his registration, through the fold's own handlers.

:func:`scoring_state_without` builds that state from the final one, sharing everything else
(read it, never apply events to it), and says which players it touched, so that the round
tables and criteria of the final state serve it too (:func:`goledger.replay.scoring.rounds.derive_table`).
Sequence numbers (``seq``, ``result_seq``) and the anomalies are the final state's: the state
*scores* as the refold does, which is what a comparison of standings reads. Any other event
(a registration, a pairing, a rule change, an unregistration…) gives ``None``: refold, and
so does a result in a round where games were edited or moved by hand.
``tests/replay/test_without.py`` compares both ways for every event of generated tournaments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, apply

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["OWN_TYPES", "PlayerEvents", "scoring_state_without"]

OWN_TYPES: Final = (ev.PlayerRegistered, ev.PlayerUpdated, ev.PlayerWithdrew, ev.PlayerReinstated,
                    ev.ParticipationChanged, ev.PlayerUnregistered)
"""Events that write one player's record (and only his)."""

_RESULTS: Final = (ev.ResultRecorded, ev.ResultCorrected)
_MOVES: Final = (ev.GameEdited, ev.GameMoved, ev.TablesRenumbered)


class PlayerEvents:
    """Per player, the sequence numbers of his own events (:data:`OWN_TYPES`), and per
    (round, table), those of its results, read once from a log."""

    def __init__(self, events: Sequence[ev.Event]) -> None:
        self.events = events
        self.own: dict[str, list[int]] = {}
        self.results: dict[tuple[int, int], list[int]] = {}
        self.edited_rounds: set[int] = set()
        """Rounds with a hand edit that moves a game or swaps its colours (issue 31): a result
        event there may no longer be about the game now at its table, so those refold."""
        for seq, event in enumerate(events, start=1):
            if isinstance(event, OWN_TYPES):
                self.own.setdefault(event.player_id, []).append(seq)
            elif isinstance(event, _RESULTS):
                self.results.setdefault((event.round, event.table), []).append(seq)
            elif isinstance(event, _MOVES):
                self.edited_rounds.add(event.round)


def scoring_state_without(final: TournamentState, index: PlayerEvents, seq: int
                          ) -> tuple[TournamentState, set[str], bool] | None:
    """A state that scores as ``fold`` of the log without event ``seq`` (see the module
    doc), the players whose rows may differ from ``final``'s, and whether a player's own
    record changed (start scores may move); ``None`` when the event's effect is not local."""
    event = index.events[seq - 1]
    if isinstance(event, _RESULTS):
        if event.round in index.edited_rounds:
            return None
        return _without_result(final, index, seq, event)
    if isinstance(event, OWN_TYPES) and not isinstance(event, ev.PlayerRegistered | ev.PlayerUnregistered):
        return _without_own(final, index, seq, event.player_id)
    return None


def _shallow(final: TournamentState) -> TournamentState:
    """A new state object sharing every part of ``final`` (a read-only view)."""
    return msgspec.structs.replace(final)


def _without_result(final: TournamentState, index: PlayerEvents, seq: int,
                    event: ev.ResultRecorded | ev.ResultCorrected) -> tuple[TournamentState, set[str], bool]:
    game = final.games.get(event.round, {}).get(event.table)
    state = _shallow(final)
    if game is None or game.paired_seq > seq:  # no game now, or paired again since: nothing changes
        return state, set(), False
    result, by_default, result_seq = Result.UNKNOWN, False, None
    for other in index.results.get((event.round, event.table), ()):
        if game.paired_seq < other != seq:
            found = index.events[other - 1]
            assert isinstance(found, _RESULTS)
            result, by_default, result_seq = found.result, found.by_default, other
    if (result, by_default) == (game.result, game.by_default):
        return state, set(), False
    tables = dict(final.games[event.round])
    tables[event.table] = msgspec.structs.replace(game, result=result, by_default=by_default, result_seq=result_seq)
    state.games = {**final.games, event.round: tables}
    return state, {game.white, game.black}, False


def _without_own(final: TournamentState, index: PlayerEvents, seq: int, player_id: str
                 ) -> tuple[TournamentState, set[str], bool] | None:
    player = final.players.get(player_id)
    if player is None:
        return None  # unknown or unregistered: let the fold say what happens
    own = [s for s in index.own.get(player_id, ()) if s >= player.registered_seq]
    if not own or own[0] != player.registered_seq or seq not in own:
        return None
    # The player's own events alone, through the fold's handlers, on a state holding him only.
    scratch = TournamentState(settings=final.settings)
    for number in own:
        if number != seq:
            scratch.seq = number - 1
            apply(scratch, index.events[number - 1])
    record = scratch.players.get(player_id)
    if record is None:
        return None
    state = _shallow(final)
    state.players = {**final.players, player_id: record}
    return state, {player_id}, True
