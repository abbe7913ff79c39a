"""Round-robin schedules: FIDE's Berger tables, recorded through the ledger.

:func:`berger_rounds` is the pure table (FIDE Handbook C.05 Annex 1, "Berger tables for
round-robin tournaments"): for n players (a bye-slot n + 1 is added when n is odd) there are
n − 1 rounds; round 1 pairs 1–n, 2–(n−1), 3–(n−2), …, White first; each next round adds
n/2 to every number except n (modulo n − 1, in 1 … n − 1), and player n alternates colours
(Black in odd rounds, White in even rounds) on table 1. A double round robin repeats the
cycle with colours reversed.

:func:`schedule` is the command ``goledger schedule --berger``: players take the Berger
numbers in pairing-number order (``start_number``, then registration) and every game is
appended as a ``GamePaired`` event; in an odd field the player drawn against the bye slot
rests, recorded as the round's bye worth ``rest_points`` (0 by default: a round-robin rest
is not a pairing-allocated win).

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> berger_rounds(6)[1]
[(6, 4), (5, 3), (1, 2)]
"""

from __future__ import annotations

import os
from typing import Unpack

from goledger.commands.checks import parse_points
from goledger.commands.recording import Outcome, Plumbing, record
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.replay.fold.state import PlayerState, TournamentState
from goledger.systems.round_robin import berger_rounds

__all__ = ["berger_rounds", "decide_schedule", "schedule"]


def _entrants(state: TournamentState) -> list[PlayerState]:
    """The players in start order; refuses a withdrawn one."""
    players = sorted(state.players.values(),
                     key=lambda p: (p.start_number is None, p.start_number or 0, p.registered_seq))
    for p in players:
        if p.withdrawn_from is not None:
            raise CommandRejected(f"{p.id} {p.full_name} has withdrawn; a schedule is for the players who play")
    return players


def decide_schedule(state: TournamentState, double: bool = False, first_round: int = 1,
                    rest_points: str | None = "0") -> list[ev.Event]:
    """Every game (and the rest, a ``ByeAssigned`` worth ``rest_points``) of a round-robin
    schedule by Berger tables from ``first_round``, after the round count it sets when the
    tournament counts its rounds at the draw. Refuses when the tournament has too few rounds,
    when a player has withdrawn, or when a round to fill already has a game or a bye."""
    rest2 = parse_points(rest_points)
    players = _entrants(state)
    rounds = berger_rounds(len(players), 2 if double else 1)
    last = first_round + len(rounds) - 1
    from goledger.systems import rounds_at_draw

    drawn: list[ev.Event] = []
    if rounds_at_draw(state) and first_round == 1 and last != state.rounds and last <= 99:
        drawn = [ev.RulesChanged(changes={"rounds": last})]  # no --rounds: the schedule is the draw
    if first_round < 1 or (last > state.rounds and not drawn):
        raise CommandRejected(
            f"{len(players)} players need {len(rounds)} rounds from round {first_round}, but the tournament "
            f"has {state.rounds}"
        )
    for r in range(first_round, last + 1):
        if state.games.get(r) or state.byes.get(r):
            raise CommandRejected(f"round {r} already has pairings; unpair it first")
    number = {i: p.id for i, p in enumerate(players, start=1)}
    events: list[ev.Event] = []
    for offset, tables in enumerate(rounds):
        r = first_round + offset
        table = 0
        for white, black in tables:
            if white not in number or black not in number:
                resting = number.get(white) or number.get(black)
                assert resting is not None
                events.append(ev.ByeAssigned(round=r, player_id=resting, points2=rest2))
                continue
            table += 1
            events.append(ev.GamePaired(round=r, table=table, white=number[white], black=number[black]))
    return [*drawn, *events]


def schedule_message(state: TournamentState, events: list[ev.Event], double: bool, first_round: int) -> str:
    """``round robin of 6 players scheduled in rounds 1–5 (Berger tables)``."""
    players = _entrants(state)
    last = first_round + len(berger_rounds(len(players), 2 if double else 1)) - 1
    kind = "double round robin" if double else "round robin"
    return f"{kind} of {len(players)} players scheduled in rounds {first_round}–{last} (Berger tables)"


def schedule(
    db: str | os.PathLike[str],
    berger: bool = True,
    double: bool = False,
    first_round: int = 1,
    rest_points: str | None = "0",
    **plumbing: Unpack[Plumbing],
) -> Outcome:
    """Record a whole round-robin schedule (Berger tables) starting at ``first_round``
    (:func:`decide_schedule`)."""
    if not berger:
        raise CommandRejected("only Berger tables are available (use --berger)")
    parse_points(rest_points)  # refused before the ledger is opened
    return record(db, lambda state: decide_schedule(state, double, first_round, rest_points),
                  lambda state, events: schedule_message(state, events, double, first_round), **plumbing)
