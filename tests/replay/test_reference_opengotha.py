"""Issue 19, items 1–3: the ``opengotha`` policy agrees with OpenGotha 3.51.02 where the
program departs from its own file (McMahon zero, STS with one or two rounds, several games
of one player in one round); the other policies keep the file's meaning."""

from __future__ import annotations

from goledger.formats.opengotha.read import read_opengotha
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold
from goledger.replay.scoring.explain import explain
from goledger.replay.scoring.hashmap_order import bucket, capacity, game_key, iteration_order

from ..fide_build import Tourney
from ..gen_files import opengotha_xml


def _mcmahon(rounds: int, **settings: object) -> Tourney:
    return Tourney(rounds, system="mcmahon", policy="opengotha", **settings)


# ----------------------------------------------------------------------------- 19.1 McMahon zero


def _zero_10k() -> Tourney:
    """Zero 10K, floor 20K, bar 4D; 1D beats 15K and 5D beats 2K in round 1 (issue 19.1)."""
    t = _mcmahon(3, mm_zero="10k", mm_floor="20k", mm_bar="4d")
    t.player("A", rank="1d")
    t.player("B", rank="15k")
    t.player("C", rank="5d")
    t.player("D", rank="2k")
    t.game(1, "A", "B", "1-0")
    t.game(1, "C", "D", "1-0")
    return t


def test_opengotha_ignores_the_files_mcmahon_zero() -> None:
    t = _zero_10k()
    og = t.values(["MMS"], round_=1)
    assert [og[p]["MMS"] for p in "ABCD"] == [31, 15, 34, 28]
    egf = t.values(["MMS"], policy="egf", round_=1)
    assert [egf[p]["MMS"] for p in "ABCD"] == [11, -5, 14, 8]
    # the quirk is a named option: switched off, the opengotha policy uses the file's zero too
    off = t.values(["MMS"], round_=1, quirk_mm_zero_30k=False)
    assert [off[p]["MMS"] for p in "ABCD"] == [11, -5, 14, 8]


def test_the_explanation_names_the_ignored_zero() -> None:
    t = _zero_10k()
    e = explain(t.state(), "A", round=1, criterion="MMS")
    start = e.explanations[0].terms[0]
    assert start.value == 60 and "30k (the tournament's 10k is ignored" in start.rule


def test_import_reports_the_ignored_zero_and_keeps_the_text() -> None:
    data = opengotha_xml(4, 1).replace(b'genMMZero="30K"', b'genMMZero="10K"')
    result = read_opengotha(data, source="zero.xml")
    messages = [e.message for e in result.report.entries]
    assert any("genMMZero 10K" in m and "quirk_mm_zero_30k" in m for m in messages)
    assert fold(result.events).settings.mm_zero == "10k"  # kept: the export writes it back


# ----------------------------------------------------------------------------- 19.2 STS


def _sts(rounds: int) -> Tourney:
    """Bar 4D; the 5D player P (start 33) loses round 1 to Q (1k, start 29)."""
    t = _mcmahon(rounds, mm_bar="4d", mm_floor="20k")
    t.player("P", rank="5d")
    t.player("Q", rank="1k")
    t.game(1, "Q", "P", "1-0")
    return t


def test_sts_with_two_rounds_never_fires_on_the_start_score() -> None:
    t = _sts(2)
    og = t.values(["STS", "SOSTS"], round_=1)
    assert og["P"]["STS"] == 33 and og["Q"]["SOSTS"] == 33
    # without the quirk the start score 33 = bar start + 0 fires the n−2 check: +2
    off = t.values(["STS", "SOSTS"], round_=1, quirk_sts_short_tournament=False)
    assert off["P"]["STS"] == 35 and off["Q"]["SOSTS"] == 35


def test_sts_with_one_round() -> None:
    t = _sts(1)
    assert t.values(["STS"], round_=1)["P"]["STS"] == 33
    assert t.values(["STS"], round_=1, quirk_sts_short_tournament=False)["P"]["STS"] == 35


def test_sts_bonus_still_fires_after_real_rounds() -> None:
    """Three rounds: P (5d) wins round 1, so his MMS after round n−2 = 1 is bar start + 1 → +2."""
    t = _mcmahon(3, mm_bar="4d", mm_floor="20k")
    t.player("P", rank="5d")
    t.player("Q", rank="1k")
    t.game(1, "P", "Q", "1-0")
    v = t.values(["MMS", "STS"], round_=1)
    assert (v["P"]["MMS"], v["P"]["STS"]) == (34, 36)
    e = explain(t.state(), "P", round=1, criterion="STS").explanations[0]
    assert sum(term.value for term in e.terms) == e.value == 72


# ----------------------------------------------------------------------------- 19.3 several games


def _swiss(games: list[tuple[int, int, str, str]], names: str = "ABCD", rounds: int = 2):
    events: list[ev.Event] = [ev.TournamentCreated(settings=ev.TournamentSettings(
        name="t", rounds=rounds, system="swiss", policy="opengotha"))]
    for i, name in enumerate(names, start=1):
        events.append(ev.PlayerRegistered(player_id=name, surname=name, rank="1k", start_number=i))
    for round_, table, white, black in games:
        events.append(ev.GamePaired(round=round_, table=table, white=white, black=black))
        events.append(ev.ResultRecorded(round=round_, table=table, result=Result.WHITE))
    return fold(events)


def _values(state, criteria: list[str], policy: str = "opengotha", round_: int = 1):
    from goledger.replay.scoring.standings import standings

    table = standings(state, round_, policy, criteria)
    return {row.player_id: {c: table.value(row, c) for c in criteria} for row in table.rows}


def test_several_games_in_a_round_as_opengotha_counts_them() -> None:
    """Round 1: t1 A(W) beats B, t2 A(W) beats C, t3 D(W) beats B (issue 19.3)."""
    state = _swiss([(1, 1, "A", "B"), (1, 2, "A", "C"), (1, 3, "D", "B")])
    og = _values(state, ["NBW", "SOSW", "CPS"])
    assert {p: og[p]["NBW"] for p in "ABCD"} == {"A": 2, "B": 0, "C": 0, "D": 1}
    # SOS family: the game iterated last (keys 0, 1, 2: buckets 0, 1, 2): A's t2 (C), B's t3 (D)
    assert {p: og[p]["SOSW"] for p in "ABCD"} == {"A": 0, "B": 1, "C": 2, "D": 0}
    assert og["A"]["CPS"] == 2
    first = _values(state, ["NBW", "SOSW"], policy="egf")
    assert {p: first[p]["NBW"] for p in "ABCD"} == {"A": 1, "B": 0, "C": 0, "D": 1}
    assert {p: first[p]["SOSW"] for p in "ABCD"} == {"A": 0, "B": 1, "C": 1, "D": 0}


def test_hashmap_order_is_not_table_order() -> None:
    """Round 2, tables 1 and 9: keys 1000 and 1008 fall in buckets 8 and 0 of a 16-bucket map,
    so OpenGotha iterates table 9 first and keeps table 1 for the SOS family."""
    assert (bucket(game_key(2, 1), 16), bucket(game_key(2, 9), 16)) == (8, 0)
    state = _swiss([(1, 1, "E", "F"), (2, 1, "A", "E"), (2, 9, "A", "F")], names="AEF")
    og = _values(state, ["NBW", "SOSW"], round_=2)
    assert og["A"]["NBW"] == 2
    assert og["A"]["SOSW"] == og["E"]["NBW"] == 1  # E (table 1), not F (table 9, NBW 0)
    assert og["F"]["SOSW"] == 3  # F met E (1 win) in round 1 and A (2 wins) in round 2
    games = list(state.games[2].values())
    assert [g.table for g in iteration_order(games, 3)] == [9, 1]


def test_hashmap_capacity_grows_past_three_quarters() -> None:
    assert [capacity(n) for n in (0, 12, 13, 24, 25, 96, 97)] == [16, 16, 32, 32, 64, 128, 256]


def test_direct_confrontation_sees_every_game_of_the_round() -> None:
    """OpenGotha's DC pair matrix runs over all its games: A's game against C counts even though
    A's SOS family uses his other game of the round (t2, against B)."""
    from goledger.replay.scoring.criteria.dc import head_to_head
    from goledger.replay.scoring.policies import get_policy
    from goledger.replay.scoring.scoring import ScoringContext

    state = _swiss([(1, 1, "C", "A"), (1, 2, "A", "B")], names="ABC")
    ctx = ScoringContext(state, 1, get_policy("opengotha"))
    assert ctx.table.opp["A"][0] == "B"  # the game iterated last
    assert head_to_head(ctx, ["A", "C"]) == {"A": {"C": -1}, "C": {"A": 1}}
    first = ScoringContext(state, 1, get_policy("egf"))
    assert head_to_head(first, ["A", "C"]) == {"A": {"C": -1}, "C": {"A": 1}}
