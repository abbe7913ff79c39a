"""The knockout family in the desk (issue 43 item 5, ``web/system_pages.py``): the bracket
page for the director and the players, the system's own places on the desk's and the public
standings (the places ``goledger standings`` gives, never NBW/SOSW/SOSOSW), and eliminated
players listed as out on the round page, not as waiting to be paired."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from goledger import commands
from goledger.replay.views import state_as_of

from ..conftest import run_cli
from .test_web import Desk

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
warnings.filterwarnings("ignore", category=DeprecationWarning)


def knockout_of_eight(db: Path) -> None:
    """A knockout of eight with a third-place game, played out (White always wins)."""
    commands.new(db, "Coupe", None, "knockout", options={"third_place": "yes"})
    for i in range(8):
        commands.register(db, f"Player{i + 1}", "", f"{i + 1}k")


def play(desk: Desk, db: Path, round_: int) -> None:
    assert desk.post("pair-round", round=str(round_)).status_code == 303
    for g in state_as_of(db).games_of_round(round_):
        assert desk.post("result", round=str(round_), table=str(g.table), result="white").status_code == 303


def test_a_knockout_s_places_bracket_and_the_eliminated_in_the_desk(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    knockout_of_eight(db)
    desk = Desk(db)
    assert "<svg" in desk.page("/bracket").text  # the draw to come, from the seeds
    play(desk, db, 1)
    round_two = desk.page("/desk/round/2").text
    out = round_two.split('id="out"')[1].split("</ul>")[0]
    assert out.count("<li>") == 4 and "Player5" in out and "Player1 " not in out
    free = round_two.split('id="free"')[1].split("</p>")[0]
    assert "Player5" not in free and "Player1" in free
    players = desk.page("/desk/players?round=2").text
    row = next(r for r in players.split("<tr>") if "Player5" in r and "<td>" in r)
    assert "out of the event" in row
    row = next(r for r in players.split("<tr>") if "Player1 " in r and "<td>" in r)
    assert "not paired" in row
    eliminated = state_as_of(db).games_of_round(1)[0].black
    assert "out of the event" in desk.page(f"/player/{eliminated}").text
    play(desk, db, 2)
    play(desk, db, 3)
    cli = json.loads(run_cli("standings", "--json", "--db", db).out)
    expected = [(r["place"], r["player_id"]) for r in cli["rows"]]
    assert len({place for place, _ in expected[:4]}) == 4  # 1, 2, 3, 4: the third-place game decides
    api = desk.client.get("/api/standings").json()
    assert api["system"] == "knockout" and api["rows"] == cli["rows"]  # exactly the CLI's
    assert "SOSW" in desk.client.get("/api/standings?criteria=NBW,SOSW").text  # the criteria when asked
    for url in ("/standings", "/desk/standings"):
        page = desk.page(url).text
        table = page.split('class="standings places"')[1].split("</table>")[0]
        shown = [(int(cell.split("</td>")[0].lstrip("=")), cell.split('player=' if 'player=' in cell else '/player/')[1]
                  .split('"')[0]) for cell in table.split('<td class="num">')[1:]]
        assert shown == expected, (url, shown)
        assert "SOSW" not in table and "decided by the games" in page
    assert "NBW" in desk.page("/desk/standings").text.split('id="criteria-table"')[1]  # kept, folded away
    for url in ("/bracket", "/desk/bracket"):
        page = desk.page(url).text
        assert "<svg" in page and "Champion: [1] Player1" in page and "Third place" in page
    overview = desk.page("/desk").text
    assert 'id="nav-bracket"' in overview and '<span id="system-name">Knockout</span>' in overview
    desk.client.cookies.clear()
    assert "<svg" in desk.page("/bracket").text
    assert 'id="nav-bracket"' in desk.page("/standings").text  # the players' header links it too
    assert desk.client.get("/desk/bracket", follow_redirects=False).status_code in (303, 401)


def test_a_mcmahon_has_no_bracket_and_keeps_its_criteria(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Open", 3, "mcmahon")
    for i in range(4):
        commands.register(db, f"Player{i + 1}", "", f"{i + 1}k")
    desk = Desk(db)
    assert 'class="standings places"' not in desk.page("/standings").text
    r = desk.client.get("/bracket")
    assert r.status_code == 400 and "has no bracket" in r.text
    assert 'id="nav-bracket"' not in desk.page("/desk").text


def test_teams_are_made_and_filled_in_the_desk_and_their_criteria_explained(tmp_path: Path) -> None:
    """A team Swiss of 4 teams × 3 boards: teams added and members put on boards from the
    desk's teams page (players picked by id from the list of those on no team), listed in
    board order; a round paired and played by match; the team standings explain TEAMP, BDW…
    and the round columns."""
    db = tmp_path / "t.db"
    commands.new(db, "Teams", 2, "team-swiss", options={"boards": 3})
    for i in range(12):
        commands.register(db, f"Player{i + 1:02d}", "", f"{i + 1}k")
    desk = Desk(db)
    assert 'id="nav-desk-teams"' in desk.page("/desk").text
    for t in range(4):
        assert desk.post("team-add", name=f"Team {t + 1}").status_code == 303
    for t in range(4):
        for board in (3, 1, 2):  # out of order: the page lists them by board
            pid = f"p{t * 3 + board:04d}"
            r = desk.post("team-assign", team=f"t{t + 1:03d}", player=pid, board=str(board), back="/desk/teams")
            assert r.status_code == 303, r.text
    page = desk.page("/desk/teams").text
    first = page.split('data-team="t001"')[1].split("</table>")[0]
    assert first.index("Player01") < first.index("Player02") < first.index("Player03")
    assert '<p id="free"><span class="muted">' in page  # nobody left on no team
    bad = desk.post("team-assign", team="t002", player="p0001", board="1")
    assert bad.status_code == 400 and "plays for team Team 1" in bad.text
    assert desk.post("pair-round", round="1").status_code == 303
    assert 'id="team-round-1"' in page and "matches" in desk.page("/desk/teams/round/1").text
    for g in state_as_of(db).games_of_round(1):
        assert desk.post("result", round="1", table=str(g.table), result="white").status_code == 303
    standings = desk.page("/teams").text
    legend = standings.split('id="team-legend"')[1]
    assert "<dt>TEAMP</dt>" in legend and "team points" in legend and "<dt>BDW3U</dt>" in legend
    assert "4+(2)" in legend and "board wins on the 3 upper boards" in legend


def test_a_bracket_before_its_draw_says_so(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Coupe", None, "knockout")
    desk = Desk(db)
    page = desk.page("/bracket").text
    assert 'id="no-bracket"' in page and "at least two entrants" in page and "Nothing was written" not in page
