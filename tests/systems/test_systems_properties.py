"""Property tests of the tournament systems (hypothesis, derandomized): the engines and the
recording checks on states folded in memory (the same ``fold`` the ledger uses), so that
hundreds of whole events stay fast.

* every engine accounts for every player it is asked to pair: placed once, or listed as not
  paired with a reason (issue 29);
* every knockout ends with exactly one winner after ⌈log₂ N⌉ rounds;
* in a double knockout nobody is eliminated with fewer than two losses and the champion has at
  most one (without the reset game, the grand final's loser is the one exception), and it takes
  the rounds the draw sets (one less when the reset game is not needed);
* a Paramus of N players has N − 1 games and every player but the first (the weakest, who
  holds from the start) enters exactly once;
* the caps are never exceeded: games per pair and rank difference in continuous handicap, the
  rank difference of the handicap engine, the target of a match.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.values import Rank, Result
from goledger.pairing.engine import PairingRequest
from goledger.pairing.participants import players_to_pair
from goledger.replay.fold.state import apply, fold
from goledger.systems import check_event, engine_for, places_of
from goledger.systems.bracket import knockout_rounds
from goledger.systems.double_knockout import double_knockout_rounds, resolve
from goledger.systems.paramus import ladder

PROPS = settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Event:
    """A tournament folded in memory; :meth:`add` runs the system's check first, as the
    recording commands do."""

    def __init__(self, system: str, ranks: list[str], rounds: int, options: dict[str, Any] | None = None) -> None:
        settings_ = ev.TournamentSettings(name="t", rounds=rounds, system=system,  # type: ignore[arg-type]
                                          system_options=options or {})
        events: list[ev.Event] = [ev.TournamentCreated(settings=settings_)]
        events += [ev.PlayerRegistered(player_id=f"p{i + 1:04d}", surname=f"P{i + 1:02d}", rank=r)
                   for i, r in enumerate(ranks)]
        self.state = fold(events)

    def add(self, event: ev.Event) -> None:
        check_event(self.state, event)
        apply(self.state, event)

    def pair_round(self, round_: int) -> Any:
        request = PairingRequest(round=round_, players=players_to_pair(self.state, round_))
        pairing = engine_for(self.state).pair(self.state, request)
        # the engine accounts for every player it was asked about: placed once, or unpaired with a reason
        listed = [p for p, _ in pairing.unpaired]
        assert sorted([*pairing.players(), *listed]) == sorted(request.players)
        assert all(why for _, why in pairing.unpaired)
        for g in pairing.games:
            self.add(ev.GamePaired(round=round_, table=g.table, white=g.white, black=g.black, handicap=g.handicap))
        if pairing.bye is not None:
            self.add(ev.ByeAssigned(round=round_, player_id=pairing.bye.player))
        return pairing

    def play(self, round_: int, rng: random.Random) -> int:
        games = self.state.games_of_round(round_)
        for g in games:
            self.add(ev.ResultRecorded(round=round_, table=g.table, result=rng.choice((Result.WHITE, Result.BLACK))))
        return len(games)


def _ranks(n: int, rng: random.Random) -> list[str]:
    return [str(Rank.from_value(rng.randint(-25, 5))) for _ in range(n)]


@PROPS
@given(n=st.integers(2, 70), method=st.sampled_from(["fold", "adjacent", "slide"]), seed=st.integers(0, 10**6))
def test_every_knockout_has_one_winner_after_ceil_log2_rounds(n: int, method: str, seed: int) -> None:
    rng = random.Random(seed)
    k = knockout_rounds(n)
    t = Event("knockout", _ranks(n, rng), max(1, k), {"method": method})
    for r in range(1, k + 1):
        t.pair_round(r)
        t.play(r, rng)
    places = places_of(t.state)
    assert places.finished
    firsts = [row for row in places.rows if row.place == 1]
    assert len(firsts) == 1 and not firsts[0].active
    assert len(places.rows) == n
    with_loss = {g.white if g.result is Result.BLACK else g.black for g in t.state.all_games()}
    assert with_loss == set(t.state.players) - {firsts[0].player_id}  # everyone else lost exactly one game
    assert sum(len(t.state.games_of_round(r)) for r in range(1, k + 1)) == n - 1
    try:
        t.pair_round(k + 1)
    except CommandRejected:
        pass
    else:  # pragma: no cover
        raise AssertionError("a knockout paired a round after its final")


@PROPS
@given(n=st.integers(2, 24), reset=st.booleans(), seed=st.integers(0, 10**6))
def test_double_knockout_eliminates_on_the_second_loss_only(n: int, reset: bool, seed: int) -> None:
    rng = random.Random(seed)
    t = Event("double-knockout", _ranks(n, rng), 99, {"reset": reset})
    for r in range(1, 100):
        status = resolve(t.state)
        if status.phase == "over":
            break
        t.pair_round(r)
        assert t.play(r, rng) >= 1
    status = resolve(t.state)
    assert status.champion is not None
    losses = {p: 0 for p in t.state.players}
    for g in t.state.all_games():
        losses[g.white if g.result is Result.BLACK else g.black] += 1
    assert losses[status.champion] <= 1
    for pid, n_losses in losses.items():
        if pid == status.champion:
            continue
        if pid == status.runner_up and not reset:
            assert n_losses >= 1
        else:
            assert n_losses == 2, (pid, n_losses)
    assert places_of(t.state).rows[0].player_id == status.champion
    assert r <= 2 * knockout_rounds(n) + 3
    rounds = status.decided  # the rounds it took: the draw's count, or one less without the reset game
    assert rounds in (double_knockout_rounds(n, reset=reset), double_knockout_rounds(n, reset=reset) - int(reset))


@PROPS
@given(n=st.integers(2, 30), seed=st.integers(0, 10**6))
def test_paramus_has_n_minus_one_games_and_everyone_enters_once(n: int, seed: int) -> None:
    rng = random.Random(seed)
    t = Event("paramus", _ranks(n, rng), n - 1)
    for r in range(1, n):
        t.pair_round(r)
        assert t.play(r, rng) == 1
    lad = ladder(t.state)
    assert lad.winner is not None and len(list(t.state.all_games())) == n - 1
    entered = [rung.entrant for rung in lad.rungs]
    assert sorted(entered) == sorted(set(lad.order) - {lad.order[-1]})
    assert lad.rungs[0].holder == lad.order[-1] and lad.rungs[0].entrant == lad.order[-2]
    assert places_of(t.state).rows[0].player_id == lad.winner


@PROPS
@given(seed=st.integers(0, 10**6), cap=st.integers(1, 3), limit=st.integers(0, 6))
def test_continuous_handicap_caps_are_never_exceeded(seed: int, cap: int, limit: int) -> None:
    rng = random.Random(seed)
    n = 8
    t = Event("continuous-handicap", _ranks(n, rng), 99,
              {"max_games_per_pair": cap, "max_rank_difference": limit})
    ids = list(t.state.players)
    refused = 0
    for attempt in range(60):
        a, b = rng.sample(ids, 2)
        r = 1 + attempt
        try:
            t.add(ev.GamePaired(round=r, table=1, white=a, black=b))
        except CommandRejected as exc:
            refused += 1
            assert str(exc).count(".") <= 1 and str(exc)
            continue
        t.add(ev.ResultRecorded(round=r, table=1, result=rng.choice((Result.WHITE, Result.BLACK, Result.JIGO))))
    per_pair: dict[frozenset[str], int] = {}
    for g in t.state.all_games():
        key = frozenset((g.white, g.black))
        per_pair[key] = per_pair.get(key, 0) + 1
        diff = abs(Rank.parse(t.state.players[g.white].rank).value - Rank.parse(t.state.players[g.black].rank).value)
        assert diff <= limit
    assert all(count <= cap for count in per_pair.values())
    assert len(places_of(t.state).rows) == n


@PROPS
@given(n=st.integers(2, 30), seed=st.integers(0, 10**6), limit=st.integers(3, 9))
def test_handicap_pairing_never_breaks_the_rank_difference(n: int, seed: int, limit: int) -> None:
    rng = random.Random(seed)
    ranks = [str(Rank.from_value(rng.randint(-12, 2))) for _ in range(n)]
    t = Event("handicap", ranks, 4, {"max_rank_difference": limit})
    for r in range(1, 5):
        try:
            pairing = t.pair_round(r)
        except CommandRejected as exc:
            assert "rank difference" in str(exc)
            return
        for g in pairing.games:
            w, b = (Rank.parse(t.state.players[p].rank).value for p in (g.white, g.black))
            assert abs(w - b) <= limit and w >= b
            assert g.handicap == min(9, w - b)
        assert len(pairing.players()) == n
        t.play(r, rng)


@PROPS
@given(target=st.sampled_from(["1", "2", "2.5", "3", "4"]), seed=st.integers(0, 10**6))
def test_a_match_stops_at_its_target(target: str, seed: int) -> None:
    rng = random.Random(seed)
    t = Event("match", ["3d", "2d"], 20, {"target": target})
    for r in range(1, 21):
        try:
            t.pair_round(r)
        except CommandRejected as exc:
            assert "decided" in str(exc)
            break
        g = t.state.games_of_round(r)[0]
        t.add(ev.ResultRecorded(round=r, table=1, result=rng.choice((Result.WHITE, Result.BLACK, Result.JIGO))))
        assert g.white != t.state.games_of_round(r - 1)[0].white if r > 1 else True
    points = {p: 0 for p in t.state.players}
    for g in t.state.all_games():
        for p in (g.white, g.black):
            points[p] += g.points2(p)
    target2 = int(float(target) * 2)
    assert max(points.values()) >= target2
    last = list(t.state.all_games())[-1]
    before = {p: points[p] - last.points2(p) for p in points}
    a, b = before.values()
    assert not (max(a, b) >= target2 and a != b)  # the last game was needed: nobody led at the target before it
    assert places_of(t.state).finished
