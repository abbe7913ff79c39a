"""What each event touches (DESIGN §8, concurrent desks): :func:`subjects` names what an
event is about — a table of a round, a player in a round, a player, the rules, a team — so that
a command repeated with ``--retry`` can tell whether the events another desk appended since its
expected head concern the same thing (a conflict) or something else (safe to append). No
words here: ``goledger.describe.events`` says an event and a subject in the language.

>>> from goledger.ledger import events as ev
>>> sorted(subjects(ev.GamePaired(round=2, table=3, white="p0001", black="p0002")))
[('player in round', 'p0001', 2), ('player in round', 'p0002', 2), ('table', 2, 3)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from goledger.ledger import events as ev

if TYPE_CHECKING:
    from collections.abc import Iterable

    from goledger.ledger.store import Record

__all__ = ["Subject", "all_subjects", "record_subjects", "subjects"]

Subject = tuple[Any, ...]
"""``("table", round, table)``, ``("player in round", id, round)``, ``("player", id)``,
``("team", id)``, ``("round", round)`` (a whole round's pairing), ``("round shown", round)``
(showing it to the players), ``("report", id, round)`` (a player's own report of his game) or
``("rules",)``."""


def subjects(event: ev.Event) -> set[Subject]:
    """What ``event`` is about (see :data:`Subject`); provenance events touch nothing."""
    match event:
        case ev.GamePaired(round=r, table=t, white=w, black=b):
            return {("table", r, t), ("player in round", w, r), ("player in round", b, r)}
        case ev.PairingRemoved(round=r, table=t) | ev.ResultRecorded(round=r, table=t) | ev.ResultCorrected(
            round=r, table=t
        ):
            return {("table", r, t)}
        case ev.GameEdited(round=r, table=t):
            return {("table", r, t)}
        case ev.GameMoved(round=r, table=t, to_table=to):
            return {("table", r, t), ("table", r, to)}
        case ev.TablesRenumbered(round=r):
            return {("round", r)}
        case ev.ByeAssigned(player_id=pid, round=r) | ev.ByeRemoved(player_id=pid, round=r):
            return {("player in round", pid, r)}
        case ev.ParticipationChanged(player_id=pid, round=r) | ev.CheckedIn(player_id=pid, round=r):
            return {("player in round", pid, r)}
        case ev.PlayerRegistered(player_id=pid) | ev.PlayerUpdated(player_id=pid):
            return {("player", pid)}
        case ev.PlayerWithdrew(player_id=pid) | ev.PlayerReinstated(player_id=pid):
            return {("player", pid)}
        case ev.PlayerUnregistered(player_id=pid):
            return {("player", pid)}
        case ev.TournamentCreated() | ev.RulesChanged():
            return {("rules",)}
        case ev.TeamRegistered(team_id=tid) | ev.TeamMemberAssigned(team_id=tid) | ev.TeamMemberRemoved(
            team_id=tid
        ) | ev.TeamRemoved(team_id=tid):
            return {("team", tid)}
        case ev.UnitFormed(unit_id=uid) | ev.UnitDissolved(unit_id=uid):
            return {("unit", uid)}
        case ev.PairingAnnotated(round=r, table=t, bye=bye):
            return {("player in round", bye, r)} if bye else {("table", r, t)}
        case ev.PairingConstraintSet(player_a=a, player_b=b):
            return {("player", a), ("player", b)}
        case ev.PairingFixed(round=r, player_a=a, player_b=b):
            return {("player in round", a, r), ("player in round", b, r)}
        case ev.TableFixed(player_id=pid):
            return {("player", pid)}
        case ev.RoundPaired(round=r, players=players):
            return {("player in round", p, r) for p in players}
        case ev.RoundUnpaired(round=r):
            return {("round", r)}
        case ev.RoundShown(round=r):
            return {("round shown", r)}
        case ev.ResultClaimed(round=r, player_id=pid):
            return {("report", pid, r)}
        case ev.StandingsFrozen() | ev.StandingsUnfrozen():
            return {("standings frozen",)}
    return set()


def all_subjects(events: Iterable[ev.Event]) -> set[Subject]:
    out: set[Subject] = set()
    for event in events:
        out |= subjects(event)
    return out


def record_subjects(record: Record) -> set[Subject]:
    """What a stored record is about: the store's ``keys_of`` for a write that names its
    dependencies (:meth:`goledger.ledger.store.Ledger.writing`); raises on a record that
    cannot be decoded, which the store then counts as touching everything."""
    return subjects(record.event)
