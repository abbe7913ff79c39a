"""Round robins (spec ``pairing.md`` §1.1, §1.3, §1.4): everyone plays everyone, by FIDE's
Berger tables; a double round robin repeats the cycle with colours reversed; with an odd
number of players each player sits out exactly once per cycle (the bye slot).

:func:`berger_rounds` is the pure table (FIDE Handbook C.05 Annex 1, "Berger tables for
round-robin tournaments"): for n players (a bye-slot n + 1 is added when n is odd) there are
n − 1 rounds; round 1 pairs 1–n, 2–(n−1), 3–(n−2), …, White first; each next round adds
n/2 to every number except n (modulo n − 1, in 1 … n − 1), and player n alternates colours
(Black in odd rounds, White in even rounds) on table 1. ``goledger schedule --berger``
records a whole table at once; the ``round-robin`` engine gives ``pair-round`` one round of
it. Players take the Berger numbers in pairing-number order (start number, then
registration).

Option ``cycles`` (1 or 2): a pair may meet at most that many times; more is refused.

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> berger_rounds(6)[1]
[(6, 4), (5, 3), (1, 2)]
>>> berger_rounds(3, cycles=2)[3]
[(4, 1), (3, 2)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.pairing.engine import ByeChoice, PairedGame, Pairing, PairingRequest, PairTerms
from goledger.systems.common import entrants, free_tables, out_of_round, read_options, seeded, who

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "RoundRobinOptions", "berger_rounds", "check", "rounds_needed"]


def berger_rounds(players: int, cycles: int = 1) -> list[list[tuple[int, int]]]:
    """The Berger table for ``players`` (1-based numbers; an odd field gets the bye slot
    ``players + 1``): one list of (white, black) tables per round, table 1 first."""
    if players < 2:
        raise CommandRejected(say("a round robin needs at least two players"))
    if cycles not in (1, 2):
        raise CommandRejected(say("a round robin has one or two cycles"))
    n = players + players % 2
    half = n // 2
    tables = [(i, n + 1 - i) for i in range(1, half + 1)]
    rounds: list[list[tuple[int, int]]] = []
    for r in range(1, n):
        if r > 1:
            moved = []
            for white, black in tables:
                moved.append((_shift(white, half, n), _shift(black, half, n)))
            tables = moved
            first = tables[0]
            other = first[1] if first[0] == n else first[0]
            tables[0] = (n, other) if r % 2 == 0 else (other, n)
        rounds.append(list(tables))
    if cycles == 2:
        rounds += [[(b, w) for w, b in tables_of_round] for tables_of_round in rounds]
    return rounds


def _shift(number: int, half: int, n: int) -> int:
    if number == n:
        return n
    return (number - 1 + half) % (n - 1) + 1


class RoundRobinOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system round-robin --option cycles=2``."""

    cycles: int = 1
    rounds_at_draw: bool = False
    """Set by ``goledger new`` without ``--rounds``: the draw sets the Berger table's rounds."""


OPTIONS = RoundRobinOptions


def options_of(state: TournamentState) -> RoundRobinOptions:
    assert state.settings is not None
    opts = read_options(RoundRobinOptions, state.settings.system_options, "round-robin")
    if opts.cycles not in (1, 2):
        raise CommandRejected(say("a round robin has one or two cycles"))
    return opts


def rounds_needed(state: TournamentState) -> tuple[int, str]:
    """The Berger table's rounds for ``state``'s entrants: N − 1 for an even N, N for an odd
    one (everyone sits out once), twice that for a double round robin."""
    opts = options_of(state)
    count = len(entrants(state))
    total = len(berger_rounds(count, opts.cycles))
    kind = "a double round robin" if opts.cycles == 2 else "a round robin"
    return total, f"{kind} of {count} players has {total} rounds"


class RoundRobinEngine:
    """Round R of the Berger table of the entrants; the player drawn against the bye slot sits
    out (the round's bye)."""

    name = "round-robin"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        opts = options_of(state)
        players = [p.id for p in seeded(entrants(state), "order")]
        rounds = berger_rounds(len(players), opts.cycles)
        if not 1 <= request.round <= len(rounds):
            raise CommandRejected(say("a round robin of %(players)d players has %(total)d rounds, not %(round)d",
                                      players=len(players), total=len(rounds), round=request.round))
        number = dict(enumerate(players, start=1))
        allowed = set(request.players)
        games: list[PairedGame] = []
        bye: ByeChoice | None = None
        why: dict[str, str] = {}
        tables = free_tables(state, request.round)
        for white, black in rounds[request.round - 1]:
            if white not in number or black not in number:
                resting = number.get(white) or number.get(black)
                if resting is not None and resting in allowed:
                    bye = ByeChoice(player=resting, rule="the Berger table's bye slot: sits out this round")
                continue
            if number[white] in allowed and number[black] in allowed:
                games.append(PairedGame(table=next(tables), white=number[white], black=number[black]))
                continue
            for me, other in ((number[white], number[black]), (number[black], number[white])):
                absent = out_of_round(state, other, request.round)
                why[me] = (f"his Berger opponent {who(state, other)} {absent}" if absent
                           else f"his Berger opponent {who(state, other)} is not among the players to pair")
        placed = {p for g in games for p in (g.white, g.black)} | ({bye.player} if bye else set())
        unpaired = tuple((p, why.get(p, "not in the Berger table: registered after the draw"))
                         for p in request.players if p not in placed)
        return Pairing(engine=self.name, version=self.version, round=request.round, games=tuple(games), bye=bye,
                       parameters={"cycles": str(opts.cycles), "numbers": "start number, then registration"},
                       seed=request.seed, unpaired=unpaired)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        pairing = self.pair(state, request)
        meets = int(any({g.white, g.black} == {first, second} for g in pairing.games))
        return PairTerms(first=first, second=second, total=meets, terms={"berger": meets})


ENGINE = RoundRobinEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse a game between two players who have already met ``cycles`` times."""
    if not isinstance(event, ev.GamePaired):
        return
    opts = options_of(state)
    pair = {event.white, event.black}
    met = [g.round for g in state.all_games() if {g.white, g.black} == pair]
    if len(met) >= opts.cycles:
        a, b = (state.players[p] for p in (event.white, event.black))
        when = ", ".join(str(r) for r in met)
        raise CommandRejected(
            say("%(a)s and %(b)s already met in round %(rounds)s; a double round robin pairs them twice",
                a=f"{a.id} {a.full_name}", b=f"{b.id} {b.full_name}", rounds=when) if opts.cycles == 2 else
            say("%(a)s and %(b)s already met in round %(rounds)s; a round robin pairs them once",
                a=f"{a.id} {a.full_name}", b=f"{b.id} {b.full_name}", rounds=when))
