"""Property tests of the ``egf`` engine (issue 15, "Done when"): generated tournaments (4–400
players, up to 10 rounds, random results, absences, late arrivals, withdrawals, forbidden and
fixed pairs) paired round after round, each pairing checked against the rules:

* every present player is paired once or given the bye;
* no repeat when a repeat-free pairing exists (for the same bye, checked with an exact
  matching: networkx, only when the engine repeated a game);
* no second bye while another present player has none;
* colours: without handicap and outside a rematch, the player with more whites takes Black,
  so a colour difference of at most 1 stays at most 1 whenever the pair allows it;
* constraints honoured: no forbidden pair, every fixed pair at its table;
* determinism: the same state and seed give the same pairing, from a fresh engine.

The default run stays small (fixed hypothesis seed, about 30 s); ``-m slow`` runs more and
bigger tournaments.
"""

from __future__ import annotations

import random

import networkx as nx  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from goledger.ledger import events as ev
from goledger.ledger.values import Rank, Result
from goledger.pairing.egf import EgfEngine
from goledger.pairing.engine import Pairing, PairingRequest
from goledger.pairing.participants import players_to_pair
from goledger.replay.fold.state import TournamentState, apply, fold

RESULTS = [Result.WHITE, Result.BLACK, Result.WHITE, Result.BLACK, Result.JIGO]


def _rank(rng: random.Random) -> str:
    return str(Rank.from_value(rng.randint(-25, 5)))


def _balances(state: TournamentState) -> dict[str, int]:
    out = dict.fromkeys(state.players, 0)
    for g in state.all_games():
        if g.handicap == 0 and g.color_known:
            out[g.white] += 1
            out[g.black] -= 1
    return out


def _check(state: TournamentState, request: PairingRequest, pairing: Pairing, forbidden: set[frozenset[str]]) -> None:
    round_ = request.round
    assert sorted(pairing.players()) == sorted(request.players), "every present player once"
    met = {frozenset((g.white, g.black)) for g in state.all_games() if g.round != round_}
    fixed = {frozenset((a, b)): t for a, (b, t) in state.fixed_pairs.get(round_, {}).items()}
    pairs = {frozenset((g.white, g.black)): g for g in pairing.games}
    for pair, table in fixed.items():
        assert pair in pairs, "a fixed pair is paired"
        if table is not None:
            assert pairs[pair].table == table
    assert not (set(pairs) & forbidden), "no forbidden pair"
    assert len({g.table for g in pairing.games}) == len(pairing.games)
    # the bye
    byes = {p: sum(p in b for r, b in state.byes.items() if r < round_) for p in request.players}
    in_fixed = {p for pair in fixed for p in pair}
    if pairing.bye is not None:
        assert len(request.players) % 2 == 1
        had = byes[pairing.bye.player]
        assert all(byes[p] >= had for p in request.players if p not in in_fixed), "no second bye before a first"
    # repeats only when unavoidable (for this bye and these fixed pairs)
    repeats = [pair for pair in pairs if pair in met and pair not in fixed]
    if repeats:
        pool = [p for p in request.players if p not in in_fixed and (pairing.bye is None or p != pairing.bye.player)]
        graph = nx.Graph()
        graph.add_nodes_from(pool)
        graph.add_edges_from((a, b) for i, a in enumerate(pool) for b in pool[i + 1:]
                             if frozenset((a, b)) not in met and frozenset((a, b)) not in forbidden)
        best = nx.max_weight_matching(graph, maxcardinality=True)
        assert 2 * len(best) < len(pool), f"round {round_} repeats {repeats} though a repeat-free pairing exists"
    # colours
    balance = _balances(state)
    last_white = {frozenset((g.white, g.black)): g.white for g in state.all_games() if g.round < round_}
    for pair, g in pairs.items():
        if g.handicap == 0 and pair not in last_white:
            assert balance[g.white] <= balance[g.black], "the player with more whites takes Black"
        elif pair in last_white and g.handicap == 0:
            assert last_white[pair] == g.black, "a rematch reverses the colours"


def _play(rng: random.Random, players: int, rounds: int, system: str) -> None:
    """Generate and pair a whole tournament, checking every round."""
    engine = EgfEngine()
    state = fold([ev.TournamentCreated(settings=ev.TournamentSettings(
        name="Property Open", rounds=rounds, system=system,  # type: ignore[arg-type]
        mm_bar="3d", mm_floor="20k"))])
    arrivals = {f"p{i + 1:04d}": (1 if rounds == 1 or rng.random() < 0.85 else rng.randint(2, rounds))
                for i in range(players)}
    forbidden: dict[frozenset[str], tuple[int | None, int | None]] = {}
    ids = list(arrivals)
    if players >= 8:
        for _ in range(max(1, players // 12)):
            a, b = rng.sample(ids, 2)
            bounds = (None, rng.randint(1, rounds)) if rng.random() < 0.3 else (None, None)
            forbidden[frozenset((a, b))] = bounds
    registered: set[str] = set()
    for round_ in range(1, rounds + 1):
        for pid, arrival in arrivals.items():
            if arrival == round_ and pid not in registered:
                apply(state, ev.PlayerRegistered(
                    player_id=pid, surname=f"S{pid}", first_name="F", rank=_rank(rng),
                    club=rng.choice(["", "Alpha", "Beta", "Gamma"]), country=rng.choice(["FR", "DE", "NL", ""])))
                registered.add(pid)
                for pair, (low, high) in forbidden.items():
                    if pair <= registered and pid in pair:
                        a, b = sorted(pair)
                        apply(state, ev.PairingConstraintSet(player_a=a, player_b=b, constraint="forbidden",
                                                             from_round=low, until_round=high))
        present = [p for p in registered if not state.players[p].is_withdrawn(round_)]
        for pid in present:
            x = rng.random()
            if x < 0.03:
                apply(state, ev.PlayerWithdrew(player_id=pid, from_round=round_))
            elif x < 0.10:
                apply(state, ev.ParticipationChanged(player_id=pid, round=round_, participating=False))
        active = [f for f, (low, high) in forbidden.items()
                  if (low is None or round_ >= low) and (high is None or round_ <= high)]
        request = PairingRequest(round=round_, players=players_to_pair(state, round_), seed=rng.randint(0, 3))
        if len(request.players) >= 6 and rng.random() < 0.3:
            a, b = rng.sample(list(request.players), 2)
            if frozenset((a, b)) not in active:
                apply(state, ev.PairingFixed(round=round_, player_a=min(a, b), player_b=max(a, b),
                                             table=rng.choice([None, 2])))
        if len(request.players) < 2:
            continue
        pairing = engine.pair(state, request)
        _check(state, request, pairing, set(active))
        assert EgfEngine().pair(state, request) == pairing, "same state and seed, same pairing"
        for g in pairing.games:
            apply(state, ev.GamePaired(round=round_, table=g.table, white=g.white, black=g.black,
                                       handicap=g.handicap, komi=g.komi))
            if rng.random() < 0.97:
                apply(state, ev.ResultRecorded(round=round_, table=g.table, result=rng.choice(RESULTS)))
        if pairing.bye is not None:
            apply(state, ev.ByeAssigned(round=round_, player_id=pairing.bye.player))


@seed(15)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False)
@given(players=st.integers(4, 40), rounds=st.integers(1, 10), system=st.sampled_from(["mcmahon", "swiss"]),
       salt=st.integers(0, 10**6))
def test_small_tournaments_pair_by_the_rules(players: int, rounds: int, system: str, salt: int) -> None:
    _play(random.Random(salt), players, rounds, system)


@pytest.mark.parametrize(("players", "rounds", "salt"), [(400, 10, 1), (151, 6, 2)])
def test_big_tournaments_pair_by_the_rules(players: int, rounds: int, salt: int) -> None:
    _play(random.Random(salt), players, rounds, "mcmahon")


@pytest.mark.slow
@seed(16)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(4, 400), rounds=st.integers(1, 10), system=st.sampled_from(["mcmahon", "swiss"]),
       salt=st.integers(0, 10**6))
def test_many_tournaments_pair_by_the_rules(players: int, rounds: int, system: str, salt: int) -> None:
    _play(random.Random(salt), players, rounds, system)
