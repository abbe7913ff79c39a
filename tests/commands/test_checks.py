"""The refusals the deciders share (:mod:`goledger.commands.checks`)."""

from __future__ import annotations

import pytest

from goledger.commands.checks import (
    check_available,
    check_free,
    check_handicap,
    check_names,
    check_round,
    check_table,
    game_at,
    parse_komi,
    parse_points,
    parse_rank,
)
from goledger.replay.fold.state import TournamentState

from .conftest import refused


@pytest.mark.parametrize(("text", "value"), [("6.5", "6.5"), ("6,5", "6.5"), (" 7 ", "7"), ("-3.5", "-3.5")])
def test_a_komi_is_a_whole_or_half_number(text: str, value: str) -> None:
    assert parse_komi(text) == value


@pytest.mark.parametrize(("text", "message"), [
    ("6.3", "komi '6.3' must be a whole or half number"),
    ("seven", "komi 'seven' is not a number such as 6.5 or 7"),
    ("1e999999999", "is not a number such as 6.5 or 7"),
])
def test_komi_refusals(text: str, message: str) -> None:
    assert message in refused(lambda: parse_komi(text))


def test_ranks_points_and_names() -> None:
    assert parse_rank("3D") == "3d" and parse_points("0.5") == 1 and parse_points(None) is None
    assert "'3x' is not a rank" in refused(lambda: parse_rank("3x"))
    assert "club" in refused(lambda: check_names(club="A\x07B"))


def test_rounds_tables_and_handicaps(state: TournamentState) -> None:
    check_round(state, 3)
    assert refused(lambda: check_round(state, 4)) == "round 4 is outside 1..3 of this tournament"
    assert refused(lambda: check_table(0)) == "table 0 must be 1 or more"
    assert refused(lambda: check_handicap(10)) == "handicap 10 is outside 0..9"
    check_table(None)
    check_handicap(None)


def test_the_game_at_a_table(state: TournamentState) -> None:
    assert game_at(state, 1, 2).black == "p0004"
    assert refused(lambda: game_at(state, 1, 5, name_tables=True)) == "round 1 has no table 5 (its tables: 1, 2)"


def test_a_player_free_to_play(state: TournamentState) -> None:
    p = state.players["p0001"]
    assert refused(lambda: check_free(state, p, 1)) == (
        "p0001 Ali Veli is paired in round 1 (table 1); unpair that game first")
    assert refused(lambda: check_available(state, p, 1)) == "p0001 Ali Veli is already paired in round 1 (table 1)"
    overridden: list[str] = []
    check_available(state, state.players["p0004"], 2, overridden)
    assert overridden == ["p0004 absent"]
