"""Printouts (pairings, players, wall list, crosstable), withdrawals and ``unregister``
through the CLI (issue 20, items 1 and 3)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from lxml import html

from goledger import commands
from goledger.ledger.store import Ledger
from tests.conftest import run_cli


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Five players, round 1 played (one handicap game, a bye), Dias absent in round 2."""
    path = tmp_path / "cup.db"
    commands.new(path, "Spring Cup", 3, location="Ghent")
    for surname, first, rank, country, club in [("Ali", "Veli", "3d", "TR", "Ankara"), ("Berg", "Anna", "1k", "SE", ""),
                                                ("Chen", "Li", "5k", "CN", "Go Club"), ("Dias", "Rui", "10k", "PT", ""),
                                                ("Eko", "Sam", "15k", "", "")]:
        commands.register(path, surname, first, rank, country=country, club=club)
    commands.pair(path, 1, "Ali", "Berg")
    commands.pair(path, 1, "Chen", "Dias", handicap=4)
    commands.bye(path, "Eko", 1)
    commands.result(path, 1, 1, "white")
    commands.result(path, 1, 2, "black", by_default=True)
    commands.absent(path, "Dias", 2)
    return path


def head(path: Path) -> int:
    with Ledger.open(path) as led:
        return led.head().seq


def test_pairings_in_every_format(db: Path) -> None:
    text = run_cli("pairings", "--db", db, "--round", "1")
    assert text.code == 0, text.err
    lines = text.out.splitlines()
    assert lines[0] == "Spring Cup · pairings of round 1 of 3"
    assert lines[5].split() == ["2", "Chen", "Li", "5k", "Dias", "Rui", "10k", "4", "0.5", "0-1!"]
    assert "Eko Sam" in text.out.split("Bye")[1]
    rows = list(csv.reader(io.StringIO(run_cli("pairings", "--db", db, "-r", "1", "-f", "csv").out)))
    assert rows[0] == ["Table", "White", "Rank", "Black", "Rank", "H", "Komi", "Result"]
    assert rows[1] == ["1", "Ali Veli", "3d", "Berg Anna", "1k", "0", "7.5", "1-0"]
    data = json.loads(run_cli("pairings", "--db", db, "-r", "1", "--json").out)
    assert data["tables"][1]["handicap"] == 4 and data["tables"][1]["by_default"] is True
    assert data["bye"] == [{"player_id": "p0005", "name": "Eko Sam"}]
    page = html.fromstring(run_cli("pairings", "--db", db, "-r", "1", "-f", "html").out.encode())
    assert page.findtext(".//title") == "Spring Cup · pairings of round 1 of 3"
    assert "@media print" in page.findtext(".//style") and not page.xpath("//script | //link | //*[@src]")
    refused = run_cli("pairings", "--db", db, "-r", "7")
    assert refused.code == 1 and "round 7 is outside 1..3" in refused.err


def test_players_list_status_and_rounds(db: Path) -> None:
    data = json.loads(run_cli("players", "--db", db, "--json").out)
    dias = next(p for p in data["players"] if p["surname"] == "Dias")
    assert dias["rounds"] == [1, 3] and dias["status"] == "absent in round 2" and dias["country"] == "PT"
    text = run_cli("players", "--db", db).out
    assert "Spring Cup · 5 players registered" in text and "Go Club" in text


def test_wall_list_cells_status_and_html(db: Path) -> None:
    commands.withdraw(db, "Chen", 2, "ill")
    data = json.loads(run_cli("wall-list", "--db", db, "--json").out)
    assert data["tournament"] == "Spring Cup" and data["round"] == 1
    by_name = {row["name"]: row for row in data["rows"]}
    number = {row["name"]: row["number"] for row in data["rows"]}
    assert by_name["Ali Veli"]["cells"] == [f"{number['Berg Anna']}+/w"]
    assert by_name["Dias Rui"]["cells"] == [f"{number['Chen Li']}+!/b4"]
    assert by_name["Eko Sam"]["cells"] == ["bye"]
    assert by_name["Chen Li"]["status"] == "withdrawn from round 2"
    assert by_name["Dias Rui"]["status"] == "absent in round 2"
    page = html.fromstring(run_cli("standings", "--db", db, "--wall", "-f", "html").out.encode())
    assert page.findtext(".//title") == "Spring Cup · standings after round 1 of 3"
    assert page.xpath("//th/text()")[:7] == ["Num", "Pl", "Name", "Rank", "Co", "Club", "R1"]
    plain = run_cli("standings", "--db", db)
    assert "withdrawn: p0003 Chen Li from round 2" in plain.out
    titled = html.fromstring(run_cli("standings", "--db", db, "-f", "html").out.encode())
    assert titled.findtext(".//title") == "Spring Cup · standings after round 1 of 3"


def test_crosstable_legend_handicaps_and_html(db: Path) -> None:
    data = json.loads(run_cli("crosstable", "--db", db, "--json").out)
    cells = {row["name"]: row["cells"] for row in data["rows"]}
    assert cells["Dias Rui"][0].endswith("b+h4") and cells["Eko Sam"] == ["U"]
    assert data["legend"]["U"] == "pairing-allocated bye"
    page = html.fromstring(run_cli("crosstable", "--db", db, "-f", "html").out.encode())
    assert page.findtext(".//title").startswith("Spring Cup · crosstable after round 1")
    assert "pairing-allocated bye" in page.text_content()


def test_standings_list_every_player_before_round_1_and_a_late_arrival(tmp_path: Path) -> None:
    path = tmp_path / "late.db"
    commands.new(path, "Late Cup", 3)
    for surname, rank in [("Ali", "3d"), ("Berg", "1k"), ("Chen", "5k")]:
        commands.register(path, surname, "", rank)
    before = json.loads(run_cli("standings", "--db", path, "--json").out)
    assert [r["surname"] for r in before["rows"]] == ["Ali", "Berg", "Chen"]
    commands.pair(path, 1, "Ali", "Berg")
    commands.register(path, "Late", "Arrival", "2k")
    after = json.loads(run_cli("standings", "--db", path, "--json").out)
    assert "Late" in [r["surname"] for r in after["rows"]]


def test_unregister_removes_a_mistaken_entry_everywhere(db: Path) -> None:
    commands.register(db, "Oops", "Typo", "20k")
    got = run_cli("unregister", "--db", db, "Oops", "--reason", "typed twice", "--json")
    assert got.code == 0, got.err
    event = json.loads(got.out)["events"][0]
    assert event["type"] == "PlayerUnregistered" and event["payload"]["player_id"] == "p0006"
    for argv in (["players"], ["standings"], ["wall-list"], ["crosstable"]):
        assert "Oops" not in run_cli(*argv, "--db", db).out, argv
    assert "PlayerUnregistered     player_id=p0006 reason=typed twice" in run_cli("log", "--db", db).out
    again = run_cli("register", "--db", db, "--surname", "Fox", "--rank", "9k")
    assert "registered p0007 Fox" in again.out  # the cancelled id is never given again


@pytest.mark.parametrize(("who", "message"), [
    ("Ali", "p0001 Ali Veli has a game in round 1; a player who played withdraws instead"),
    ("Eko", "p0005 Eko Sam has the bye of round 1; remove it (unbye) or withdraw him instead"),
    ("Nobody", "no player matches 'Nobody'"),
])
def test_unregister_refusals_write_nothing(db: Path, who: str, message: str) -> None:
    before = head(db)
    refused = run_cli("unregister", "--db", db, who)
    assert refused.code == 1 and message in refused.err, refused
    assert head(db) == before


def test_egf_explains_a_withdrawal_from_round_1(tmp_path: Path) -> None:
    path = tmp_path / "egf.db"
    commands.new(path, "EGF Cup", 3, policy="egf")
    for surname, rank in [("Ali", "3d"), ("Berg", "1k"), ("Chen", "5k"), ("Mistake", "2d")]:
        commands.register(path, surname, "", rank)
    commands.withdraw(path, "Mistake", 1)
    commands.pair(path, 1, "Ali", "Berg")
    commands.bye(path, "Chen", 1)
    got = run_cli("explain", "--db", path, "Mistake")
    assert got.code == 0, got.err
    assert ("Withdrawn: withdrawn from round 1: under policy egf each round from the withdrawal on counts as an "
            "announced absence: ½ point in NBW and ½ in MMS (the policy's value), the total rounded down; this is "
            "the EGF's rule") in got.out
    assert "setting withdrawn" in got.out
    assert json.loads(run_cli("explain", "--db", path, "Mistake", "--json").out)["withdrawal"].startswith(
        "withdrawn from round 1: under policy egf")


def test_report_and_standings_pages_carry_the_name_and_print_css(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    assert run_cli("report", "--db", db, "--html", out).code == 0
    page = html.fromstring(out.read_bytes())
    assert page.findtext(".//title") == "Audit report: Spring Cup" and "@media print" in page.findtext(".//style")
    standings_page = html.fromstring(run_cli("standings", "--db", db, "-f", "html").out.encode())
    assert "@media print" in standings_page.findtext(".//style")
