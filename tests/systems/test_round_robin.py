"""Round robin as a system: Berger tables, the ``schedule`` command, round-robin tie-breaks and
the square crosstable."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.schedule import berger_rounds, schedule
from goledger.errors import CommandRejected
from goledger.replay.views import state_as_of

from ..fide_build import Tourney

# FIDE Handbook C.05 Annex 1, Berger tables for 6 and 8 players (first named has White).
BERGER_6 = [
    "1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1",
]
BERGER_8 = [
    "1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3", "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1",
]


def _text(rounds: list[list[tuple[int, int]]]) -> list[str]:
    return [" ".join(f"{w}-{b}" for w, b in tables) for tables in rounds]


def test_berger_tables_match_fide() -> None:
    assert _text(berger_rounds(6)) == BERGER_6
    assert _text(berger_rounds(8)) == BERGER_8
    assert _text(berger_rounds(5)) == BERGER_6  # odd field: number 6 is the rest


@pytest.mark.parametrize("n", range(2, 17))
def test_berger_everyone_meets_everyone_once_with_balanced_colours(n: int) -> None:
    rounds = berger_rounds(n)
    size = n + n % 2
    assert len(rounds) == size - 1
    pairs = [frozenset(t) for tables in rounds for t in tables]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, combinations(range(1, size + 1), 2))))
    whites = {p: sum(1 for tables in rounds for w, _ in tables if w == p) for p in range(1, size + 1)}
    assert max(whites.values()) - min(whites.values()) <= 1
    double = berger_rounds(n, cycles=2)
    assert double[size - 1:] == [[(b, w) for w, b in tables] for tables in rounds]


def _new(tmp_path: Path, players: int, rounds: int) -> Path:
    db = tmp_path / "rr.db"
    commands.new(db, "RR", rounds, system="round-robin")
    for i in range(players):
        commands.register(db, f"P{i + 1}", "", "1d")
    return db


def test_schedule_records_berger_rounds_and_rests(tmp_path: Path) -> None:
    db = _new(tmp_path, 5, 5)
    outcome = schedule(db)
    assert "rounds 1–5" in outcome.message
    state = state_as_of(db)
    by_number = {p.start_number: p.id for p in state.players.values()}
    r2 = [(g.white, g.black) for g in state.games_of_round(2)]
    assert r2 == [(by_number[5], by_number[3]), (by_number[1], by_number[2])]  # 6-4 rests player 4
    assert state.byes[2] == {by_number[4]: 0}
    assert all(len(state.byes[r]) == 1 for r in range(1, 6))


def test_schedule_refusals(tmp_path: Path) -> None:
    db = _new(tmp_path, 6, 4)
    with pytest.raises(CommandRejected, match="need 5 rounds"):
        schedule(db)
    db2 = tmp_path / "b.db"
    commands.new(db2, "RR", 10, system="round-robin")
    for name in ("A", "B", "C", "D"):
        commands.register(db2, name, "", "1d")
    commands.pair(db2, 2, "A", "B")
    with pytest.raises(CommandRejected, match="round 2 already has pairings"):
        schedule(db2)
    schedule(db2, first_round=4, double=True)
    assert sorted(state_as_of(db2).games) == [2, 4, 5, 6, 7, 8, 9]


def test_round_robin_forfeits_are_games_for_sb_but_not_for_rating() -> None:
    """C.07 15: with pre-determined pairings a forfeit counts as a game (BH, SB, WON) except in
    rating-based tie-breaks, and article 16 (dummies, adjustments) does not apply.

    Berger 4: R1 A–D (A wins by forfeit), B–C 1-0; R2 D–C 1-0, A–B 1-0; R3 B–D 1-0, C–A 1-0.
    Scores A 2, B 2, C 1, D 1. A: BH = D 1 + B 2 + C 1 = 4, SB = 1 + 2 + 0 = 3, WON 2,
    ARO over B (1800) and C (1600) only = 1700. Forced Swiss rules: the forfeit is an unplayed
    round with a dummy (A's own score 2): BH 5, SB 4, WON 1."""
    t = Tourney(3, system="round-robin", policy="fide-2024")
    for name, rating in (("A", 2000), ("B", 1800), ("C", 1600), ("D", 1400)):
        t.player(name, rating)
    t.game(1, "A", "D", "+-")
    t.game(1, "B", "C", "1-0")
    t.game(2, "D", "C", "1-0")
    t.game(2, "A", "B", "1-0")
    t.game(3, "B", "D", "1-0")
    t.game(3, "C", "A", "1-0")
    a = t.values(["PTS", "BH", "SB", "WON", "ARO"])["A"]
    assert (a["PTS"], a["BH"], a["SB"], a["WON"], a["ARO"]) == (2, 4, 3, 2, 1700)
    swiss = t.values(["PTS", "BH", "SB", "WON", "ARO"], fide_event_type="swiss")["A"]
    assert (swiss["PTS"], swiss["BH"], swiss["SB"], swiss["WON"], swiss["ARO"]) == (2, 5, 4, 1, 1700)


def test_crosstable_round_robin_cli(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = _new(tmp_path, 4, 3)
    assert cli("schedule", "--berger", "--db", db).code == 0
    # round 1: 1-4 2-3 ; round 2: 4-3 1-2 ; round 3: 2-4 3-1
    for r, t, res in ((1, 1, "white"), (1, 2, "jigo"), (2, 1, "black"), (2, 2, "white"), (3, 1, "white")):
        assert cli("result", "-r", r, "-t", t, res, "--db", db).code == 0
    assert cli("result", "-r", 3, "-t", 2, "black", "--by-default", "--db", db).code == 0
    result = cli("crosstable", "--json", "--db", db)
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["layout"] == "round-robin" and data["criteria"] == ["NBW", "DE", "SB", "KS", "WIN"]
    rows = {row["name"]: row for row in data["rows"]}
    # P1: beat P4, beat P2, beat P3 by forfeit → 3; P2: draw P3, lost P1, beat P4 → 1½
    assert rows["P1"]["score"] == 3 and rows["P1"]["number"] == 1
    col = {name: row["number"] - 1 for name, row in rows.items()}
    assert rows["P1"]["cells"][col["P3"]] == "+" and rows["P3"]["cells"][col["P1"]] == "-"
    assert rows["P2"]["cells"][col["P3"]] == "½" and rows["P2"]["cells"][col["P2"]] == "*"
    text = cli("crosstable", "--db", db)
    assert text.code == 0 and "round robin" in text.out
