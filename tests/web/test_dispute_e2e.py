"""A disputed standing answered in two clicks (issue 42's done-when), in a real headless
Chromium: a fresh ledger through the desk — 40 players registered, 4 rounds paired and played,
one player withdrawn before round 3 — then, from an opponent's public page, one click to his
timeline and one to the what-if of the withdrawal, with the values that changed; the dispute
sheet printed to PDF by Chromium is one A4 page in Turkish and in Hungarian, for this 4-round
tournament and for EGC 2011 (10 rounds, 760 players; skipped without ``../shared``).
Skipped without Chromium or Playwright, like :mod:`tests.web.test_web_e2e` (whose server it uses)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from .test_web_e2e import ARGS, CHROMIUM, HAS_ENGINE, RANKS, SURNAMES, Server, click, enter_results, login

pytest.importorskip("playwright.async_api")
from playwright.async_api import Browser, async_playwright

from goledger import commands
from goledger.audit.timeline import timeline
from goledger.formats.opengotha import import_opengotha
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger

from ..conftest import SHARED

EGC = "opengotha/lucvannier_opengotha__egc2011.xml"


def pdf_pages(data: bytes) -> int:
    """The pages of a PDF Chromium printed: its page objects (Skia writes them uncompressed)."""
    pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))
    assert pages, "no page object found: not a PDF Chromium wrote?"
    return pages


async def printed_pages(browser: Browser, url: str) -> tuple[int, str]:
    """The pages of ``url`` printed to PDF on A4, and the page's language."""
    page = await browser.new_page()
    await page.goto(url)
    lang = await page.get_attribute("html", "lang") or ""
    data = await page.pdf(format="A4", prefer_css_page_size=True)
    await page.close()
    return pdf_pages(data), lang


def test_two_clicks_from_a_public_page_to_the_what_if_of_a_withdrawal(tmp_path: Path) -> None:
    if not HAS_ENGINE:
        pytest.skip("the pairing engine is not installed")
    with Server(tmp_path / "desk.db") as server:
        asyncio.run(_dispute(server))


async def _dispute(server: Server) -> None:
    db = server.db
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await login(page, server, "desk-a")
        await page.fill("#new-form input[name=name]", "İtiraz Açık")
        await page.fill("#new-form input[name=rounds]", "4")
        await click(page, "#new-form button")
        lines = [f"{s}|Player{i}|{RANKS[i % len(RANKS)]}|{['TR', 'HU', 'DE', 'FR'][i % 4]}|Club {i % 7}"
                 for i, s in enumerate(SURNAMES)]
        await page.fill("#bulk-list", "\n".join(lines))
        await click(page, "#bulk-form button")
        assert "registered 40 players" in await page.inner_text("#message")
        withdrawn = "p0008"
        for round_ in range(1, 5):
            if round_ == 3:  # the withdrawal, through the players page, before round 3 is paired
                await page.goto(server.url + "/desk/players")
                await page.fill("#player-form input[name=player]", withdrawn)
                await page.select_option("#player-form select[name=what]", "withdraw")
                await page.fill("#player-form input[name=round]", "3")
                await page.fill("#player-form input[name=reason]", "had to leave")
                await click(page, "#player-form button")
                assert "withdr" in (await page.inner_text("#message")).lower()
            await page.goto(f"{server.url}/desk/round/{round_}")
            await click(page, "#pair-round-form button")
            tables = [g["table"] for g in server.get_json(f"/api/pairings?round={round_}")["games"]]
            await enter_results(page, server, round_, [f"{t} {['w', 'b', 'w'][t % 3]}" for t in tables])

        with Ledger.open(db) as ledger:
            events = ledger.events()
        seq = next(s for s, e in enumerate(events, start=1) if isinstance(e, ev.PlayerWithdrew))
        opponents = [g for s, g in enumerate(events, start=1) if isinstance(g, ev.GamePaired) and s < seq
                     and withdrawn in (g.white, g.black)]
        movers = [p for p in (g.black if g.white == withdrawn else g.white for g in opponents)
                  if timeline(db, p).entry(seq) is not None]
        assert movers, "the withdrawal moved none of his opponents"
        pid = movers[0]

        # a player, not logged in: his public page → his timeline → the what-if of the withdrawal
        public = await (await browser.new_context()).new_page()
        await public.goto(f"{server.url}/player/{pid}")
        async with public.expect_navigation():
            await public.click("#timeline-link")  # click 1
        entry = public.locator(f"#entry-{seq}")
        assert "had withdrawn" in await entry.inner_text()
        assert await public.locator("#timeline-json").is_hidden()  # raw JSON behind a closed toggle
        async with public.expect_navigation():
            await entry.locator("a.what-if").click()  # click 2
        assert public.url.endswith(f"/player/{pid}/what-if/{seq}")
        assert "withdrew from round 3" in await public.inner_text("#event")
        assert "MMS" in await public.inner_text("#rule")
        assert await public.locator("#what-if td.changed").count() > 0  # the values that moved, not only places
        assert await public.locator("#what-if tr.mark").count() == 1  # his own row, marked
        assert await public.locator("#what-if-json").is_hidden()
        sheet = await public.get_attribute("#sheet-link", "href")
        assert sheet == f"/print/dispute-sheet/{pid}/{seq}"

        for lang in ("tr", "hu"):
            pages, shown = await printed_pages(browser, f"{server.url}{sheet}?lang={lang}")
            assert (pages, shown) == (1, lang)
        await browser.close()


@pytest.mark.skipif(SHARED is None, reason="../shared is not present")
def test_the_dispute_sheet_of_a_ten_round_congress_prints_on_one_page(tmp_path: Path) -> None:
    assert SHARED is not None
    db = tmp_path / "egc.db"
    import_opengotha(SHARED / "realdata" / EGC, db)
    with Ledger.open(db) as ledger:
        game = next(e for e in ledger.events() if isinstance(e, ev.GamePaired) and (e.round, e.table) == (3, 1))
    commands.correct(db, 3, 1, "black", "the slip was misread", actor="referee")
    line = timeline(db, game.white)
    assert [e.type for e in line.entries] == ["ResultCorrected"], "his own result, corrected, moved him"
    assert len(line.rounds) == 10
    with Server(db) as server:
        asyncio.run(_congress(server, f"/print/dispute-sheet/{game.white}/{line.entries[0].seq}"))


async def _congress(server: Server, sheet: str) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for lang in ("tr", "hu"):
            pages, shown = await printed_pages(browser, f"{server.url}{sheet}?lang={lang}")
            assert (pages, shown) == (1, lang)
        await browser.close()
