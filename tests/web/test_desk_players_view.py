"""The players' view on the day (issue 32, item 3) through the desk's HTTP door (Starlette's
test client): find my table by name in any case and accents or by PIN, its JSON twin, public
standings with rank, country, club, the tiebreak columns, withdrawn players marked and the
round's progress, the tournament's name in the header."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from goledger import commands
from goledger.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TOKEN = "director-token-for-tests"


@pytest.fixture
def day(tmp_path: Path) -> Path:
    db = tmp_path / "day.db"
    commands.new(db, "Spring Open 2026", 3, "mcmahon", "3d", "20k", None, None, "6.5")
    for surname, first, rank, country, club, pin in (
            ("Müller", "Jörg", "2d", "DE", "Berlin", "11112222"), ("Ito", "Mai", "1k", "JP", "Tokyo", ""),
            ("Dvořák", "Ondřej", "4k", "CZ", "Brno", "33334444"), ("Abe", "Jo", "5k", "JP", "Osaka", ""),
            ("Novak", "Ana", "3k", "SI", "Ljubljana", ""), ("Kim", "Ji", "6k", "KR", "Seoul", "")):
        commands.register(db, surname, first, rank, country, club, pin)
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    commands.pair(db, 1, "p0003", "p0004", 2, 2)
    commands.pair(db, 1, "p0005", "p0006", 3, 0)
    commands.result(db, 1, 1, "white")
    commands.result(db, 1, 2, "black")
    commands.result(db, 1, 3, "jigo")
    commands.pair(db, 2, "p0002", "p0003", 1, 0)
    commands.pair(db, 2, "p0006", "p0001", 2, 0)
    commands.pair(db, 2, "p0004", "p0005", 3, 0)
    commands.result(db, 2, 3, "white")
    commands.withdraw(db, "p0006", 3, "left early")
    return db


def api(client: TestClient, q: str) -> dict:
    r = client.get("/api/find", params={"q": q})
    assert r.status_code == 200, r.text
    return json.loads(r.text)


def test_find_my_table_by_name_any_case_accents_or_pin(day: Path) -> None:
    client = TestClient(create_app(day, TOKEN))
    for q in ("muller", "MÜLLER", "Müller Jörg", "jorg", "joerg müll"[6:], "Mul"):
        found = api(client, q)
        assert [p["id"] for p in found["players"]][:1] == ["p0001"], (q, found)
    found = api(client, "dvorak ondrej")
    assert found["round"] == 2 and len(found["players"]) == 1
    player = found["players"][0]
    assert player["name"] == "Dvořák Ondřej" and player["country"] == "CZ" and player["club"] == "Brno"
    now = player["now"]
    assert now["table"] == 1 and now["colour"] == "black" and now["opponent"]["name"] == "Ito Mai"
    assert now["handicap"] == 0 and now["komi"] == "6.5" and now["outcome"] == ""
    assert [r["outcome"] for r in player["results"]] == ["lost"]
    assert player["results"][0]["handicap"] == 2 and player["results"][0]["komi"] == "0.5"
    assert [p["id"] for p in api(client, "33334444")["players"]] == ["p0003"]
    assert api(client, "nobody")["players"] == [] and api(client, "")["players"] == []
    assert len(api(client, "x" * 3000)["query"]) == 80  # bounded before it is read
    assert client.get("/api/find", params={"q": "x" * 5000}).status_code == 414  # the desk's query limit
    page = client.get("/find", params={"q": "DVORAK"})
    assert page.status_code == 200
    assert "Table 1" in page.text and "Ito Mai" in page.text and "6.5" in page.text and 'id="find-q"' in page.text


def test_every_public_page_has_the_search_box_and_the_tournament_name(day: Path) -> None:
    client = TestClient(create_app(day, TOKEN))
    for url in ("/", "/standings", "/player/p0001", "/find?q=ito"):
        text = client.get(url).text
        assert 'id="find-form"' in text and 'action="/find"' in text, url
        assert "Spring Open 2026" in text.split("</header>")[0] and "day.db" not in text, url


def test_public_standings_show_what_decides_places(day: Path) -> None:
    client = TestClient(create_app(day, TOKEN))
    text = client.get("/standings").text
    table = text.split('id="standings"')[1].split("</table>")[0]
    for column in ("Rank", "Country", "Club", "MMS", "SOS"):
        assert column in table, column
    assert "Berlin" in table and "KR" in table
    kim = table.split("Kim Ji")[1].split("</tr>")[0]
    assert "withdrawn" in kim
    assert "Round 2 in progress: 1 of 3 results" in text
    round_page = client.get("/?round=2").text
    assert "Round 2 in progress: 1 of 3 results" in round_page
    for table_no, result in ((1, "white"), (2, "black")):
        commands.result(day, 2, table_no, result)
    assert "Round 2: all 3 results in" in client.get("/standings").text


def test_pairings_visible_manual_and_show_round(day: Path) -> None:
    """``change-rules pairings_visible=manual``: round 3's pairing reaches the players' view only
    after ``goledger show-round 3`` (an event) or the desk's button; ``auto`` shows it at once."""
    from ..conftest import run_cli

    client = TestClient(create_app(day, TOKEN))
    refused = run_cli("show-round", "2", "--db", day)
    assert refused.code == 1 and "pairings_visible=auto" in refused.err
    assert run_cli("change-rules", "pairings_visible=manual", "--db", day).code == 0
    commands.pair(day, 3, "p0001", "p0003", 1, 0)
    commands.pair(day, 3, "p0002", "p0005", 2, 0)
    text = client.get("/?round=3").text
    assert "is not shown yet" in text and "Dvořák" not in text.split('id="pairings"')[1]
    assert "<h1>Round 2</h1>" in client.get("/").text  # the players' view stays on the last round shown
    assert api(client, "muller")["round"] == 2  # find my table still answers the last shown round
    assert client.get("/api/pairings?round=3").status_code == 400
    assert client.get("/api/pairings?round=3", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    player = client.get("/player/p0001").text.split('id="games"')[1]
    assert "Dvořák" not in player.split("</tr>")[-2]  # his round 3 opponent is not shown
    shown = run_cli("show-round", "3", "--json", "--db", day)
    assert shown.code == 0, shown.err
    assert json.loads(shown.out)["events"][0]["type"] == "RoundShown"
    assert run_cli("show-round", "3", "--db", day).code == 1  # already shown
    text = client.get("/").text
    assert "Round 3" in text and "Dvořák Ondřej" in text and "is not shown yet" not in text
    found = api(client, "muller")
    assert found["round"] == 3 and found["players"][0]["now"]["opponent"]["name"] == "Dvořák Ondřej"
    log = run_cli("log", "--db", day).out
    assert "RoundShown             round=3" in log


def test_the_desk_button_shows_a_round(day: Path) -> None:
    import re

    commands.change_rules(day, {"pairings_visible": "manual"})
    commands.pair(day, 3, "p0001", "p0003", 1, 0)
    client = TestClient(create_app(day, TOKEN))
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/login").text).group(1)  # type: ignore[union-attr]
    client.post("/login", data={"csrf": csrf, "token": TOKEN, "next": "/desk", "desk": "a"})
    page = client.get("/desk").text
    assert 'id="show-round-3"' in page and 'id="show-round-2"' not in page
    form = page.split('id="show-round-3"')[1].split("</form>")[0]
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
    r = client.post("/desk/do/show-round", data=fields, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert 'id="shown-3"' in client.get("/desk").text
    assert "is not shown yet" not in client.get("/?round=3").text
