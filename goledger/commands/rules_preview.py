"""What a change of the rules would do, before it is recorded (issue 43, item 2): the desk's
settings form shows it, then "Record" appends the very ``RulesChanged`` that
:func:`~goledger.commands.rules.decide_change_rules` decides for the same changes (the CLI's
``change-rules``).

The preview is a pure function of the folded state and the changes: the same decision (so a
value outside its domain is refused here exactly as it would be on recording), the event
folded into a copy of the state, and the standings after the last round with games computed
before and after. Every player whose place differs is listed, strongest first by his new
place. A change the pairing reads (:data:`PAIRING_KEYS`) says which round's pairing it
affects: the first round without games, from ``from_round`` on; rounds already paired keep
their games. For the ``opengotha`` engine the OpenGotha parameters in force before and after
are compared name by name, so the page says exactly which of them change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

__all__ = ["PAIRING_KEYS", "PlaceChange", "RulesPreview", "preview_change_rules"]

PAIRING_KEYS = frozenset({"pairing", "handicap", "mm_bar", "mm_floor", "mm_zero", "mm_groups", "mm_super_group",
                          "komi", "criteria", "policy", "policy_overrides", "category_limits", "system_options",
                          "nbw2_bye", "mms2_bye", "nbw2_absent", "mms2_absent"})
"""The settings a pairing reads: the pairing weights, the handicap rule and komi, the start
scores (bar, floor, groups), the scores and criteria the engines order and group players by."""


class PlaceChange(msgspec.Struct, frozen=True, kw_only=True):
    """A player whose place the change moves: ``before`` → ``after``."""

    player_id: str
    surname: str
    first_name: str
    before: int
    after: int


class RulesPreview(msgspec.Struct, frozen=True, kw_only=True):
    """The preview of one change: ``changes`` (the ``RulesChanged.changes`` it records),
    ``phrases`` (``change-rules``'s own ``name old → new`` phrases), ``moves`` (the players who
    change place in the standings after ``round``; ``round`` 0: in the starting order, no round
    having games yet),
    ``pairing_round`` (the round whose pairing the change affects, ``None``: none),
    ``parameters`` (the OpenGotha parameters that change: name, before, after)."""

    changes: dict[str, Any]
    from_round: int | None
    phrases: list[str]
    round: int
    players: int
    moves: list[PlaceChange]
    pairing_round: int | None
    parameters: list[tuple[str, str, str]]


def _places(state: TournamentState, round_: int) -> dict[str, int]:
    from goledger.replay.scoring.standings import standings

    return {row.player_id: row.place for row in standings(state, round_ or None).rows}


def _parameters(state: TournamentState, round_: int) -> dict[str, str]:
    """The OpenGotha parameters in force for ``round_`` (their text by OpenGotha's names)."""
    from goledger.pairing.opengotha.parameters import resolve

    settings = state.settings_for_round(round_)
    return resolve(settings.pairing, settings.system, {}, settings).text


def _pairing_round(state: TournamentState, from_round: int | None) -> int | None:
    """The first round, from ``from_round`` on, that has no games and no bye yet."""
    for round_ in range(from_round or 1, state.rounds + 1):
        if not state.games.get(round_) and not state.byes.get(round_):
            return round_
    return None


def preview_change_rules(state: TournamentState, changes: Mapping[str, Any], from_round: int | None = None
                         ) -> RulesPreview:
    """What ``change-rules`` with ``changes`` (from ``from_round``, else retroactively) would
    record and move (see the module docstring). Refuses as the command refuses."""
    from goledger.commands.rules import decide_change_rules
    from goledger.commands.settings import resolve_changes
    from goledger.replay.fold.state import fold
    from goledger.replay.scoring.registries import check_registered

    events = decide_change_rules(state, dict(changes), from_round)
    event = events[0]
    assert isinstance(event, ev.RulesChanged)
    _, phrases = resolve_changes(state, dict(changes))
    after = fold(events, start=state, check=check_registered)
    round_ = state.last_round_with_games()
    before_places, after_places = _places(state, round_), _places(after, round_)
    moves = sorted((PlaceChange(player_id=p, surname=state.players[p].surname,
                                first_name=state.players[p].first_name, before=before_places[p], after=place)
                    for p, place in after_places.items() if before_places.get(p, place) != place),
                   key=lambda m: (m.after, m.before, m.player_id))
    pairing_round = _pairing_round(state, from_round) if PAIRING_KEYS & set(event.changes) else None
    parameters: list[tuple[str, str, str]] = []
    if pairing_round is not None:
        try:
            old, new = _parameters(state, pairing_round), _parameters(after, pairing_round)
        except CommandRejected:
            old = new = {}
        parameters = [(name, old.get(name, ""), new.get(name, "")) for name in sorted(set(old) | set(new))
                      if old.get(name) != new.get(name)]
    if parameters:  # the parameters that change say it name by name, not as two whole JSON objects
        phrases = [p for p in phrases if not p.startswith(("pairing ", "handicap "))]
    return RulesPreview(changes=dict(event.changes), from_round=from_round, phrases=phrases, round=round_,
                        players=len(after_places), moves=moves, pairing_round=pairing_round, parameters=parameters)
