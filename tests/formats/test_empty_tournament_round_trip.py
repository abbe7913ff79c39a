"""A tournament before its registrations (OpenGotha writes such files: 31 of the 775 files
uploaded to the OpenGotha site in 2020 hold no player) goes out and back in through every
format that can hold it, through the command line; the EGD, which rates games, refuses it in
one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("fmt", "suffix"), [("opengotha", "xml"), ("macmahon", "xml"), ("trf", "trf")])
def test_a_tournament_without_players_round_trips(tmp_path: Path, fmt: str, suffix: str) -> None:
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Spring Open", "--rounds", "5", "--db", db).code == 0
    out = tmp_path / f"t.{suffix}"
    exported = run_cli("export", fmt, "--db", db, "-o", out)
    assert exported.code == 0, exported.err
    back = tmp_path / "back.db"
    imported = run_cli("import", fmt, out, "--db", back, "--json")
    assert imported.code == 0, imported.err
    settings = run_cli("settings", "--db", back, "--json")
    assert settings.code == 0, settings.err
    data = json.loads(settings.out)
    assert "Spring Open" in json.dumps(data, ensure_ascii=False)
    players = run_cli("players", "--db", back, "--json")
    assert players.code == 0 and json.loads(players.out)["players"] == []


def test_the_egd_refuses_a_tournament_without_games(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    assert run_cli("new", "--name", "Spring Open", "--rounds", "5", "--db", db).code == 0
    refused = run_cli("export", "egd", "--db", db, "-o", tmp_path / "t.h9")
    assert refused.code == 1 and "nothing to export" in refused.err and not (tmp_path / "t.h9").exists()
