"""Rounds in order (issue 40, item 2), through the CLI in a subprocess: ``pair-round R`` is
refused while an earlier round is unpaired or has a game without a result (one sentence
naming the round or the tables, exit 1, log unchanged), ``--force`` overrides; a round paired
after a later one does not repeat the later one's games; ``pair-round 0 --check`` reports
every game repeated between rounds instead of "re-derived exactly"."""

from __future__ import annotations

import json
from pathlib import Path

from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state
from tests.conftest import CliResult
from tests.conftest import run_cli as _run

RANKS = ["4d", "2d", "1k", "3k", "6k", "9k"]


class Run:
    """A finished ``goledger`` process; :meth:`ok` asserts exit 0 (showing stderr if not)."""

    def __init__(self, result: CliResult) -> None:
        self.code, self.out, self.err = result.code, result.out, result.err

    def ok(self) -> Run:
        assert self.code == 0, self.err
        return self


def run_cli(*args: object) -> Run:
    return Run(_run(*map(str, args)))  # type: ignore[arg-type]


def head(db: Path) -> int:
    with Ledger.open(db) as led:
        return led.head().seq


def pairs(db: Path, round_: int) -> set[frozenset[str]]:
    state = load_state(Ledger.open(db))
    return {frozenset((g.white, g.black)) for g in state.games_of_round(round_)}


def play(db: Path, round_: int) -> None:
    """Record a result at every table of ``round_`` (white wins at odd tables) by the CLI."""
    state = load_state(Ledger.open(db))
    for g in state.games_of_round(round_):
        run_cli("result", "w" if g.table % 2 else "b", "-r", round_, "-t", g.table, "--db", db).ok()


def six_player_swiss(tmp_path: Path) -> Path:
    """The issue's scenario: a 5-round Swiss of six players."""
    db = tmp_path / "six.db"
    run_cli("new", "--name", "Six", "--rounds", "5", "--system", "swiss", "--db", db).ok()
    for k, rank in enumerate(RANKS):
        run_cli("register", "--surname", f"Player{k}", "--first-name", "Six", "--rank", rank, "--db", db).ok()
    return db


def test_a_round_after_a_missing_one_is_refused_and_forced(tmp_path: Path) -> None:
    db = six_player_swiss(tmp_path)
    for r in (1, 2):
        run_cli("pair-round", r, "--db", db).ok()
        play(db, r)
    before = head(db)
    refused = run_cli("pair-round", 4, "--db", db)
    assert refused.code == 1 and head(db) == before
    assert "round 4 cannot be paired before round 3: round 3 is not paired yet" in refused.err
    assert len(refused.err.strip().splitlines()) == 1
    as_json = run_cli("pair-round", 4, "--json", "--db", db)
    assert as_json.code == 1 and json.loads(as_json.out or as_json.err)["code"] == "out-of-order"
    run_cli("pair-round", 4, "--force", "--db", db).ok()
    round4 = pairs(db, 4)
    assert len(round4) == 3
    # Round 3 now: rounds 1 and 2 are played, so it is in order; round 4's games count as played.
    run_cli("pair-round", 3, "--db", db).ok()
    round3 = pairs(db, 3)
    assert len(round3) == 3
    played = pairs(db, 1) | pairs(db, 2) | round4
    # On main, round 3 repeated round 4's three games. Here a game of another round repeats only
    # when no repeat-free pairing of the six is left (the unplayed pairs form two triangles),
    # and then once; --check says so.
    repeats = round3 & played
    check = run_cli("pair-round", "0", "--check", "--db", db)
    if repeat_free_exists({p for pair in played for p in pair}, played):
        assert not repeats
        assert check.code == 0, check.out
        assert "repeat" not in check.out and check.out.count("re-derived exactly") == 4
    else:
        assert len(repeats) == 1
        assert check.code == 1 and check.out.count("repeats the game of round") == 1


def repeat_free_exists(players: set[str], played: set[frozenset[str]]) -> bool:
    """Whether ``players`` (an even number) can all be paired without a pair in ``played``."""
    if not players:
        return True
    first = min(players)
    return any(repeat_free_exists(players - {first, other}, played)
               for other in players - {first} if frozenset((first, other)) not in played)


def test_check_reports_games_repeated_between_rounds(tmp_path: Path) -> None:
    """The issue's log: round 4 paired, then round 3 with the same games (by hand, forced now):
    ``--check`` must not call it exact."""
    db = six_player_swiss(tmp_path)
    for r in (1, 2):
        run_cli("pair-round", r, "--db", db).ok()
        play(db, r)
    run_cli("pair-round", 4, "--force", "--db", db).ok()
    state = load_state(Ledger.open(db))
    for g in state.games_of_round(4):
        run_cli("pair", "-r", 3, g.white, g.black, "--force", "--db", db).ok()
    text = run_cli("pair-round", "0", "--check", "--db", db)
    assert text.code == 1
    assert "re-derived exactly" not in [line.split(": ", 1)[-1] for line in text.out.splitlines()
                                         if line.startswith("round 4 ")]
    repeated = [line for line in text.out.splitlines() if line.startswith("repeated game: ")]
    assert len(repeated) == 3 and all("repeats the game of round 3" in line for line in repeated)
    data = json.loads(run_cli("pair-round", "0", "--check", "--json", "--db", db).out)
    assert data["ok"] is False and len(data["repeats"]) == 3
    assert data["repeats"][0].startswith("round 4 table ")


def test_a_missing_result_of_an_earlier_round_is_refused_naming_the_table(tmp_path: Path) -> None:
    db = six_player_swiss(tmp_path)
    run_cli("pair-round", 1, "--db", db).ok()
    state = load_state(Ledger.open(db))
    tables = sorted(g.table for g in state.games_of_round(1))
    for t in tables[:-1]:
        run_cli("result", "w", "-r", 1, "-t", t, "--db", db).ok()
    before = head(db)
    refused = run_cli("pair-round", 2, "--db", db)
    assert refused.code == 1 and head(db) == before
    assert f"round 2 cannot be paired yet: in round 1, table {tables[-1]} has no result" in refused.err
    dry = run_cli("pair-round", 2, "--dry-run", "--db", db)
    assert dry.code == 1 and head(db) == before
    forced = run_cli("pair-round", 2, "--force", "--json", "--db", db)
    forced.ok()
    assert len(json.loads(forced.out)["games"]) == 3 and head(db) > before
