"""The MGE continuous handicap tournament (spec ``pairing.md`` §1.4, "Continuous handicap"):
no rounds; players choose their opponents by mutual consent, possibly the same one again; a
maximum grade difference applies, and the games between two players are capped (usually 2).

The director records each game with ``goledger pair`` in any round both players are free in
(the round number is only a slot of the log). Refused with one sentence: a game between two
players who already played ``max_games_per_pair`` games, and a pair more than
``max_rank_difference`` grades apart.

For the players who have not chosen, ``pair-round R`` proposes a round (issue 29): the
``continuous-handicap`` engine pairs as many of the free players as it can within both
limits, preferring pairs that have played each other least, then the nearest ranks; handicap
stones are the rank difference less the tournament's handicap correction, at most its
ceiling, the stronger player taking White. A player left without a partner is listed with the
reason (a continuous handicap tournament has no byes); once no allowed pair is left among the
players still in, ``pair-round`` says the tournament is decided.

Ranking (the seeds ask for "a function that rewards many games and a high win ratio"): the
option ``ranking`` names one of

* ``wins-times-ratio`` (default): W × W / G, that is the wins weighted by the win ratio
  (W wins, a jigo ½, G games). 10 games with 5 wins score 2½; 16 games with 8 wins score 4,
  so they rank above, as the seed's example wants; 16 games with 7 wins score 3 1/16, below
  16 with 8 and *above* 10 with 5.
* ``wins-minus-half-losses``: W − L/2. 10/5 scores 2½, 16/8 scores 4; 16/7 scores 2½, level
  with 10/5, and the tiebreak (the higher win ratio) puts 10/5 first.

Ties are broken by the win ratio, then by the number of games. Values are exact fractions.

>>> from fractions import Fraction
>>> RANKINGS["wins-times-ratio"](Fraction(5), 10) < RANKINGS["wins-times-ratio"](Fraction(8), 16)
True
>>> RANKINGS["wins-times-ratio"](Fraction(7), 16)
Fraction(49, 16)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import msgspec

from goledger.errors import CommandRejected, EventDecided
from goledger.i18n import gettext, ngettext
from goledger.i18n.messages import nsay, say
from goledger.ledger import events as ev
from goledger.ledger.values import Rank, Result
from goledger.pairing.engine import PairedGame, Pairing, PairingRequest, PairTerms
from goledger.systems.common import Place, Places, engine_parameters, free_tables, read_options, share_places
from goledger.systems.handicap import check_rank_difference, rank_difference

if TYPE_CHECKING:
    from collections.abc import Callable

    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "RANKINGS", "ContinuousOptions", "check", "decided", "places"]


def _wins_times_ratio(wins: Fraction, games: int) -> Fraction:
    return wins * wins / games if games else Fraction(0)


def _wins_minus_half_losses(wins: Fraction, games: int) -> Fraction:
    return wins - (games - wins) / 2


RANKINGS: dict[str, Callable[[Fraction, int], Fraction]] = {
    "wins-times-ratio": _wins_times_ratio,
    "wins-minus-half-losses": _wins_minus_half_losses,
}
"""The named ranking functions: (wins, games) → the ranking value (see the module docstring)."""


class ContinuousOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``goledger new --system continuous-handicap --option max-games-per-pair=2``."""

    max_games_per_pair: int = 2
    max_rank_difference: int = 9
    ranking: str = "wins-times-ratio"


OPTIONS = ContinuousOptions


def options_of(state: TournamentState) -> ContinuousOptions:
    assert state.settings is not None
    opts = read_options(ContinuousOptions, state.settings.system_options, "continuous-handicap")
    if opts.ranking not in RANKINGS:
        raise CommandRejected(say("unknown ranking %(ranking)r; use one of %(known)s", ranking=opts.ranking,
                                  known=", ".join(RANKINGS)))
    if opts.max_games_per_pair < 1:
        raise CommandRejected(say("max-games-per-pair is 1 or more"))
    return opts


def _games_together(state: TournamentState) -> dict[frozenset[str], int]:
    out: dict[frozenset[str], int] = {}
    for g in state.all_games():
        pair = frozenset((g.white, g.black))
        out[pair] = out.get(pair, 0) + 1
    return out


def _allowed(state: TournamentState, a: str, b: str, together: dict[frozenset[str], int],
             opts: ContinuousOptions) -> bool:
    return (rank_difference(state, a, b) <= opts.max_rank_difference
            and together.get(frozenset((a, b)), 0) < opts.max_games_per_pair)


def pair_cost(state: TournamentState, a: str, b: str, together: dict[frozenset[str], int]) -> dict[str, int]:
    """The terms of pairing ``a`` with ``b``: 100 per game they already played together, 1 per
    grade of rank difference (integers; the engine takes the cheapest maximum pairing)."""
    return {"games_together": 100 * together.get(frozenset((a, b)), 0), "rank": rank_difference(state, a, b)}


def decided(state: TournamentState) -> str:
    """``"the continuous handicap tournament is decided: …"`` once no two players still in
    (final, not withdrawn) may play each other again; ``""`` otherwise."""
    opts = options_of(state)
    together = _games_together(state)
    live = [p.id for p in state.players.values() if p.status == "final" and p.withdrawn_from is None]
    if len(live) < 2 or any(_allowed(state, a, b, together, opts) for i, a in enumerate(live) for b in live[i + 1:]):
        return ""
    return say("the continuous handicap tournament is decided: every pair of players still in has played its "
               "%(games)d games or is more than %(limit)d grades apart", games=opts.max_games_per_pair,
               limit=opts.max_rank_difference)


class ContinuousEngine:
    """A proposed round of a continuous handicap tournament (see the module docstring): a
    maximum matching of the free players within the limits, cheapest by :func:`pair_cost`."""

    name = "continuous-handicap"
    version = "1"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        # rustworkx loads late: only a round paired needs it
        import rustworkx as rx

        opts = options_of(state)
        over = decided(state)
        if over:
            raise EventDecided(over)
        together = _games_together(state)
        players = list(request.players)
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(len(players)))
        big = 1_000_000
        for i, a in enumerate(players):
            for j in range(i + 1, len(players)):
                b = players[j]
                if _allowed(state, a, b, together, opts):
                    graph.add_edge(i, j, big - sum(pair_cost(state, a, b, together).values()))
        mate = sorted((min(u, v), max(u, v)) for u, v in rx.max_weight_matching(graph, max_cardinality=True,
                                                                                  weight_fn=int))
        assert state.settings is not None
        hc = state.settings.handicap
        games: list[PairedGame] = []
        total = 0
        tables = free_tables(state, request.round)
        for lo, hi in mate:
            a, b = players[lo], players[hi]
            ra, rb = Rank.parse(state.players[a].rank).value, Rank.parse(state.players[b].rank).value
            white, black = (a, b) if ra >= rb else (b, a)
            stones = min(hc.ceiling, max(0, abs(ra - rb) - hc.correction))
            weight = sum(pair_cost(state, a, b, together).values())
            total += weight
            games.append(PairedGame(table=next(tables), white=white, black=black, handicap=stones,
                                    weight=weight))
        placed = {p for g in games for p in (g.white, g.black)}
        unpaired: list[tuple[str, str]] = []
        for p in players:
            if p in placed:
                continue
            partners = [q for q in players if q != p and _allowed(state, p, q, together, opts)]
            unpaired.append((p, "no partner left this round (the others are paired)" if partners else
                             "no allowed opponent among the players to pair (pair cap or rank difference)"))
        return Pairing(engine=self.name, version=self.version, round=request.round, games=tuple(games),
                       total_weight=total, chunks=(len(players),), parameters=engine_parameters(opts),
                       seed=request.seed, unpaired=tuple(unpaired))

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        terms = pair_cost(state, first, second, _games_together(state))
        return PairTerms(first=first, second=second, total=sum(terms.values()), terms=terms)


ENGINE = ContinuousEngine()


def check(state: TournamentState, event: ev.Event) -> None:
    """Refuse a game beyond the pair cap or the rank-difference limit, and byes."""
    if isinstance(event, ev.ByeAssigned):
        raise CommandRejected(say("a continuous handicap tournament has no byes: players choose their games"))
    if not isinstance(event, ev.GamePaired):
        return
    opts = options_of(state)
    check_rank_difference(state, (event.white, event.black), opts.max_rank_difference, "continuous-handicap")
    pair = {event.white, event.black}
    count = sum(1 for g in state.all_games() if {g.white, g.black} == pair)
    if count >= opts.max_games_per_pair:
        a, b = (state.players[p] for p in (event.white, event.black))
        raise CommandRejected(nsay("%(a)s and %(b)s have played %(count)d game together, the most this tournament "
                                   "allows",
                                   "%(a)s and %(b)s have played %(count)d games together, the most this tournament "
                                   "allows", count, a=f"{a.id} {a.full_name}", b=f"{b.id} {b.full_name}",
                                   count=count))


def records(state: TournamentState) -> dict[str, tuple[Fraction, int]]:
    """Every player's (wins, games with a result); a jigo is half a win."""
    out = {p: (Fraction(0), 0) for p in state.players}
    for g in state.all_games():
        if g.result is Result.UNKNOWN:
            continue
        for pid in (g.white, g.black):
            wins, games = out[pid]
            out[pid] = (wins + Fraction(g.points2(pid), 2), games + 1)
    return out


def places(state: TournamentState) -> Places:
    """Players by the named ranking, then win ratio, then games; equal players share."""
    opts = options_of(state)
    fn = RANKINGS[opts.ranking]
    rec = records(state)

    def key(pid: str) -> tuple[Fraction, Fraction, int]:
        wins, games = rec[pid]
        return (fn(wins, games), wins / games if games else Fraction(0), games)

    order = sorted(rec, key=lambda p: (key(p), -state.players[p].registered_seq), reverse=True)
    groups: list[tuple[list[tuple[str, str, str]], bool]] = []
    i = 0
    while i < len(order):
        k = key(order[i])
        members = [p for p in order[i:] if key(p) == k]
        wins, games = rec[members[0]]
        why = ngettext("%(wins)s wins in %(games)d game: %(ranking)s %(value)s",
                       "%(wins)s wins in %(games)d games: %(ranking)s %(value)s", games) % {
            "wins": _num(wins), "games": games, "ranking": opts.ranking, "value": _num(k[0])}
        groups.append(([(p, state.players[p].full_name, why) for p in members], False))
        i += len(members)
    rows: tuple[Place, ...] = share_places(groups)
    return Places(system="continuous-handicap", round=state.last_round_with_games(), finished=False, rows=rows,
                  notes=(gettext("ranking %(ranking)s; at most %(games)d games per pair, %(grades)d grades apart")
                         % {"ranking": opts.ranking, "games": opts.max_games_per_pair,
                            "grades": opts.max_rank_difference},))


def _num(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    whole, rest = divmod(value.numerator, value.denominator)
    return f"{whole} {rest}/{value.denominator}" if whole else f"{rest}/{value.denominator}"
