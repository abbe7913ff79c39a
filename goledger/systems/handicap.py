"""The MGE handicap tournament (spec ``pairing.md`` §1.4, "Handicap tournament"): everyone
starts on 0, "pairing equal-score players who have not yet played each other is desirable",
handicap stones by rank difference, and "a maximum grade difference between paired players
can be set, usually 9 grades" — a limit pairing never breaks.

The engine lists the players by score (a win or a bye 1, a jigo ½), then rank, then seed;
the first unpaired player meets the allowed partner of lowest cost, searching back when a
later player is left without one (:mod:`goledger.systems.matching`). The cost of a pair, in
integers: 10 000 for a rematch, 100 per half-point of score difference, 1 per grade of rank
difference; a pair more than ``max_rank_difference`` grades apart is never made. With an odd
number the bye goes to the last player of the list who has not had one (MGE: "the last player
gets the bye") and for whom the rest can still be paired.

Handicap: stones = rank difference − ``handicap_correction``, at most ``max_handicap``; the
stronger player takes White; a handicap game is played with komi ½ (``handicap_komi``), an
even game with the tournament's komi.

>>> HandicapOptions().max_rank_difference
9
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.ledger import events as ev
from goledger.ledger.values import Rank, Result
from goledger.pairing.engine import ByeChoice, PairedGame, Pairing, PairingRequest, PairTerms
from goledger.systems.common import engine_parameters, free_tables, read_options
from goledger.systems.matching import pair_in_order

if TYPE_CHECKING:
    from collections.abc import Sequence

    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "HandicapOptions", "check", "pair_cost", "scores2"]


class HandicapOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system handicap --option max-rank-difference=9``."""

    max_rank_difference: int = 9
    handicap_correction: int = 0
    max_handicap: int = 9
    handicap_komi: str = "0.5"


OPTIONS = HandicapOptions


def options_of(state: TournamentState) -> HandicapOptions:
    assert state.settings is not None
    opts = read_options(HandicapOptions, state.settings.system_options, "handicap")
    if opts.max_rank_difference < 0 or not 0 <= opts.max_handicap <= 9:
        raise CommandRejected(say("max-rank-difference is 0 or more and max-handicap 0..9"))
    return opts


def rank_difference(state: TournamentState, a: str, b: str) -> int:
    return abs(Rank.parse(state.players[a].rank).value - Rank.parse(state.players[b].rank).value)


def scores2(state: TournamentState, before: int) -> dict[str, int]:
    """Half-points of every player from the rounds before ``before`` (a bye counts the
    settings' ``nbw2_bye``, 1 point by default)."""
    assert state.settings is not None
    out = dict.fromkeys(state.players, 0)
    for g in state.all_games():
        if g.round < before and g.result is not Result.UNKNOWN:
            out[g.white] += g.points2(g.white)
            out[g.black] += g.points2(g.black)
    for r, holders in state.byes.items():
        if r < before:
            for pid, pts in holders.items():
                out[pid] += state.settings.nbw2_bye if pts is None else pts
    return out


def _met(state: TournamentState, round_: int) -> set[frozenset[str]]:
    """The pairs that met in any other round than ``round_``, later ones too (a round paired
    after a later one, with ``--force``, must not repeat its games: docs/pairing-rounds.md)."""
    return {frozenset((g.white, g.black)) for g in state.all_games() if g.round != round_}


def pair_cost(state: TournamentState, a: str, b: str, score: dict[str, int], met: set[frozenset[str]],
              opts: HandicapOptions) -> tuple[int | None, dict[str, int]]:
    """The integer cost of pairing ``a`` with ``b`` (``None``: forbidden) and its terms."""
    diff = rank_difference(state, a, b)
    if diff > opts.max_rank_difference:
        return None, {"rank_difference": diff}
    terms = {"rematch": 10_000 if frozenset((a, b)) in met else 0,
             "score": 100 * abs(score[a] - score[b]), "rank": diff}
    return sum(terms.values()), terms


def _colours(state: TournamentState, a: str, b: str, opts: HandicapOptions) -> PairedGame:
    ra, rb = Rank.parse(state.players[a].rank).value, Rank.parse(state.players[b].rank).value
    white, black = (a, b) if ra >= rb else (b, a)
    stones = min(opts.max_handicap, max(0, abs(ra - rb) - opts.handicap_correction))
    return PairedGame(table=0, white=white, black=black, handicap=stones,
                      komi=opts.handicap_komi if stones else None)


class HandicapEngine:
    """Score-group pairing with handicaps and a hard rank-difference limit."""

    name = "handicap"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        opts = options_of(state)
        score = scores2(state, request.round)
        met = _met(state, request.round)
        had_bye = {p for r, holders in state.byes.items() if r < request.round for p in holders}
        order = sorted(request.players, key=lambda p: (-score[p], -Rank.parse(state.players[p].rank).value,
                                                       state.players[p].registered_seq))

        def cost(a: str, b: str) -> int | None:
            return pair_cost(state, a, b, score, met, opts)[0]

        bye: ByeChoice | None = None
        pairs: list[tuple[str, str]] | None = None
        if len(order) % 2:
            candidates = sorted(reversed(order), key=lambda p: p in had_bye)
            for cand in candidates:
                pairs = pair_in_order([p for p in order if p != cand], cost)
                if pairs is not None:
                    ranked = tuple((p, i) for i, p in enumerate(candidates))
                    bye = ByeChoice(player=cand, candidates=ranked[:5],
                                    rule="the last player of the list (score, rank) without a bye yet")
                    break
        else:
            pairs = pair_in_order(order, cost)
        if pairs is None:
            raise CommandRejected(say("no pairing of round %(round)d keeps every rank difference within %(limit)d "
                                      "grades", round=request.round, limit=opts.max_rank_difference))
        games = []
        total = 0
        tables = free_tables(state, request.round)
        for a, b in pairs:
            table = next(tables)
            c = cost(a, b)
            assert c is not None
            total += c
            g = _colours(state, a, b, opts)
            games.append(PairedGame(table=table, white=g.white, black=g.black, handicap=g.handicap, komi=g.komi,
                                    weight=c))
        return Pairing(engine=self.name, version=self.version, round=request.round, games=tuple(games), bye=bye,
                       total_weight=total, chunks=(len(order),),
                       parameters=engine_parameters(opts), seed=request.seed)

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        opts = options_of(state)
        c, terms = pair_cost(state, first, second, scores2(state, request.round), _met(state, request.round), opts)
        return PairTerms(first=first, second=second, total=-1 if c is None else c, terms=terms)


ENGINE = HandicapEngine()


def check_rank_difference(state: TournamentState, pair: Sequence[str], limit: int, system: str) -> None:
    """Refuse a pair of players more than ``limit`` grades apart."""
    a, b = pair
    diff = rank_difference(state, a, b)
    if diff > limit:
        pa, pb = state.players[a], state.players[b]
        params = {"a": f"{a} {pa.full_name} ({pa.rank})", "b": f"{b} {pb.full_name} ({pb.rank})", "diff": diff,
                  "limit": limit}
        raise CommandRejected(
            say("%(a)s and %(b)s are %(diff)d grades apart; this handicap tournament pairs at most %(limit)d",
                **params) if system == "handicap" else
            say("%(a)s and %(b)s are %(diff)d grades apart; this continuous-handicap tournament pairs at most "
                "%(limit)d", **params))


def check(state: TournamentState, event: ev.Event) -> None:
    """A game beyond the rank-difference limit is refused."""
    if isinstance(event, ev.GamePaired):
        check_rank_difference(state, (event.white, event.black), options_of(state).max_rank_difference, "handicap")
