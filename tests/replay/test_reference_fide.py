"""Issue 19, items 4–7: the FIDE policies agree with TieBreakServer and the C.07 text —
PTP with a full score, Koya with forfeits, ARO-C1 with an unrated opponent, exact decimals
in JSON."""

from __future__ import annotations

from fractions import Fraction

from goledger.replay.scoring.criteria.fide_rating import expected_hundredths, perfect_performance, round_half_up
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.standings import json_number

from ..fide_build import Tourney


def test_ptp_of_a_full_score_is_the_first_rating_expecting_every_point() -> None:
    """C.07 10.3 excepts a zero score only: for 100 % the general definition gives the highest
    opponent + 736 with FIDE's table 8.1(b) (a difference above 735 expects 1.00)."""
    assert perfect_performance([2000, 2100], Fraction(2)) == 2836
    assert expected_hundredths(736) == 100 and expected_hundredths(735) == 99
    assert perfect_performance([1800], Fraction(1)) == 2536
    assert perfect_performance([1800], Fraction(0)) == 1000  # the exception stays


def test_appo_follows_the_full_score_ptp() -> None:
    """W beats X (1900) and Y (2000); X and Y lose their other game against L (1700).
    PTP W = 2000 + 736; APPO of X and Y averages W's 2736 with L's."""
    t = Tourney(2, policy="fide-2024")
    for name, rating in (("W", 2100), ("X", 1900), ("Y", 2000), ("L", 1700), ("M", 1700)):
        t.player(name, rating)
    t.game(1, "W", "X", "1-0")
    t.game(1, "L", "Y", "0-1")
    t.game(2, "Y", "W", "0-1")
    t.game(2, "X", "L", "1-0")
    v = t.values(["PTP", "APPO"])
    assert v["W"]["PTP"] == 2736
    # X: beat L (1700), lost to W: PTP with 1 of 2 against 1700 and 2100
    x_ptp = perfect_performance([2100, 1700], Fraction(1))
    assert v["X"]["PTP"] == x_ptp
    # L lost both games (zero score: lowest opponent 1900 − 800 = 1100); X met W and L
    assert v["L"]["PTP"] == 1100 and v["X"]["APPO"] == (2736 + 1100) / 2 == 1918
    assert v["W"]["APPO"] == round_half_up(Fraction(int(v["X"]["PTP"]) + int(v["Y"]["PTP"]), 2))


def _koya() -> Tourney:
    """Two rounds, limit 50 %: X wins round 1 by forfeit against A, who then wins round 2 (1 of
    2 points: qualifies); X beats B over the board in round 2 (B: 1 of 2, qualifies)."""
    t = Tourney(2, policy="fide-2024")
    t.players("X", "A", "B", "C", "D")
    t.game(1, "X", "A", "+-")
    t.game(1, "B", "C", "1-0")
    t.game(2, "A", "D", "1-0")
    t.game(2, "X", "B", "1-0")
    return t


def test_koya_counts_forfeits_by_default_in_the_fide_policies() -> None:
    for name in ("fide-2009", "fide-2024", "fide-2026"):
        assert get_policy(name).koya_forfeits == "count"
    t = _koya()
    assert t.values(["KS"])["X"]["KS"] == 2
    assert t.values(["KS"], koya_forfeits="exclude")["X"]["KS"] == 1
    # the BH/SB forfeit switch no longer decides Koya
    assert t.values(["KS"], sos_own_forfeit_round="scheduled-opponent")["X"]["KS"] == 2


def test_koya_exclude_keeps_forfeits_in_a_round_robin() -> None:
    """With pre-determined pairings forfeits are games (C.07 15): "exclude" leaves them in."""
    t = _koya()
    assert t.values(["KS"], koya_forfeits="exclude", fide_event_type="round-robin")["X"]["KS"] == 2


def _aro() -> Tourney:
    """X plays U (unrated), A (1900) and B (2100) over the board."""
    t = Tourney(3, policy="fide-2024")
    t.player("X", 2000)
    t.player("U")
    t.player("A", 1900)
    t.player("B", 2100)
    t.game(1, "X", "U", "1-0")
    t.game(2, "A", "X", "1-0")
    t.game(3, "X", "B", "=")
    return t


def test_aro_c1_cuts_the_unrated_opponent_first() -> None:
    t = _aro()
    v = t.values(["ARO", "ARO-C1"])
    assert (v["X"]["ARO"], v["X"]["ARO-C1"]) == (2000, 2000)  # TieBreakServer: U is the value cut
    assert t.values(["ARO-C1"], aro_cut_unrated="rated-only")["X"]["ARO-C1"] == 2100
    # a rating given to unrated opponents makes U an ordinary (lowest) value
    assert t.values(["ARO-C1"], unrated_opponent_rating=1000)["X"]["ARO-C1"] == 2000
    assert t.values(["ARO"], unrated_opponent_rating=1000)["X"]["ARO"] == 1667


def test_json_values_are_exact_decimals_when_they_can_be() -> None:
    assert json_number(1360, 100) == "13.6"  # AOB was "68/5"
    assert json_number(1350, 100) == 13.5
    assert json_number(-5, 100) == "-0.05"
    assert json_number(7, 4) == 1.75
    assert json_number(1, 3) == "1/3"
    assert json_number(2000, 100) == 20


def test_aob_in_standings_json() -> None:
    """AOB (C.07 8.2, hundredths): X met A (BH 5½), B (6) and C (4½): 16/3 → 5.33, written
    "5.33" in JSON (it was "533/100")."""
    from goledger.replay.scoring.standings import standings

    t = Tourney(3, policy="fide-2024")
    t.players("X", "A", "B", "C", "D", "E")
    for round_, games in enumerate(([("X", "A", "1-0"), ("B", "C", "="), ("D", "E", "1-0")],
                                    [("B", "X", "0-1"), ("A", "D", "1-0"), ("C", "E", "1-0")],
                                    [("X", "C", "1-0"), ("A", "B", "="), ("D", "E", "=")]), start=1):
        for white, black, result in games:
            t.game(round_, white, black, result)
    rows = standings(t.state(), None, "fide-2024", ["AOB", "BH"]).to_dict()["rows"]
    values = {row["surname"]: row["values"] for row in rows}
    assert (values["A"]["BH"], values["B"]["BH"], values["C"]["BH"]) == (5.5, 6, 4.5)
    assert (values["X"]["AOB"], values["B"]["AOB"], values["E"]["AOB"]) == ("5.33", "4.67", "3.17")
