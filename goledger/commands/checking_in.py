"""Checking in (issue 46, point 2): ``goledger check-in`` and ``goledger absent-unchecked``.

A player says he will play round R, from his phone through his personal key or at the desk:
a ``CheckedIn`` event, so the log (and the audit) shows who said it and when; the phone's
writes carry the actor ``player <id>`` (:func:`goledger.keys.player_actor`). "I will not
play" is the director's own ``absent`` with that actor. Checking in is over once the round
is paired. "Mark the others absent" (``absent-unchecked``) records an announced absence for
every player still waited for (:mod:`goledger.replay.scoring.check_ins`), one event each.
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.checks import check_round
from goledger.commands.recording import Intent, Outcome, PathLike, Plumbing, record
from goledger.errors import CommandRejected
from goledger.i18n.messages import nsay, say
from goledger.ledger import events as ev
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import TournamentState
from goledger.replay.scoring.check_ins import check_in_status, checked_in

__all__ = ["absent_unchecked", "answer_intent", "check_in", "decide_absent_unchecked", "decide_check_in"]


def _open_round(state: TournamentState, round_: int) -> None:
    check_round(state, round_)
    if state.games.get(round_) or state.byes.get(round_):
        raise CommandRejected(say("round %(round)d is already paired: checking in for it is over (ask the desk)",
                                  round=round_))


def decide_check_in(state: TournamentState, player: str, round_: int) -> list[ev.Event]:
    """``CheckedIn(player, round_)``, after cancelling his announced absence of the round if
    he had one (he came after all). Refuses a round already paired, a withdrawn player and
    one already checked in for the round.

    >>> from goledger.replay.fold.state import fold
    >>> s = fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=2)),
    ...           ev.PlayerRegistered(player_id="p0001", surname="Sato", rank="2d"),
    ...           ev.ParticipationChanged(player_id="p0001", round=1, participating=False)])
    >>> [type(e).__name__ for e in decide_check_in(s, "p0001", 1)]
    ['ParticipationChanged', 'CheckedIn']
    """
    _open_round(state, round_)
    p = find_player(state, player)
    if p.is_withdrawn(round_):
        raise CommandRejected(say("%(id)s %(name)s withdrew from round %(round)d", id=p.id, name=p.full_name,
                                  round=p.withdrawn_from))
    if checked_in(state, p, round_):
        raise CommandRejected(say("%(player)s has already checked in for round %(round)d",
                                  player=f"{p.id} {p.full_name}", round=round_))
    back = [ev.ParticipationChanged(player_id=p.id, round=round_, participating=True)] if round_ in p.absences else []
    return [*back, ev.CheckedIn(player_id=p.id, round=round_)]


def _check_in_message(state: TournamentState, events: list[ev.Event]) -> str:
    event = events[-1]
    assert isinstance(event, ev.CheckedIn)
    p = state.players[event.player_id]
    message = say("%(player)s checked in for round %(round)d", player=f"{p.id} {p.full_name}", round=event.round)
    return say("%(checked_in)s (his absence is cancelled)", checked_in=message) if len(events) > 1 else message


def check_in(db: PathLike, player: str, round: int, **plumbing: Unpack[Plumbing]) -> Outcome:  # noqa: A002
    """Record that ``player`` will play round ``round`` (:func:`decide_check_in`)."""
    return record(db, lambda state: decide_check_in(state, player, round), _check_in_message, **plumbing)


def answer_intent(player: str, round_: int, plays: bool, actor: str) -> Intent:
    """A player's answer for ``round_`` as one intent of a group write
    (:func:`goledger.commands.recording.record_many`): :func:`decide_check_in` when he
    ``plays``, else the announced absence of :func:`goledger.commands.absences.absent`
    (the policy's value), with ``actor``."""
    from goledger.commands.absences import decide_absent, participation_message

    if plays:
        return Intent(lambda state: decide_check_in(state, player, round_), _check_in_message, actor)
    return Intent(lambda state: decide_absent(state, player, round_), participation_message, actor)


def decide_absent_unchecked(state: TournamentState, round_: int) -> list[ev.Event]:
    """An announced absence in ``round_`` (worth what the policy says) for every player not
    checked in, not absent and not withdrawn; refused when there is nobody left to mark."""
    _open_round(state, round_)
    waiting = check_in_status(state, round_).waiting
    if not waiting:
        raise CommandRejected(say("every player has checked in for round %(round)d or is absent: nobody to mark absent",
                                  round=round_))
    return [ev.ParticipationChanged(player_id=pid, round=round_, participating=False) for pid in waiting]


def _absent_message(state: TournamentState, events: list[ev.Event]) -> str:
    rounds = {e.round for e in events if isinstance(e, ev.ParticipationChanged)}
    return nsay("round %(round)d: %(n)d player who had not checked in marked absent",
                "round %(round)d: %(n)d players who had not checked in marked absent", len(events),
                round=min(rounds), n=len(events))


def absent_unchecked(db: PathLike, round: int, **plumbing: Unpack[Plumbing]) -> Outcome:  # noqa: A002
    """Mark every player who has not checked in for ``round`` absent (:func:`decide_absent_unchecked`)."""
    return record(db, lambda state: decide_absent_unchecked(state, round), _absent_message, **plumbing)
