"""The TRF exporter refuses a field its four-digit pairing numbers cannot hold (found by the
10,000-player resource test of issue 10: it wrote pairing number 10000 into four columns, and
its own importer then read 2,344 errors)."""

from __future__ import annotations

import pytest

from goledger.errors import FormatError
from goledger.formats.trf.write import MAX_PLAYERS, write_trf
from goledger.ledger import events as ev
from goledger.replay.state import fold


def _field(players: int) -> object:
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(name="Big", rounds=1))]
    events += [ev.PlayerRegistered(player_id=f"p{i:05d}", surname=f"S{i}", rank="5k", start_number=i)
               for i in range(1, players + 1)]
    return fold(events)


def test_more_players_than_pairing_numbers_is_refused() -> None:
    with pytest.raises(FormatError, match=r"a TRF file holds at most 9,999 players \(four-digit pairing numbers\); "
                       r"this tournament has 10,000"):
        write_trf(_field(MAX_PLAYERS + 1), source="big")


def test_the_largest_field_is_written() -> None:
    data, _ = write_trf(_field(MAX_PLAYERS), source="big")
    assert b"001 9999 " in data


def test_a_tournament_without_players_is_written() -> None:
    """An OpenGotha file of parameters only (a template) imports; its TRF export raised
    ``max()`` of an empty list (found by a sweep of every shared file through every exporter)."""
    data, report = write_trf(_field(0), source="template")
    assert data.startswith(b"012 Big") and b"\n001 " not in data
    assert not report.warnings
