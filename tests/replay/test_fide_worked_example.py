"""Spec scoring.md §4.3–4.4: the 5-round worked example under fide-2009, fide-2024 and
fide-2026, the 9-round adjusted-score example, and the official 2009 virtual-opponent examples."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.fide_unplayed import FideData, Kind, virtual_opponent2
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext

from ..fide_build import Tourney, from_records


def worked_example(policy: str) -> Tourney:
    """P: R1 draw O1, R2 forfeit win vs O2, R3 draw O3, R4 half-point bye, R5 win O5.
    O1 2½ (all played), O2 1 (+ the forfeit loss), O3 1, 1, ½ then withdrew, O5 4."""
    t = from_records(5, {
        "P": [("O1", "D", "white"), ("O2", "+", "white"), ("O3", "D", "black"), (None, "HPB", None),
              ("O5", "W", "white")],
        "O1": [("P", "D", "black"), (None, "W", "white"), (None, "W", "black"), (None, "L", "white"),
               (None, "L", "black")],
        "O2": [(None, "W", "white"), ("P", "-", "black"), (None, "L", "white"), (None, "L", "black"),
               (None, "L", "white")],
        "O3": [(None, "W", "white"), (None, "W", "black"), ("P", "D", "white")],
        "O5": [(None, "W", "white"), (None, "W", "black"), (None, "W", "white"), (None, "W", "black"),
               ("P", "L", "black")],
    }, policy=policy)
    t.withdraw("O3", 4)
    return t


EXPECTED = {
    "fide-2024": {"BH": F(17), "BH-C1": F(27, 2), "SB": F(49, 4), "SB-C1": F(21, 2),
                  "terms": [F(5, 2), F(7, 2), F(7, 2), F(7, 2), F(4)]},
    "fide-2026": {"BH": F(27, 2), "BH-C1": F(11), "SB": F(37, 4), "SB-C1": F(8),
                  "terms": [F(5, 2), F(1), F(7, 2), F(5, 2), F(4)]},
    "fide-2009": {"BH": F(15), "BH-C1": F(13), "SB": F(21, 2),
                  "terms": [F(5, 2), F(2), F(7, 2), F(3), F(4)]},
}


@pytest.mark.parametrize("policy", sorted(EXPECTED))
def test_worked_example_table(policy: str) -> None:
    expected = EXPECTED[policy]
    t = worked_example(policy)
    names = [c for c in ("BH", "BH-C1", "SB", "SB-C1") if c in expected]
    values = t.values(["PTS", *names, "PS", "PS-C1", "WIN", "WON", "REP"])["P"]
    assert values["PTS"] == F(7, 2)
    for name in names:
        assert values[name] == expected[name], name
    # identical under every policy (§4.3 "Other tie-breaks for P")
    assert (values["PS"], values["PS-C1"], values["WIN"], values["WON"], values["REP"]) == (10, F(19, 2), 2, 1, 4)


@pytest.mark.parametrize("policy", sorted(EXPECTED))
def test_worked_example_terms_by_round(policy: str) -> None:
    t = worked_example(policy)
    state = t.state()
    ctx = ScoringContext(state, 5, get_policy(policy))
    explanation = get_criterion("BH").explain(ctx, t.ids["P"])  # type: ignore[misc]
    by_round = [F(term.value, 2) for term in explanation.terms if term.round is not None and term.value >= 0]
    assert by_round == EXPECTED[policy]["terms"]
    assert F(explanation.value, 2) == EXPECTED[policy]["BH"]


def test_worked_example_adjusted_scores() -> None:
    for policy, o2, o3 in (("fide-2009", F(3, 2), F(7, 2)), ("fide-2024", F(1), F(7, 2)),
                           ("fide-2026", F(1), F(7, 2))):
        t = worked_example(policy)
        data = FideData(t.state(), 5, get_policy(policy))
        assert F(data.score2[t.ids["O3"]], 2) == F(5, 2)
        assert F(data.adjusted2[t.ids["O2"]], 2) == o2, policy
        assert F(data.adjusted2[t.ids["O3"]], 2) == o3, policy
        p_rounds = data.rounds[t.ids["P"]]
        assert [fr.kind for fr in p_rounds] == [Kind.GAME, Kind.FORFEIT_WIN, Kind.GAME, Kind.HALF_BYE, Kind.GAME]
        assert [fr.category for fr in p_rounds] == [None, 2, None, 3, None]
        assert [fr.category for fr in data.rounds[t.ids["O3"]]] == [None, None, None, 5, 5]
        assert [fr.category for fr in data.rounds[t.ids["O2"]]] == [None, 4, None, None, None]


def test_bh_c1_without_vur_first_cuts_the_lowest_value() -> None:
    """§4.3: "plain lowest-cut would give 14½" under 2024 rules."""
    t = worked_example("fide-2024")
    assert t.values(["BH-C1"], cut_rule="lowest")["P"]["BH-C1"] == F(29, 2)


def test_nine_round_adjusted_score_example() -> None:
    """§4.3: R1 win, R2 forfeit win, R3 loss, R4 half-point bye, R5–R7 wins, withdrew (R8, R9):
    actual 5½; 2009 → 6; 2023+ → 6½."""
    rows = [(None, "W", "white"), (None, "+", "white"), (None, "L", "black"), (None, "HPB", None),
            (None, "W", "white"), (None, "W", "black"), (None, "W", "white")]
    for policy, adjusted in (("fide-2009", F(6)), ("fide-2024", F(13, 2)), ("fide-2026", F(13, 2))):
        t = from_records(9, {"O": rows}, policy=policy)
        t.withdraw("O", 8)
        data = FideData(t.state(), 9, get_policy(policy))
        pid = t.ids["O"]
        assert F(data.score2[pid], 2) == F(11, 2)
        assert F(data.adjusted2[pid], 2) == adjusted, policy


def test_official_2009_virtual_opponent_examples() -> None:
    """§4.4a: (1) 1½ before a no-show in R3 of 9 → 2½ after R3, 5½ at the end; (2) opponent
    absent in R6, 3½ before → 3½ after R6, 5 at the end; committee: 2 + 0 + 6·½ = 5 and
    4 + 1 + 2·½ = 6."""
    std = {"draw2": 1, "win2": 2, "loss2": 0}
    assert virtual_opponent2(spr2=3, sf2=0, rounds=3, round_=3, **std) == 5
    assert virtual_opponent2(spr2=3, sf2=0, rounds=9, round_=3, **std) == 11
    assert virtual_opponent2(spr2=7, sf2=2, rounds=6, round_=6, **std) == 7
    assert virtual_opponent2(spr2=7, sf2=2, rounds=9, round_=6, **std) == 10
    assert virtual_opponent2(spr2=4, sf2=2, rounds=9, round_=3, **std) == 10
    assert virtual_opponent2(spr2=8, sf2=0, rounds=9, round_=7, **std) == 12


def test_intermediate_standings_use_rounds_counted() -> None:
    """§5(a): in standings after round k the virtual opponent of a forfeit win in R2 (1 point
    before) is 1 + 0 + ½·(k − 2): 1 after R2, 2 after R4, 3½ after R7."""
    rows = [(None, "W", "white"), (None, "+", "white")] + [(None, "L", "white")] * 5
    t = from_records(7, {"A": rows}, policy="fide-2009")
    state = t.state()
    pid = t.ids["A"]
    for k, expected in ((2, F(1)), (4, F(2)), (7, F(7, 2))):
        ctx = ScoringContext(state, k, get_policy("fide-2009"))
        explanation = get_criterion("BH").explain(ctx, pid)  # type: ignore[misc]
        r2 = next(term for term in explanation.terms if term.round == 2)
        assert F(r2.value, 2) == expected, k
