"""Tournaments folded in memory for the deciders' tests (no ledger file, no SQLite)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from goledger import commands
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold

PLAYERS = [("Ali", "Veli", "3d", "12345678"), ("Berg", "Anna", "1k", ""), ("Chen", "Li", "5k", ""),
           ("Dias", "Rui", "10k", ""), ("Eko", "Sam", "15k", "")]


def refusal_open(*more: ev.Event, system: str = "mcmahon") -> list[ev.Event]:
    """A 3-round tournament with five players: round 1 paired (table 1: Ali–Berg, a white win;
    table 2: Chen–Dias, handicap 2, no result), Eko has the bye of round 1, Dias is absent in
    round 2, Chen withdrew from round 3; then ``more``."""
    events: list[ev.Event] = [
        ev.TournamentCreated(settings=ev.TournamentSettings(name="Refusal Open", rounds=3,
                                                            system=system)),  # type: ignore[arg-type]
    ]
    for n, (surname, first, rank, pin) in enumerate(PLAYERS, start=1):
        events.append(ev.PlayerRegistered(player_id=f"p{n:04d}", surname=surname, first_name=first, rank=rank,
                                          egd_pin=pin, start_number=n))
    events += [
        ev.GamePaired(round=1, table=1, white="p0001", black="p0002"),
        ev.GamePaired(round=1, table=2, white="p0003", black="p0004", handicap=2),
        ev.ByeAssigned(round=1, player_id="p0005"),
        ev.ResultRecorded(round=1, table=1, result=Result.WHITE),
        ev.ParticipationChanged(player_id="p0004", round=2, participating=False),
        ev.PlayerWithdrew(player_id="p0003", from_round=3, reason="flight home"),
        *more,
    ]
    return events


@pytest.fixture
def state() -> TournamentState:
    """:func:`refusal_open` folded."""
    return fold(refusal_open())


@pytest.fixture
def then() -> Callable[..., TournamentState]:
    """``then(*events)``: :func:`refusal_open` with ``events`` appended, folded."""
    return lambda *events: fold(refusal_open(*events))


def refused(decide: Callable[[], object]) -> str:
    """The sentence ``decide`` refuses with (one line)."""
    with pytest.raises(CommandRejected) as caught:
        decide()
    message = caught.value.message
    assert "\n" not in message, "one sentence, one line"
    return message


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A ledger file (the write path's and the readers' tests): a 2-round tournament, two players."""
    path = tmp_path / "t.db"
    commands.new(path, "Two players", 2)
    commands.register(path, "Abe", "Jo", "3k")
    commands.register(path, "Ban", "Li", "5k")
    return path
