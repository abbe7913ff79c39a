"""The rules of absences and byes (:mod:`goledger.commands.absences`), on a tournament folded
in memory. The CLI path is in ``tests/commands/test_commands.py``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goledger.commands.absences import (
    bye_message,
    decide_absent,
    decide_bye,
    decide_present,
    decide_unbye,
    unbye_message,
)
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

from .conftest import refused


def test_an_absence_is_worth_the_policys_value_or_its_own(state: TournamentState) -> None:
    assert decide_absent(state, "Berg", 2) == [
        ev.ParticipationChanged(player_id="p0002", round=2, participating=False, points2=None)]
    [event] = decide_absent(state, "Berg", 3, "0.5")
    assert isinstance(event, ev.ParticipationChanged) and event.points2 == 1


def test_an_absence_with_another_value_replaces_the_first(state: TournamentState) -> None:
    [event] = decide_absent(state, "p0004", 2, "1")
    assert isinstance(event, ev.ParticipationChanged) and event.points2 == 2


@pytest.mark.parametrize(("player", "round_", "points", "message"), [
    ("p0001", 0, None, "round 0 is outside 1..3 of this tournament"),
    ("p0001", 1, None, "p0001 Ali Veli is paired in round 1 (table 1); unpair that game first"),
    ("p0005", 1, None, "p0005 Eko Sam holds the bye of round 1; remove it first"),
    ("p0004", 2, None, "p0004 Dias Rui is already absent in round 2"),
    ("p0003", 3, None, "p0003 Chen Li withdrew from round 3"),
    ("p0002", 2, "0.3", "'0.3' is not a whole or half point"),
    ("p0002", 2, "1.5", "an absence is worth 0, 0.5 or 1 point, not 1.5"),
])
def test_absent_refusals(state: TournamentState, player: str, round_: int, points: str | None, message: str) -> None:
    assert message in refused(lambda: decide_absent(state, player, round_, points))


def test_present_cancels_an_absence(state: TournamentState) -> None:
    assert decide_present(state, "Dias", 2) == [ev.ParticipationChanged(player_id="p0004", round=2,
                                                                        participating=True)]
    assert refused(lambda: decide_present(state, "p0001", 2)) == "p0001 Ali Veli is not marked absent in round 2"


def test_a_bye(state: TournamentState) -> None:
    events = decide_bye(state, "Berg", 2)
    assert events == [ev.ByeAssigned(round=2, player_id="p0002")]
    assert bye_message(state, events) == "p0002 Berg Anna has the bye in round 2"


@pytest.mark.parametrize(("player", "round_", "message"), [
    ("p0002", 1, "p0002 Berg Anna is already paired in round 1 (table 1)"),
    ("p0004", 2, "p0004 Dias Rui is marked absent in round 2; use --force to pair him anyway"),
    ("p0003", 3, "p0003 Chen Li withdrew from round 3; use --force to pair him anyway"),
    ("p0005", 2, "p0005 Eko Sam already had the bye in round 1; use --force to give him another"),
])
def test_bye_refusals(state: TournamentState, player: str, round_: int, message: str) -> None:
    assert refused(lambda: decide_bye(state, player, round_)) == message


def test_a_forced_bye_says_what_it_overrode(then: Callable[..., TournamentState]) -> None:
    state = then(ev.ByeAssigned(round=2, player_id="p0001"))
    events = decide_bye(state, "p0005", 2, force=True)
    assert events == [ev.ByeAssigned(round=2, player_id="p0005", forced=True)]
    assert bye_message(state, events) == (
        "p0005 Eko Sam has the bye in round 2 (forced: a second bye in the round, p0005's bye of round 1)")


def test_a_second_bye_of_a_round_needs_force(then: Callable[..., TournamentState]) -> None:
    state = then(ev.ByeAssigned(round=2, player_id="p0001"))
    assert refused(lambda: decide_bye(state, "p0002", 2)) == (
        "round 2 already has its bye (p0001 Ali Veli); use --force for a second bye")


def test_only_mcmahon_swiss_and_swisscat_refuse_a_players_second_bye() -> None:
    from goledger.replay.fold.state import fold

    from .conftest import refusal_open

    assert "already had the bye" in refused(lambda: decide_bye(fold(refusal_open(system="swisscat")), "p0005", 2))
    assert decide_bye(fold(refusal_open(system="cup")), "p0005", 2) == [ev.ByeAssigned(round=2, player_id="p0005")]


def test_unbye(state: TournamentState) -> None:
    events = decide_unbye(state, "Eko", 1)
    assert events == [ev.ByeRemoved(round=1, player_id="p0005")]
    assert unbye_message(state, events) == "bye of p0005 Eko Sam in round 1 removed"
    assert refused(lambda: decide_unbye(state, "p0001", 1)) == "p0001 Ali Veli has no bye in round 1"
