"""The desk's team pages (issue 30, item 4), through the Starlette test client: the players'
team standings and matches of a round, the director's round by match with results entry, and
a player's team and match on his page."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from goledger import commands
from goledger.commands.teams import pair_teams, team_add, team_assign
from goledger.web import create_app

from .test_web import TOKEN, Desk, head

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def league(tmp_path: Path) -> Path:
    db = tmp_path / "league.db"
    commands.new(db, "Club League", 2, "team-swiss", options={"boards": 2})
    for surname, rank in (("Sato", "2d"), ("Ito", "1k"), ("Abe", "4k"), ("Mori", "5k")):
        commands.register(db, surname, "X", rank)
    team_add(db, "Lions")
    team_add(db, "Tigers")
    for team, pid, board in (("Lions", "p0001", 1), ("Lions", "p0002", 2), ("Tigers", "p0003", 1),
                             ("Tigers", "p0004", 2)):
        team_assign(db, team, pid, board)
    pair_teams(db, 1, "Lions", "Tigers")
    return db


def test_public_team_pages(league: Path) -> None:
    client = TestClient(create_app(league, TOKEN))
    standings = client.get("/teams")
    assert standings.status_code == 200 and "team standings after round 1" in standings.text
    assert "Lions" in standings.text and "TEAMP" in standings.text
    matches = client.get("/teams/round/1")
    assert matches.status_code == 200 and "Lions – Tigers" in matches.text and 'data-table="2"' in matches.text
    assert client.get("/teams/round/9").status_code == 400
    player = client.get("/player/p0003")
    assert player.status_code == 200 and 'id="team"' in player.text and "Tigers" in player.text
    assert "Lions – Tigers" in player.text or "Tigers – Lions" in player.text
    assert client.get("/desk/teams/round/1").status_code == 401


def test_results_entry_by_match(league: Path) -> None:
    desk = Desk(league)
    page = desk.page("/desk/teams/round/1")
    assert 'id="team-entry-form"' in page.text and "Lions – Tigers" in page.text
    before = head(league)
    r = desk.post("result", round="1", entry="1 w", back="/desk/teams/round/1")
    assert r.status_code in (200, 303), r.text[:300]
    assert head(league) == before + 1
    assert "1-0" in desk.page("/desk/teams/round/1").text
