"""A Pair Go tournament in the federation archive (issue 47; docs/pairgo.md): its players are its
units, with the games between them, not the first members the ledger records the games under."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from goledger import commands
from goledger.commands.units import unit_add

from ..conftest import REPO


def test_a_pair_go_ledger_is_catalogued_by_unit(tmp_path: Path) -> None:
    folder = tmp_path / "ledgers"
    folder.mkdir()
    db = folder / "pairgo.db"
    commands.new(db, "Pair Go", 1, "pairgo")
    for i, rank in enumerate(("1d", "1k", "3k", "5k")):
        commands.register(db, f"Member{i}", "X", rank)
    unit_add(db, "Alpha", ["p0001", "p0002"], ["F", "M"])
    unit_add(db, "Beta", ["p0003", "p0004"], ["M", "F"])
    commands.pair(db, 1, "p0001", "p0004", 1, 0)
    commands.result(db, 1, 1, "white")
    archive = tmp_path / "archive.db"
    done = subprocess.run([sys.executable, "-m", "goledger", "catalog", "build", str(folder), "-o", str(archive)],
                          capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(archive) as con:
        players = sorted(row[0] for row in con.execute("select name from players"))
        system = con.execute("select system from tournaments").fetchone()[0]
        games = con.execute("select count(*) from games").fetchone()[0]
    assert players == ["Alpha Member0/Member1", "Beta Member3/Member2"], players
    assert system == "pairgo" and games == 1
