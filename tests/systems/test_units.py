"""Pair Go and Rengo (issue 47 item 1; docs/pairgo.md): units formed of registered players, paired
as one player by ``pair-round``, scored, printed and exported as units.

The issue's "Done when": a Pair Go event of 8 pairs and a Rengo-3 event play 4 rounds through
``goledger pair-round`` in a subprocess (and through the desk: tests/web/test_units_desk_e2e.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from goledger import commands
from goledger.commands.units import decide_unit_add, decide_unit_remove, unit_add
from goledger.errors import CommandRejected
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Rank
from goledger.replay.fold.state import fold
from goledger.replay.loading.load import load_state
from goledger.replay.scoring.units import mean_rank, unit_state

RANKS = ["3d", "1k", "5k", "2d", "10k", "1d", "4k", "6k", "2k", "12k", "3k", "8k", "1d", "15k", "7k", "5k",
         "4d", "20k", "9k", "9k", "2k", "5k", "1d", "11k"]


def goledger(db: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    """``goledger ARGS --db DB`` in a subprocess (this tree first on the path)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]),
                                                         os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "goledger", *args, "--db", str(db)], capture_output=True, text=True,
                          env=env, check=False)
    if ok:
        assert done.returncode == 0, done.stderr
    return done


def state_of(db: Path) -> Any:
    with Ledger.open(db) as ledger:
        return load_state(ledger)


def expected_rank(ranks: list[str]) -> str:
    """The unit's rank computed here from the rule (mean, a half to the weaker rank)."""
    values = [Rank.parse(r).value for r in ranks]
    total, n = sum(values), len(values)
    lower = total // n
    nearest = lower + 1 if 2 * (total - lower * n) > n else lower
    return str(Rank.from_value(nearest))


def play(db: Path, rounds: int, units: int) -> list[dict[str, Any]]:
    """Pair each round with ``goledger pair-round R --json`` and record White wins on odd tables,
    Black on even ones; return each round's JSON."""
    answers = []
    for r in range(1, rounds + 1):
        answer = json.loads(goledger(db, "pair-round", str(r), "--json").stdout)
        answers.append(answer)
        state = state_of(db)
        reps = {u.representative: u.name for u in state.units.values()}
        games = answer["games"]
        assert len(games) == units // 2
        for g in games:
            assert {g["white"]["id"], g["black"]["id"]} <= set(reps)
            assert g["white"]["surname"] == reps[g["white"]["id"]], g   # named as units
            winner = "white" if g["table"] % 2 else "black"
            goledger(db, "result", "--round", str(r), "--table", str(g["table"]), winner)
    return answers


def test_pair_go_of_eight_pairs_plays_four_rounds_through_pair_round(tmp_path: Path) -> None:
    db = tmp_path / "pairgo.db"
    goledger(db, "new", "--name", "Pair Go Cup", "--rounds", "4", "--system", "pairgo")
    for i in range(16):
        goledger(db, "register", "--surname", f"P{i + 1:02d}", "--first-name", "X", "--rank", RANKS[i])
    for k in range(8):
        man, woman = f"p{2 * k + 1:04d}", f"p{2 * k + 2:04d}"
        out = goledger(db, "unit", "add", f"Pair {k + 1}", man, woman, "--sex", "M,F").stdout
        assert f"{woman} P{2 * k + 2:02d} X (F), {man}" in out   # the woman first: she plays first
    listed = json.loads(goledger(db, "unit", "list", "--json").stdout)
    assert [u["rank"] for u in listed["units"]] == [expected_rank(RANKS[2 * k:2 * k + 2]) for k in range(8)]
    answers = play(db, 4, 8)
    # every member who is not his unit's representative is accounted for, with the reason
    not_paired = {p["player"]["id"] for p in answers[0]["not_paired"]}
    assert not_paired == {f"p{2 * k + 1:04d}" for k in range(8)}
    # no two units met twice (the engine sees units as players)
    met = [frozenset((g["white"]["id"], g["black"]["id"])) for a in answers for g in a["games"]]
    assert len(met) == len(set(met)) == 16
    standings = json.loads(goledger(db, "standings", "--json").stdout)
    assert [row["surname"] for row in standings["rows"]] != []
    assert {row["surname"] for row in standings["rows"]} == {f"Pair {k + 1}" for k in range(8)}
    state = state_of(db)
    wins = {rep: 0 for rep in (u.representative for u in state.units.values())}
    for g in state.all_games():
        winner = g.white if g.table % 2 else g.black
        wins[winner] += 1
    assert sum(wins.values()) == 16
    goledger(db, "pair-round", "0", "--check")
    over = goledger(db, "pair-round", "5", ok=False)
    assert over.returncode == 1 and "over" in over.stderr
    pairings = goledger(db, "pairings", "--round", "4").stdout
    assert "Pair " in pairings and "P01 X" not in pairings


def test_pair_go_export_to_opengotha_reimports_with_the_same_standings(tmp_path: Path) -> None:
    db = tmp_path / "pairgo.db"
    commands.new(db, "PG", 2, "pairgo")
    for i in range(8):
        commands.register(db, f"S{i}", "A", RANKS[i])
    for k in range(4):
        unit_add(db, f"U{k}", [f"p{2 * k + 1:04d}", f"p{2 * k + 2:04d}"], ["F", "M"])
    play(db, 2, 4)
    out = tmp_path / "pg.xml"
    done = goledger(db, "export", "opengotha", "-o", str(out))
    assert "OpenGotha has no pairgo tournament" in done.stdout + done.stderr
    back = tmp_path / "back.db"
    goledger(back, "import", "opengotha", str(out))
    ours = json.loads(goledger(db, "standings", "--json").stdout)["rows"]
    theirs = json.loads(goledger(back, "standings", "--json").stdout)["rows"]
    assert [(r["surname"], r["place"], r["values"]) for r in ours] == [(r["surname"], r["place"], r["values"])
                                                                     for r in theirs]
    egd = goledger(db, "export", "egd", "-o", str(tmp_path / "pg.txt"), ok=False)   # the EGD rates no Pair Go
    assert egd.returncode == 1 and "the EGD rates no pairgo games" in egd.stderr
    assert not (tmp_path / "pg.txt").exists()


def test_rengo_three_plays_four_rounds_swiss_with_a_bye(tmp_path: Path) -> None:
    db = tmp_path / "rengo.db"
    goledger(db, "new", "--name", "Rengo", "--rounds", "4", "--system", "rengo3", "--option", "pairing=swiss")
    for i in range(21):
        commands.register(db, f"R{i + 1:02d}", "", RANKS[i])
    for k in range(7):
        goledger(db, "unit", "add", f"Team {k + 1}", *(f"p{3 * k + j:04d}" for j in (1, 2, 3)))
    state = state_of(db)
    assert state.settings.criteria[0] == "NBW"     # Swiss preset from the pairing option
    answers = []
    for r in range(1, 5):
        answer = json.loads(goledger(db, "pair-round", str(r), "--json").stdout)
        answers.append(answer)
        assert len(answer["games"]) == 3 and answer["bye"] is not None
        for g in answer["games"]:
            goledger(db, "result", "--round", str(r), "--table", str(g["table"]), "white")
    reps = {u.representative for u in state_of(db).units.values()}
    byes = [a["bye"]["id"] for a in answers]
    assert set(byes) <= reps and len(set(byes)) == 4
    standings = json.loads(goledger(db, "standings", "--json").stdout)["rows"]
    assert len(standings) == 7 and all(r["surname"].startswith("Team ") for r in standings)
    goledger(db, "pair-round", "0", "--check")


def test_mean_rank_halves_go_to_the_weaker_rank() -> None:
    assert mean_rank((0, -1)) == -1          # 1d + 1k → 1k (pairgoth: 0.5 − 0.0001 rounds down)
    assert mean_rank((2, 3)) == 2            # 3d + 4d → 3d
    assert mean_rank((-5, -10, -12)) == -9   # 5k, 10k, 12k → 9k (−9)
    assert mean_rank((-1, -2, -2)) == -2     # −1.67 → 2k
    assert mean_rank((4, 4)) == 4


def _base(system: str = "pairgo") -> Any:
    return fold([ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=3, system=system)),
                 *(ev.PlayerRegistered(player_id=f"p{i:04d}", surname=f"S{i}", rank="1k") for i in range(1, 5))])


@pytest.mark.parametrize(("system", "members", "sexes", "message"), [
    ("pairgo", ["p0001", "p0002"], ["M", "M"], "one woman and one man"),
    ("pairgo", ["p0001", "p0002"], [], "one woman and one man"),
    ("pairgo", ["p0001", "p0002", "p0003"], ["F", "M", "M"], "has 2 players, not 3"),
    ("rengo3", ["p0001", "p0002"], [], "has 3 players, not 2"),
    ("rengo2", ["p0001", "p0001"], [], "different players"),
    ("rengo2", ["p0001", "p0009"], [], "p0009"),
    ("mcmahon", ["p0001", "p0002"], [], "only a pairgo, rengo2 or rengo3 tournament has units"),
])
def test_unit_add_refusals(system: str, members: list[str], sexes: list[str], message: str) -> None:
    with pytest.raises(CommandRejected, match=message):
        decide_unit_add(_base(system), "U", members, sexes)


def test_a_player_plays_in_one_unit_and_a_unit_that_played_stays(tmp_path: Path) -> None:
    state = fold([*_base_events("rengo2"), ev.UnitFormed(unit_id="u001", name="A", members=("p0001", "p0002"))])
    with pytest.raises(CommandRejected, match="already plays in unit u001"):
        decide_unit_add(state, "B", ["p0002", "p0003"])
    with pytest.raises(CommandRejected, match="already called"):
        decide_unit_add(state, "a", ["p0003", "p0004"])
    assert decide_unit_remove(state, "A") == [ev.UnitDissolved(unit_id="u001")]
    played = fold([*_base_events("rengo2"), ev.UnitFormed(unit_id="u001", name="A", members=("p0001", "p0002")),
                   ev.UnitFormed(unit_id="u002", name="B", members=("p0003", "p0004")),
                   ev.GamePaired(round=1, table=1, white="p0001", black="p0003")])
    with pytest.raises(CommandRejected, match="has played in round 1"):
        decide_unit_remove(played, "u001")


def _base_events(system: str) -> list[ev.Event]:
    return [ev.TournamentCreated(settings=ev.TournamentSettings(name="T", rounds=3, system=system)),
            *(ev.PlayerRegistered(player_id=f"p{i:04d}", surname=f"S{i}", rank=f"{i}k") for i in range(1, 5))]


def test_a_hand_pairing_is_between_two_units_with_the_units_handicap(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    commands.new(db, "R", 2, "rengo2")
    for i, rank in enumerate(("1d", "9k", "5k", "5k")):
        commands.register(db, f"S{i}", "", rank)
    unit_add(db, "A", ["p0001", "p0002"])   # 1d and 9k: 5k as a unit (−4.5, the half to the weaker)
    unit_add(db, "B", ["p0003", "p0004"])   # 5k
    refused = goledger(db, "pair", "--round", "1", "p0002", "p0004", ok=False)
    assert refused.returncode == 1 and "does not stand for a unit" in refused.stderr
    goledger(db, "pair", "--round", "1", "p0001", "p0003")
    game = state_of(db).game_of("p0001", 1)
    assert game.handicap == 0    # 1d against 5k alone would be a handicap game


def test_a_unit_with_an_absent_member_sits_the_round_out(tmp_path: Path) -> None:
    db = tmp_path / "r.db"
    commands.new(db, "R", 2, "rengo2")
    for i in range(6):
        commands.register(db, f"S{i}", "", "3k")
    for k, name in enumerate("ABC"):
        unit_add(db, name, [f"p{2 * k + 1:04d}", f"p{2 * k + 2:04d}"])
    commands.absent(db, "p0004", 1)
    answer = json.loads(goledger(db, "pair-round", "1", "--json").stdout)
    assert answer["bye"] is None and len(answer["games"]) == 1
    assert {answer["games"][0]["white"]["id"], answer["games"][0]["black"]["id"]} == {"p0001", "p0005"}
    why = {p["player"]["id"]: p["why"] for p in answer["not_paired"]}
    assert why["p0003"] == "unit u002 B does not play: p0004 is not free in round 1"
    assert why["p0002"] == "plays in unit u001 A's game"


def test_unit_state_is_the_units_as_players() -> None:
    state = fold([*_base_events("rengo2"), ev.UnitFormed(unit_id="u001", name="A", members=("p0002", "p0001"))])
    seen = unit_state(state)
    assert list(seen.players) == ["p0002"]
    unit = seen.players["p0002"]
    assert (unit.surname, unit.first_name, unit.rank) == ("A", "S2/S1", "2k")   # 2k, 1k → 1.5 → 2k
    assert seen.settings is not None and seen.settings.system == "mcmahon"
