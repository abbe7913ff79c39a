"""A MacMahon file built by hand from spec ``formats/macmahon.md``: every imported value and
every ``macmahon`` policy score checked against values worked out by hand from §A.

The file (``tests/macmahon_samples.py: HAND_BUILT``) — 3 rounds, current round 3 counted,
lower bar 20k (abs 15), upper bar 2d (abs 36), handicap in tie-breakers on, bye option off,
no half-score rounding, weak sort criteria 1. Participants (Id: name, level):

    1 A Zander Anna    4d   super-bar member
    2 B Yilmaz Bora    1d   ScoreAdjustment on, +4 quarters (one point); joker
    3 D Mueller Dieter 10k
    4 C Müller Clara   5K   (upper-case level in the file)
    5 E Weber Emil     15k  not playing in round 2
    6 F Becker Fritz   25k  ScoreAdjustment on, +2 quarters (½ point); not playing in round 3
    7 G Kim Minji      33k  preliminary, not playing in rounds 1–3

Rounds (Black first):

    R1  board 1 fixed:  A (B) – B (W)  1-0, forced, comment, even
        board 2:        D (B) – C (W)  1-0, handicap 3
        board 3:        F (B) – E (W)  ½-½, handicap 9, AllowJigo, ResultPoints 2
    R2  board 1:        B (B) – C (W)  0-1 by the referee, ResultPoints 3
        board 2:        A (B) – D (W)  1-0
        board 3:        F bye;  E absent
    R3  board 5 fixed:  C (B) – A (W)  ?-?
        board 6:        B (B) – E (W)  0-1;  D present but unpaired;  F absent

Start scores, quarters: s = 4·abs(level) (+ adjustment), capped at 4·36 = 144, minus
4·15 = 60, floored at 0, + 4 for a super-bar member who reaches the bar:

    A 4d  abs 38: 152 → 144 → 84, member (152 ≥ 144) and super bar → 88
    B 1d  abs 35: 140 + 4 = 144 → 144 → 84 (member, but no super-bar flag)
    C 5k  abs 30: 120 → 60
    D 10k abs 25: 100 → 40
    E 15k abs 20:  80 → 20
    F 25k abs 10:  40 + 2 = 42 → max(42 − 60, 0) = 0
    G 33k abs 2:    8 → 0
"""

from __future__ import annotations

from fractions import Fraction

import msgspec
import pytest

from goledger.formats.macmahon.read import read_macmahon
from goledger.ledger import events as ev
from goledger.ledger.values import Result
from goledger.replay.fold.state import fold
from goledger.replay.scoring.standings import standings
from tests.macmahon_samples import HAND_BUILT, MINIMAL

ALL = ("MM-Score", "MM-ScoreX", "MM-Points", "MM-SOS", "MM-SOSOS", "MM-SODOS", "MM-SORP")
NAMES = {"p0001": "A", "p0002": "B", "p0003": "D", "p0004": "C", "p0005": "E", "p0006": "F", "p0007": "G"}


def _state(text: str = HAND_BUILT):
    result = read_macmahon(text.encode("utf-8"), source="hand.xml")
    return fold(result.events), result


def _values(state, round_: int = 3, criteria=ALL) -> dict[str, dict[str, int]]:
    table = standings(state, round_, "macmahon", criteria)
    return {NAMES[row.player_id]: row.values for row in table.rows}


# --------------------------------------------------------------------------- import


def test_tournament_settings_are_imported() -> None:
    state, result = _state()
    s = state.settings
    assert s.name == "Hand-built Cup" and s.rounds == 3 and s.system == "mcmahon"
    assert (s.mm_bar, s.mm_floor, s.mm_zero) == ("2d", "20k", "30k")
    assert s.policy == "macmahon"
    assert s.criteria == ("MM-Score", "MM-SOS", "MM-SOSOS")
    # HandicapByLevel false = from the score; adjustment −2 = the ledger's correction 2.
    assert s.handicap == ev.HandicapSettings(based_on_mms=True, no_handicap_threshold="1d", correction=2, ceiling=9)
    assert (s.komi, s.board_size) == ("7.5", 19)  # AllowJigo false: komi with a half point
    x = s.extras
    assert x["macmahon.CurrentRoundNumber"] == "3"
    assert x["macmahon.TakeCurrentRoundInAccount"] == "true"
    assert x["macmahon.Description"] == "Built by hand from the spec"
    assert x["macmahon.UpperMacMahonBar"] == "true" and x["macmahon.UpperMacMahonBarLevel"] == "2d"
    assert x["macmahon.LowerMacMahonBar"] == "true" and x["macmahon.LowerMacMahonBarLevel"] == "20k"
    assert x["macmahon.UpperMacMahonBarRating"] == "2150"
    assert x["macmahon.ByeShouldResultInZeroSOSetc"] == "false"
    assert x["macmahon.HalfScoreGroupsRoundDown"] == "false"
    assert x["macmahon.HalfScoreGroupsRoundDownNotJigo"] == "true"
    assert x["macmahon.HandicapIncludeInTieBreakers"] == "true"
    assert x["macmahon.HandicapAdjustmentValue"] == "-2"
    assert x["macmahon.PairingsFontsize"] == "14"
    assert x["macmahon.MakePairingSeedingPlacementCriterion"] == "SOS"
    assert x["macmahon.MakePairingTopGroupByNumberOfPlayers"] == "8"
    assert x["macmahon.VersionCreated"] == "MacMahon 3.10"
    assert x["macmahon.Walllist.WeakSortCriteria"] == "1"
    assert x["macmahon.Walllist.NameColumnWidth"] == "221"
    assert x["macmahon.DefaultCountry"] == "de"
    assert x["macmahon.PrintWalllistLandscape"] == "true"  # unknown element kept verbatim
    assert x["macmahon.TournamentRound.1.LastUpdated"] == "2024-05-01 09:30:00"
    assert x["macmahon.TournamentRound.3.LastUpdated"] == "2024-05-02 09:15:00"
    assert '"code":"tr"' in x["macmahon.CountryTable"] and '["Berlin","Berl"]' in x["macmahon.CountryTable"]
    assert any(e.kind == "kept" and "PrintWalllistLandscape" in e.message for e in result.report.entries)
    assert not result.report.errors and not result.report.warnings


def test_participants_are_imported_with_every_field() -> None:
    state, _ = _state()
    p = {NAMES[pid]: player for pid, player in state.players.items()}
    a = p["A"]
    assert (a.surname, a.first_name, a.rank, a.rating, a.egd_pin) == ("Zander", "Anna", "4d", 2450, "12345678")
    assert (a.country, a.club, a.status, a.start_number, a.mm_correction) == ("DE", "Berlin", "final", 1, 0)
    assert a.extras == {
        "macmahon.Joker": "false", "macmahon.ScoreAdjustment": "false", "macmahon.ScoreAdjustmentValue": "0",
        "macmahon.SuperBarMember": "true", "macmahon.Comment": "Champion", "macmahon.AsianName": "false",
        "macmahon.Nationality": "de",
    }
    b = p["B"]
    assert (b.rank, b.country, b.club, b.egd_pin, b.rating, b.start_number) == ("1d", "TR", "", "", 2100, 2)
    assert b.extras["macmahon.Joker"] == "true"
    assert (b.extras["macmahon.ScoreAdjustment"], b.extras["macmahon.ScoreAdjustmentValue"]) == ("true", "4")
    assert b.mm_correction == 1  # 4 quarters = one whole point for OpenGotha-style policies
    c, d = p["C"], p["D"]
    assert (c.surname, c.rank, c.start_number, c.extras["macmahon.AsianName"]) == ("Müller", "5k", 4, "true")
    assert (d.surname, d.rank, d.club, d.rating, d.start_number) == ("Mueller", "10k", "Hamburg", None, 3)
    f = p["F"]
    assert (f.extras["macmahon.ScoreAdjustmentValue"], f.mm_correction) == ("2", 0)  # ½ point: no whole point
    g = p["G"]
    assert (g.rank, g.status, g.extras["macmahon.GoLevel"], g.country) == ("30k", "preliminary", "33k", "KR")
    assert g.extras["macmahon.Nationality"] == "kr"
    absences = {NAMES[pid]: sorted(player.absences) for pid, player in state.players.items() if player.absences}
    assert absences == {"E": [2], "F": [3], "G": [1, 2, 3]}


def test_pairings_results_and_byes_are_imported() -> None:
    state, _ = _state()
    games = {(g.round, g.table): g for g in state.all_games()}
    assert sorted(games) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 5), (3, 6)]

    def seen(r: int, t: int) -> tuple[str, str, int, Result, bool]:
        g = games[(r, t)]
        return NAMES[g.black], NAMES[g.white], g.handicap, g.result, g.by_default

    # Black first: "1-0" is a Black win, "0-1" a White win.
    assert seen(1, 1) == ("A", "B", 0, Result.BLACK, False)
    assert seen(1, 2) == ("D", "C", 3, Result.BLACK, False)
    assert seen(1, 3) == ("F", "E", 9, Result.JIGO, False)
    assert seen(2, 1) == ("B", "C", 0, Result.WHITE, True)  # decided by the referee
    assert seen(2, 2) == ("A", "D", 0, Result.BLACK, False)
    assert seen(3, 5) == ("C", "A", 0, Result.UNKNOWN, False)
    assert seen(3, 6) == ("B", "E", 0, Result.WHITE, False)
    assert games[(1, 1)].extras == {
        "macmahon.ForcedPairing": "true", "macmahon.BoardNumberFixed": "true", "macmahon.AllowJigo": "false",
        "macmahon.Comment": "Top board", "macmahon.CreationTime": "2024-05-01 09:00:00",
    }
    assert games[(1, 2)].extras["macmahon.BoardNumberFixed"] == "false"
    assert games[(1, 3)].extras["macmahon.AllowJigo"] == "true"
    assert (games[(1, 3)].result_points, games[(2, 1)].result_points) == (2, 3)
    assert games[(3, 5)].extras["macmahon.BoardNumberFixed"] == "true"
    assert {r: {NAMES[p] for p in b} for r, b in state.byes.items()} == {2: {"F"}}
    bye = state.bye_details[2]["p0006"]
    assert bye.table == 3 and bye.extras["macmahon.BoardNumberFixed"] == "false"
    assert bye.extras["macmahon.CreationTime"] == "2024-05-01 13:00:00"
    assert state.pairing_constraints == {"p0001": {"p0002": "unwanted"}, "p0004": {"p0006": "forbidden"}}
    assert state.anomalies == []


# --------------------------------------------------------------------------- scores

# Score (quarters) = start + per round: win 4, loss 0, jigo 2, ?-? 2, bye 4, absent/unpaired 2.
#   A 88 + 4 (R1 win) + 4 (R2 win) + 2 (R3 ?-?)          = 98  (24½)
#   B 84 + 0 + 0 + 0                                     = 84  (21)
#   C 60 + 0 (R1 loss) + 4 (R2 win) + 2 (R3 ?-?)          = 66  (16½)
#   D 40 + 4 (R1 win) + 0 (R2 loss) + 2 (R3 unpaired)     = 46  (11½)
#   E 20 + 2 (R1 jigo) + 2 (R2 absent) + 4 (R3 win)       = 28  (7)
#   F  0 + 2 (R1 jigo) + 4 (R2 bye) + 2 (R3 absent)       =  8  (2)
#   G  0 + 2 + 2 + 2 (absent, preliminary)                =  6  (1½)
# ScoreX: absent/unpaired add 0: D 44, E 26, F 6, G 0, the others as Score.
# Points (half wins): win 2, jigo 1, bye 2: A 4, B 0, C 2, D 2, E 1 + 2 = 3, F 1 + 2 = 3, G 0.
#
# SOS (handicap in tie-breakers: Black −4h with the running total floored at 0, White +4h):
#   A: B 84 + D 46 + C 66                                   = 196
#   B: A 98 + C 66 + E 28                                   = 192
#   C: (D 46 + 12, White h3) + B 84 + A 98                  = 240
#   D: max(0 + C 66 − 12, 0) = 54; + A 98; + own score 46 (unpaired) = 198
#   E: (F 8 + 36, White h9) = 44; + own start 20 (absent); + B 84 = 148
#   F: max(0 + E 28 − 36, 0) = 0 (the floor bites); + bye max(8 − 4, 0) = 4; + own start 0 = 4
#   G: own start 0 × 3                                      = 0
# SOSOS (R = 3): opponents' SOS; absent: own start × R; unpaired and bye: own SOS.
#   A: 192 + 198 + 240 = 630     B: 196 + 240 + 148 = 584     C: 198 + 192 + 196 = 586
#   D: 240 + 196 + 198 = 634     E: 4 + 20·3 + 192 = 256      F: 148 + 4 + 0·3 = 152   G: 0
# SODOS: wins score the opponent (∓4h), jigos ⌊opponent/2⌋ (∓2h), a bye max(own − 4, 0):
#   A: 84 + 46 = 130   B: 0   C: 84 (R2 win by referee)   D: max(0 + 66 − 12, 0) = 54
#   E: (⌊8/2⌋ + 18 = 22, White jigo h9) + 84 (R3 win) = 106
#   F: max(0 + ⌊28/2⌋ − 18, 0) = 0; + bye 4 = 4          G: 0
# SORP: R1 jigo with 2 result points: + Black F, − White E; R2 C wins with 3: C +3, B −3.
HAND_VALUES = {
    #     Score ScoreX Points SOS SOSOS SODOS SORP
    "A": (98, 98, 4, 196, 630, 130, 0),
    "B": (84, 84, 0, 192, 584, 0, -3),
    "C": (66, 66, 2, 240, 586, 84, 3),
    "D": (46, 44, 2, 198, 634, 54, 0),
    "E": (28, 26, 3, 148, 256, 106, -2),
    "F": (8, 6, 3, 4, 152, 4, 2),
    "G": (6, 0, 0, 0, 0, 0, 0),
}


def test_every_macmahon_score_matches_the_hand_computation() -> None:
    state, _ = _state()
    values = _values(state)
    assert {k: tuple(v[c] for c in ALL) for k, v in values.items()} == HAND_VALUES


def test_scales_are_quarter_points_and_half_wins() -> None:
    state, _ = _state()
    table = standings(state, 3, "macmahon", ALL)
    assert table.scales == {"MM-Score": 4, "MM-ScoreX": 4, "MM-Points": 2, "MM-SOS": 4, "MM-SOSOS": 4,
                            "MM-SODOS": 4, "MM-SORP": 1}
    row = next(r for r in table.rows if r.player_id == "p0001")
    assert table.value(row, "MM-Score") == Fraction(49, 2)
    assert table.to_dict()["rows"][0]["values"]["MM-Score"] == 24.5


def test_default_standings_use_the_files_walllist_and_order() -> None:
    state, _ = _state()
    table = standings(state)  # policy and criteria from the file: Score, SOS, SOSOS
    assert table.policy == "macmahon" and table.criteria == ("MM-Score", "MM-SOS", "MM-SOSOS")
    assert [(row.place, NAMES[row.player_id]) for row in table.rows] == [
        (1, "A"), (2, "B"), (3, "C"), (4, "D"), (5, "E"), (6, "F"), (7, "G"),
    ]


# Ties on Points: E and F (3), C and D (2), B and G (0) share places 2, 4 and 6.
# WeakSortCriteria 1 = rank (stronger first), name, Id: C (5k) before D (10k), E (15k)
# before F (25k), B (1d) before G (33k). 2 = name, Id: Becker (F) before Weber (E),
# Mueller (D) before Müller (C: the accent decides only after the letters), Kim (G) before
# Yilmaz (B). Other values = Id only: D (3) before C (4), E (5) before F (6), B (2) before G (7).
@pytest.mark.parametrize(("weak", "order"), [
    ("1", ["A", "E", "F", "C", "D", "B", "G"]),
    ("2", ["A", "F", "E", "D", "C", "G", "B"]),
    ("0", ["A", "E", "F", "D", "C", "B", "G"]),
])
def test_weak_sort_criteria_order_ties_without_changing_shared_places(weak: str, order: list[str]) -> None:
    text = HAND_BUILT.replace("<WeakSortCriteria>1</WeakSortCriteria>", f"<WeakSortCriteria>{weak}</WeakSortCriteria>")
    state, _ = _state(text)
    table = standings(state, 3, "macmahon", ["MM-Points"])
    assert [NAMES[row.player_id] for row in table.rows] == order
    assert [row.place for row in table.rows] == [1, 2, 2, 4, 4, 6, 6]


def test_bye_option_gives_no_sos_from_the_bye() -> None:
    # ByeShouldResultInZeroSOSetc: F's bye adds 0 to SOS, SOSOS and SODOS.
    #   F: SOS 0 + 0 + 0 = 0; SOSOS 148 + 0 + 0 = 148; SODOS 0.
    #   E: SOSOS = SOS(F) 0 + 60 + 192 = 252 (the only opponent of F who needs F's SOS).
    text = HAND_BUILT.replace("<ByeShouldResultInZeroSOSetc>false", "<ByeShouldResultInZeroSOSetc>true")
    values = _values(_state(text)[0])
    assert (values["F"]["MM-SOS"], values["F"]["MM-SOSOS"], values["F"]["MM-SODOS"]) == (0, 148, 0)
    assert values["E"]["MM-SOSOS"] == 252
    assert values["A"]["MM-SOS"] == 196  # untouched


def test_handicap_outside_tie_breakers() -> None:
    # HandicapIncludeInTieBreakers false: plain opponents' scores.
    #   C: 46 + 84 + 98 = 228   D: 66 + 98 + 46 = 210   E: 8 + 20 + 84 = 112   F: 28 + 4 + 0 = 32
    #   SODOS D: 66; E: 4 + 84 = 88; F: 14 + 4 = 18
    text = HAND_BUILT.replace("<HandicapIncludeInTieBreakers>true", "<HandicapIncludeInTieBreakers>false")
    values = _values(_state(text)[0])
    assert {k: values[k]["MM-SOS"] for k in "CDEF"} == {"C": 228, "D": 210, "E": 112, "F": 32}
    assert {k: values[k]["MM-SODOS"] for k in "DEF"} == {"D": 66, "E": 88, "F": 18}


@pytest.mark.parametrize(("not_jigo", "expected"), [
    # Scores with a ½: A 98, C 66, D 46, G 6 (no jigo) → 96, 64, 44, 4. ScoreX E 26 and F 6
    # have their ½ from one jigo each: kept while HalfScoreGroupsRoundDownNotJigo, else 24 and 4.
    ("true", {"A": (96, 96), "C": (64, 64), "D": (44, 44), "E": (28, 26), "F": (8, 6), "G": (4, 0)}),
    ("false", {"A": (96, 96), "C": (64, 64), "D": (44, 44), "E": (28, 24), "F": (8, 4), "G": (4, 0)}),
])
def test_half_score_rounding(not_jigo: str, expected: dict[str, tuple[int, int]]) -> None:
    text = HAND_BUILT.replace("<HalfScoreGroupsRoundDown>false", "<HalfScoreGroupsRoundDown>true").replace(
        "<HalfScoreGroupsRoundDownNotJigo>true", f"<HalfScoreGroupsRoundDownNotJigo>{not_jigo}")
    values = _values(_state(text)[0])
    assert {k: (values[k]["MM-Score"], values[k]["MM-ScoreX"]) for k in expected} == expected


def test_standings_after_round_two() -> None:
    # TakeCurrentRoundInAccount false would show R = 2:
    #   Score A 88 + 8 = 96, C 60 + 4 = 64, E 20 + 2 + 2 = 24, F 0 + 2 + 4 = 6.
    #   SOS F: max(0 + 24 − 36, 0) = 0; bye max(6 − 4, 0) = 2 → 2.   SOS E: (6 + 36) + 20 = 62.
    #   SOSOS E: SOS(F) 2 + 20·2 = 42.
    values = _values(_state()[0], round_=2)
    assert (values["A"]["MM-Score"], values["C"]["MM-Score"], values["E"]["MM-Score"]) == (96, 64, 24)
    assert (values["F"]["MM-SOS"], values["E"]["MM-SOS"], values["E"]["MM-SOSOS"]) == (2, 62, 42)


def test_explanations_sum_to_the_values() -> None:
    from goledger.replay.scoring.criteria import get_criterion
    from goledger.replay.scoring.policies import get_policy
    from goledger.replay.scoring.scoring import ScoringContext

    state, _ = _state()
    ctx = ScoringContext(state, 3, get_policy("macmahon"))
    for name in ALL:
        criterion = get_criterion(name)
        values = ctx.value(name)
        for pid in state.players:
            explanation = criterion.explain(ctx, pid)  # type: ignore[misc]
            assert explanation.value == values[pid]
            if name not in ("MM-SOS", "MM-SODOS"):  # the floor at 0 shows as the clipped term
                assert sum(t.value for t in explanation.terms) == values[pid], (name, pid)
    f_sos = get_criterion("MM-SOS").explain(ctx, "p0006")  # type: ignore[misc]
    assert [t.value for t in f_sos.terms] == [0, 4, 0]


def test_start_score_follows_ledger_changes_of_the_refined_fields() -> None:
    """Refinement rule: once mm_correction or mm_bar change, MacMahon's values follow them."""
    state, _ = _state()
    events = [
        ev.PlayerUpdated(player_id="p0006", changes={"mm_correction": 2}),  # F: 25k + 8 quarters → still 0
        ev.PlayerUpdated(player_id="p0003", changes={"mm_correction": 1}),  # D: 100 + 4 − 60 = 44
        ev.RulesChanged(changes={"mm_bar": "1d"}),  # A: 152 → 140 − 60 + 4 = 84; B: 144 → 140 − 60 = 80
    ]
    changed = fold(events, start=state)
    table = standings(changed, 0, "macmahon", ["MM-Score"])
    start = {NAMES[r.player_id]: r.values["MM-Score"] for r in table.rows}
    assert start == {"A": 84, "B": 80, "C": 60, "D": 44, "E": 20, "F": 0, "G": 0}


def test_the_minimal_file_scores_as_macmahon_itself_exported_it() -> None:
    """Spec §C gives MacMahon 3.10's own EGD export of its minimal file:
    Bert 1d Score 20½, wins ½, SOS 37; Anna 3k 18½, 1½, 41; Cecil 15k 6½, 1, 10½.

    Absent elements read as false/0 (§B.2), so handicap is *not* in the tie-breakers.
    Start: Anna 128 − 60 = 68, Bert 140 − 60 = 80, Cecil 80 − 60 = 20 (quarters).
    Anna 68 + 4 + 2 = 74; Bert 80 + 0 + 2 = 82; Cecil 20 + 4 (bye) + 2 (absent) = 26.
    SOS: Anna 82 + 82 = 164; Bert 74 + 74 = 148; Cecil max(26 − 4, 0) + 20 = 42.
    """
    state, result = _state(MINIMAL)
    assert state.settings.extras["macmahon.HandicapIncludeInTieBreakers"] == "false"
    table = standings(state)
    assert table.criteria == ("MM-Score", "MM-SOS")
    rows = [(r.surname, r.place, table.value(r, "MM-Score"), table.value(r, "MM-SOS")) for r in table.rows]
    assert rows == [("Beispiel", 1, Fraction(41, 2), 37), ("Muster", 2, Fraction(37, 2), 41),
                    ("Cecil", 3, Fraction(13, 2), Fraction(21, 2))]
    wins = standings(state, 2, "macmahon", ["MM-Points"])
    assert {r.surname: wins.value(r, "MM-Points") for r in wins.rows} == {
        "Beispiel": Fraction(1, 2), "Muster": Fraction(3, 2), "Cecil": 1}
    assert not result.report.errors


def test_settings_round_trip_through_msgspec() -> None:
    state, _ = _state()
    assert msgspec.json.decode(msgspec.json.encode(state.settings), type=ev.TournamentSettings) == state.settings
