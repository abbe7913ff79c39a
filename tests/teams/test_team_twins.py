"""Team names are compared as player names are (issue 41, item 9): ``Lions`` with a variation
selector (U+FE0E, U+E0100, Mongolian U+180B), full-width ``Ｌｉｏｎｓ`` and ``Léo`` composed or
decomposed are one team, printed identically; through the command line (``team add``, ``team
assign``, ``import opengotha``) and a running desk (its OpenGotha import, its team pages)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..conftest import run_cli

TWINS = ("Lions\ufe0e", "Lions\U000e0100", "Lions\u180b", "Ｌｉｏｎｓ", "LIONS", "lions")


def league(db: Path) -> None:
    """A two-round team Swiss with two boards: Lions, Léo (composed) and Tigers, no boards yet;
    six players."""
    assert run_cli("new", "--name", "League", "--rounds", "2", "--system", "team-swiss", "--boards", "2",
                   "--db", db).code == 0
    for k in range(1, 7):
        assert run_cli("register", "--surname", f"S{k}", "--first-name", "F", "--rank", "2k", "--db", db).code == 0
    for team in ("Lions", "L\u00e9o", "Tigers"):
        assert run_cli("team", "add", team, "--db", db).code == 0


def test_twin_team_names_are_one_team_on_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    league(db)
    log = run_cli("log", "--json", "--db", db).out
    for twin in (*TWINS, "Le\u0301o", "LÉO"):
        refused = run_cli("team", "add", twin, "--db", db, "--json")
        assert refused.code == 1, twin
        assert re.search(r"already called '(Lions|Léo)'", json.loads(refused.err)["error"]), refused
    assert run_cli("team", "add", "Pumas", "--short", "LIO", "--db", db).code == 0
    assert run_cli("team", "add", "Bears", "--short", "ＬＩＯ", "--db", db).code == 1  # short names too
    assert json.loads(run_cli("log", "--json", "--db", db).out)[:len(json.loads(log))] == json.loads(log)
    # a twin names the team it looks like
    assert run_cli("team", "assign", "Ｌｉｏｎｓ", "p0001", "--board", "1", "--db", db).code == 0
    assert run_cli("team", "assign", "Lions\ufe0e", "p0002", "--board", "2", "--db", db).code == 0
    assert run_cli("team", "assign", "Le\u0301o", "p0003", "--board", "1", "--db", db).code == 0
    teams = json.loads(run_cli("standings", "--teams", "--json", "--db", db).out)["teams"]
    assert sorted(t["name"] for t in teams) == ["Lions", "L\u00e9o", "Pumas", "Tigers"]
    explained = run_cli("explain", "--team", "LIONS\U000e0100", "--db", db)
    assert explained.code == 0 and "Lions" in explained.out


def twin_teams_file(tmp_path: Path) -> bytes:
    """An OpenGotha save (written by ``export opengotha``) whose team Tigers is renamed
    ``Ｌｉｏｎｓ``: two teams printed as one name."""
    db = tmp_path / "source.db"
    league(db)
    saved = tmp_path / "league.xml"
    assert run_cli("export", "opengotha", "--db", db, "-o", saved).code == 0
    xml = saved.read_text(encoding="utf-8")
    assert 'teamName="Tigers"' in xml
    return xml.replace('teamName="Tigers"', 'teamName="Ｌｉｏｎｓ"').encode("utf-8")


def test_an_opengotha_file_with_twin_teams_is_refused_by_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "twins.xml"
    source.write_bytes(twin_teams_file(tmp_path))
    target = tmp_path / "imported.db"
    refused = run_cli("import", "opengotha", source, "--db", target)
    assert refused.code == 1 and not target.exists()
    report = tmp_path / "report.json"
    allowed = run_cli("import", "opengotha", source, "--db", target, "--allow-errors", "--report", report)
    assert allowed.code == 0, allowed
    entries = json.loads(report.read_text(encoding="utf-8"))["entries"]
    assert any(e["kind"] == "duplicate" and "has the name of team 'Lions'" in e["message"] for e in entries)
    teams = json.loads(run_cli("standings", "--teams", "--json", "--db", target).out)["teams"]
    assert sorted(t["name"] for t in teams) == ["Lions", "L\u00e9o"]  # the twin is not recorded


def test_the_desk_refuses_twin_teams_and_finds_a_team_by_its_twin(tmp_path: Path) -> None:
    """On a running desk: the OpenGotha upload with two teams named alike is refused with the
    report's sentence, nothing created; a ledger whose team is added as ``Lions`` refuses
    ``Ｌｉｏｎｓ`` at the command line while the desk serves it, and its team standings show
    one Lions."""
    pytest.importorskip("uvicorn")
    httpx = pytest.importorskip("httpx")
    from ..desk_server import DeskServer
    from ..web.test_web_attacks import logged_in

    db = tmp_path / "desk.db"
    with DeskServer(db) as desk:
        client, csrf = logged_in(desk.url)
        r = client.post("/desk/import", data={"csrf": csrf, "format": "opengotha"},
                        files={"file": ("twins.xml", twin_teams_file(tmp_path), "application/xml")})
        assert r.status_code == 400 and not db.exists(), r.status_code
        assert "has the name of team" in r.text, r.text[-800:]
        league(db)
        assert run_cli("team", "add", "Ｌｉｏｎｓ", "--db", db).code == 1
        page = httpx.get(desk.url + "/teams", timeout=30).text
        assert page.count(">Lions<") == 1 and "Ｌｉｏｎｓ" not in page
