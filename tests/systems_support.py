"""Helpers for the tournament-system tests: pair a round through ``pair-round`` (or record an
engine's ``Pairing`` with the ordinary recording commands ``goledger pair``/``bye``), and play a
whole event round by round."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from goledger import commands as rec
from goledger.errors import CommandRejected, EventDecided
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.pairing.engine import Pairing, PairingRequest
from goledger.pairing.participants import players_to_pair
from goledger.replay.loading.load import load_state
from goledger.systems import engine_for


def state_of(db: Path) -> Any:
    with Ledger.open(db) as ledger:
        return load_state(ledger)


def record_pairing(db: Path, pairing: Pairing) -> None:
    """Append ``pairing``'s games and bye through ``goledger.commands.pair``/``bye``."""
    for g in pairing.games:
        rec.pair(db, pairing.round, g.white, g.black, table=g.table, handicap=g.handicap, komi=g.komi)
    if pairing.bye is not None:
        rec.bye(db, pairing.bye.player, pairing.round)


def pair_next(db: Path, round_: int, seed: int = 0) -> Pairing:
    """Pair ``round_`` as a director does: ``goledger pair-round`` (its library function,
    :func:`goledger.commands.pairing.pair_round`), which asks the system's engine, checks
    that it accounts for every player, and records the round (issue 29)."""
    from goledger.commands.pairing import pair_round

    return pair_round(db, round_, seed=seed).pairing


def engine_pair_next(db: Path, round_: int, seed: int = 0) -> Pairing:
    """Ask the tournament system's engine for ``round_`` directly and record its games with
    ``goledger pair``/``bye`` (the engine-level path, without ``pair-round``'s checks)."""
    state = state_of(db)
    pairing = engine_for(state).pair(state, PairingRequest(round=round_, players=players_to_pair(state, round_),
                                                          seed=seed))
    record_pairing(db, pairing)
    return pairing


def new_event(tmp: Path, system: str, players: int, rounds: int, options: dict[str, Any] | None = None,
              ranks: Callable[[int], str] | None = None, name: str = "t.db") -> Path:
    """A fresh ledger of ``system`` with ``players`` players named P01…, strongest first by rank."""
    db = tmp / name
    rec.new(db, f"{system} test", rounds, system, options=options)
    registrations = [
        ev.PlayerRegistered(player_id=f"p{i + 1:04d}", surname=f"P{i + 1:02d}",
                            rank=ranks(i) if ranks else f"{min(30, i // 2 + 1)}k")
        for i in range(players)
    ]
    with Ledger.open(db) as ledger, ledger.writing() as tx:  # one transaction: what register appends
        tx.append(registrations, actor="test")
    return db


def play_out(db: Path, pick: Callable[[Any], str] | None = None, rng: random.Random | None = None,
             max_rounds: int = 99) -> int:
    """Pair and play rounds until the engine has nothing more to pair; results from ``pick``
    (a game → a result) or white/black by ``rng``. Returns the number of rounds paired."""
    rng = rng or random.Random(0)
    played = 0
    first = state_of(db).last_round_with_games() + 1  # go on after what is already recorded
    for round_ in range(first, max_rounds + 1):
        if round_ > state_of(db).rounds:
            break
        try:
            pairing = pair_next(db, round_)
        except EventDecided:  # pair-round refuses once the event is decided
            break
        except CommandRejected as exc:
            if " rounds, not " in str(exc):
                break
            raise
        if not pairing.games:
            break
        played = round_
        for g in pairing.games:
            rec.result(db, round_, g.table, pick(g) if pick else rng.choice(("white", "black")))
    return played
