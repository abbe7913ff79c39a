"""Absences and byes: ``goledger absent``, ``present``, ``bye`` and ``unbye``.

An announced absence (``ParticipationChanged``) keeps a player out of one round's pairing;
what it counts is the rule policy's unless it is given its own value (a FIDE half- or
zero-point bye). The pairing bye (``ByeAssigned``) is one player's per round and, in McMahon,
Swiss and SwissCat, once per tournament, unless forced (the event then says ``forced``).
"""

from __future__ import annotations

from typing import Unpack

from goledger.commands.checks import (
    REPEATS_REFUSED,
    check_available,
    check_free,
    check_round,
    check_system,
    parse_points,
)
from goledger.commands.recording import Outcome, PathLike, Plumbing, first_event, record
from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.i18n.numbers import decimal
from goledger.ledger import events as ev
from goledger.replay.fold.players import find_player
from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = [
    "absent",
    "bye",
    "decide_absent",
    "decide_bye",
    "decide_present",
    "decide_unbye",
    "present",
    "unbye",
]


def _absence_points(points: str | None) -> int | None:
    points2 = parse_points(points)
    if points2 is not None and not 0 <= points2 <= 2:
        raise CommandRejected(say("an absence is worth 0, 0.5 or 1 point, not %(points)s", points=points))
    return points2


def _player_in(state: TournamentState, player: str, round_: int) -> PlayerState:
    check_round(state, round_)
    return find_player(state, player)


def decide_absent(state: TournamentState, player: str, round_: int, points: str | None = None) -> list[ev.Event]:
    """The announced absence of ``player`` in ``round_``, worth ``points`` (``0``, ``0.5``,
    ``1``; default: the policy's). Refuses a withdrawn player, one paired or holding the bye
    in the round (take it back first), and an absence already recorded with that value."""
    points2 = _absence_points(points)
    p = _player_in(state, player, round_)
    if p.is_withdrawn(round_):
        raise CommandRejected(say("%(id)s %(name)s withdrew from round %(round)d", id=p.id, name=p.full_name,
                                  round=p.withdrawn_from))
    check_free(state, p, round_)
    if round_ in p.absences and p.absences[round_] == points2:
        raise CommandRejected(say("%(player)s is already absent in round %(round)d", player=f"{p.id} {p.full_name}",
                                  round=round_))
    return [ev.ParticipationChanged(player_id=p.id, round=round_, participating=False, points2=points2)]


def participation_message(state: TournamentState, events: list[ev.Event], worth: str | None = None) -> str:
    event = first_event(events, ev.ParticipationChanged)
    p = state.players[event.player_id]
    who = {"player": f"{p.id} {p.full_name}", "round": event.round}
    if event.participating:
        return say("%(player)s present in round %(round)d", **who)
    if worth is not None:
        return say("%(player)s absent in round %(round)d worth %(points)s", points=decimal(worth), **who)
    return say("%(player)s absent in round %(round)d", **who)


def absent(
    db: PathLike,
    player: str,
    round: int,  # noqa: A002
    points: str | None = None,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Record an announced absence for one round (:func:`decide_absent`)."""
    _absence_points(points)  # refused before the ledger is opened
    return record(db, lambda state: decide_absent(state, player, round, points),
                  lambda state, events: participation_message(state, events, points), **plumbing)


def decide_present(state: TournamentState, player: str, round_: int) -> list[ev.Event]:
    """Cancel the announced absence of ``player`` in ``round_``; refuses one not marked absent."""
    p = _player_in(state, player, round_)
    if round_ not in p.absences:
        raise CommandRejected(say("%(player)s is not marked absent in round %(round)d",
                                  player=f"{p.id} {p.full_name}", round=round_))
    return [ev.ParticipationChanged(player_id=p.id, round=round_, participating=True)]


def present(db: PathLike, player: str, round: int, **plumbing: Unpack[Plumbing]) -> Outcome:  # noqa: A002
    """Cancel an announced absence (:func:`decide_present`)."""
    return record(db, lambda state: decide_present(state, player, round), participation_message, **plumbing)


def _bye_overrides(state: TournamentState, p: PlayerState, round_: int, force: bool) -> list[str]:
    """What ``--force`` overrides for a bye of ``p`` in ``round_`` (refused without it)."""
    overridden: list[str] = []
    check_available(state, p, round_, overridden if force else None)
    holders = state.byes.get(round_, {})
    if holders:
        other = state.players[next(iter(holders))]
        if not force:
            raise CommandRejected(say_at(
                "round %(round)d already has its bye (%(player)s); use --force for a second bye",
                N_("round %(round)d already has its bye (%(player)s); tick “Even so” for a second bye"),
                round=round_, player=f"{other.id} {other.full_name}"))
        overridden.append(say("a second bye in the round"))
    earlier = sorted(r for r, byes in state.byes.items() if r != round_ and p.id in byes)
    assert state.settings is not None
    if earlier and state.settings.system in REPEATS_REFUSED:
        if not force:
            raise CommandRejected(say_at("%(player)s already had the bye in round %(round)d; use --force to give him "
                                         "another", N_("%(player)s already had the bye in round %(round)d; tick “Even "
                                         "so” to give him another"), player=f"{p.id} {p.full_name}",
                                         round=earlier[0]))
        overridden.append(say("%(player)s's bye of round %(round)d", player=p.id, round=earlier[0]))
    return overridden


def decide_bye(state: TournamentState, player: str, round_: int, force: bool = False) -> list[ev.Event]:
    """The pairing bye of ``round_`` for ``player``. Unless ``force`` (then the event says
    ``forced``), refuses a second bye in the same round, an absent or withdrawn player, and in
    McMahon, Swiss and SwissCat tournaments a player who already had a bye in another round;
    always a player paired in the round and what the tournament system forbids."""
    p = _player_in(state, player, round_)
    overridden = _bye_overrides(state, p, round_, force)
    check_system(state, ev.ByeAssigned(round=round_, player_id=p.id))
    return [ev.ByeAssigned(round=round_, player_id=p.id, forced=bool(overridden))]


def bye_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``p0007 Abe Ann has the bye in round 3`` (and what ``--force`` overrode)."""
    event = first_event(events, ev.ByeAssigned)
    p = state.players[event.player_id]
    overridden = _bye_overrides(state, p, event.round, True) if event.forced else []
    who = {"player": f"{p.id} {p.full_name}", "round": event.round}
    if overridden:
        return say("%(player)s has the bye in round %(round)d (forced: %(overridden)s)",
                   overridden=", ".join(overridden), **who)
    return say("%(player)s has the bye in round %(round)d", **who)


def bye(
    db: PathLike,
    player: str,
    round: int,  # noqa: A002
    force: bool = False,
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Give the pairing bye of a round (:func:`decide_bye`)."""
    return record(db, lambda state: decide_bye(state, player, round, force), bye_message, **plumbing)


def decide_unbye(state: TournamentState, player: str, round_: int) -> list[ev.Event]:
    """Take back the bye of ``player`` in ``round_``; refuses a player without one."""
    p = _player_in(state, player, round_)
    if p.id not in state.byes.get(round_, {}):
        raise CommandRejected(say("%(player)s has no bye in round %(round)d", player=f"{p.id} {p.full_name}",
                                  round=round_))
    return [ev.ByeRemoved(round=round_, player_id=p.id)]


def unbye_message(state: TournamentState, events: list[ev.Event]) -> str:
    """``bye of p0007 Abe Ann in round 3 removed``."""
    event = first_event(events, ev.ByeRemoved)
    p = state.players[event.player_id]
    return say("bye of %(player)s in round %(round)d removed", player=f"{p.id} {p.full_name}", round=event.round)


def unbye(db: PathLike, player: str, round: int, **plumbing: Unpack[Plumbing]) -> Outcome:  # noqa: A002
    """Take a bye back (:func:`decide_unbye`)."""
    return record(db, lambda state: decide_unbye(state, player, round), unbye_message, **plumbing)
