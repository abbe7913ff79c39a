"""Every FIDE rule choice of spec scoring.md §7 is a named policy option (rows 7–10, 13, 14,
21–23): each one changes the values it should, on the §4.3 worked example or a small case."""

from __future__ import annotations

from fractions import Fraction as F

from goledger.replay.scoring.fide_unplayed import FideData
from goledger.replay.scoring.policies import get_policy

from ..fide_build import from_records
from .test_fide_worked_example import worked_example


def p_values(policy: str, criteria: list[str], round_: int | None = None, **options: object) -> dict[str, F]:
    return worked_example(policy).values(criteria, round_=round_, **options)["P"]


def test_row_7_own_unplayed_round_value() -> None:
    """fide-2024 BH 17 has two dummies of 3½ (R2, R4); with 0 for them: 10."""
    assert p_values("fide-2024", ["BH"], sos_own_unplayed="zero")["BH"] == 10
    assert p_values("fide-2024", ["BH"], sos_own_unplayed="start-score")["BH"] == 10


def test_row_8_forfeit_round_counts_the_scheduled_opponent() -> None:
    """R2's forfeit win counts O2 (1) instead of the dummy (3½): 17 − 3½ + 1 = 14½."""
    assert p_values("fide-2024", ["BH"], sos_own_forfeit_round="scheduled-opponent")["BH"] == F(29, 2)


def test_row_9_opponent_score_adjustment() -> None:
    """Without adjustment O3 counts 2½ instead of 3½ (withdrawal rounds as draws): 16; with
    every unplayed round as a draw, as in 2009, O2 counts 1½ too (but P's R2 uses the dummy)."""
    assert p_values("fide-2024", ["BH"], opponent_score_adjustment="none")["BH"] == 16
    t = worked_example("fide-2024")
    data = FideData(t.state(), 5, get_policy("fide-2024").with_overrides(
        {"opponent_score_adjustment": "all-unplayed-as-draw"}))
    assert F(data.adjusted2[t.ids["O2"]], 2) == F(3, 2)


def test_row_10_opponent_values_at_the_latest_round() -> None:
    """Standings after round 3 (2024): O1 2½ + dummy 2 (P after R3) + O3 2½ = 7. With the
    opponents' values of the latest round (R5): O1 2½ + dummy 3½ + O3 3½ (withdrawal) = 9½."""
    assert p_values("fide-2024", ["BH"], round_=3)["BH"] == 7
    assert p_values("fide-2024", ["BH"], round_=3, opponent_score_time="latest-round")["BH"] == F(19, 2)
    # 2009: the virtual opponent's n follows: R2 = ½ + 0 + ½·(3 − 2) = 1 after R3, 2 with n = 5
    assert p_values("fide-2009", ["BH"], round_=3)["BH"] == F(5, 2) + 1 + F(5, 2)
    assert p_values("fide-2009", ["BH"], round_=3, opponent_score_time="latest-round")["BH"] == F(5, 2) + 2 + F(7, 2)


def test_row_13_cut_rule() -> None:
    assert p_values("fide-2024", ["BH-C1"])["BH-C1"] == F(27, 2)
    assert p_values("fide-2024", ["BH-C1"], cut_rule="lowest")["BH-C1"] == F(29, 2)
    assert p_values("fide-2009", ["BH-C1"], cut_rule="vur-first")["BH-C1"] == 12  # cuts the R4 bye (3)


def test_row_14_sb_weighting() -> None:
    """Wins only: the forfeit win (dummy 3½) and the R5 win (4) count 1 each; draws 0: 7½."""
    assert p_values("fide-2024", ["SB"], sodos_weighting="decisive-wins")["SB"] == F(15, 2)


def test_row_21_virtual_opponent_for_sb() -> None:
    """2009 SB 10½ uses the virtual opponents (2 and 3); without them R2 counts O2's adjusted
    score 1½ and the bye nothing: 1¼ + 1½ + 1¾ + 0 + 4 = 8½."""
    assert p_values("fide-2009", ["SB"])["SB"] == F(21, 2)
    assert p_values("fide-2009", ["SB"], virtual_opponent_for_sb=False)["SB"] == F(17, 2)
    assert p_values("fide-2009", ["BH"], virtual_opponent_for_sb=False)["BH"] == 15  # BH unchanged


def test_row_22_trailing_forfeit_losses() -> None:
    """A forfeit loss in the last round stays 0 for the opponents (TieBreakServer) or counts ½
    (``tiebreak`` npm)."""
    t = from_records(3, {"Z": [(None, "W", "white"), (None, "L", "white"), (None, "-", "white")]}, policy="fide-2024")
    state = t.state()
    plain = FideData(state, 3, get_policy("fide-2024"))
    npm = FideData(state, 3, get_policy("fide-2024").with_overrides(
        {"fide_withdrawal_detection": "trailing-forfeits-too"}))
    z = t.ids["Z"]
    assert (plain.rounds[z][2].category, F(plain.adjusted2[z], 2)) == (4, F(1))
    assert (npm.rounds[z][2].category, F(npm.adjusted2[z], 2)) == (5, F(3, 2))


def test_row_23_last_round_in_intermediate_standings() -> None:
    """Y takes a zero-point bye in R3 of 5. After R3 it is category 5 (round 3 is the last
    counted) and counts ½ for opponents; with the scheduled last round it is category 3 unless
    Y has withdrawn from R4 (then only VURs follow: category 5 again)."""
    rows = [(None, "W", "white"), (None, "W", "white"), (None, "ZPB", None)]
    t = from_records(5, {"Y": rows}, policy="fide-2024")
    y = t.ids["Y"]
    state = t.state()
    scheduled = get_policy("fide-2024").with_overrides({"fide_last_round": "scheduled"})
    counted = FideData(state, 3, get_policy("fide-2024"))
    assert (counted.rounds[y][2].category, F(counted.adjusted2[y], 2)) == (5, F(5, 2))
    ahead = FideData(state, 3, scheduled)
    assert (ahead.rounds[y][2].category, F(ahead.adjusted2[y], 2)) == (3, F(2))
    t.withdraw("Y", 4)
    left = FideData(t.state(), 3, scheduled)
    assert (left.rounds[y][2].category, F(left.adjusted2[y], 2)) == (5, F(5, 2))
    # The 2026 cap of a bye is draw points × rounds: 4 rounds counted, or the 5 scheduled. After
    # R4 (P on 2½): O1 2½ + min(2½, O2 1) + O3 3 (R4 withdrawal as a draw) + min(2½, ½·4 or ½·5).
    capped = {"fide_last_round": "scheduled"}
    assert p_values("fide-2026", ["BH"], round_=4)["BH"] == F(5, 2) + 1 + 3 + 2
    assert p_values("fide-2026", ["BH"], round_=4, **capped)["BH"] == F(5, 2) + 1 + 3 + F(5, 2)


def test_point_system() -> None:
    """3 / 1 / 0 with a half-point bye worth a draw: P scores 1 + 3 + 1 + 1 + 3 = 9."""
    values = p_values("fide-2024", ["PTS"], point_system="W=3 D=1")
    assert values["PTS"] == 9
