"""The ratings store and rating lists under attack (issue 41, items 3 and 6), through the
command line and files on disk."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from ..conftest import run_cli
from ..ratings_support import write_list


def _ledger(tmp_path: Path) -> Path:
    db = tmp_path / "cup.db"
    assert run_cli("new", "--name", "Cup", "--rounds", "2", "--db", db).code == 0
    assert run_cli("register", "--surname", "Ada", "--rank", "1k", "--db", db).code == 0
    return db


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()


def test_the_ratings_store_is_never_written_into_a_ledger(tmp_path: Path) -> None:
    db = _ledger(tmp_path)
    tables, digest = _tables(db), _digest(db)
    listed = write_list(tmp_path / "list.txt")
    data = tmp_path / "data"
    (data / "goledger").mkdir(parents=True)
    (data / "goledger" / "ratings.db").symlink_to(db)  # a ratings.db link in the data folder
    hard = tmp_path / "hard.db"
    os.link(db, hard)
    ways: list[tuple[tuple[str | Path, ...], dict[str, str]]] = [
        (("--ratings", db), {}),
        ((), {"GOLEDGER_RATINGS": str(db)}),
        ((), {"XDG_DATA_HOME": str(data)}),
        (("--ratings", hard), {}),
        (("--ratings", tmp_path / "link.db"), {}),
        (("--ratings", Path(f"{db}-wal")), {}),
        (("--ratings", tmp_path / "other.db"), {"GOLEDGER_DB": str(tmp_path / "other.db")}),
    ]
    (tmp_path / "link.db").symlink_to(db)
    for args, env in ways:
        result = run_cli("ratings", "import", listed, *args, "--json", env=env)
        assert result.code == 1, (args, env, result)
        error = json.loads(result.err)["error"]
        assert "not a ratings store" in error and "nothing was written" in error, error
        assert "\n" not in error.strip()
        assert _tables(db) == tables and _digest(db) == digest, (args, env)
    assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
    assert run_cli("verify", "--db", db).code == 0
    assert run_cli("standings", "--db", db).code == 0


def test_another_database_is_not_taken_for_a_ratings_store(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (x TEXT)")
    conn.commit()
    conn.close()
    digest = _digest(other)
    result = run_cli("ratings", "import", write_list(tmp_path / "list.txt"), "--ratings", other)
    assert result.code == 1 and "'notes'" in result.err and "nothing was written" in result.err
    assert _digest(other) == digest
    # an empty file, or none, is a new store
    empty = tmp_path / "empty.db"
    empty.touch()
    assert run_cli("ratings", "import", tmp_path / "list.txt", "--ratings", empty).code == 0
    assert "lists" in _tables(empty)
