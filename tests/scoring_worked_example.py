"""The worked example of spec ``scoring.md`` §2.6, built with events (helper for tests).

McMahon, 4 rounds; absent ½ (MMS) / 0 (NBW), bye 1, round-down on; bar 1d, floor 20k.
A 3d → 30 (bar), B 1d → 30, C 1k → 29, D 2k → 28, E 3k → 27.

| Round | Games (White first)                        | Other      |
|-------|--------------------------------------------|------------|
| R1    | A–B 1-0; C–D 0-1 with handicap 1           | E bye      |
| R2    | A–D 1-0; B–E jigo                          | C absent   |
| R3    | A–E 0-1 by default (A no-show); B–C 1-0    | D bye      |
| R4    | A–B 1-0; D–E 1-0                           | C absent   |
"""

from __future__ import annotations

from fractions import Fraction

from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold

PLAYERS = (("A", "3d"), ("B", "1d"), ("C", "1k"), ("D", "2k"), ("E", "3k"))


def worked_example_events(*, half_point_option: bool = False, criteria: tuple[str, ...] = ()) -> list[ev.Event]:
    settings = ev.TournamentSettings(
        name="Worked example", rounds=4, system="mcmahon", mm_bar="1d", mm_floor="20k",
        nbw2_bye=2, nbw2_absent=0, mms2_bye=2, mms2_absent=1, round_down=True,
        not_played_as_half=half_point_option, criteria=criteria,
    )
    events: list[ev.Event] = [ev.TournamentCreated(settings=settings)]
    for name, rank in PLAYERS:
        events.append(ev.PlayerRegistered(player_id=name, surname=name, rank=rank))

    def game(r: int, table: int, white: str, black: str, result: Result, handicap: int = 0,
             by_default: bool = False) -> None:
        events.append(ev.GamePaired(round=r, table=table, white=white, black=black, handicap=handicap))
        events.append(ev.ResultRecorded(round=r, table=table, result=result, by_default=by_default))

    game(1, 1, "A", "B", Result.WHITE)
    game(1, 2, "C", "D", Result.BLACK, handicap=1)
    events.append(ev.ByeAssigned(round=1, player_id="E"))
    game(2, 1, "A", "D", Result.WHITE)
    game(2, 2, "B", "E", Result.JIGO)
    events.append(ev.ParticipationChanged(player_id="C", round=2, participating=False))
    game(3, 1, "A", "E", Result.BLACK, by_default=True)
    game(3, 2, "B", "C", Result.WHITE)
    events.append(ev.ByeAssigned(round=3, player_id="D"))
    game(4, 1, "A", "B", Result.WHITE)
    game(4, 2, "D", "E", Result.WHITE)
    events.append(ev.ParticipationChanged(player_id="C", round=4, participating=False))
    return events


def worked_example(*, half_point_option: bool = False, criteria: tuple[str, ...] = ()) -> TournamentState:
    return fold(worked_example_events(half_point_option=half_point_option, criteria=criteria))


def points(text: str) -> Fraction:
    """``"123½"`` → 247/2, ``"44¾"`` → 179/4, ``"-1"`` → -1."""
    text = text.strip()
    frac = Fraction(0)
    for glyph, value in (("½", Fraction(1, 2)), ("¼", Fraction(1, 4)), ("¾", Fraction(3, 4))):
        if text.endswith(glyph):
            text, frac = text[: -len(glyph)], value
    whole = Fraction(int(text)) if text not in ("", "-") else Fraction(0)
    return whole - frac if text.startswith("-") else whole + frac


def series(text: str) -> list[Fraction]:
    """``"30 30½ 31"`` → the values as fractions."""
    return [points(v) for v in text.split()]


def table(text: str) -> dict[str, dict[str, Fraction]]:
    """Parse a whitespace table: a header of criteria, then one row per player."""
    lines = [line.split() for line in text.strip().splitlines()]
    header = lines[0]
    return {row[0]: {c: points(v) for c, v in zip(header, row[1:], strict=True)} for row in lines[1:]}
