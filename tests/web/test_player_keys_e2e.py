"""A player's phone in a real headless Chromium (issue 46): 390×844, the link read off his
welcome sheet, his page in his browser's language (English, Turkish, Hungarian), one tap to
check in, one to announce his absence; the desk's round page then shows who checked in.
Skipped without Chromium or Playwright, like :mod:`tests.web.test_web_e2e` (whose server it uses)."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from goledger import commands

from ..conftest import run_cli
from .test_web_e2e import ARGS, CHROMIUM, Server, login

pytest.importorskip("playwright.async_api")
from playwright.async_api import async_playwright

PHONES = {  # browser locale → (what his page says, the button, the thanks)
    "en-GB": ("You have not checked in for round 1 yet.", "I will play round 1",
              "Thank you: you are checked in for round 1."),
    "tr-TR": ("1. tur için henüz katılımınızı bildirmediniz.", "1. turda oynayacağım",
              "Teşekkürler: 1. tur için katılımınız kaydedildi."),
    "hu-HU": ("Még nem jelentkezett az 1. fordulóra.", "Játszom az 1. fordulóban",
              "Köszönjük: jelentkezését az 1. fordulóra rögzítettük."),
}


def test_players_check_in_from_their_phones_in_three_languages(tmp_path: Path) -> None:
    db = tmp_path / "phones.db"
    commands.new(db, "Phone Open", 3)
    for surname in ("Abe", "Ban", "Cal", "Dan"):
        commands.register(db, surname, "Jo", "3k")
    commands.change_rules(db, {"check_in": "every"})
    with Server(db) as server:
        sheet = run_cli("keys", "sheet", "--url", server.url, "--db", db)
        assert sheet.code == 0, sheet.err
        links = re.findall(r'<p class="link">([^<]+)</p>', sheet.out)
        assert len(links) == 4
        asyncio.run(_phones(server, links))
    checked = [(json.loads(r.payload)["player_id"], r.actor) for r in commands.log(db) if r.type == "CheckedIn"]
    assert checked == [("p0001", "player p0001"), ("p0002", "player p0002"), ("p0003", "player p0003")]
    absent = [(json.loads(r.payload)["player_id"], r.actor) for r in commands.log(db)
              if r.type == "ParticipationChanged"]
    assert absent == [("p0004", "player p0004")]


async def _phones(server: Server, links: list[str]) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for link, (locale, (waiting, button, thanks)) in zip(links, PHONES.items(), strict=False):
                context = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                                    is_mobile=True, has_touch=True, locale=locale)
                page = await context.new_page()
                await page.goto(link)
                assert await page.inner_text("#standing") == waiting
                play = page.locator("#play")
                assert await play.inner_text() == button
                box = await play.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
                assert await page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
                async with page.expect_navigation():
                    await play.tap()
                assert await page.locator("#message").count() == 1, (await page.content())[-3000:]
                assert await page.inner_text("#message") == thanks
                assert await page.get_attribute("#standing", "data-standing") == "checked in"
                assert await page.locator("#play").count() == 0 and await page.locator("#absent").count() == 1
                await context.close()
            context = await browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                                has_touch=True, locale="hu-HU")
            page = await context.new_page()
            await page.goto(links[3])
            async with page.expect_navigation():
                await page.locator("#absent").tap()
            assert await page.inner_text("#standing") == "Az 1. fordulóban hiányzóként szerepel."
            await context.close()

            desk = await browser.new_page()
            await login(desk, server, "desk-a")
            await desk.goto(server.url + "/desk/round/1?lang=en")
            section = await desk.inner_text("#check-ins")
            assert "Checked in: 3 · Absent: 1 · Not yet: 0" in section
            assert await desk.locator("#absent-unchecked").count() == 0
        finally:
            await browser.close()
