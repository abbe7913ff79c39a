"""The tournament's language through the doors a director and a player use (issue 33, "Done
when"): ``goledger new --language``, ``change-rules language=``, ``--language`` on the
printouts, collation in ``goledger players``, and the players' view by ``Accept-Language``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ..conftest import run_cli
from ..test_translations import english_left

NAMES = [("Dag", "Eren", "1d"), ("Cem", "Veli", "2k"), ("Çelebi", "Can", "1k"), ("Celik", "Ali", "3k")]

WORDS = {"tr": ("Tur", "sıralama"), "hu": ("forduló", "sorrend"), "fr": ("ronde", "classement"),
         "de": ("Runde", "Rangliste"), "en": ("round", "standings")}


def _ledger(folder: Path, language: str, names=NAMES) -> Path:
    db = folder / f"{language}.db"
    assert run_cli("new", "--name", "Kupa", "--rounds", "3", "--language", language, "--db", db).code == 0
    for surname, first, rank in names:
        assert run_cli("register", "--surname", surname, "--first-name", first, "--rank", rank, "--db", db).code == 0
    return db


@pytest.fixture(scope="module")
def paired(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("lang")
    db = _ledger(folder, "tr")
    assert run_cli("pair-round", "1", "--db", db).code == 0
    return db


@pytest.mark.parametrize("language", ["tr", "hu", "fr", "de", "en"])
def test_wall_list_in_the_tournaments_language(paired: Path, tmp_path: Path, language: str) -> None:
    db = tmp_path / "t.db"
    db.write_bytes(paired.read_bytes())
    if language != "tr":
        assert run_cli("change-rules", f"language={language}", "--db", db).code == 0
    page = run_cli("wall-list", "--format", "html", "--db", db)
    assert page.code == 0, page.err
    assert f'<html lang="{language}">' in page.out
    heading, word = WORDS[language]
    assert heading in page.out and word in page.out
    if language == "tr":
        assert re.search(r"<th>1\.Tur</th>", page.out)
    if language == "hu":
        assert "forduló utáni sorrend" in page.out


def test_no_english_on_a_turkish_wall_list(paired: Path) -> None:
    from goledger.i18n.catalogs import extract

    page = run_cli("wall-list", "--format", "html", "--db", paired)
    assert english_left(page.out, "tr", extract()) == []
    english = run_cli("wall-list", "--format", "html", "--language", "en", "--db", paired)
    assert english_left(english.out, "tr", extract())  # the check sees English when it is there


def test_settings_show_the_language(paired: Path) -> None:
    out = run_cli("settings", "--json", "--db", paired)
    assert out.code == 0
    assert "language" in out.out and '"tr"' in out.out


def test_players_in_each_alphabet(tmp_path: Path) -> None:
    db = _ledger(tmp_path, "tr")

    def order(language: str) -> list[str]:
        out = run_cli("players", "--language", language, "--db", db)
        assert out.code == 0, out.err
        return [line.split()[1] for line in out.out.splitlines()[4:]]

    assert order("tr") == ["Celik", "Cem", "Çelebi", "Dag"]
    assert order("en") == ["Çelebi", "Celik", "Cem", "Dag"]
    assert order("de") == ["Çelebi", "Celik", "Cem", "Dag"]
    data = json.loads(run_cli("players", "--json", "--db", db).out)
    assert [p["surname"] for p in data["players"]] == ["Çelebi", "Celik", "Cem", "Dag"]  # JSON: English


def test_hungarian_digraphs_in_the_player_list(tmp_path: Path) -> None:
    db = _ledger(tmp_path, "hu", [("Csanyi", "Béla", "4k"), ("Cukor", "Imre", "5k"), ("Szabó", "Ádám", "1d"),
                                  ("Sütő", "Éva", "2k")])
    out = run_cli("players", "--db", db)
    surnames = [line.split()[1] for line in out.out.splitlines()[4:]]
    assert surnames == ["Cukor", "Csanyi", "Sütő", "Szabó"]
    assert "nevezett játékos" in out.out


def test_an_unknown_language_is_a_usage_error(paired: Path) -> None:
    out = run_cli("players", "--language", "xx", "--db", paired)
    assert out.code == 2 and "en, tr, hu, fr, de" in out.err
    assert run_cli("new", "--name", "X", "--rounds", "1", "--language", "xx", "--db", paired.parent / "x.db").code == 1


def test_players_view_follows_accept_language(paired: Path) -> None:
    from starlette.testclient import TestClient

    from goledger.web.app import create_app

    client = TestClient(create_app(paired, "token"))
    hungarian = client.get("/", headers={"Accept-Language": "hu-HU,hu;q=0.9,en;q=0.5"})
    assert hungarian.status_code == 200
    assert '<html lang="hu">' in hungarian.text and "1. forduló" in hungarian.text and "Fehér" in hungarian.text
    french = client.get("/", headers={"Accept-Language": "fr"})
    assert '<html lang="fr">' in french.text and "Blanc" in french.text  # the page cache keeps languages apart
    fallback = client.get("/standings", headers={"Accept-Language": "ja"})
    assert '<html lang="tr">' in fallback.text and "sıralama" in fallback.text  # the tournament's language
    switched = client.get("/standings?lang=de", headers={"Accept-Language": "hu"})
    assert '<html lang="de">' in switched.text and "Rangliste" in switched.text
    assert "goledger_lang=de" in switched.headers.get("set-cookie", "")
    kept = client.get("/", headers={"Accept-Language": "hu"})  # the switcher's choice is remembered
    assert '<html lang="de">' in kept.text


def test_audit_report_and_standings_in_turkish(paired: Path, tmp_path: Path) -> None:
    from goledger.i18n.catalogs import extract

    target = tmp_path / "rapor.html"
    assert run_cli("report", "--html", target, "--db", paired).code == 0
    page = target.read_text(encoding="utf-8")
    assert '<html lang="tr">' in page and "Denetim raporu: Kupa" in page and "Hash (özet) zinciri" in page
    # the event log's "what" column is the ledger's own one-line description of each event (English, as
    # the CLI's messages are); everything above it is Turkish
    left = english_left(page.split('<section id="log">')[0], "tr", extract())
    assert left == [], left
    standings = run_cli("standings", "--format", "html", "--db", paired)
    assert '<html lang="tr">' in standings.out and "1. tur sonrası sıralama" in standings.out
    german = run_cli("crosstable", "--format", "html", "--language", "de", "--db", paired)
    assert '<html lang="de">' in german.out and "Fortschrittstabelle nach Runde 1" in german.out


def test_explain_in_hungarian(paired: Path) -> None:
    """The explanation a player is shown: the frame, the terms and the rules in his language."""
    from html import escape

    from goledger.i18n.catalogs import extract

    first = json.loads(run_cli("players", "--json", "--db", paired).out)["players"][0]["player_id"]
    out = run_cli("explain", first, "--language", "hu", "--db", paired)
    assert out.code == 0, out.err
    assert "1. forduló után" in out.out and "kezdőpontszám" in out.out and "szabályrendszer" in out.out
    assert english_left(f"<p>{escape(out.out)}</p>", "hu", extract()) == []
    english = run_cli("explain", first, "--json", "--db", paired)  # JSON stays English
    assert "start score" in english.out


def test_a_hungarian_tournament_made_at_the_desk(tmp_path: Path) -> None:
    """The director chooses the language on the desk's new-tournament form; the desk's pages,
    whose language is the tournament's, are then Hungarian, and the switcher changes them."""
    from ..web.test_web import Desk

    db = tmp_path / "verseny.db"
    desk = Desk(db)
    form = desk.page("/desk/new").text
    assert 'name="language"' in form and "Magyar" in form
    r = desk.client.post("/desk/new", data={"csrf": desk.csrf, "name": "Kupa", "rounds": "3", "language": "hu"},
                         follow_redirects=False)
    assert r.status_code == 303, r.text
    assert run_cli("settings", "--json", "--db", db).out.count('"hu"') >= 1
    page = desk.page("/desk").text
    assert '<html lang="hu">' in page and "Fordulók" in page and "Versenyiroda" in page
    german = desk.page("/desk?lang=de").text
    assert '<html lang="de">' in german and "Runden" in german
