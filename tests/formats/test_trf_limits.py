"""The TRF exporter refuses a field its four-digit pairing numbers cannot hold (found by the
10,000-player resource test of issue 10: it wrote pairing number 10000 into four columns, and
its own importer then read 2,344 errors)."""

from __future__ import annotations

import pytest

from goledger.errors import FormatError
from goledger.formats.trf.write import MAX_PLAYERS, write_trf
from goledger.ledger import events as ev
from goledger.replay.fold.state import fold


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


def test_a_player_count_of_thousands_of_digits_is_an_inconsistency_not_a_crash() -> None:
    """Found by the long TRF fuzz run: ``062`` with 5,000 digits made ``int()`` raise (Python's
    limit on integer string conversion); it is reported as a count that does not match."""
    from goledger.formats.report import InterchangeReport
    from goledger.formats.trf.read import read_trf

    players = ("001    1      Sato, Ken                                                          1.0       0002 w 1\n"
               "001    2      Ito, Mai                                                           0.0       0001 b 0\n")
    data = ("012 Cup\n062 " + "1" * 5000 + "\nXXR 1\n" + players).encode()
    result = read_trf(data, "huge.trf")
    report: InterchangeReport = result.report
    assert any("record 062 says" in e.message for e in report.entries)


def test_a_control_character_in_an_opponent_column_is_reported_not_raised() -> None:
    """Found by the long TRF fuzz run: ``\\x1c004`` passed the number check (``str.strip``
    removes ``\\x1c``) and then made ``int()`` raise."""
    from goledger.formats.trf.read import read_trf

    players = ("001    1      Sato, Ken                                                          1.0       "
               "\x1c002 w 1\n"
               "001    2      Ito, Mai                                                           0.0       0001 b 0\n")
    result = read_trf(("012 Cup\nXXR 1\n" + players).encode(), "ctrl.trf")
    assert any("is not a pairing number" in e.message for e in result.report.entries)


@pytest.mark.parametrize("points", ["8/0", "1e3", "-1.0", "1_0", "½"])
def test_a_points_column_that_is_no_decimal_is_reported_not_raised(points: str) -> None:
    """Found by the long TRF fuzz run: a points column ``8/0`` made ``Fraction`` raise
    ``ZeroDivisionError``; ``Fraction`` also read ``1e3`` and ``1_0``. A points column is a
    plain decimal (``2.5``, ``2,5``); anything else is reported and the player kept."""
    from goledger.formats.trf.read import read_trf

    first = "001    1      Sato, Ken                                                          1.0       0002 w 1"
    first = first[:80] + f"{points:>4}" + first[84:]  # the points column, 81-84
    players = (first + "\n"
               "001    2      Ito, Mai                                                           0.0       0001 b 0\n")
    result = read_trf(("012 Cup\nXXR 1\n" + players).encode(), "points.trf")
    assert any(f"points {points!r} of player 1 is not a number" in e.message for e in result.report.entries)
    assert sum(isinstance(e, ev.PlayerRegistered) for e in result.events) == 2
