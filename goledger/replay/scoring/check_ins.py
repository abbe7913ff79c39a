"""Who has checked in for a round (issue 46, point 2): a pure view of the state.

Before round R is paired each player still in the tournament is one of:

* **checked in**: a ``CheckedIn`` for R in force; under ``check_in=once`` one for any
  round up to R (he has arrived, and says so once);
* **absent**: an announced absence in R (the director's ``absent``, the player's own "I will
  not play", or "mark the others absent"), which also takes back his check-in for R;
* **waiting**: neither. These are the players "mark the others absent" marks absent.

A withdrawn player is none of them (the pairing leaves him out anyway). The round players
check in for is :func:`next_round`: the first round with nothing paired in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import msgspec

if TYPE_CHECKING:
    from goledger.replay.fold.state import PlayerState, TournamentState

__all__ = ["CheckInStatus", "check_in_status", "checked_in", "next_round"]

Standing = Literal["checked in", "absent", "waiting"]


class CheckInStatus(msgspec.Struct, frozen=True, kw_only=True):
    """Round ``round``'s check-ins: player ids in registration order in each list;
    ``required`` is the tournament's ``check_in`` setting, ``paired`` whether the round has
    games or a bye already (then checking in is over)."""

    round: int
    required: str
    paired: bool
    checked_in: tuple[str, ...]
    absent: tuple[str, ...]
    waiting: tuple[str, ...]


def next_round(state: TournamentState) -> int | None:
    """The first round with no game and no bye in it (``None``: every round is paired)."""
    for round_ in range(1, state.rounds + 1):
        if not state.games.get(round_) and not state.byes.get(round_):
            return round_
    return None


def checked_in(state: TournamentState, player: PlayerState, round_: int) -> bool:
    """Whether ``player`` counts as checked in for ``round_`` (not absent in it, and a
    check-in for it, or under ``check_in=once`` for any round up to it)."""
    if round_ in player.absences:
        return False
    if player.id in state.check_ins.get(round_, {}):
        return True
    mode = state.settings.check_in if state.settings is not None else "no"
    return mode == "once" and any(player.id in state.check_ins.get(r, {}) for r in range(1, round_))


def standing(state: TournamentState, player: PlayerState, round_: int) -> Standing:
    """``checked in``, ``absent`` or ``waiting`` (see the module)."""
    if round_ in player.absences:
        return "absent"
    return "checked in" if checked_in(state, player, round_) else "waiting"


def check_in_status(state: TournamentState, round_: int) -> CheckInStatus:
    """Who has checked in for ``round_``, who is absent, who is still waited for."""
    lists: dict[Standing, list[str]] = {"checked in": [], "absent": [], "waiting": []}
    for player in state.players.values():
        if not player.is_withdrawn(round_):
            lists[standing(state, player, round_)].append(player.id)
    required = state.settings.check_in if state.settings is not None else "no"
    paired = bool(state.games.get(round_) or state.byes.get(round_))
    return CheckInStatus(round=round_, required=required, paired=paired, checked_in=tuple(lists["checked in"]),
                         absent=tuple(lists["absent"]), waiting=tuple(lists["waiting"]))
