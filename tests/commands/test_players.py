"""The rules of registration edits (:mod:`goledger.commands.players`) on a tournament folded
in memory. The CLI path (typed, by EGD PIN, from a file) is in ``tests/commands/test_commands.py`` and
``tests/commands/test_registration_ratings.py``."""

from __future__ import annotations

import pytest

from goledger.commands.players import (
    decide_register,
    decide_update_player,
    player_changes,
    register_message,
    update_player_message,
)
from goledger.ledger import events as ev
from goledger.replay.fold.state import TournamentState

from .conftest import refused


def test_a_registration_takes_the_next_id_and_start_number(state: TournamentState) -> None:
    [event] = decide_register(state, surname="Fox", first_name="Ada", rank="2k")
    assert isinstance(event, ev.PlayerRegistered)
    assert (event.player_id, event.start_number, event.status) == ("p0006", 6, "final")
    assert register_message(state, [event]) == "registered p0006 Fox Ada (2k)"
    assert register_message(state, [event], "from the list") == "registered p0006 Fox Ada (2k); from the list"


@pytest.mark.parametrize(("surname", "first_name", "pin", "message"), [
    ("New", "One", "12345678", "EGD PIN 12345678 is already registered for p0001 Ali Veli"),
    ("berg", "ANNA", "", "berg ANNA is already registered as p0002; use --force to register a namesake"),
])
def test_register_refusals(state: TournamentState, surname: str, first_name: str, pin: str, message: str) -> None:
    assert refused(lambda: decide_register(state, surname=surname, first_name=first_name, rank="1k",
                                           egd_pin=pin)) == message


def test_a_namesake_is_registered_with_force(state: TournamentState) -> None:
    [event] = decide_register(state, surname="Berg", first_name="Anna", rank="1d", force=True)
    assert isinstance(event, ev.PlayerRegistered) and event.player_id == "p0006"


def test_an_update_records_only_what_changes(state: TournamentState) -> None:
    events = decide_update_player(state, "Berg", player_changes(rank="1K", club="Lyon"))  # 1k: as registered
    assert events == [ev.PlayerUpdated(player_id="p0002", changes={"club": "Lyon"})]
    assert update_player_message(state, events) == "updated p0002: club '' → 'Lyon'"


@pytest.mark.parametrize(("player", "wanted", "message"), [
    ("p0002", {"rank": "1k"}, "p0002 Berg Anna already has these values; nothing to change"),
    ("Nobody", {"club": "X"}, "no player matches 'Nobody'"),
    ("p0002", {"surname": "Ali", "first_name": "Veli"}, "p0001 Ali Veli already has this name; refusing a duplicate"),
    ("p0002", {"egd_pin": "12345678"}, "EGD PIN 12345678 is already registered for p0001 Ali Veli"),
])
def test_update_refusals(state: TournamentState, player: str, wanted: dict[str, str], message: str) -> None:
    assert message in refused(lambda: decide_update_player(state, player, wanted))


@pytest.mark.parametrize(("given", "message"), [
    ({"egd_pin": "12ab"}, "EGD PIN '12ab' must be digits only"),
    ({"mm_correction": 3}, "McMahon correction 3 is outside -1..2"),
    ({"rank": "3x"}, "'3x' is not a rank"),
])
def test_the_fields_are_checked_before_the_ledger_is_read(given: dict[str, object], message: str) -> None:
    assert message in refused(lambda: player_changes(**given))  # type: ignore[arg-type]
