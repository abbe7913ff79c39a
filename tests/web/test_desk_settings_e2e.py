"""The settings form in a real headless Chromium (issue 43, item 2): a director lowers the bar
and changes a pairing parameter with the page's own inputs, reads the preview (who changes
place, the next round's pairing affected), records it, and the ledger holds the change.
Skipped without Chromium or Playwright (see ``test_web_e2e.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from goledger.replay.views import standings, state_as_of

from .test_web_e2e import ARGS, CHROMIUM, Server, async_playwright, click, head, login
from .test_web_settings_form import mcmahon_played


def test_settings_preview_then_record_in_the_browser(tmp_path: Path) -> None:
    db = mcmahon_played(tmp_path / "desk.db", "Form")
    with Server(db) as server:
        asyncio.run(_settings(server))


async def _settings(server: Server) -> None:
    db = server.db
    before = {row.player_id: row.place for row in standings(db, 1).rows}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await login(page, server, "desk-a")
        await page.goto(server.url + "/desk/settings")
        assert await page.input_value("#set-mm_bar") == "3d"
        assert "sum of the opponents' McMahon scores" in await page.inner_text("#set-criterion2")
        await page.select_option("#set-mm_bar", "5k")
        await page.select_option("#set-paiMaSeedSystem2", "SPLITANDFOLD")
        await page.fill("#set-reason", "bar lowered at the meeting")
        written = head(db)
        await click(page, "#preview-settings")
        assert head(db) == written, "the preview writes nothing"
        count = await page.inner_text("#preview-moves-count")
        moved = await page.locator("#preview-moves tbody tr").count()
        assert moved and f"{moved} players change place in the standings after round 1" in count
        assert "The pairing of round 2, not paired yet, is affected" in await page.inner_text("#preview-pairing")
        assert "SPLITANDFOLD" in await page.inner_text("#preview-parameters")
        # the form keeps what was chosen, for another try
        assert await page.input_value("#set-mm_bar") == "5k"
        await click(page, "#record-settings")
        assert "rules changed retroactively" in await page.inner_text("#message")
        assert head(db) == written + 1
        state = state_as_of(db)
        assert state.settings is not None
        assert state.settings.mm_bar == "5k" and state.settings.pairing["paiMaSeedSystem2"] == "SPLITANDFOLD"
        after = {row.player_id: row.place for row in standings(db, 1).rows}
        assert sum(before[p] != after[p] for p in before) == moved
        # back on the form: the rules in force, and a refusal is one sentence in the page
        assert await page.input_value("#set-mm_bar") == "5k"
        await page.select_option("#set-criterion2", "MMS")
        await click(page, "#preview-settings")
        assert "the criterion MMS is chosen twice" in await page.inner_text("#settings-problem")
        assert await page.locator("#record-settings").count() == 0 and head(db) == written + 1
        await browser.close()
