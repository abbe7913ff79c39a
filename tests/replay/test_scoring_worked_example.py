"""Spec ``scoring.md`` §2.6 worked example, every criterion, under the ``opengotha`` policy.

The first table is the spec's own (computed by hand there); the second holds the criteria
the spec table does not list, derived by hand below each value.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import standings

from ..scoring_worked_example import points, series, table, worked_example

SPEC_FINAL = table("""
   NBW  MMS  SOSW  SOSW-1  SOSW-2  SODOSW  SOSOSW  CUSSW  SOSM  SOSM-1  SOSM-2  SODOSM  SOSOSM  CUSSM
A  3    33   8½    7       5½      6       30      8      123½  94      63      94      493     128
B  1½   31½  8½    8½      6       1¼      29      3½     125½  96      66      44¾     491     123½
C  0    30   4½    4½      4½      0       14      0      121½  92½     63½     0       477     117
D  3    31   5½    5½      5½      2½      20½     7      119½  91½     62½     58½     479½    119
E  2½   29½  7½    7½      6       3¾      22½     7½     122½  95½     64½     48¾     476½    115½
""")

# Criteria the spec table leaves out, by hand (final round, n = 4 rounds):
# * STS: n−2 = 2: MMS after R2 = bar start 30 + 2 = 32 only for A → +2 from R2 on; after R3
#   (n−1) nobody has 33 → A 35, the others = MMS.
# * CPS: doubled game points + bye points. A: ((2·2+2)·2+0)·2+2 = 26 → 13; B: ((0+1)·2+2)·2+0
#   = 8 → 4; C: 0; D: ((2·2+0)·2+0)·2+2 = 18, + bye 2 → 10; E: ((0·2+1)·2+2)·2+0 = 8, + bye 2 → 5.
# * SOSTS = SOSM with STS: B meets A twice (+2 each) → 129½; D meets A once → 121½; E → 124½.
# * EXT: Σ opponent NBW × weight (actual − natural handicap: ≤−1 → 0, 0 → 1, 1 → 2, ≥2 → 3).
#   B: A (A White gave 0, B Black: AH 0, NH 0−2 = −2 → 3) twice: 3·3·2 = 18, E (AH 0, NH 3 → 0)
#   and C (AH 0, NH 1 → 0) add nothing → 18.  C: D (C White gave 1: AH 1, NH 1 → 1) 3·1 = 3,
#   B (AH 0, NH −1 → 2) 1½·2 = 3 → 6.  D: C (AH −1, NH −1 → 1) 0·1, A (AH 0, NH −4 → 3) 3·3 = 9,
#   E (AH 0, NH 1 → 0) → 9.  E: B 1½·3 + A 3·3 + D 3·2 = 19½.  A: every weight 0 → 0.
# * EXR: only won games: E's forfeit win over A (3·3) → 9; A, B, C, D won only games of weight 0.
# * Rank: 3d = 2, 1d = 0, 1k = −1, 2k = −2, 3k = −3. Rating: none registered → 0. CAT: one category → 0.
# * NBWvirtual (played games + ½ per other round): A 3 + ½ (forfeit) = 3½; B 1½; C ½+½ = 1;
#   D 2 + ½ (bye) = 2½; E ½ (bye) + ½ (jigo) + ½ (forfeit win) = 1½. MMSvirtual = smms + that.
# * DC/SDC with MMS/SOSM/SOSOSM: DC goes after MMS; every MMS differs → 0.
EXTRA_FINAL = table("""
   STS  CPS  SOSTS  EXT  EXR  Rank  Rating  CAT  NBWvirtual  MMSvirtual  DC  SDC
A  35   13   123½   0    0    2     0       0    3½          33½         0   0
B  31½  4    129½   18   0    0     0       0    1½          31½         0   0
C  30   0    121½   6    0    -1    0       0    1           30          0   0
D  31   10   121½   9    0    -2    0       0    2½          30½         0   0
E  29½  5    124½   19½  9    -3    0       0    1½          28½         0   0
""")


def _values(state, round_: int, policy: str = "opengotha", criteria=("MMS", "SOSM", "SOSOSM")):
    ctx = ScoringContext(state, round_, get_policy(policy), criteria)

    def value(criterion: str, player: str) -> Fraction:
        return Fraction(ctx.value(criterion)[player], get_criterion(criterion).scale)

    return value


@pytest.mark.parametrize("expected", [SPEC_FINAL, EXTRA_FINAL], ids=["spec-table", "other-criteria"])
def test_final_values_of_every_criterion(expected: dict[str, dict[str, Fraction]]) -> None:
    value = _values(worked_example(), 4)
    got = {p: {c: value(c, p) for c in row} for p, row in expected.items()}
    assert got == expected


def test_mms_progression_rounds_down_only_the_absent_points() -> None:
    state = worked_example()
    progression = {p: [_values(state, r)("MMS", p) for r in range(5)] for p in "ABCDE"}
    assert progression == {
        "A": series("30 31 32 32 33"),
        "B": series("30 30 30½ 31½ 31½"),
        "C": series("29 29 29 29 30"),  # ½ floored after R2, the two halves merge in R4
        "D": series("28 29 29 30 31"),
        "E": series("27 28 28½ 29½ 29½"),  # the jigo half is kept
    }


def test_intermediate_standings_use_opponents_values_at_that_round() -> None:
    value = _values(worked_example(), 2)
    # A after R2: B ½ + D 1; SOSW-1 drops the ½; SOSW-2 drops both.
    assert [value(c, "A") for c in ("SOSW", "SOSW-1", "SOSW-2")] == [points("1½"), 1, 0]
    assert value("SOSM", "A") == points("59½")
    # OpenGotha quirk §2.7.1: SOSM-1/-2 are 0 after rounds 1 and 2.
    assert [value("SOSM-1", p) for p in "ABCDE"] == [0] * 5
    assert [value("SOSM-2", p) for p in "ABCDE"] == [0] * 5


def test_without_the_sosm_cut_quirk_the_larger_value_is_kept() -> None:
    from goledger.replay.scoring.policies import Policy

    policy = get_policy("opengotha").with_overrides({"quirk_sosm_cut_early_rounds": False})
    assert isinstance(policy, Policy)
    ctx = ScoringContext(worked_example(), 2, policy)
    # A after R2: B 30½ and D 29 → SOSM-1 keeps 30½ (in half-points 61).
    assert ctx.value("SOSM-1")["A"] == 61
    assert ctx.value("SOSM-2")["A"] == 0


def test_half_point_option_changes_opponents_scores_only() -> None:
    state = worked_example(half_point_option=True)
    value = _values(state, 4)
    assert [value("SOSW", p) for p in "ABCDE"] == series("7 9½ 4 6 7½")
    assert [value("SOSM", p) for p in "ABCDE"] == series("122 125½ 121 119 122½")
    # The player's own scores are unchanged.
    assert [value("NBW", p) for p in "ABCDE"] == series("3 1½ 0 3 2½")
    # Quirk: the virtual STS is never filled, so SOSTS keeps only handicaps and own smms.
    # C: R1 White with handicap 1 → +1, R2 and R4 absent → 29 + 29 → 59; D: −1 + bye 28 → 27.
    assert [value("SOSTS", p) for p in "CD"] == [59, 27]


def test_half_point_option_comes_from_the_tournament_unless_the_policy_says() -> None:
    plain = worked_example()
    policy = get_policy("opengotha").with_overrides({"not_played_as_half": True})
    ctx = ScoringContext(plain, 4, policy)
    assert Fraction(ctx.value("SOSW")["A"], 2) == 7


def test_direct_confrontation_separates_tied_players() -> None:
    # NBW after R4: A 3 and D 3 are tied; A beat D in R2 (a plain game).
    result = standings(worked_example(), 4, "opengotha", ["NBW", "DC", "SOSW"])
    rows = {row.player_id: row for row in result.rows}
    assert (rows["A"].values["DC"], rows["D"].values["DC"]) == (1, 0)
    assert [row.player_id for row in result.rows] == ["A", "D", "E", "B", "C"]
    assert [row.place for row in result.rows] == [1, 2, 3, 4, 5]
    sdc = standings(worked_example(), 4, "opengotha", ["NBW", "SDC"])
    assert {row.player_id: row.values["SDC"] for row in sdc.rows} == {"A": 1, "D": 0, "E": 0, "B": 0, "C": 0}


def test_final_standings_and_places() -> None:
    result = standings(worked_example(), 4, "opengotha", ["MMS", "SOSM", "SOSOSM"])
    assert [(row.place, row.player_id) for row in result.rows] == [(1, "A"), (2, "B"), (3, "D"), (4, "C"), (5, "E")]
    data = result.to_dict()
    assert data["criteria"] == ["MMS", "SOSM", "SOSOSM"]
    assert data["rows"][1]["values"] == {"MMS": 31.5, "SOSM": 125.5, "SOSOSM": 491}


def test_sodos_weighting_decisive_wins_ignores_jigo() -> None:
    policy = get_policy("opengotha").with_overrides({"sodos_weighting": "decisive-wins"})
    ctx = ScoringContext(worked_example(), 4, policy)
    # E: the jigo with B no longer counts; the forfeit win over A (a plain black win) does.
    # B: the jigo with E no longer counts; his win over C (NBW 0) brings 0.
    assert (Fraction(ctx.value("SODOSW")["E"], 4), Fraction(ctx.value("SODOSW")["B"], 4)) == (3, 0)
    assert Fraction(ctx.value("SODOSM")["B"], 4) == 30  # only C's MMS 30, the win of R3
