"""One page per language in a real headless Chromium (issue 33, item 4): the wall list the CLI
writes in each language, and the players' view served by the desk to a browser whose locale is
Hungarian (Chromium then sends ``Accept-Language: hu``). Each page is checked as a reader sees
it: the document's language, the translated headings, no English sentence left, and the
switcher takes the reader to another language. Skips without Debian's ``/usr/bin/chromium``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ..conftest import run_cli
from ..test_translations import english_left

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
playwright_api = pytest.importorskip("playwright.async_api")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

EXPECTED = {
    "tr": ("1.Tur", "sıralama", "Açıklamalar"),
    "hu": ("1.ford.", "forduló utáni sorrend", "Jelmagyarázat"),
    "fr": ("R1", "classement après la ronde", "Légende"),
    "de": ("R1", "Rangliste nach Runde", "Legende"),
    "en": ("R1", "standings after round", "Legend"),
}


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("languages") / "kupa.db"
    steps = [["new", "--name", "Kupa", "--rounds", "3", "--language", "tr"]]
    for surname, first, rank in [("Çelebi", "Can", "2d"), ("Szabó", "Ádám", "1d"), ("Öztürk", "Ayşe", "1k"),
                                 ("Csányi", "Béla", "2k"), ("Müller", "Jörg", "3k"), ("Dubois", "Élise", "4k")]:
        steps.append(["register", "--surname", surname, "--first-name", first, "--rank", rank])
    steps += [["pair-round", "1"], ["result", "--round", "1", "--table", "1", "white"],
              ["withdraw", "Dubois", "--from-round", "2"]]
    for words in steps:
        got = run_cli(*words, "--db", db)
        assert got.code == 0, (words, got.err)
    return db


async def _open(url: str, shot: Path, locale: str | None = None) -> tuple[str, str, str]:
    async with playwright_api.async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            context = await browser.new_context(locale=locale) if locale else await browser.new_context()
            page = await context.new_page()
            await page.goto(url)
            await page.screenshot(path=str(shot), full_page=True)
            lang = await page.evaluate("document.documentElement.lang")
            return lang, await page.title(), await page.content()
        finally:
            await browser.close()


@pytest.mark.parametrize("language", list(EXPECTED))
def test_wall_list_reads_in_each_language(ledger: Path, tmp_path: Path, language: str) -> None:
    from goledger.i18n.catalogs import extract

    got = run_cli("wall-list", "--format", "html", "--language", language, "--db", ledger)
    assert got.code == 0, got.err
    page = tmp_path / f"wall-{language}.html"
    page.write_text(got.out, encoding="utf-8")
    lang, title, html = asyncio.run(_open(page.as_uri(), tmp_path / f"wall-{language}.png"))
    assert lang == language
    column, heading, legend = EXPECTED[language]
    assert heading in title and column in html and legend in html
    assert "Çelebi Can" in html and "Szabó Ádám" in html  # names as they are, in every language
    if language != "en":
        assert english_left(html, language, extract()) == []
    assert (tmp_path / f"wall-{language}.png").stat().st_size > 10_000


def test_players_view_in_a_hungarian_browser(ledger: Path, tmp_path: Path) -> None:
    from ..web.test_web_e2e import Server

    with Server(ledger) as server:
        lang, title, html = asyncio.run(_open(server.url + "/", tmp_path / "players-hu.png", locale="hu-HU"))
        assert lang == "hu"
        assert "1. forduló" in title and "Fehér" in html and "Fekete" in html and "Eredmény" in html
        lang, title, html = asyncio.run(_open(server.url + "/?lang=fr", tmp_path / "players-fr.png", locale="hu-HU"))
        assert lang == "fr" and "Ronde 1" in title  # the switcher's link wins over the browser
        lang, _, html = asyncio.run(_open(server.url + "/standings", tmp_path / "standings-ja.png", locale="ja-JP"))
        assert lang == "tr" and "sıralama" in html  # no catalog for Japanese: the tournament's language
