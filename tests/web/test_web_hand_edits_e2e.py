"""The desk's hand edits in a real headless Chromium (issue 31): pairing by hand by the
tournament's rule, a game's page (swap colours, komi, move, unpair, refused after a result
unless forced) and renumbering the round's tables — through the same commands as the CLI,
with the same refusals. Skipped without Chromium or Playwright (see ``test_web_e2e.py``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from goledger import commands
from goledger.ledger.values import Result
from goledger.replay.views import state_as_of

from .test_web_e2e import ARGS, CHROMIUM, Server, async_playwright, click, head, login

PLAYERS = [("Fischer", "Ann", "1k"), ("Smet", "Bo", "6k"), ("Abe", "Cy", "3k"), ("Dal", "Di", "3k")]


def test_hand_edits_through_the_browser(tmp_path: Path) -> None:
    db = tmp_path / "desk.db"
    commands.new(db, "Hand Open", 3, bar="4d", floor="20k")
    for surname, first, rank in PLAYERS:
        commands.register(db, surname, first, rank)
    with Server(db) as server:
        asyncio.run(_hand_edits(server))


async def _hand_edits(server: Server) -> None:
    db = server.db
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await login(page, server, "desk-a")
        await page.goto(server.url + "/desk/round/1")
        # pairing by hand applies the rule: 4 stones and komi ½, whoever is typed first
        await page.goto(server.url + "/desk/round/1/game?table=1")
        assert "round 1 is not paired yet" in await page.inner_text("main")
        await page.goto(server.url + "/desk/round/1")
        # two players picked from the lists: the game the rule makes is shown before it is recorded
        await page.select_option("#pair-white", "p0002")
        await page.select_option("#pair-black", "p0001")
        await page.select_option("#pair-colours", "rule")
        await click(page, "#pair-show")
        assert "Fischer Ann (White) – Smet Bo (Black), handicap 4, komi 0.5" in await page.inner_text("#pair-game")
        await click(page, "#pair-record-button")
        assert "Fischer Ann (W) – Smet Bo (B), handicap 4, komi 0.5" in await page.inner_text("#message")
        # the game is shown as soon as both are picked, without a click (htmx: the page's own preview)
        await page.select_option("#pair-colours", "picked")  # colours as picked, the handicap and komi by the rule
        await page.select_option("#pair-white", "p0004")
        assert await page.locator("#pair-game").count() == 0
        await page.select_option("#pair-black", "p0003")
        await page.wait_for_selector("#pair-game:has-text('Table 2: Dal Di (White) – Abe Cy (Black)')")
        await click(page, "#pair-record-button")
        assert "round 1 table 2: Dal Di (W) – Abe Cy (B)" in await page.inner_text("#message")

        # a game's page: swap the colours and set the komi (two events)
        await page.fill("#open-game-table", "2")
        await click(page, "#open-game")
        assert "Dal Di" in await page.inner_text("#game")
        await page.check("#swap-colours")
        await page.fill("#edit-komi", "6.5")
        await click(page, "#edit-game")
        assert "colours swapped; komi 6.5" in await page.inner_text("#message")
        game = state_as_of(db).games[1][2]
        assert (game.white, game.komi) == ("p0003", "6.5")

        # after a result: refused, nothing written; forced: the result stays with the winner
        commands.result(db, 1, 2, "white")
        before = head(db)
        await page.goto(server.url + "/desk/round/1/game?table=2")
        await page.check("#swap-colours")
        await click(page, "#edit-game")
        assert "already has a result (white); tick “Even with a result”" in await page.inner_text("#message")
        assert "Nothing was written" in await page.inner_text("main") and head(db) == before
        await page.goto(server.url + "/desk/round/1/game?table=2")
        await page.check("#swap-colours")
        await page.check("#edit-force")
        await click(page, "#edit-game")
        assert "forced" in await page.inner_text("#message")
        game = state_as_of(db).games[1][2]
        assert (game.black, game.result) == ("p0003", Result.BLACK)

        # move table 1 to table 5, then renumber the round from table 25
        await page.goto(server.url + "/desk/round/1/game?table=1")
        await page.fill("#move-to", "5")
        await click(page, "#edit-game")
        assert "moved to table 5" in await page.inner_text("#message")
        await page.fill("#renumber-start", "25")
        await click(page, "#renumber")
        assert "games change tables (best score, then rating" in await page.inner_text("#message")
        state = state_as_of(db)
        assert sorted(state.games[1]) == [25, 26] and {g.result for g in state.games[1].values()} == {
            Result.BLACK, Result.UNKNOWN}
        assert "26" in await page.inner_text("#games")
        # both games ticked in the round's table: their colours swapped in one write, by selection
        colours = {t: (g.white, g.black) for t, g in state.games[1].items()}
        written = head(db)
        await page.check("#pick-25")
        await page.check("#pick-26")
        await page.check("#games-force")  # one of them has a result
        await click(page, "#swap-selected")
        assert "colours swapped at tables 25, 26" in await page.inner_text("#message")
        state = state_as_of(db)
        assert {t: (g.black, g.white) for t, g in state.games[1].items()} == colours and head(db) == written + 2
        # one game ticked, moved to a table picked by number
        await page.check("#pick-25")
        await page.fill("#move-selected-to", "30")
        await page.check("#games-force")
        await click(page, "#move-selected")
        assert "moved to table 30" in await page.inner_text("#message")
        state = state_as_of(db)
        assert sorted(state.games[1]) == [26, 30]

        # unpair from the game's page
        table = next(t for t, g in state.games[1].items() if g.result is Result.UNKNOWN)
        await page.goto(f"{server.url}/desk/round/1/game?table={table}")
        await click(page, "#unpair-game")
        assert "unpaired" in await page.inner_text("#message")
        assert sorted(state_as_of(db).games[1]) == [t for t in (26, 30) if t != table]
        # an unknown table: one sentence, no page
        await page.goto(server.url + "/desk/round/2/game?table=1")
        assert "round 2 is not paired yet" in await page.inner_text("main")
        await browser.close()
