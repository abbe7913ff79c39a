"""Pair Go and Rengo (``goledger new --system pairgo|rengo2|rengo3``; issue 47, docs/pairgo.md):
units of two (Pair Go: a woman and a man; Rengo 2) or three (Rengo 3) registered players, each
unit paired as one player by McMahon or Swiss, as pairgoth's ``PAIRGO``, ``RENGO2`` and
``RENGO3`` tournaments pair their teams.

``pair-round`` (engine ``units``, version 1) asks the ``opengotha`` engine to pair the units of
:func:`goledger.replay.scoring.units.unit_state` (every unit as one player with its strength,
the system the pairing family); the games it returns are recorded between the units'
representatives (their first members). A unit is paired in round R when every member is free in
R (final, not withdrawn, not absent, no game); every other player of the request is listed as not
paired with the reason (his unit's game, a member who does not play, in no unit).

:func:`check` refuses a game or a bye that is not a unit's: both sides must be representatives of
two different units.

>>> UnitOptions().pairing
'mcmahon'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n import N_
from goledger.i18n.messages import say, say_at
from goledger.ledger import events as ev
from goledger.pairing.participants import players_to_pair
from goledger.replay.scoring.units import unit_state
from goledger.systems import get_engine

if TYPE_CHECKING:
    from goledger.pairing.engine import Pairing, PairingRequest, PairTerms
    from goledger.replay.fold.state import TournamentState, UnitState

__all__ = ["ENGINE", "OPTIONS", "UnitOptions", "UnitsEngine", "check"]


class UnitOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``pairing``: ``mcmahon`` (the units' McMahon scores from their ranks) or ``swiss``."""

    pairing: Literal["mcmahon", "swiss"] = "mcmahon"


OPTIONS = UnitOptions


def _representatives(state: TournamentState) -> dict[str, UnitState]:
    return {u.representative: u for u in state.units.values()}


def _split(state: TournamentState, request: PairingRequest) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The representatives of the units to pair (the representative asked for, every other
    member free in the round: asked for too, or free as ``pair-round`` counts it), and every
    other requested player with the reason he is not paired."""
    asked = set(request.players)
    free = asked | set(players_to_pair(state, request.round))
    reps: list[str] = []
    unpaired: list[tuple[str, str]] = []
    placed: set[str] = set()
    for unit in state.units.values():
        away = [p for p in unit.members if p not in (asked if p == unit.representative else free)]
        if not away:
            reps.append(unit.representative)
            unpaired.extend((p, f"plays in unit {unit.id} {unit.name}'s game") for p in unit.members[1:] if p in asked)
        else:
            why = f"unit {unit.id} {unit.name} does not play: {away[0]} is not free in round {request.round}"
            unpaired.extend((p, why) for p in unit.members if p in asked)
        placed.update(unit.members)
    unpaired.extend((p, "in no unit") for p in request.players if p not in placed)
    order = {p: i for i, p in enumerate(request.players)}
    return tuple(sorted(reps, key=order.__getitem__)), tuple(unpaired)


class UnitsEngine:
    """Pairs the units of a Pair Go or Rengo round with the ``opengotha`` engine (module docstring)."""

    name = "units"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        reps, unpaired = _split(state, request)
        if len(reps) < 2:
            raise CommandRejected(say_at("round %(round)d has %(count)d unit(s) to pair; form units with goledger "
                                         "unit add",
                                         N_("round %(round)d has %(count)d unit(s) to pair; form units on the Units "
                                            "page"), round=request.round, count=len(reps)))
        inner = get_engine("opengotha").pair(unit_state(state), msgspec.structs.replace(request, players=reps))
        return msgspec.structs.replace(inner, engine=self.name, version=self.version, unpaired=unpaired)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        reps, _ = _split(state, request)
        return get_engine("opengotha").pair_terms(unit_state(state), msgspec.structs.replace(request, players=reps),
                                                  first, second)


ENGINE = UnitsEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse a game between players who are not the representatives of two different units, and a
    bye to anyone but a unit's representative."""
    reps = _representatives(state)
    if isinstance(event, ev.ByeAssigned) and event.player_id not in reps:
        raise CommandRejected(say("%(player)s does not stand for a unit: give the bye to a unit's first member",
                                  player=event.player_id))
    if isinstance(event, ev.GamePaired):
        for player in (event.white, event.black):
            if player not in reps:
                raise CommandRejected(say_at("%(player)s does not stand for a unit: a game is between two units' first "
                                             "members (goledger unit list)",
                                             N_("%(player)s does not stand for a unit: a game is between two units' "
                                                "first members (see the Units page)"), player=player))
