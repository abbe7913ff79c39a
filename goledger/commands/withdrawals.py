"""Withdrawals: ``goledger withdraw`` and ``reinstate``.

A player withdraws from a round on (``PlayerWithdrew``): he is paired no more, and what his
withdrawn rounds count is the rule policy's (:func:`goledger.replay.scoring.withdrawals.withdrawal_rule`,
named in the message). A withdrawal waits until his games and byes of that round and later
are taken back. Reinstating him (``PlayerReinstated``) undoes it from a round on; the rounds
missed in between stay missed.
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.checks import check_free, check_round
from goledger.commands.recording import Appending, Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState

__all__ = ["decide_reinstate", "decide_withdraw", "reinstate", "reinstate_message", "withdraw", "withdraw_message"]


def decide_withdraw(state: TournamentState, player: str, from_round: int, reason: str = "") -> list[ev.Event]:
    """The ``PlayerWithdrew`` of ``player`` (a reference) from ``from_round`` on. Refuses a
    round outside the tournament, a player who already withdrew from that round or earlier,
    and one still paired or holding a bye in that round or later (unpair first)."""
    check_round(state, from_round)
    p = find_player(state, player)
    if p.withdrawn_from is not None and p.withdrawn_from <= from_round:
        raise CommandRejected(say("%(player)s already withdrew from round %(round)d", player=f"{p.id} {p.full_name}",
                                  round=p.withdrawn_from))
    for r in range(from_round, state.rounds + 1):
        check_free(state, p, r)
    return [ev.PlayerWithdrew(player_id=p.id, from_round=from_round, reason=reason)]


def withdraw_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``p0004 Abe Ann withdraws from round 3; <what his withdrawn rounds count> (…)``."""
    from goledger.replay.scoring.choices import rules_at
    from goledger.replay.scoring.withdrawals import withdrawal_rule

    event = first_event(events, ev.PlayerWithdrew)
    p = state.players[event.player_id]
    rule = withdrawal_rule(rules_at(state, event.from_round))
    return say("%(player)s withdraws from round %(round)d; %(rule)s (goledger explain %(id)s shows it)",
               player=f"{p.id} {p.full_name}", round=event.from_round, rule=rule, id=p.id)


def desk_withdraw_message(state: TournamentState, events: list[ev.Event]) -> str:
    """:func:`withdraw_message` in the desk's language and words: the rule names the
    settings page, not the commands to type."""
    from goledger.replay.scoring.choices import rules_at
    from goledger.replay.scoring.withdrawals import withdrawal_rule

    event = first_event(events, ev.PlayerWithdrew)
    p = state.players[event.player_id]
    rule = withdrawal_rule(rules_at(state, event.from_round), desk=True)
    return say("%(player)s withdraws from round %(round)d; %(rule)s", player=f"{p.id} {p.full_name}",
               round=event.from_round, rule=rule)


def withdraw(
    db: PathLike,
    player: str,
    from_round: int,
    reason: str = "",
    **plumbing: Unpack[Appending],
) -> Outcome:
    """The player leaves from ``from_round`` on (:func:`decide_withdraw`)."""
    return record(db, lambda state: decide_withdraw(state, player, from_round, reason), withdraw_message,
                  reason=reason, **plumbing)


def decide_reinstate(state: TournamentState, player: str, from_round: int) -> list[ev.Event]:
    """The ``PlayerReinstated`` of ``player`` from ``from_round`` on; refuses a player who has
    not withdrawn."""
    check_round(state, from_round)
    p = find_player(state, player)
    if p.withdrawn_from is None:
        raise CommandRejected(say("%(player)s has not withdrawn", player=f"{p.id} {p.full_name}"))
    return [ev.PlayerReinstated(player_id=p.id, from_round=from_round)]


def reinstate_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``p0004 Abe Ann plays again from round 5``."""
    event = first_event(events, ev.PlayerReinstated)
    p = state.players[event.player_id]
    return say("%(player)s plays again from round %(round)d", player=f"{p.id} {p.full_name}", round=event.from_round)


def reinstate(db: PathLike, player: str, from_round: int, **plumbing: Unpack[Plumbing]) -> Outcome:
    """Undo a withdrawal from ``from_round`` on (:func:`decide_reinstate`)."""
    return record(db, lambda state: decide_reinstate(state, player, from_round), reinstate_message, **plumbing)
