"""FIDE criteria on the small examples of spec scoring.md §4.2 (and a few more), and the
explanations behind every value."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest

from goledger.formats.importing import write_new_ledger
from goledger.formats.report import InterchangeReport
from goledger.replay.scoring.criteria import get_criterion
from goledger.replay.scoring.criteria.names import FIDE_NAMES
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext

from ..fide_build import Tourney, from_records
from .test_fide_policies import withdrawal_tournament


def _rest(*results: str) -> list[tuple[str | None, str, str]]:
    return [(None, r, "white") for r in results]


def bh_example() -> Tourney:
    """X meets opponents who finish on 2, 3, 3½, 4 and 5 (all games played): W, W, D, L, L."""
    records = {
        "X": [("O1", "W", "white"), ("O2", "W", "black"), ("O3", "D", "white"), ("O4", "L", "black"),
              ("O5", "L", "white")],
        "O1": [("X", "L", "black"), *_rest("W", "W", "L", "L")],
        "O2": [(None, "W", "white"), ("X", "L", "white"), *_rest("W", "W", "L")],
        "O3": [*_rest("W", "W"), ("X", "D", "black"), *_rest("W", "L")],
        "O4": [*_rest("W", "W", "W"), ("X", "W", "white"), *_rest("L")],
        "O5": [*_rest("W", "W", "W", "W"), ("X", "W", "black")],
    }
    return from_records(5, records, policy="fide-2024")


def test_buchholz_and_modifiers() -> None:
    """§4.2: opponents [2, 3, 3½, 4, 5] → BH 17½, Cut-1 15½, Cut-2 12½, Median-1 10½, Median-2 3½;
    SB = 2 + 3 + 3½·½ = 6¾; SB-C1 drops the lowest-score opponent's product (2) → 4¾."""
    x = bh_example().values(["BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "SB", "SB-C1"])["X"]
    assert [x[c] for c in ("BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2")] == [F(35, 2), F(31, 2), F(25, 2), F(21, 2),
                                                                          F(7, 2)]
    assert (x["SB"], x["SB-C1"]) == (F(27, 4), F(19, 4))


def test_progressive_score() -> None:
    """§4.2: 1, 0, 1, 1 → running 1, 1, 2, 3 → PS 7; 0, 1, 1, 1 → PS 6; PS-C1 drops the first."""
    t = from_records(4, {"A": _rest("W", "L", "W", "W"), "B": _rest("L", "W", "W", "W")}, policy="fide-2024")
    v = t.values(["PS", "PS-C1"])
    assert (v["A"]["PS"], v["B"]["PS"], v["A"]["PS-C1"], v["B"]["PS-C1"]) == (7, 6, 6, 6)


def test_koya() -> None:
    """§4.2: 5 rounds (threshold 2½): X beat A (3½), drew B (2½), lost to C (4), beat D (1½) and
    E (1) → KS = 1 + ½ + 0 = 1½. A 25 % limit (1¼) adds D; 20 % (1) adds D and E."""
    records = {
        "X": [("A", "W", "white"), ("B", "D", "white"), ("C", "L", "white"), ("D", "W", "white"),
              ("E", "W", "white")],
        "A": [("X", "L", "black"), *_rest("W", "W", "W", "D")],
        "B": [(None, "W", "white"), ("X", "D", "black"), *_rest("W", "L", "L")],
        "C": [*_rest("W", "W"), ("X", "W", "black"), *_rest("W", "L")],
        "D": [*_rest("W", "D", "L"), ("X", "L", "black"), *_rest("L")],
        "E": [*_rest("W", "L", "L", "L"), ("X", "L", "black")],
    }
    t = from_records(5, records, policy="fide-2024")
    assert t.values(["KS"])["X"]["KS"] == F(3, 2)
    assert t.values(["KS"], koya_limit_percent=25)["X"]["KS"] == F(5, 2)
    assert t.values(["KS"], koya_limit_percent=20)["X"]["KS"] == F(7, 2)


def rated_example() -> Tourney:
    """4 games against 1900, 2000, 2100, 2200 scoring 3 (spec §4.2), plus a forfeit win
    against a 2400 that rating-based tie-breaks ignore."""
    t = Tourney(5, policy="fide-2024")
    t.player("X", 2000)
    for name, rating in (("A", 1900), ("B", 2000), ("C", 2100), ("D", 2200), ("F", 2400)):
        t.player(name, rating)
    t.game(1, "X", "A", "1-0")
    t.game(2, "B", "X", "0-1")
    t.game(3, "X", "C", "1-0")
    t.game(4, "D", "X", "1-0")
    t.game(5, "X", "F", "+-")
    return t


def test_rating_based() -> None:
    """ARO 2050, p = 0.75 → dp 193 → TPR 2243; PTP: lowest rating expecting 3 points
    (2247: .80 + .72 + .64 + .84 hundredths… ≥ 3); ARO-C1 drops 1900 → 2100.
    APRO/APPO average the opponents' own TPR/PTP (each played only X)."""
    v = rated_example().values(["ARO", "ARO-C1", "TPR", "PTP", "APRO", "APPO"])
    x = v["X"]
    assert (x["ARO"], x["ARO-C1"], x["TPR"]) == (2050, 2100, 2243)
    from goledger.replay.scoring.criteria.fide_rating import expected_hundredths

    ptp = int(x["PTP"])
    assert sum(expected_hundredths(ptp - r) for r in (1900, 2000, 2100, 2200)) >= 300
    assert sum(expected_hundredths(ptp - 1 - r) for r in (1900, 2000, 2100, 2200)) < 300
    # A, B, C lost their only game to X (2000): TPR and PTP 2000 − 800; D won it: TPR 2000 + 800,
    # PTP 2000 + 736 (C.07 10.3's exception is for a zero score only; issue 19.4)
    assert (v["A"]["TPR"], v["D"]["TPR"], v["A"]["PTP"], v["D"]["PTP"]) == (1200, 2800, 1200, 2736)
    assert x["APRO"] == (1200 * 3 + 2800) / 4
    assert x["APPO"] == (1200 * 3 + 2736) / 4


def test_type_b_counts() -> None:
    """WIN counts forfeit wins (and byes worth a win), WON only games won over the board;
    BPG/BWG games played/won with Black; REP = rounds − requested byes − forfeit losses."""
    t = rated_example()
    t.absent(5, "A", 1)
    x = t.values(["WIN", "WON", "BPG", "BWG", "REP"])
    assert [x["X"][c] for c in ("WIN", "WON", "BPG", "BWG", "REP")] == [4, 3, 2, 1, 5]
    assert [x["F"][c] for c in ("WIN", "REP")] == [0, 0]  # not paired in R1–R4 (zero-point byes), forfeit loss R5
    assert x["A"]["REP"] == 1  # the R1 game; R2–R4 not paired, R5 a half-point bye


def test_fore_buchholz_and_aob() -> None:
    """R1 A–B 1-0, C–D ½; R2 A–C 0-1, B–D 1-0: A 1, B 1, C 1½, D ½; BH A 2½, B 1½, C 1½, D 2½.
    FB draws the last round: A 1½, B ½, C 1, D 1 → FB A ½ + 1 = 1½, B 1½ + 1 = 2½, C 2½, D 1½;
    FB-C1(A) = 1. AOB = average BH of the opponents: A (1½ + 1½)/2 = 1.50, B (2½ + 2½)/2 = 2.50."""
    t = Tourney(2, policy="fide-2024")
    t.players("A", "B", "C", "D")
    t.game(1, "A", "B", "1-0")
    t.game(1, "C", "D", "=")
    t.game(2, "A", "C", "0-1")
    t.game(2, "B", "D", "1-0")
    v = t.values(["BH", "FB", "FB-C1", "AOB"])
    assert [v[n]["BH"] for n in "ABCD"] == [F(5, 2), F(3, 2), F(3, 2), F(5, 2)]
    assert [v[n]["FB"] for n in "ABCD"] == [F(3, 2), F(5, 2), F(5, 2), F(3, 2)]
    assert v["A"]["FB-C1"] == 1
    assert [v[n]["AOB"] for n in "AB"] == [F(3, 2), F(5, 2)]


def tied_trio(p_beats_s: bool) -> Tourney:
    """P, Q, S tied on points. Case 1: P beat Q, P–S ½, Q–S ½. Case 2: P beat Q and S, Q–S
    never met (fillers give everyone the same total)."""
    t = Tourney(3, policy="fide-2024")
    t.players("P", "Q", "S")
    t.game(1, "P", "Q", "1-0")
    if p_beats_s:
        t.game(2, "P", "S", "1-0")
        t.game(1, "S", "f1", "1-0")
        t.game(2, "Q", "f2", "1-0")
        t.game(3, "P", "f3", "0-1")
        t.game(3, "Q", "f4", "1-0")
        t.game(3, "S", "f5", "1-0")
    else:
        t.game(2, "P", "S", "=")
        t.game(3, "Q", "S", "=")
        t.game(3, "f1", "P", "1-0")
        t.game(2, "Q", "f2", "1-0")
        t.game(1, "S", "f3", "=")
    return t


def test_direct_encounter_all_met_and_swiss_partial() -> None:
    """§4.2: P 1½, S 1, Q ½ → P, S, Q. If P beat Q and S and Q–S never met: P first whatever
    happens, Q and S stay tied. Forfeits do not count unless the policy says so."""
    v = tied_trio(False).values(["PTS", "DE"])
    assert {n: v[n]["PTS"] for n in "PQS"} == {"P": F(3, 2), "Q": F(3, 2), "S": F(3, 2)}
    assert (v["P"]["DE"], v["S"]["DE"], v["Q"]["DE"]) == (2, 1, 0)
    v = tied_trio(True).values(["PTS", "DE"])
    assert {n: v[n]["PTS"] for n in "PQS"} == {"P": 2, "Q": 2, "S": 2}
    assert (v["P"]["DE"], v["Q"]["DE"], v["S"]["DE"]) == (2, 0, 0)

    forfeit = tied_trio(False)
    forfeit.events = [e for e in forfeit.events if not (getattr(e, "round", 0) == 1 and getattr(e, "table", 0) == 1
                                                        and type(e).__name__ == "ResultRecorded")]
    from goledger.ledger import events as ev
    from goledger.ledger.values import Result

    forfeit.events.append(ev.ResultRecorded(round=1, table=1, result=Result.WHITE, by_default=True))
    v = forfeit.values(["PTS", "DE"])
    assert (v["P"]["DE"], v["S"]["DE"], v["Q"]["DE"]) == (0, 0, 0)  # P–Q not an encounter: nobody sure to lead
    v = forfeit.values(["PTS", "DE"], fide_de_forfeits=True)
    assert (v["P"]["DE"], v["S"]["DE"], v["Q"]["DE"]) == (2, 1, 0)


SUMMED = ("PTS", "BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "FB", "FB-C1", "SB", "SB-C1", "PS", "PS-C1", "KS", "WIN",
          "WON", "BPG", "BWG", "REP", "KASHDAN")


@pytest.mark.parametrize("policy", ["fide-2009", "fide-2024", "fide-2026", "opengotha"])
def test_every_fide_criterion_explains_its_value(policy: str) -> None:
    state = withdrawal_tournament().state()
    ctx = ScoringContext(state, 5, get_policy(policy), criteria=["PTS", "DE", "BH"])
    for name in FIDE_NAMES:
        criterion = get_criterion(name)
        assert criterion.explain is not None, name
        values = ctx.value(name)
        for pid in state.players:
            explanation = criterion.explain(ctx, pid)
            assert explanation.value == values[pid], (name, pid)
            assert explanation.rule
            if name in SUMMED:
                assert sum(t.value for t in explanation.terms) == values[pid], (name, pid)


def test_explain_command_shows_fide_terms(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.db"
    write_new_ledger(withdrawal_tournament("fide-2026").events, db, InterchangeReport(format="test"))
    result = cli("explain", "p0001", "--criterion", "BH-C1", "--json", "--db", db)
    assert result.code == 0, result.err
    text = json.dumps(json.loads(result.out))
    assert "capped" in text and "16.5" in text
