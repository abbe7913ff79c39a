"""The pairing report (issue 32, item 4): ``explain-pairing R [PLAYER]`` names the players (no
ids), and per game gives the score groups, draw-ups, same club/country, handicap and why, colour
history and balance, repeats, the weight terms in words beside their numbers; per round a summary
and the other optimal pairings found. Library, CLI (text and ``--json``) and the desk's page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from goledger import commands
from goledger.commands.pairing_report import pairing_report, report_lines
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state

from ..conftest import run_cli

SURNAMES = ["Sato", "Ito", "Abe", "Mori", "Kato", "Ueda", "Ono", "Sasaki", "Kimura", "Hayashi", "Novák", "Dvořák",
            "Müller", "Schmidt", "Weber", "Dubois"]


@pytest.fixture(scope="module")
def mcmahon(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """16 players of 2 countries and 4 clubs, McMahon with handicaps, round 1 played, round 2
    paired by OpenGotha's engine."""
    db = tmp_path_factory.mktemp("report") / "t.db"
    commands.new(db, "Report Cup", 4, "mcmahon", "3d", "20k", None, None, "7.5")
    for i, surname in enumerate(SURNAMES, start=1):
        commands.register(db, surname, f"P{i}", f"{i % 8 + 1}k", "JP" if i % 3 == 0 else "CZ", f"Club{i % 4}")
    commands.pair_round(db, 1)
    state = load_state(Ledger.open(db))
    for g in state.games_of_round(1):
        commands.result(db, 1, g.table, "white" if g.table % 2 == 0 else "black")
    commands.pair_round(db, 2)
    return db


def test_the_report_names_players_and_gives_every_term(mcmahon: Path) -> None:
    report = pairing_report(mcmahon, 2)
    state = load_state(Ledger.open(mcmahon))
    games = state.games_of_round(2)
    assert len(report.games) == len(games) == 8 and report.engine == "opengotha" and report.criterion == "MMS"
    for g, r in zip(games, report.games, strict=True):
        assert r.white.name == state.players[g.white].full_name and r.black.id == g.black
        assert r.white.score and r.black.score and len(r.white.colours) == 1
        assert r.same_club == (state.players[g.white].club == state.players[g.black].club)
        assert r.met_before == () and r.terms and all(words for _, words, _ in r.terms)
        assert int(r.total or 0) == sum(int(v) for _, _, v in r.terms)
        drawn = {r.white.drawn, r.black.drawn}
        assert drawn in ({""}, {"up", "down"})
        assert (drawn == {"up", "down"}) == (r.white.score != r.black.score)
        assert r.handicap == g.handicap and ("stone" in r.handicap_why) == (g.handicap > 0)
    s = report.summary
    assert s["games"] == 8 and s["repeats"] == 0
    assert s["draw_ups"] == sum(1 for r in report.games if r.white.drawn)
    assert s["same_country"] == sum(1 for r in report.games if r.same_country)
    assert s["handicap_games"] == sum(1 for g in games if g.handicap)
    assert report.checked


def test_explain_pairing_cli_text_and_json(mcmahon: Path) -> None:
    r = run_cli("explain-pairing", "2", "--db", mcmahon)
    assert r.code == 0, r.err
    assert not re.search(r"\bp\d{4}\b", r.out), "the report shows player ids"
    assert "summary: 8 games" in r.out and "score group" in r.out and "never met before" in r.out
    assert "handicap: " in r.out and "colours before" in r.out
    assert "not played before (duplicate) 500000000000000" in r.out
    assert r.out.count("\ntable ") == 8
    one = run_cli("explain-pairing", "2", "Dvořák", "--json", "--db", mcmahon)
    assert one.code == 0, one.err
    data = json.loads(one.out)
    assert len(data["games"]) == 1 and "Dvořák P12" in (data["games"][0]["white"]["name"],
                                                          data["games"][0]["black"]["name"])
    game = data["games"][0]
    assert game["chosen"]["terms"]["duplicate"] == "500000000000000"
    assert {t["term"] for t in game["terms"]} <= set(game["chosen"]["terms"])
    assert set(data["summary"]) >= {"draw_ups", "same_club", "same_country", "handicap_games", "colour_imbalances"}
    refused = run_cli("explain-pairing", "3", "--db", mcmahon)
    assert refused.code == 1 and "not paired yet" in refused.err


def test_a_hand_paired_round_is_reported_without_weights(tmp_path: Path) -> None:
    db = tmp_path / "hand.db"
    commands.new(db, "Hand Cup", 2, "mcmahon", "3d", "20k", None, None, "6.5")
    for surname, club in (("Sato", "Tokyo"), ("Ito", "Tokyo"), ("Abe", "Osaka"), ("Mori", "Kobe")):
        commands.register(db, surname, "X", "3k", "JP", club)
    commands.pair(db, 1, "p0001", "p0002")
    commands.pair(db, 1, "p0003", "p0004")
    commands.result(db, 1, 1, "white")
    commands.result(db, 1, 2, "white")
    commands.pair(db, 2, "p0001", "p0002", force=True)
    report = pairing_report(db, 2)
    assert report.engine == "by hand" and report.summary["repeats"] == 1 and report.summary["same_club"] == 1
    assert report.games[0].met_before == (1,) and report.games[0].same_club
    text = "\n".join(report_lines(report))
    assert "met before in round 1" in text and "same club" in text and "weight" not in text


def test_the_desk_page_is_the_same_report(mcmahon: Path) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from goledger.web import create_app

    client = TestClient(create_app(mcmahon, "director-token-for-tests"))
    assert client.get("/desk/round/2/report").status_code == 401
    page = client.get("/desk/round/2/report", headers={"Authorization": "Bearer director-token-for-tests"})
    assert page.status_code == 200 and 'id="report-games"' in page.text
    report = pairing_report(mcmahon, 2)
    for g in report.games:
        row = page.text.split(f'id="report-table-{g.table}"')[1].split("</tr>")[0]
        assert g.white.name in row and g.black.name in row and "not played before" in row
    data = client.get("/desk/round/2/report?format=json",
                      headers={"Authorization": "Bearer director-token-for-tests"}).json()
    assert data == json.loads(run_cli("explain-pairing", "2", "--json", "--db", mcmahon).out)
