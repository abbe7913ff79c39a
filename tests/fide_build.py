"""Build small tournaments as event lists for the FIDE tests (folded, no SQLite needed).

``Tourney`` records games, byes, absences and withdrawals through the real event types;
``from_records`` builds a tournament from per-player result strings, giving every game
whose opponent is not described a fresh filler opponent (the seed examples list only a
player and his opponents).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import TournamentState, fold
from goledger.replay.scoring.standings import standings

RESULTS = {
    "1-0": (Result.WHITE, False),
    "0-1": (Result.BLACK, False),
    "=": (Result.JIGO, False),
    "+-": (Result.WHITE, True),
    "-+": (Result.BLACK, True),
    "--": (Result.BOTH_LOSE, True),
    "?": (Result.UNKNOWN, False),
}


class Tourney:
    def __init__(self, rounds: int, system: str = "swiss", policy: str = "fide-2024", **settings: object) -> None:
        self.events: list[ev.Event] = [
            ev.TournamentCreated(settings=ev.TournamentSettings(
                name="test", rounds=rounds, system=system, policy=policy, **settings))  # type: ignore[arg-type]
        ]
        self.ids: dict[str, str] = {}
        self.tables: dict[int, int] = {}

    def player(self, name: str, rating: int | None = None, rank: str = "1d") -> str:
        pid = f"p{len(self.ids) + 1:04d}"
        self.ids[name] = pid
        self.events.append(ev.PlayerRegistered(player_id=pid, surname=name, rank=rank, rating=rating,
                                               start_number=len(self.ids)))
        return pid

    def players(self, *names: str) -> list[str]:
        return [self.player(n) for n in names]

    def _id(self, name: str) -> str:
        return self.ids[name] if name in self.ids else self.player(name)

    def game(self, round_: int, white: str, black: str, result: str) -> None:
        table = self.tables.get(round_, 0) + 1
        self.tables[round_] = table
        self.events.append(ev.GamePaired(round=round_, table=table, white=self._id(white), black=self._id(black)))
        outcome, by_default = RESULTS[result]
        if outcome is not Result.UNKNOWN:
            self.events.append(ev.ResultRecorded(round=round_, table=table, result=outcome, by_default=by_default))

    def bye(self, round_: int, name: str, points2: int | None = None) -> None:
        self.events.append(ev.ByeAssigned(round=round_, player_id=self._id(name), points2=points2))

    def absent(self, round_: int, name: str, points2: int | None = 0) -> None:
        self.events.append(ev.ParticipationChanged(player_id=self._id(name), round=round_, participating=False,
                                                   points2=points2))

    def withdraw(self, name: str, from_round: int) -> None:
        self.events.append(ev.PlayerWithdrew(player_id=self._id(name), from_round=from_round))

    def state(self) -> TournamentState:
        return fold(self.events)

    def values(self, criteria: Sequence[str], policy: str | None = None, round_: int | None = None,
               **overrides: object) -> dict[str, dict[str, Fraction]]:
        """name → criterion → exact value."""
        from goledger.replay.scoring.policies import get_policy

        state = self.state()
        pol = get_policy(policy or state.settings.policy).with_overrides(overrides)  # type: ignore[union-attr]
        table = standings(state, round_, pol, list(criteria))
        names = {pid: name for name, pid in self.ids.items()}
        return {names[row.player_id]: {c: table.value(row, c) for c in table.criteria} for row in table.rows}


_FLIP = {"W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}


def from_records(rounds: int, records: dict[str, list[tuple[str | None, str, str | None]]],
                 policy: str = "fide-2009") -> Tourney:
    """``records[name]`` = per round ``(opponent or None, result, colour)`` from that player's
    side: results W, L, D, + (forfeit win), - (forfeit loss), BYE (pairing bye worth 1),
    HPB (half-point bye), ABS / ZPB (zero-point bye). A described pair is recorded once
    (from the first player's side); an opponent ``None`` with a game result gets a filler."""
    t = Tourney(rounds, policy=policy)
    for name in records:
        t.player(name)
    done: set[tuple[int, frozenset[str]]] = set()
    fillers = 0
    for name, rows in records.items():
        for r, (opponent, result, colour) in enumerate(rows, start=1):
            if result == "BYE":
                t.bye(r, name)
                continue
            if result in ("ABS", "ZPB"):
                t.absent(r, name, 0)
                continue
            if result == "HPB":
                t.absent(r, name, 1)
                continue
            if opponent is None:
                fillers += 1
                opponent = f"filler{fillers}"
            elif opponent in records:
                key = (r, frozenset((name, opponent)))
                if key in done:
                    theirs = records[opponent][r - 1]
                    assert theirs[0] == name and theirs[1] == _FLIP[result], (name, opponent, r)
                    continue
                done.add(key)
            white_side = colour != "black"
            code = {"W": "1-0", "L": "0-1", "D": "=", "+": "+-", "-": "-+"}[result]
            if white_side:
                t.game(r, name, opponent, code)
            else:
                t.game(r, opponent, name, {"1-0": "0-1", "0-1": "1-0", "=": "=", "+-": "-+", "-+": "+-"}[code])
    return t
