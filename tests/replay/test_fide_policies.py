"""The three FIDE policies on one tournament with a withdrawal, a forfeit, a half-point bye and
a pairing bye: where they differ (and where they do not), the adjusted-score view (library and
CLI), and the crosstable / schedule commands."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

from goledger.formats.importing import write_new_ledger
from goledger.formats.report import InterchangeReport
from goledger.ledger.values import format_points
from goledger.replay.scoring.fide_views import adjusted_view, compare_policies

from ..fide_build import Tourney

POLICIES = ("fide-2009", "fide-2024", "fide-2026")


def withdrawal_tournament(policy: str = "fide-2024") -> Tourney:
    """Six players, five rounds. C does not come in R2 (A wins by forfeit); A takes a half-point
    bye in R4; E withdraws from R4; F has the pairing bye in R5.

    Final scores: A 4, B 2½, C 3, D ½, E 0, F 4½."""
    t = Tourney(5, policy=policy)
    t.players("A", "B", "C", "D", "E", "F")
    t.game(1, "A", "B", "1-0")
    t.game(1, "C", "D", "=")
    t.game(1, "E", "F", "0-1")
    t.game(2, "A", "C", "+-")
    t.game(2, "B", "E", "1-0")
    t.game(2, "D", "F", "0-1")
    t.game(3, "A", "F", "=")
    t.game(3, "B", "D", "1-0")
    t.game(3, "C", "E", "1-0")
    t.absent(4, "A", 1)
    t.withdraw("E", 4)
    t.game(4, "B", "F", "0-1")
    t.game(4, "C", "D", "1-0")
    t.game(5, "A", "D", "1-0")
    t.game(5, "B", "C", "=")
    t.bye(5, "F")
    return t


def diff_lines(t: Tourney, criteria: list[str]) -> list[str]:
    names = {pid: name for name, pid in t.ids.items()}
    lines = []
    for d in compare_policies(t.state(), POLICIES, criteria):
        shown = " | ".join(f"{p} {format_points(d.values[p]) or '0'}" for p in POLICIES)
        lines.append(f"{names[d.player_id]} {d.criterion}: {shown}")
    return lines


def test_policies_differ_where_the_spec_says() -> None:
    """Hand-computed (spec §4.3–4.4):

    * A's forfeit win (R2) and half-point bye (R4): 2009 virtual opponents 2½ and 3½; 2024 dummy
      = own score 4 twice; 2026 dummy capped at C's adjusted score 3 and at ½ × 5 = 2½.
    * B met C, whose forfeit loss counts ½ in 2009 only (adjusted 3½ vs 3), and A (adjusted
      3½ in 2009: both unplayed rounds as draws; 4 from 2024).
    * E withdrew: his R4/R5 are zero-point byes — 2009 virtual opponents 1½ and 1, 2023+ dummies 0.
    * F's pairing bye in R5: 2009 virtual 3½ + 0 + 0, 2024 dummy 4½, 2026 capped at 2½.
    * C and D: their differences cancel out (C's own forfeit loss: 2009 virtual 3 = 2024 dummy 3
      = 2026 min(3, A adjusted 4)); PTS never differs.
    """
    assert diff_lines(withdrawal_tournament(), ["PTS", "BH"]) == [
        "A BH: fide-2009 13 | fide-2024 15½ | fide-2026 13",
        "B BH: fide-2009 12½ | fide-2024 13 | fide-2026 13",
        "E BH: fide-2009 12½ | fide-2024 10 | fide-2026 10",
        "F BH: fide-2009 11 | fide-2024 12½ | fide-2026 10½",
    ]


def test_cut_rules_differ_on_voluntary_unplayed_rounds() -> None:
    """A's BH-C1: 2009 cuts the lowest value (D ½); 2024/2026 cut the VUR (R4 bye) first."""
    lines = [line for line in diff_lines(withdrawal_tournament(), ["BH-C1"]) if line.startswith("A ")]
    assert lines == ["A BH-C1: fide-2009 12½ | fide-2024 11½ | fide-2026 10½"]


def test_adjusted_scores_by_policy() -> None:
    t = withdrawal_tournament()
    state = t.state()
    expected = {  # actual, adjusted under 2009, 2024
        "A": (F(4), F(7, 2), F(4)), "B": (F(5, 2), F(5, 2), F(5, 2)), "C": (F(3), F(7, 2), F(3)),
        "D": (F(1, 2), F(1, 2), F(1, 2)), "E": (F(0), F(1), F(1)), "F": (F(9, 2), F(4), F(9, 2)),
    }
    names = {pid: name for name, pid in t.ids.items()}
    for policy, index in (("fide-2009", 1), ("fide-2024", 2), ("fide-2026", 2)):
        view = adjusted_view(state, 5, policy)
        got = {names[row.player_id]: (F(row.actual2, 2), F(row.adjusted2, 2)) for row in view.rows}
        assert got == {n: (v[0], v[index]) for n, v in expected.items()}, policy


def _ledger(t: Tourney, tmp_path: Path) -> Path:
    db = tmp_path / "t.db"
    write_new_ledger(t.events, db, InterchangeReport(format="test", source="fide_build"))
    return db


def test_standings_adjusted_cli_json(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = _ledger(withdrawal_tournament(), tmp_path)
    result = cli("standings", "--adjusted", "--json", "--db", db)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["policy"] == "fide-2024" and data["opponent_score_adjustment"] == "withdrawal-as-draw"
    rows = {row["surname"]: row for row in data["rows"]}
    assert (rows["E"]["actual"], rows["E"]["adjusted"]) == (0, 1)
    assert [(u["round"], u["category"], u["fide_category"], u["vur"], u["seen_by_opponents"], u["own_buchholz"])
            for u in rows["E"]["unplayed"]] == [(4, "withdrawal", 5, True, 0.5, 0), (5, "withdrawal", 5, True, 0.5, 0)]
    assert [(u["round"], u["kind"], u["fide_category"], u["vur"], u["points"], u["seen_by_opponents"],
             u["own_buchholz"]) for u in rows["A"]["unplayed"]] == [
        (2, "forfeit-win", 2, False, 1, 1, 4), (4, "half-point-bye", 3, True, 0.5, 0.5, 4)]
    assert [(u["category"], u["fide_category"], u["vur"], u["points"]) for u in rows["C"]["unplayed"]] == [
        ("forfeit loss", 4, True, 0)]
    assert [(u["category"], u["fide_category"], u["points"]) for u in rows["F"]["unplayed"]] == [("bye", 1, 1)]
    assert rows["E"]["opponents"] == sorted([rows["F"]["player_id"], rows["B"]["player_id"], rows["C"]["player_id"]])

    capped = json.loads(cli("standings", "--adjusted", "--json", "--policy", "fide-2026", "--db", db).out)
    a = next(row for row in capped["rows"] if row["surname"] == "A")
    assert [u["own_buchholz"] for u in a["unplayed"]] == [3, 2.5]

    text = cli("standings", "--adjusted", "--policy", "fide-2009", "--db", db)
    assert text.code == 0 and "virtual opponent" in text.out and "withdrawal" in text.out


def test_standings_with_fide_criteria_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = _ledger(withdrawal_tournament(), tmp_path)
    result = cli("standings", "--json", "--criteria", "PTS,BH-C1,BH,SB", "--db", db)
    assert result.code == 0, result.err
    rows = json.loads(result.out)["rows"]
    assert [(r["surname"], r["values"]["PTS"]) for r in rows][:2] == [("F", 4.5), ("A", 4)]
    assert rows[1]["values"]["BH"] == 15.5


def test_crosstable_per_round(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = _ledger(withdrawal_tournament(), tmp_path)
    data = json.loads(cli("crosstable", "--json", "--criteria", "PTS,BH", "--db", db).out)
    assert data["layout"] == "per-round" and data["columns"] == ["R1", "R2", "R3", "R4", "R5"]
    rows = {row["name"]: row for row in data["rows"]}
    number = {name: row["number"] for name, row in rows.items()}
    assert rows["F"]["number"] == 1 and rows["F"]["cells"][4] == "U"
    assert rows["A"]["cells"] == [f"{number['B']}w1", f"{number['C']}w+", f"{number['F']}w½", "H",
                                  f"{number['D']}w1"]
    assert rows["C"]["cells"][1] == f"{number['A']}b-"
    assert rows["E"]["cells"][3:] == ["Z", "Z"]


def test_a_fide_policy_on_go_criteria_says_what_to_ask_for(cli, tmp_path: Path) -> None:
    """The sample McMahon ranks by MMS/SOSM/SOSOSM; under ``--policy fide-2024`` those Go
    criteria are refused with the FIDE criteria to ask for instead, and asking works."""
    import shutil

    db = tmp_path / "sample.db"
    shutil.copy(Path(__file__).resolve().parents[2] / "samples" / "sample.db", db)
    refused = cli("standings", "--db", db, "--policy", "fide-2024")
    assert refused.code == 1 and "give FIDE criteria, e.g. --criteria PTS,BH-C1,BH,SB" in refused.err
    done = cli("standings", "--db", db, "--policy", "fide-2024", "--criteria", "PTS,BH-C1,BH,SB", "--json")
    assert done.code == 0, done.err
    assert json.loads(done.out)["criteria"] == ["PTS", "BH-C1", "BH", "SB"]
