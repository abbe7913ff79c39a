"""The ``opengotha`` engine: OpenGotha 3.51.02's automatic pairing, reproduced (spec
``pairing.md`` §2; ``JFrGamesPair.btnPairActionPerformed`` → ``chooseAByePlayer`` →
``makeAutomaticPairing`` → ``renumberTablesByBestScoreThenRating``).

1. Order the players to pair as OpenGotha's pairing list: the standings after round R−1 on
   the tournament's placement criteria, ties by name then first name (:mod:`.facts`).
2. With an odd count, take the bye out (:mod:`.bye`).
3. Cut the list into chunks of at most 600 (:mod:`.chunking`), build each chunk's
   ``costValue`` matrix in list order (:mod:`.costs`) and find a maximum-weight perfect
   matching (``rustworkx.max_weight_matching``, integer weights; where several matchings are
   optimal any of them may come back, with the same total).
4. Each game is ``gameBetween(lower index, higher index)`` (:mod:`.colours`), its weight the
   ``costValue`` of that pair; tables by best score then rating (:mod:`.tables`).

goledger's pairing constraints (events, ``goledger forbid | fix-pairing | fix-table``), which
OpenGotha does not have, are honoured as follows (``docs/pairing-constraints.md``); a round
without any constraint is paired exactly as OpenGotha pairs it:

* a **fixed pairing** of the round is placed first: its two players leave the pairing list
  before the bye is chosen and the list is cut into chunks; the game is
  ``gameBetween(first, second)`` in pairing-list order, weighed by its ``costValue``;
* a **forbidden** pair has no edge in the matching (removed, not merely penalised: a
  penalty could still pair them when nothing else is possible, and ``pair-round`` would
  then refuse the round); when no perfect matching is left the round is refused in one
  sentence naming the forbidden pairs;
* an **unwanted** pair gets OpenGotha's own "already played" treatment: its
  ``avoidDuplGame`` term is 0, as for two players who met;
* **tables**: a fixed pairing's table, else a fixed table of one of its players, is given
  first (when free); every other game keeps OpenGotha's order (best score, then rating)
  and takes the lowest free number.

Where OpenGotha's table sort would throw (Java's "Comparison method violates its general
contract!", big fields with many equal ratings), the tables follow the documented fallback
of :mod:`.tables` and the pairing's ``note`` says so (``docs/pairing-rounds.md``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from goledger.errors import CommandRejected
from goledger.i18n.messages import say
from goledger.pairing.engine import ByeChoice, PairedGame, Pairing, PairingRequest, PairTerms
from goledger.pairing.opengotha.bye import choose_bye
from goledger.pairing.opengotha.chunking import chunks
from goledger.pairing.opengotha.colours import game_between
from goledger.pairing.opengotha.costs import cost_matrix, cost_terms, wrap
from goledger.pairing.opengotha.facts import RoundFacts
from goledger.pairing.opengotha.parameters import Parameters, resolve
from goledger.pairing.opengotha.tables import number_tables

if TYPE_CHECKING:
    from goledger.replay.fold.state import TournamentState

__all__ = ["ENGINE", "OpenGothaEngine", "match_chunk"]


def _parameters(state: TournamentState, request: PairingRequest) -> Parameters:
    if state.settings is None:
        raise CommandRejected(say("the ledger has no tournament yet"))
    settings = state.settings_for_round(max(request.round, 1))
    return resolve(settings.pairing, settings.system, request.parameters, settings)


def _check(state: TournamentState, request: PairingRequest) -> None:
    if not 1 <= request.round <= state.rounds:
        raise CommandRejected(say("round %(round)d is outside 1..%(rounds)d of this tournament", round=request.round,
                                  rounds=state.rounds))
    unknown = [p for p in request.players if p not in state.players]
    if unknown:
        raise CommandRejected(say("player %(player)r is not registered in this tournament", player=unknown[0]))
    if len(set(request.players)) != len(request.players):
        raise CommandRejected(say("a player is listed twice in the players to pair"))


def match_chunk(facts: RoundFacts, chunk: list[str],
                forbidden: frozenset[frozenset[str]] = frozenset()) -> list[tuple[int, int, int]]:
    """The maximum-weight perfect matching of one chunk: (lower index, higher index, cost)
    per pair, ordered by the lower index (the order ``pairAGroup`` returns its games in).
    The ``forbidden`` pairs have no edge.

    The graph is built from the cost matrix as doubles when every cost is in 1 … 2^53 (exact
    integers there, as they always are with OpenGotha's weight limits), else edge by edge
    from Python integers; the matcher sees the integers either way."""
    # numpy, rustworkx and the process pool load late: only a round paired needs them
    import numpy as np
    import rustworkx as rx

    n = len(chunk)
    if n == 0:
        return []
    ii, jj, costs = cost_matrix(facts, chunk)
    keep = None
    if forbidden:
        where = {pid: k for k, pid in enumerate(chunk)}
        banned = [(where[a], where[b]) for a, b in (tuple(pair) for pair in forbidden)
                  if a in where and b in where]
        if banned:
            codes = np.minimum(ii, jj) * n + np.maximum(ii, jj)
            keep = ~np.isin(codes, [min(x, y) * n + max(x, y) for x, y in banned])
    if len(costs) and int(costs.min()) >= 1 and int(costs.max()) < 2**53:
        dense = np.zeros((n, n), dtype=np.float64)
        ki, kj, kc = (ii, jj, costs) if keep is None else (ii[keep], jj[keep], costs[keep])
        dense[ki, kj] = kc
        dense[kj, ki] = kc
        graph = rx.PyGraph.from_adjacency_matrix(dense, null_value=0.0)
    else:
        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        edges = zip(ii.tolist(), jj.tolist(), costs.tolist(), strict=True)
        graph.add_edges_from([e for k, e in enumerate(edges) if keep is None or keep[k]])
    mate = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(mate) != n:
        if forbidden:
            raise CommandRejected(say("no pairing of a group of %(n)d players gives every player an opponent while "
                                      "respecting the forbidden pairs; lift a constraint or pair some games by hand",
                                      n=n))
        raise CommandRejected(say("no perfect matching exists for a group of %(n)d players", n=n))
    pairs = sorted((min(u, v), max(u, v)) for u, v in mate)
    return [(lo, hi, int(costs[lo * n - lo * (lo + 1) // 2 + (hi - lo - 1)])) for lo, hi in pairs]


def _match_all(facts: RoundFacts, parts: list[list[str]],
               forbidden: frozenset[frozenset[str]] = frozenset()) -> list[list[tuple[int, int, int]]]:
    """Every chunk matched; chunks are independent, so with several of them they are matched
    in threads (rustworkx releases the interpreter while it matches)."""
    if len(parts) < 2:
        return [match_chunk(facts, part, forbidden) for part in parts]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=min(len(parts), os.cpu_count() or 1)) as pool:
        return list(pool.map(lambda part: match_chunk(facts, part, forbidden), parts))


def _constraints(state: TournamentState, request: PairingRequest) -> tuple[list[tuple[str, str, int | None]],
                                                                frozenset[frozenset[str]], set[frozenset[str]]]:
    """The round's fixed pairings among the players to pair (refused when only one of the
    two is), and its forbidden and unwanted pairs."""
    r = request.round
    wanted = set(request.players)
    fixed: list[tuple[str, str, int | None]] = []
    for a, (b, table) in sorted(state.fixed_pairs.get(r, {}).items()):
        if a in wanted and b in wanted:
            fixed.append((a, b, table))
        elif a in wanted or b in wanted:
            missing = b if a in wanted else a
            raise CommandRejected(say(
                "round %(round)d fixes a game of %(a)s and %(b)s, but %(missing)s is not among the players to pair; "
                "lift the fixed pairing or pair him first", round=r, a=a, b=b, missing=missing))
    forbidden: set[frozenset[str]] = set()
    unwanted: set[frozenset[str]] = set()
    for a, partners in state.pairing_constraints.items():
        for b in partners:
            if a in wanted and b in wanted:
                kind = state.constraint_in(a, b, r)
                if kind == "forbidden":
                    forbidden.add(frozenset((a, b)))
                elif kind == "unwanted":
                    unwanted.add(frozenset((a, b)))
    return fixed, frozenset(forbidden), unwanted


def _tables(state: TournamentState, r: int, ordered: list[tuple[int, str, str]],
            wanted: dict[tuple[str, str], int | None]) -> list[tuple[int, str, str]]:
    """Tables when some game wants one (a fixed pairing's table, a fixed table of one of its
    players): those first, when free; every other game in OpenGotha's order takes the lowest
    free number."""
    taken = set(state.games.get(r, {}))
    placed: dict[tuple[str, str], int] = {}
    for _, w, b in ordered:
        table = wanted.get((w, b))
        if table is not None and table not in taken:
            taken.add(table)
            placed[(w, b)] = table
    free = 1
    out: list[tuple[int, str, str]] = []
    for _, w, b in ordered:
        if (w, b) not in placed:
            while free in taken:
                free += 1
            taken.add(free)
            placed[(w, b)] = free
        out.append((placed[(w, b)], w, b))
    return sorted(out)


class OpenGothaEngine:
    """OpenGotha 3.51.02's pairing (see the module docstring)."""

    name = "opengotha"
    version = "3.51.02"

    def pair(self, state: TournamentState, request: PairingRequest) -> Pairing:
        """Pair ``request.players`` for ``request.round`` as OpenGotha's "Pair" button does."""
        _check(state, request)
        params = _parameters(state, request)
        r = request.round
        fixed, forbidden, unwanted = _constraints(state, request)
        facts = RoundFacts(state, r, params.weights, request.seed)
        facts.played |= unwanted  # OpenGotha's "already played" treatment
        in_fixed = {p for a, b, _ in fixed for p in (a, b)}
        order = [p for p in facts.order(request.players) if p not in in_fixed]
        bye: ByeChoice | None = None
        if len(order) % 2:
            if state.byes.get(r):
                raise CommandRejected(say(
                    "round %(round)d already has a bye and %(n)d players are left to pair: "
                    "an odd number cannot be paired (OpenGotha: select an even number of players)",
                    round=r, n=len(order)))
            weight = {pid: facts.rank[pid] + facts.mms2[pid] + 1000 * facts.byes[pid] for pid in order}
            bye = choose_bye(order, weight)
            order = [p for p in order if p != bye.player]
        parts = chunks(order, facts.main_level, facts.category, facts.number_of_categories,
                       facts.score_max, facts.score_min)
        raw: list[tuple[str, str, int, int]] = []
        wanted: dict[tuple[str, str], int | None] = {}
        if fixed:  # placed first, in pairing-list order
            position = {p: k for k, p in enumerate(facts.order(request.players))}
            for a, b, table in fixed:
                first, second = sorted((a, b), key=position.__getitem__)
                white, black, handicap = game_between(facts, first, second)
                raw.append((white, black, handicap, wrap(sum(cost_terms(facts, first, second).values()))))
                wanted[(white, black)] = table
        for part, matched in zip(parts, _match_all(facts, parts, forbidden), strict=True):
            for lo, hi, cost in matched:
                white, black, handicap = game_between(facts, part[lo], part[hi])
                raw.append((white, black, handicap, cost))
        for white, black, _, _ in raw:
            if wanted.get((white, black)) is None:
                table = state.fixed_table(white, r) or state.fixed_table(black, r)
                if table is not None:
                    wanted[(white, black)] = table
        placement = facts.placement_now()
        used = state.games.get(r, {}).keys()
        numbered, note = number_tables([(w, b) for w, b, _, _ in raw], placement, facts.rating, used)
        if any(t is not None for t in wanted.values()):
            numbered = _tables(state, r, numbered, wanted)
        details = {(w, b): (h, c) for w, b, h, c in raw}
        games = tuple(
            PairedGame(table=t, white=w, black=b, handicap=details[(w, b)][0], komi=None, weight=details[(w, b)][1])
            for t, w, b in numbered
        )
        parameters = {
            **params.text,
            "parameterSource": params.source,
            "placementCriteria": ",".join(facts.criteria),
            "mainCriterion": facts.main,
            "numberOfCategories": str(facts.number_of_categories),
            "numberOfGroups": str(facts.number_of_groups),
            "pairingGroupMinSize": "200",
            "pairingGroupMaxSize": "600",
        }
        return Pairing(
            engine=self.name, version=self.version, round=r, games=games, bye=bye,
            total_weight=wrap(sum(g.weight for g in games)), chunks=tuple(len(p) for p in parts),
            parameters=parameters, seed=request.seed, note=note,
        )

    def pair_terms(self, state: TournamentState, request: PairingRequest, first: str, second: str) -> PairTerms:
        """``costValue(first, second)`` term by term, ``first`` being the player that comes
        first in OpenGotha's matrix (the cost is not symmetric when a random term is on)."""
        _check(state, request)
        for pid in (first, second):
            if pid not in state.players:
                raise CommandRejected(say("player %(player)r is not registered in this tournament", player=pid))
        if first == second:
            raise CommandRejected(say("a player cannot be paired with himself"))
        params = _parameters(state, request)
        facts = RoundFacts(state, request.round, params.weights, request.seed)
        facts.played |= _constraints(state, request)[2]
        terms = cost_terms(facts, first, second)
        return PairTerms(first=first, second=second, total=wrap(sum(terms.values())), terms=terms)


ENGINE = OpenGothaEngine()
