"""Printouts of the day (issue 32, item 5) from one renderer: ``goledger slips`` (4 or 8 to an
A4 sheet), the pairing list by table and by name, the wall list in landscape past six rounds
with names on one line and its legend; the desk's print pages are the CLI's ``--format html``
byte for byte. The print-media checks in Chromium are in :mod:`tests.render.test_printouts_print`."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from lxml import html

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state

from ..conftest import run_cli

TOKEN = "director-token-for-tests"
NAMES = [("Sato", "Ken"), ("Ito", "Mai"), ("Álvarez", "Ana"), ("Müller", "Jörg"), ("abe", "Jo"), ("Mori", "Aya"),
         ("Østergaard", "Lars"), ("Kim", "Ji"), ("Zhang", "Wei")]


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Nine players (a bye each round), eight rounds, three paired by hand with a handicap game."""
    db = tmp_path_factory.mktemp("day") / "day.db"
    commands.new(db, "Wall Cup", 8, "mcmahon", "3d", "20k", None, None, "6.5")
    for i, (surname, first) in enumerate(NAMES):
        commands.register(db, surname, first, f"{i + 1}k", "JP", f"Club {i % 3}")
    rounds = [[(1, 2), (3, 4), (5, 6), (7, 8)], [(1, 3), (2, 4), (5, 7), (6, 9)], [(1, 4), (2, 3), (5, 8), (6, 7)],
              [(1, 5), (2, 6), (3, 7), (4, 8)], [(1, 6), (2, 5), (3, 8), (4, 9)], [(1, 7), (2, 8), (3, 9), (4, 5)],
              [(1, 8), (2, 7), (3, 6), (5, 9)]]
    for r, games in enumerate(rounds, start=1):
        for t, (a, b) in enumerate(games, start=1):
            commands.pair(db, r, f"p{a:04d}", f"p{b:04d}", t, 2 if (r, t) == (1, 4) else 0)
            commands.result(db, r, t, "white" if t % 2 else "black")
    return db


def test_slips_four_or_eight_to_a_sheet(day: Path) -> None:
    four = run_cli("slips", "--round", "1", "--db", day)
    assert four.code == 0, four.err
    page = html.fromstring(four.out.encode())
    slips = page.xpath("//section[@class='slip']")
    assert len(slips) == 4 and len(page.xpath("//div[@class='slips per-4']")) == 1
    first = slips[0].text_content()
    assert "Table 1" in " ".join(first.split()) and "Sato Ken" in first and "Ito Mai" in first
    assert "Komi 6.5" in " ".join(first.split()) and "won" in first and "jigo" in first
    handicap = " ".join(slips[3].text_content().split())
    assert "Handicap 2" in handicap and "Komi 0.5" in handicap
    assert page.xpath("//section[@id='slip-1']//span[@class='slip-table']/b/text()") == ["1"]
    assert "@page { size: A4 portrait" in page.findtext(".//style") and not page.xpath("//script | //link")
    eight = html.fromstring(run_cli("slips", "-r", "1", "--per-page", "8", "--db", day).out.encode())
    assert len(eight.xpath("//div[@class='slips per-8']")) == 1
    data = json.loads(run_cli("slips", "-r", "1", "--json", "--db", day).out)
    assert data["per_page"] == 4 and len(data["tables"]) == 4
    refused = run_cli("slips", "-r", "1", "--per-page", "6", "--db", day)
    assert refused.code == 1 and "4 or 8" in refused.err


def test_pairing_list_by_name_for_the_wall(day: Path) -> None:
    r = run_cli("pairings", "-r", "2", "--by", "name", "-f", "csv", "--db", day)
    assert r.code == 0, r.err
    rows = [line.split(",") for line in r.out.splitlines()[1:]]
    names = [row[0] for row in rows]
    assert names == ["abe Jo", "Álvarez Ana", "Ito Mai", "Kim Ji", "Mori Aya", "Müller Jörg", "Østergaard Lars",
                     "Sato Ken", "Zhang Wei"]  # accents and case ignored, every player once
    state = load_state(Ledger.open(day))
    for row in rows:
        if row[3] == "not paired":
            assert row[0] == "Kim Ji" and row[2] == ""
            continue
        game = state.games[2][int(row[2])]
        me = state.players[game.white if row[3] == "white" else game.black].full_name
        assert me == row[0] and row[4] in (state.players[game.white].full_name, state.players[game.black].full_name)
    assert run_cli("pairings", "-r", "2", "--by", "colour", "--db", day).code == 2


def test_wall_list_landscape_past_six_rounds_with_names_on_one_line(day: Path) -> None:
    page = html.fromstring(run_cli("wall-list", "-f", "html", "--db", day).out.encode())
    style = page.findtext(".//style")
    assert "A4 landscape" in style and "white-space: nowrap" in style
    headers = page.xpath("//table[1]/thead//th")
    assert [h.text for h in headers[:7]] == ["Num", "Pl", "Name", "Rank", "Co", "Club", "R1"]
    assert "Legend" in page.text_content()
    cells = page.xpath("//table[1]/tbody/tr[1]/td")
    assert cells[2].get("class") == "nowrap" and cells[6].text.endswith(("/w", "/b", "/w2", "/b2", "bye"))
    short = html.fromstring(run_cli("wall-list", "-r", "6", "-f", "html", "--db", day).out.encode())
    assert "A4 portrait" in short.findtext(".//style")


def test_the_desk_prints_what_the_cli_prints(day: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from goledger.web import create_app
    from goledger.web.print_pages import print_button

    client = TestClient(create_app(day, TOKEN))
    for url, words in (("/print/wall?round=7", ["wall-list", "-r", "7", "-f", "html"]),
                       ("/print/pairings/3", ["pairings", "-r", "3", "-f", "html"]),
                       ("/print/pairings/3?by=name", ["pairings", "-r", "3", "--by", "name", "-f", "html"]),
                       ("/print/slips/3", ["slips", "-r", "3"]),
                       ("/print/slips/3?per_page=8", ["slips", "-r", "3", "--per-page", "8"]),
                       ("/print/players", ["players", "-f", "html"])):
        desk = client.get(url)
        cli = run_cli(*words, "--db", day)
        assert desk.status_code == 200 and cli.code == 0, (url, cli.err)
        # the same bytes, with the desk's print button after <body> (its script from a file: the CSP)
        button = print_button()
        assert desk.content.count(button) == 1, url
        assert desk.content.replace(button, b"", 1) == cli.out.encode(), url
        assert "style-src 'unsafe-inline'" in desk.headers["content-security-policy"]
        assert "script-src 'self'" in desk.headers["content-security-policy"]
