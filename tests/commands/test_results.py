"""The rules of results, corrections and unpairing (:mod:`goledger.commands.results`), on a
tournament folded in memory: each decider's events, its refusals in one sentence, and the
director's message. The CLI path is in ``tests/commands/test_commands.py``."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from goledger.commands.results import (
    correct_message,
    decide_correct,
    decide_result,
    decide_unpair,
    result_message,
    unpair_message,
)
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold

from .conftest import refusal_open, refused


@pytest.mark.parametrize(("notation", "result", "margin", "by_default"), [
    ("white", Result.WHITE, "", False),
    ("1-0", Result.WHITE, "", False),
    ("B+2.5", Result.BLACK, "2.5", False),
    ("W+R", Result.WHITE, "R", False),
    ("B+F", Result.BLACK, "F", True),
    ("jigo", Result.JIGO, "", False),
    ("0-0", Result.BOTH_LOSE, "", False),
])
def test_a_result_records_its_notation(state: TournamentState, notation: str, result: Result, margin: str,
                                       by_default: bool) -> None:
    [event] = decide_result(state, 1, 2, notation)
    assert event == ev.ResultRecorded(round=1, table=2, result=result, margin=margin, by_default=by_default)


def test_a_result_by_default_says_so_unless_it_is_a_forfeit(state: TournamentState) -> None:
    assert result_message(state, decide_result(state, 1, 2, "black", by_default=True)) == (
        "round 1 table 2: Dias Rui (black) won by default")
    assert result_message(state, decide_result(state, 1, 2, "W+F")) == (
        "round 1 table 2: Chen Li (white) won by forfeit")


def test_the_message_names_the_margin(state: TournamentState) -> None:
    assert result_message(state, decide_result(state, 1, 2, "B+2.5")) == (
        "round 1 table 2: Dias Rui (black) won by 2.5 points")


@pytest.mark.parametrize(("typed", "said"), [
    ("B+R", "round 1 table 2: Dias Rui (black) won by resignation"),
    ("W+T", "round 1 table 2: Chen Li (white) won on time"),
    ("jigo", "round 1 table 2: jigo between Chen Li (white) and Dias Rui (black)"),
    ("0-0", "round 1 table 2: both lose: Chen Li (white) and Dias Rui (black)"),
    ("1-1", "round 1 table 2: both win: Chen Li (white) and Dias Rui (black)"),
    ("siyah", "round 1 table 2: Dias Rui (black) won"),
    ("Beyaz", "round 1 table 2: Chen Li (white) won"),
    ("döntetlen", "round 1 table 2: jigo between Chen Li (white) and Dias Rui (black)"),
    ("FEKETE", "round 1 table 2: Dias Rui (black) won"),
    ("blanc", "round 1 table 2: Chen Li (white) won"),
    ("schwarz", "round 1 table 2: Dias Rui (black) won"),
    ("weiss", "round 1 table 2: Chen Li (white) won"),
])
def test_every_confirmation_names_the_winner(state: TournamentState, typed: str, said: str) -> None:
    assert result_message(state, decide_result(state, 1, 2, typed)) == said


@pytest.mark.parametrize("typed", ["0", "1", "½", "0.5", "-"])
def test_a_bare_token_meant_two_ways_is_refused(state: TournamentState, typed: str) -> None:
    assert refused(lambda: decide_result(state, 1, 2, typed)).startswith(f"{typed!r} could ")


@pytest.mark.parametrize(("round_", "table", "notation", "message"), [
    (1, 7, "white", "round 1 has no table 7"),
    (2, 1, "white", "round 2 is not paired yet"),
    (4, 1, "white", "round 4 is outside 1..3 of this tournament"),
    (1, 1, "black", "round 1 table 1 already has a result (white); use `goledger correct`"),
    (1, 2, "maybe", "'maybe' is not a result"),
    (1, 2, "unknown", "'unknown' is not a result to record; correct a wrong result instead"),
])
def test_result_refusals(state: TournamentState, round_: int, table: int, notation: str, message: str) -> None:
    assert message in refused(lambda: decide_result(state, round_, table, notation))


def test_a_withdrawn_players_game_takes_no_result() -> None:
    # Commands never pair a withdrawn player, but an imported file can hold such a game.
    state = fold(refusal_open(ev.GamePaired(round=3, table=1, white="p0003", black="p0002")))
    assert refused(lambda: decide_result(state, 3, 1, "white")) == "p0003 Chen Li withdrew from round 3"


def test_the_system_refuses_what_it_forbids() -> None:
    state = fold(refusal_open(system="knockout"))
    assert refused(lambda: decide_result(state, 1, 2, "jigo")) == (
        "a jigo is replayed in this knockout (jigo rule 'replay'); record the replay's result")


def test_a_correction_replaces_the_result_with_its_reason(state: TournamentState) -> None:
    [event] = decide_correct(state, 1, 1, "B+R", "sheet misread")
    assert event == ev.ResultCorrected(round=1, table=1, result=Result.BLACK, margin="R", by_default=False,
                                       reason="sheet misread")
    assert correct_message(state, [event]).startswith(
        "round 1 table 1: white → black: Berg Anna (black) won by resignation")
    assert correct_message(state, [event]).endswith("(sheet misread)")


def test_a_correction_to_the_same_result_by_default_is_a_change(state: TournamentState) -> None:
    [event] = decide_correct(state, 1, 1, "white", "forfeit after all", by_default=True)
    assert isinstance(event, ev.ResultCorrected) and event.by_default and event.result is Result.WHITE


def test_a_correction_may_take_the_result_back(state: TournamentState) -> None:
    [event] = decide_correct(state, 1, 1, "unknown", "table 1 is replayed")
    assert isinstance(event, ev.ResultCorrected) and event.result is Result.UNKNOWN


def test_a_reason_with_a_line_break_is_one_line_in_the_message(state: TournamentState) -> None:
    events = decide_correct(state, 1, 1, "black", "two\nlines")
    assert "\n" not in correct_message(state, events)


@pytest.mark.parametrize(("table", "notation", "reason", "message"), [
    (1, "white", "typo", "round 1 table 1 already has the result white; nothing to correct"),
    (2, "white", "typo", "round 1 table 2 has no result yet; record it with `goledger result`"),
    (1, "black", " ", "a correction needs a reason"),
    (9, "black", "typo", "round 1 has no table 9"),
    (1, "sideways", "typo", "'sideways' is not a result"),
])
def test_correction_refusals(state: TournamentState, table: int, notation: str, reason: str, message: str) -> None:
    assert message in refused(lambda: decide_correct(state, 1, table, notation, reason))


def test_a_correction_of_a_withdrawn_players_game_is_refused_unless_it_takes_the_result_back() -> None:
    state = fold(refusal_open(ev.GamePaired(round=3, table=1, white="p0003", black="p0002"),
                              ev.ResultRecorded(round=3, table=1, result=Result.WHITE)))
    assert refused(lambda: decide_correct(state, 3, 1, "black", "typo")) == "p0003 Chen Li withdrew from round 3"
    [event] = decide_correct(state, 3, 1, "unknown", "the game was never played")
    assert isinstance(event, ev.ResultCorrected)


def test_unpair_removes_the_game_and_names_its_players(state: TournamentState) -> None:
    events = decide_unpair(state, 1, 2)
    assert events == [ev.PairingRemoved(round=1, table=2)]
    assert unpair_message(state, events) == "round 1 table 2 (p0003 vs p0004) unpaired"


@pytest.mark.parametrize(("round_", "table", "message"), [
    (2, 1, "round 2 is not paired yet"),
    (1, 3, "round 1 has no table 3"),
    (0, 1, "round 0 is outside 1..3 of this tournament"),
])
def test_unpair_refusals(state: TournamentState, round_: int, table: int, message: str) -> None:
    assert refused(lambda: decide_unpair(state, round_, table)) == message


def test_after_unpairing_the_table_takes_no_result(then: Callable[..., TournamentState]) -> None:
    state = then(ev.PairingRemoved(round=1, table=2))
    assert refused(lambda: decide_result(state, 1, 2, "white")) == "round 1 has no table 2"


def test_deciders_are_pure(state: TournamentState) -> None:
    before = fold(refusal_open())
    decide_result(state, 1, 2, "white")
    decide_correct(state, 1, 1, "black", "typo")
    decide_unpair(state, 1, 2)
    assert state.games[1][2].result is Result.UNKNOWN and state.games == before.games


def test_the_confirmation_is_in_the_language_written_in(state: TournamentState) -> None:
    from goledger.i18n import use_language

    with use_language("tr"):
        assert result_message(state, decide_result(state, 1, 2, "B+2.5")) == (
            "1. tur 2. masa: Dias Rui (siyah) 2,5 puan farkla kazandı")
        assert result_message(state, decide_result(state, 1, 2, "W+R")) == (
            "1. tur 2. masa: Chen Li (beyaz) terkle kazandı")
    with use_language("hu"):
        assert result_message(state, decide_result(state, 1, 2, "black", by_default=True)) == (
            "1. forduló 2. asztal: Dias Rui (fekete) nyert játék nélkül")
