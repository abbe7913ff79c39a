"""Unit tests of the ``opengotha`` engine's parts, and the engine on ledgers made by hand
(``goledger new`` + ``register``), where OpenGotha's new-tournament defaults apply."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from goledger import commands as record
from goledger.errors import CommandRejected
from goledger.pairing.engine import Engine, Pairing, PairingRequest
from goledger.pairing.opengotha import ENGINE
from goledger.pairing.opengotha.bye import choose_bye
from goledger.pairing.opengotha.chunking import GROUP_MAX, GROUP_MIN, chunks
from goledger.pairing.opengotha.colours import det_random
from goledger.pairing.opengotha.costs import jlong, wrap
from goledger.pairing.opengotha.facts import jdiv, utf16
from goledger.pairing.opengotha.javasort import java_sort
from goledger.pairing.opengotha.parameters import PAIRING_DEFAULTS, resolve
from goledger.pairing.participants import players_to_pair
from goledger.replay.views import state_as_of
from goledger.systems import get_engine

# ------------------------------------------------------------------ arithmetic


def test_java_arithmetic() -> None:
    assert [jdiv(a, b) for a, b in ((7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5))] == [3, -3, -3, 3, 0]
    assert wrap(2**63 - 1) == 2**63 - 1 and wrap(2**63) == -(2**63) and wrap(-(2**63) - 1) == 2**63 - 1
    assert jlong(2.99) == 2 and jlong(-2.99) == -2 and jlong(1e300) == 2**63 - 1 and jlong(-1e300) == -(2**63)


def test_det_random_is_mirrored_when_the_players_swap() -> None:
    a, b = utf16("Honinbo" + "Shusaku"), utf16("Inoue" + "Genan")
    for maximum in (1, 10, 1_000_000, 1_000_000_000):
        assert 0 <= det_random(maximum, a, b) <= maximum
        assert det_random(maximum, a, b) + det_random(maximum, b, a) == maximum
    assert det_random(0, a, b) == det_random(0, b, a) == 0


def test_utf16_counts_surrogates_as_java_does() -> None:
    assert utf16("é") == [0xE9]
    assert len(utf16("\U0001f600")) == 2


# ------------------------------------------------------------------ parameters


def test_defaults_follow_openGotha_s_new_tournament_presets() -> None:
    mm = resolve({}, "mcmahon", {})
    assert mm.weights.seed_system1 == 1 and mm.weights.seed_system2 == 3  # random, then slip
    assert mm.weights.avoid_same_geo == 100_000_000_000 and not mm.weights.nbw_threshold_active
    swiss = resolve({}, "swiss", {})
    assert swiss.weights.avoid_same_geo == 0 and swiss.weights.rank_threshold == -30
    assert swiss.weights.hd_ceiling == 0 and not swiss.weights.hd_based_on_mms  # initForSwiss handicap
    cat = resolve({}, "swisscat", {})
    assert cat.weights.avoid_mixing_categories == cat.weights.minimize_handicap == 20_000_000_000_000
    assert resolve({}, "cup", {}).weights.seed_system1 == 2
    assert "initForSwiss" in resolve({}, "round-robin", {}).source
    assert set(PAIRING_DEFAULTS["mcmahon"]) == set(PAIRING_DEFAULTS["cup"])


def test_file_values_and_overrides_win() -> None:
    p = resolve({"paiMaLastRoundForSeedSystem1": "3", "paiBaRandom": "7"}, "mcmahon",
                {"paiBaRandom": "9", "hdCeiling": "0"})
    assert p.weights.last_round_seed1 == 2 and p.weights.random == 9 and p.weights.hd_ceiling == 0
    assert p.text["paiBaRandom"] == "9" and "request" in p.source and "PairingParameterSet" in p.source


def test_a_file_s_unknown_words_read_as_openGotha_reads_them() -> None:
    p = resolve({"paiMaSeedSystem2": "SPLITANDSHUFFLE", "paiMaDUDDUpperMode": "mid",
                 "paiMaAdditionalPlacementCritSystem1": "RATING", "paiMaCompensateDUDD": "TRUE"}, "mcmahon", {})
    assert p.weights.seed_system2 == 1 and p.weights.dudd_upper_mode == 2  # ExternalDocument's fallbacks
    assert p.weights.additional_crit1 == "Rating" and p.weights.compensate_dudd


@pytest.mark.parametrize(("name", "value", "message"), [
    ("paiNoSuchThing", "1", "unknown OpenGotha pairing parameter"),
    ("paiBaRandom", "lots", "must be an integer"),
    ("paiMaSeedSystem1", "SPLITANDSHUFFLE", "must be one of"),
    ("paiSeRankThreshold", "strong", "must be a rank"),
])
def test_bad_parameters_are_refused(name: str, value: str, message: str) -> None:
    with pytest.raises(CommandRejected, match=message):
        resolve({}, "mcmahon", {name: value})


# ------------------------------------------------------------------ chunking, bye, sort


def test_chunking_never_matches_more_than_600() -> None:
    order = [f"p{i:04d}" for i in range(1500)]
    level = {p: 40 - i // 60 for i, p in enumerate(order)}  # 25 score levels of 60
    parts = chunks(order, level, dict.fromkeys(order, 0), 1, 45, 0)
    assert sum(map(len, parts)) == 1500 and sorted(p for c in parts for p in c) == order
    assert all(len(c) <= GROUP_MAX for c in parts)
    assert [len(c) for c in parts] == [240, 240, 240, 240, 540]  # whole levels until >= 200 and even
    odd = {p: 40 - i // 61 for i, p in enumerate(order)}
    assert all(len(c) % 2 == 0 for c in chunks(order, odd, dict.fromkeys(order, 0), 1, 45, 0)[:-1])


def test_chunking_stops_when_200_would_remain() -> None:
    order = [f"p{i}" for i in range(700)]
    parts = chunks(order, dict.fromkeys(order, 5), dict.fromkeys(order, 0), 1, 5, 0)
    assert [len(c) for c in parts] == [500, GROUP_MIN]


def test_bye_goes_to_the_lightest_and_on_ties_to_the_last() -> None:
    choice = choose_bye(["a", "b", "c", "d"], {"a": 5, "b": 2, "c": 2, "d": 1002})
    assert choice.player == "c"
    assert [p for p, _ in choice.candidates] == ["c", "b", "a", "d"]
    assert "chooseAByePlayer" in choice.rule


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=300))
def test_java_sort_is_stable_for_a_consistent_comparator(keys: list[int]) -> None:
    items = list(enumerate(keys))
    assert java_sort(items, lambda a, b: (a[1] > b[1]) - (a[1] < b[1])) == sorted(items, key=lambda t: t[1])


def test_java_sort_with_ties_answered_after_both_ways_keeps_runs() -> None:
    items = [(k, i) for i, k in enumerate([1, 1, 0, 1, 0, 0, 1])]
    out = java_sort(items, lambda a, b: -1 if a[0] < b[0] else 1)
    assert [k for k, _ in out] == [0, 0, 0, 1, 1, 1, 1]
    assert [i for k, i in out if k == 0] == [2, 4, 5]


# ------------------------------------------------------------------ the engine on hand-made ledgers


RANKS = ["5d", "3d", "1d", "2k", "2k", "5k", "9k", "15k", "25k"]


def _ledger(tmp_path: Path, system: str = "mcmahon", ranks: list[str] = RANKS) -> Path:
    db = tmp_path / "t.db"
    record.new(db, "Hand made", rounds=4, system=system)
    for i, rank in enumerate(ranks):
        record.register(db, f"Player{i}", "Test", rank, country="FR" if i % 2 else "DE", club=f"C{i % 3}",
                        rating=2000 - 100 * i)
    return db


def test_engine_satisfies_the_contract() -> None:
    engine: Engine = get_engine("opengotha")
    assert engine is ENGINE and engine.name == "opengotha" and engine.version == "3.51.02"


def test_round_one_of_a_hand_made_mcmahon(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    state = state_as_of(db)
    request = PairingRequest(round=1, players=players_to_pair(state, 1))
    pairing = ENGINE.pair(state, request)
    assert pairing.engine == "opengotha" and pairing.version == "3.51.02" and pairing.round == 1
    assert pairing.bye is not None and state.players[pairing.bye.player].rank == "25k"  # lightest weight
    assert len(pairing.games) == 4 and sorted(pairing.players()) == sorted(request.players)
    assert [g.table for g in pairing.games] == [1, 2, 3, 4]
    assert pairing.total_weight == sum(g.weight for g in pairing.games)
    assert pairing.chunks == (8,)
    assert "initForMM" in pairing.parameters["parameterSource"]
    assert pairing.parameters["paiMaSeedSystem2"] == "SPLITANDSLIP"
    for game in pairing.games:
        terms = ENGINE.pair_terms(state, request, game.white, game.black)
        back = ENGINE.pair_terms(state, request, game.black, game.white)
        assert game.weight in (terms.total, back.total)  # the random seeding term is asymmetric
        assert game.handicap >= 0 and game.komi is None
        if game.handicap:
            assert state.players[game.white].rank != state.players[game.black].rank
    # the same inputs give the same pairing
    assert ENGINE.pair(state, request) == pairing


def test_round_two_avoids_repeats_and_gives_a_second_bye_to_someone_else(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    state = state_as_of(db)
    first = ENGINE.pair(state, PairingRequest(round=1, players=players_to_pair(state, 1)))
    for g in first.games:
        record.pair(db, 1, g.white, g.black, table=g.table, handicap=g.handicap)
        record.result(db, 1, g.table, "1-0")
    assert first.bye is not None
    record.bye(db, first.bye.player, 1)
    state = state_as_of(db)
    second = ENGINE.pair(state, PairingRequest(round=2, players=players_to_pair(state, 2)))
    met = {frozenset((g.white, g.black)) for g in first.games}
    assert not met & {frozenset((g.white, g.black)) for g in second.games}
    assert second.bye is not None and second.bye.player != first.bye.player
    weights = dict(second.bye.candidates)
    assert weights[first.bye.player] > max(w for p, w in weights.items() if p != first.bye.player)  # + 1000


def test_swiss_defaults_play_even_games(tmp_path: Path) -> None:
    db = _ledger(tmp_path, "swiss", RANKS[:8])
    state = state_as_of(db)
    pairing = ENGINE.pair(state, PairingRequest(round=1, players=players_to_pair(state, 1)))
    assert pairing.bye is None and all(g.handicap == 0 for g in pairing.games)
    assert "initForSwiss" in pairing.parameters["parameterSource"]


def test_refusals(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    state = state_as_of(db)
    players = players_to_pair(state, 1)
    with pytest.raises(CommandRejected, match="outside"):
        ENGINE.pair(state, PairingRequest(round=9, players=players))
    with pytest.raises(CommandRejected, match="not registered"):
        ENGINE.pair(state, PairingRequest(round=1, players=(*players, "p9999")))
    with pytest.raises(CommandRejected, match="unknown OpenGotha pairing parameter"):
        ENGINE.pair(state, PairingRequest(round=1, players=players, parameters={"bogus": "1"}))
    record.bye(db, players[0], 1)
    state = state_as_of(db)
    rest = players_to_pair(state, 1)[:-1]  # 7 left: odd, and round 1 already has its bye
    with pytest.raises(CommandRejected, match="already has a bye"):
        ENGINE.pair(state, PairingRequest(round=1, players=rest))


def test_non_deterministic_random_is_drawn_from_the_seed(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    state = state_as_of(db)
    params = {"paiBaDeterministic": "false", "paiBaRandom": "1000000000"}

    def ask(seed: int) -> Pairing:
        return ENGINE.pair(state, PairingRequest(round=1, players=players_to_pair(state, 1), seed=seed,
                                                 parameters=params))

    first, again, other = ask(1), ask(1), ask(2)
    assert first == again and first.seed == 1
    assert [g.weight for g in first.games] != [g.weight for g in other.games]
    assert first.parameters["paiBaDeterministic"] == "false"
