"""Players report their results from phones in a real headless Chromium (issue 46, "done
when"): 390×844 pages opened from the welcome sheet's links, in English, Turkish and Hungarian;
two players report the same result, which the desk approves in one click; a conflicting pair
shows in the desk's "to check" list. Skipped without Chromium or Playwright, like
:mod:`tests.web.test_web_e2e` (whose server it uses)."""

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
from playwright.async_api import Browser, async_playwright

PHONES = [  # (player's link index, browser locale, the button's words, the thanks)
    (0, "en-GB", "I won", "Thank you: your report is recorded."),
    (1, "tr-TR", "Kaybettim", "Teşekkürler: bildiriminiz kaydedildi."),
    (2, "hu-HU", "Nyertem", "Köszönjük: a bejelentését rögzítettük."),
    (3, "en-GB", "I won", "Thank you: your report is recorded."),
]
"""Abe (white, table 1) won and Ban agrees; Cal and Dan (table 2) both say they won."""


def test_players_report_from_their_phones_and_the_desk_approves_in_one_click(tmp_path: Path) -> None:
    db = tmp_path / "reports.db"
    commands.new(db, "Report Open", 3)
    for surname in ("Abe", "Ban", "Cal", "Dan"):
        commands.register(db, surname, "Jo", "3k")
    commands.pair(db, 1, "p0001", "p0002", table=1)
    commands.pair(db, 1, "p0003", "p0004", table=2)
    with Server(db) as server:
        sheet = run_cli("keys", "sheet", "--url", server.url, "--db", db)
        assert sheet.code == 0, sheet.err
        links = re.findall(r'<p class="link">([^<]+)</p>', sheet.out)
        assert len(links) == 4
        asyncio.run(_day(server, links))
    results = [(json.loads(r.payload)["table"], json.loads(r.payload)["result"], r.actor) for r in commands.log(db)
               if r.type == "ResultRecorded"]
    assert results == [(1, "white", "players p0001 p0002 (approved by desk desk-a)")]


async def _phone(browser: Browser, link: str, locale: str, button: str, thanks: str) -> None:
    context = await browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                        is_mobile=True, has_touch=True, locale=locale)
    page = await context.new_page()
    await page.goto(link)
    async with page.expect_navigation():
        await page.locator("#report-result").tap()
    tap = page.get_by_role("button", name=button, exact=True)
    box = await tap.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling"
    async with page.expect_navigation():
        await tap.tap()
    assert await page.inner_text("#message") == thanks, (await page.content())[-2000:]
    await context.close()


async def _day(server: Server, links: list[str]) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for index, locale, button, thanks in PHONES:
                await _phone(browser, links[index], locale, button, thanks)
            desk = await browser.new_page()
            await login(desk, server, "desk-a")
            for lang, waiting, disagree in (("tr", "Uyuşanların hepsini onayla (1)", "Kontrol edilecek"),
                                            ("hu", "Minden egyezőt jóváhagy (1)", "Ellenőrizendő"),
                                            ("en", "Approve all agreeing (1)", "To check: the reports disagree")):
                await desk.goto(f"{server.url}/desk/reports/1?lang={lang}")
                assert await desk.get_attribute("#report-1", "data-status") == "agree"
                assert await desk.get_attribute("#report-2", "data-status") == "disagree"
                assert disagree in await desk.inner_text("#reports-disagree")
                assert await desk.inner_text("#approve-all button") == waiting
            async with desk.expect_navigation():
                await desk.locator("#approve-all button").click()
            assert await desk.get_attribute("#report-1", "data-status") == "recorded"
            assert await desk.get_attribute("#report-2", "data-status") == "disagree"
            assert await desk.locator("#approve-all").count() == 0
        finally:
            await browser.close()
