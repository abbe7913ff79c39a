"""The desk's "Pair round R" in a real browser (issues 40 and 43.4): the engine is chosen
in the pair form, a round out of order is refused with a sentence and paired by the offered
"Pair round R anyway" button, and "Pair round R" on a round that already has games asks
first, then pairs the players left."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("playwright.async_api")

from playwright.async_api import async_playwright

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state
from tests.web.test_web_e2e import ARGS, CHROMIUM, Server, click, login

RANKS = ["4d", "2d", "1k", "3k", "6k", "9k"]


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def test_pairing_rounds_from_the_browser(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.skip("no chromium")
    db = tmp_path / "desk.db"
    commands.new(db, "Six", 5, "swiss")
    for k, rank in enumerate(RANKS):
        commands.register(db, f"Player{k}", "Six", rank)
    with Server(db) as server:
        asyncio.run(_pair_rounds(server))


async def _pair_rounds(server: Server) -> None:
    db = server.db
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await login(page, server, "desk-a")
        await page.goto(f"{server.url}/desk/round/1")
        await page.select_option("#pair-engine", "egf")
        await click(page, "#pair-round-form button")
        assert "round 1 paired by egf: 3 games" in await page.inner_text("#message")
        # round 3 before round 2: refused in a sentence, then paired from the offered button
        await page.goto(f"{server.url}/desk/round/3")
        await click(page, "#pair-round-form button")
        assert "round 3 cannot be paired before round 2" in await page.inner_text("#message")
        assert not load_state(Ledger.open(db)).games_of_round(3)
        await click(page, "#pair-force")
        assert "round 3 paired by opengotha: 3 games" in await page.inner_text("#message")
        assert len(load_state(Ledger.open(db)).games_of_round(3)) == 3
        # round 3 with a table taken back: the button asks first, writes nothing, then pairs the rest
        commands.unpair(db, 3, load_state(Ledger.open(db)).games_of_round(3)[0].table)
        head = _head(db)
        await page.goto(f"{server.url}/desk/round/3")
        await click(page, "#pair-round-form button")
        assert "round 3 already has 2 games (0 played)" in await page.inner_text("#message")
        assert _head(db) == head
        await click(page, "#pair-confirm")  # confirmed: still out of order (round 2 is unpaired)
        assert "round 3 cannot be paired before round 2" in await page.inner_text("#message")
        await click(page, "#pair-force")  # keeps the confirmation
        assert "round 3 paired by opengotha: 1 games" in await page.inner_text("#message")
        assert len(load_state(Ledger.open(db)).games_of_round(3)) == 3
        await browser.close()
