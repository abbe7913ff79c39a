"""Result words in a real headless Chromium at a Turkish desk (issue 40, item 4): the volunteer
types ``1 b`` meaning *beyaz* (white) and is refused with the Turkish words, types ``1 beyaz``
and reads the winner's name in Turkish; a bare ``2 0`` is refused; nothing else is recorded.
Skipped without Chromium or Playwright, as ``tests/web/test_web_e2e.py``."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from goledger import commands
from goledger.replay.views import state_as_of

from .test_web_e2e import ARGS, CHROMIUM, Server, login, press  # skips without Chromium or Playwright


@pytest.fixture
def turkish(tmp_path: Path) -> Path:
    db = tmp_path / "desk.db"
    commands.new(db, "Ankara Açık", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    for surname, first, rank in (("Yılmaz", "Ece", "2d"), ("Altan", "Kuntay", "1k"), ("Demir", "Can", "4k"),
                                 ("Kaya", "Ada", "5k")):
        commands.register(db, surname, first, rank)
    commands.pair(db, 1, "p0001", "p0002", 1)
    commands.pair(db, 1, "p0003", "p0004", 2)
    return db


def test_a_turkish_volunteer_types_b_for_beyaz(turkish: Path) -> None:
    with Server(turkish) as server:
        asyncio.run(_volunteer(server))
    games = state_as_of(turkish).games[1]
    assert games[1].result.value == "white" and games[2].result.value == "unknown"


async def _volunteer(server: Server) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900}, locale="tr-TR")
        await login(page, server, "gönüllü")
        await page.goto(f"{server.url}/desk/round/1/results")
        await page.wait_for_function("() => window.htmx !== undefined")
        assert await page.get_attribute("html", "lang") == "tr"
        assert await page.inner_text("#hint-white") == "12 beyaz"
        await page.focus("#entry-input")
        refused = await press(page, "Enter", "1 b")
        assert refused.startswith("'b' kabul edilmez: Türkçe dilinde beyaz olarak okunur"), refused
        assert "beyaz, siyah, berabere yazın" in refused
        await page.fill("#entry-input", "")
        await page.focus("#entry-input")
        zero = await press(page, "Enter", "2 0")
        assert zero == ("'0' kabul edilmez: siyahın galibiyeti (0-1) ya da berabere (jigo) anlamına gelebilir; "
                        "beyaz, siyah, berabere yazın (ya da 1-0, 0-1, =)"), zero
        await page.fill("#entry-input", "")
        await page.focus("#entry-input")
        done = await press(page, "Enter", "1 beyaz")
        assert done == "1. tur 1. masa: Yılmaz Ece (beyaz) kazandı", done
        await browser.close()
