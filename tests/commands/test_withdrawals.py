"""The rules of withdrawing and reinstating (:mod:`goledger.commands.withdrawals`), on a
tournament folded in memory. The CLI path is in ``tests/commands/test_commands.py``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goledger.commands.withdrawals import decide_reinstate, decide_withdraw, reinstate_message, withdraw_message
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

from .conftest import refused


def test_a_withdrawal_from_a_round_not_yet_paired(state: TournamentState) -> None:
    events = decide_withdraw(state, "Berg", 2, "ill")
    assert events == [ev.PlayerWithdrew(player_id="p0002", from_round=2, reason="ill")]
    message = withdraw_message(state, events)
    assert message.startswith("p0002 Berg Anna withdraws from round 2; ")
    assert message.endswith("(goledger explain p0002 shows it)")


def test_an_earlier_withdrawal_than_the_recorded_one_is_allowed(state: TournamentState) -> None:
    [event] = decide_withdraw(state, "p0003", 2)
    assert isinstance(event, ev.PlayerWithdrew) and event.from_round == 2


@pytest.mark.parametrize(("player", "from_round", "message"), [
    ("p0009", 2, "no player matches 'p0009'"),
    ("p0001", 4, "round 4 is outside 1..3 of this tournament"),
    ("p0001", 1, "p0001 Ali Veli is paired in round 1 (table 1); unpair that game first"),
    ("p0005", 1, "p0005 Eko Sam holds the bye of round 1; remove it first"),
    ("p0003", 3, "p0003 Chen Li already withdrew from round 3"),
])
def test_withdraw_refusals(state: TournamentState, player: str, from_round: int, message: str) -> None:
    assert message in refused(lambda: decide_withdraw(state, player, from_round))


def test_a_game_in_a_later_round_holds_the_withdrawal(then: Callable[..., TournamentState]) -> None:
    state = then(ev.GamePaired(round=2, table=1, white="p0002", black="p0001"))
    assert refused(lambda: decide_withdraw(state, "p0002", 1)) == (
        "p0002 Berg Anna is paired in round 1 (table 1); unpair that game first")
    assert refused(lambda: decide_withdraw(state, "p0001", 2)) == (
        "p0001 Ali Veli is paired in round 2 (table 1); unpair that game first")


def test_reinstating(state: TournamentState) -> None:
    events = decide_reinstate(state, "Chen", 3)
    assert events == [ev.PlayerReinstated(player_id="p0003", from_round=3)]
    assert reinstate_message(state, events) == "p0003 Chen Li plays again from round 3"


@pytest.mark.parametrize(("player", "from_round", "message"), [
    ("p0001", 2, "p0001 Ali Veli has not withdrawn"),
    ("p0003", 5, "round 5 is outside 1..3 of this tournament"),
    ("Nobody", 2, "no player matches 'Nobody'"),
])
def test_reinstate_refusals(state: TournamentState, player: str, from_round: int, message: str) -> None:
    assert message in refused(lambda: decide_reinstate(state, player, from_round))


def test_a_reinstated_player_can_withdraw_again(then: Callable[..., TournamentState]) -> None:
    state = then(ev.PlayerReinstated(player_id="p0003", from_round=3))
    [event] = decide_withdraw(state, "p0003", 3)
    assert isinstance(event, ev.PlayerWithdrew)
