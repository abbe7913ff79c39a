"""Numbers and dates in the reader's locale (issue 44, item 3).

A Turkish and a Hungarian McMahon with round 1 played: the rating preview page (``goledger
rating-preview --format html``) writes ratings and changes with the language's decimal comma
(``+15,123``, ``2638,000``: a Turkish reader takes ``2638.000`` for two million), and komi is
written the same way on the slips, the pairings by name, the desk's find card (HTTP on a
running ``goledger serve``) and the game page; a rating list's date is the language's numeric
date (Turkish ``22.02.2019``). The expected forms are derived from the English page and
Babel's CLDR data, never written out per case."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from urllib.parse import quote

import pytest

from goledger import commands as rec

from ..conftest import run_cli
from ..desk_server import TOKEN, DeskServer
from ..systems_support import pair_next

NAMES = [("Zeki", "Ali", "2d"), ("Kıyak", "Can", "1k"), ("Çoban", "Eda", "3k"), ("Akçin", "Ece", "1k"),
         ("Ağar", "Mert", "5k"), ("Sarı", "Ece", "4k")]
DECIMAL_COMMA = {"tr": ",", "hu": ","}


def separator(language: str) -> str:
    """The language's decimal separator, from CLDR (both are a comma)."""
    from babel.numbers import get_decimal_symbol

    symbol = get_decimal_symbol(language)
    assert symbol == DECIMAL_COMMA[language]
    return str(symbol)


@pytest.fixture(scope="module")
def ledgers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("numbers")
    built = {}
    for language in ("tr", "hu"):
        db = folder / f"{language}.db"
        rec.new(db, "Kupa", 3, "mcmahon", language=language)
        for surname, first, rank in NAMES:
            rec.register(db, surname, first, rank)
        pairing = pair_next(db, 1)
        for i, g in enumerate(pairing.games):
            rec.result(db, 1, g.table, ("white", "black")[i % 2])
        built[language] = db
    return built


def numeric_cells(html: str) -> list[str]:
    return [unescape(c) for c in re.findall(r'<td class="num">([^<]*)</td>', html)]


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_the_rating_preview_writes_the_decimal_comma(ledgers: dict[str, Path], language: str) -> None:
    db = ledgers[language]
    english = run_cli("rating-preview", "--db", db, "--class", "A", "--format", "html", "--language", "en")
    local = run_cli("rating-preview", "--db", db, "--class", "A", "--format", "html", "--language", language)
    assert english.code == 0 and local.code == 0, (english.err, local.err)
    shown, source = numeric_cells(local.out), numeric_cells(english.out)
    assert any(re.fullmatch(r"\+[1-9][0-9]*\.[0-9]{3}", c) for c in source)  # a real change, with its sign
    assert shown == [c.replace(".", separator(language)) for c in source]
    assert not any(re.search(r"[0-9]\.[0-9]", c) for c in shown)  # no 2638.000 read as two million
    assert any(re.fullmatch(rf"\+[0-9]+{separator(language)}[0-9]{{3}}", c) for c in shown)


def komi_forms(language: str, komi: str) -> str:
    return komi.replace(".", separator(language))


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_komi_reads_the_same_on_the_slips_the_list_by_name_the_find_card_and_the_game_page(
        ledgers: dict[str, Path], language: str) -> None:
    db = ledgers[language]
    games = json.loads(run_cli("pairings", "--db", db, "--round", "1", "--json").out)["tables"]
    komis = {g["komi"] for g in games}
    assert len(komis) == 2 and all("." in k for k in komis)  # 7.5 and 0.5 (a handicap game)
    written = {komi_forms(language, k) for k in komis}
    slips = run_cli("slips", "--db", db, "--round", "1", "--format", "html")
    assert slips.code == 0, slips.err
    on_slips = re.findall(r"Komi <b>([^<]*)</b>", slips.out)
    assert sorted(on_slips) == sorted(komi_forms(language, g["komi"]) for g in games)
    by_name = run_cli("pairings", "--db", db, "--round", "1", "--by", "name", "--format", "html")
    assert by_name.code == 0, by_name.err
    cells = set(re.findall(r"<td[^>]*>([^<]*)</td>", by_name.out))
    assert written <= cells and not komis & cells
    with DeskServer(db) as desk:
        for g in games:
            surname = g["white"].split()[0]
            status, card, _ = desk.get(f"/find?q={quote(surname)}&lang={language}")
            assert status == 200
            assert re.findall(r'<dd class="komi">([^<]*)</dd>', card) == [komi_forms(language, g["komi"])]
            status, page, _ = desk.get(f"/desk/round/1/game?table={g['table']}&lang={language}",
                                       headers={"Authorization": f"Bearer {TOKEN}"})
            assert status == 200, page
            assert f" {komi_forms(language, g['komi'])}" in page and f" {g['komi']} " not in page


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_a_rating_lists_date_is_the_languages_numeric_date(tmp_path: Path, language: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import datetime

    from babel.dates import format_date

    from ..ratings_support import write_list

    env = {"GOLEDGER_RATINGS": str(tmp_path / "ratings.db")}
    imported = run_cli("ratings", "import", write_list(tmp_path / "list.txt"), "--json", env=env)
    assert imported.code == 0, imported.err
    iso = json.loads(imported.out)["date"]
    day = datetime.date.fromisoformat(iso)
    # CLDR's numeric date, its year written whole: Turkish 17.02.2019, Hungarian 2019. 02. 17.
    short = format_date(day, "short", locale=language)
    numeric = short if str(day.year) in short else short.replace(f"{day:%y}", f"{day:%Y}", 1)
    assert str(day.year) in numeric and numeric != iso
    db = tmp_path / "t.db"
    rec.new(db, "Kupa", 3, "mcmahon", language=language)
    assert run_cli("register", "--egd-pin", "13701534", "--db", db, env=env).code == 0
    players = run_cli("players", "--db", db, "--format", "html")  # the printout: his rank from the list of …
    assert players.code == 0, players.err
    assert f"egd {numeric}" in unescape(players.out) and iso not in players.out
    monkeypatch.setenv("GOLEDGER_RATINGS", env["GOLEDGER_RATINGS"])
    with DeskServer(db) as desk:
        director = {"Authorization": f"Bearer {TOKEN}"}
        status, log, _ = desk.get(f"/desk/log?lang={language}", headers=director)  # where the fields came from
        assert status == 200, log
        assert numeric in unescape(log) and iso not in log
        status, english, _ = desk.get("/desk/log?lang=en", headers=director)
        assert status == 200 and iso in english  # English, the CLI's language, keeps ISO
        status, page, _ = desk.get(f"/desk/ratings/search?q=celebican&lang={language}", headers=director)
        assert status == 200, page
        assert numeric in unescape(page) and iso not in page
        status, check, _ = desk.get(f"/desk/egd-check?lang={language}", headers=director)  # "… EGD list of <date>"
        assert status == 200, check
        summary = re.search(r'<p id="egd-check-summary">(.*?)</p>', check)
        assert summary is not None and numeric in unescape(summary[1]) and iso not in summary[1], check
        status, registration, _ = desk.get(f"/desk/players?lang={language}", headers=director)  # the list's summary
        assert status == 200, registration
        assert numeric in unescape(registration) and iso not in registration


@pytest.mark.parametrize("language", ["tr", "hu"])
def test_a_players_timeline_says_when_in_the_languages_date_and_time(ledgers: dict[str, Path], language: str,
                                                                    tmp_path: Path) -> None:
    import datetime
    import shutil

    from babel.dates import format_datetime

    from goledger.commands.results import correct

    db = tmp_path / "corrected.db"
    shutil.copy(ledgers[language], db)
    games = json.loads(run_cli("pairings", "--db", db, "--round", "1", "--json").out)["tables"]
    correct(db, 1, games[0]["table"], "black", "slip misread", actor="desk-A")  # an event that moves his place
    log = json.loads(run_cli("log", "--db", db, "--json").out)
    at = datetime.datetime.fromisoformat(log[-1]["recorded_at"].replace("Z", "+00:00"))
    written = format_datetime(at.replace(tzinfo=None, microsecond=0), "medium", locale=language)
    pid = games[0]["white_id"]
    director = {"Authorization": f"Bearer {TOKEN}"}
    with DeskServer(db) as desk:
        status, page, _ = desk.get(f"/player/{pid}/timeline?lang={language}", headers=director)  # who and when
        log_status, log_page, _ = desk.get(f"/desk/log?lang={language}", headers=director)  # the log's "when"
    assert status == 200, page
    text = unescape(page)
    assert written in text
    assert not re.search(r"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:", text)  # the ISO form the page wrote before
    assert log_status == 200 and written in unescape(log_page), log_page
    assert not re.search(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:", log_page)  # the review: "2026-12-05T12:32:22"
    report = tmp_path / "report.html"  # the audit report's "first / last event" (the review: left as ISO)
    assert run_cli("report", "--db", db, "--html", str(report)).code == 0
    from goledger.i18n import gettext, use_language

    with use_language(language):
        label = gettext("First / last event")
    first_last = re.search(f"<th>{re.escape(label)}</th><td>([^<]*)</td>", unescape(report.read_text(encoding="utf-8")))
    assert first_last is not None and written in first_last[1] and "T" not in first_last[1], first_last
    # (the report's event log keeps each record's stored timestamp, headed "(UTC)": the evidence as written)
