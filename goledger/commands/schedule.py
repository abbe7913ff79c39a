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
from typing import Any

from goledger.commands.record import Outcome, _parse_points, _run
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.systems.round_robin import berger_rounds

__all__ = ["berger_rounds", "schedule"]


def schedule(
    db: str | os.PathLike[str],
    berger: bool = True,
    double: bool = False,
    first_round: int = 1,
    rest_points: str | None = "0",
    *,
    actor: str = "",
    reason: str = "",
    expected_head: int | None = None,
    retry: bool = False,
) -> Outcome:
    """Record a whole round-robin schedule (Berger tables) starting at ``first_round``.

    Refuses when the tournament has too few rounds, when a player has withdrawn, or when a
    round to fill already has a game or a bye.
    """
    if not berger:
        raise CommandRejected("only Berger tables are available (use --berger)")
    rest2 = _parse_points(rest_points)

    def build(state: Any) -> tuple[list[ev.Event], str]:
        players = sorted(state.players.values(),
                         key=lambda p: (p.start_number is None, p.start_number or 0, p.registered_seq))
        for p in players:
            if p.withdrawn_from is not None:
                raise CommandRejected(f"{p.id} {p.full_name} has withdrawn; a schedule is for the players who play")
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
        kind = "double round robin" if double else "round robin"
        return [*drawn, *events], (f"{kind} of {len(players)} players scheduled in rounds {first_round}–{last} "
                                   "(Berger tables)")

    return _run(db, build, actor=actor, reason=reason, expected_head=expected_head, retry=retry)
