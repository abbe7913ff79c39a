"""The one registry of tournament systems (``goledger/systems/registry.py``) and the cup it now
pairs: every ``System`` value has one entry, the tables ``pair-round`` and ``goledger new`` read
are derived from it, and a cup made with ``goledger new --system cup`` is paired round after
round by ``pair-round`` as OpenGotha pairs a cup (winners meet winners, split and fold)."""

from __future__ import annotations

import importlib
import json
import typing
from pathlib import Path

from goledger.ledger.events import System
from goledger.systems import DEFAULT_ENGINE, ROUNDS_AT_DRAW, SYSTEM_MODULES, get_engine
from goledger.systems.registry import ENGINES, SYSTEMS

from ..conftest import run_cli


def test_every_system_has_one_entry_and_the_tables_follow_from_it() -> None:
    assert list(SYSTEMS) == list(typing.get_args(System))
    assert set(DEFAULT_ENGINE) == set(SYSTEMS)  # every system pairs, the cup included
    for name, entry in SYSTEMS.items():
        assert DEFAULT_ENGINE[name] == entry.engine
        assert SYSTEM_MODULES.get(name) == entry.module
        assert (name in ROUNDS_AT_DRAW) == entry.rounds_at_draw == bool(entry.rounds_rule)
        if entry.module is not None:
            importlib.import_module(entry.module)
    # One table of engines: every system's engine is in it, and each name finds its own engine.
    assert {e.engine for e in SYSTEMS.values() if e.engine is not None} <= set(ENGINES)
    for engine, module in ENGINES.items():
        assert importlib.import_module(module).ENGINE.name == engine
        assert get_engine(engine) is importlib.import_module(module).ENGINE


def _players(db: Path, count: int) -> None:
    for i in range(1, count + 1):
        assert run_cli("register", "--surname", f"P{i}", "--rank", f"{i}k", "--db", db).code == 0


def test_a_cup_is_paired_as_opengotha_pairs_one(tmp_path: Path) -> None:
    """Round 1 folds the field by strength (1–8, 2–7…); after it the winners meet winners and
    the losers losers (CPS groups), as OpenGotha's ``initForCup`` does; the standings rank by
    the cup score."""
    db = tmp_path / "cup.db"
    assert run_cli("new", "--name", "Cup", "--rounds", "3", "--system", "cup", "--db", db).code == 0
    _players(db, 8)
    wins: dict[str, int] = {}
    for round_ in (1, 2, 3):
        done = run_cli("pair-round", str(round_), "--json", "--db", db)
        assert done.code == 0, done.err
        games = json.loads(run_cli("pairings", "--round", str(round_), "--json", "--db", db).out)["tables"]
        pairs = [(g["white_id"], g["black_id"]) for g in games]
        if round_ == 1:
            assert set(map(frozenset, pairs)) == {frozenset((f"p{a:04d}", f"p{9 - a:04d}")) for a in range(1, 5)}
        else:  # the same wins so far on both sides of every board
            assert all(wins.get(w, 0) == wins.get(b, 0) for w, b in pairs), (pairs, wins)
        for g in games:
            assert run_cli("result", "white", "-r", str(round_), "-t", str(g["table"]), "--db", db).code == 0
            wins[g["white_id"]] = wins.get(g["white_id"], 0) + 1
    assert "initForCup" in run_cli("log", "--json", "--db", db).out  # OpenGotha's cup parameters, recorded
    table = json.loads(run_cli("standings", "--json", "--db", db).out)
    assert table["criteria"] == ["CPS"]
    top = table["rows"][0]
    assert wins[top["player_id"]] == 3 and top["values"]["CPS"] > table["rows"][1]["values"]["CPS"]
