"""Registration and the one conflict answer in a real headless Chromium (issue 43, items 3
and 6): the EGD list uploaded from the players page, a player found by the name he says and
picked with the accents typed kept over the list's ASCII, the focus back in the search box
after each registration, a surname with an initial found first; and a result typed minutes
after another desk recorded the table answered with the correction form in the page.
Skipped without Chromium or Playwright, like :mod:`tests.web.test_web_e2e` (whose server it uses)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from .test_web_e2e import ARGS, CHROMIUM, Server, login, press

pytest.importorskip("playwright.async_api")
from playwright.async_api import Page, async_playwright

from goledger import commands
from goledger.replay.views import state_as_of

from ..conftest import needs_shared
from ..ratings_support import EGD_LIST


async def _focused(page: Page) -> str:
    return str(await page.evaluate("() => document.activeElement && document.activeElement.id"))


async def _pick(page: Page, query: str) -> None:
    """Type ``query`` in the rating search box (where the focus is) and click the first match."""
    assert await _focused(page) == "ratings-q"
    await page.keyboard.type(query)
    await page.wait_for_selector("#ratings-results .rating-pick")
    await page.click("#ratings-results .rating-pick >> nth=0")


@needs_shared
def test_upload_search_pick_with_accents_and_focus(tmp_path: Path, shared: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOLEDGER_RATINGS", str(tmp_path / "ratings.db"))
    db = tmp_path / "desk.db"
    commands.new(db, "Istanbul Open", 3, "mcmahon", "3d", "20k", None, None, "7.5", language="en")
    with Server(db) as server:
        asyncio.run(_register(server, shared / EGD_LIST))
    players = {p.egd_pin: p for p in state_as_of(db).players.values()}
    barkin = players["13701534"]
    assert (barkin.surname, barkin.first_name) == ("Çelebican", "Barkın")  # as typed, not the list's ASCII
    assert barkin.rating is not None and barkin.rating_list is not None and "rating" in barkin.rating_list.fields
    merve = players["15325475"]
    assert (merve.surname, merve.first_name) == ("Duman", "Merve")  # "Duman M.": the list's spelling


async def _register(server: Server, egd_list: Path) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page()
        await login(page, server, "desk-a")
        await page.goto(f"{server.url}/desk/players")
        assert "none imported yet" in await page.inner_text("#rating-list summary")
        await page.set_input_files("#ratings-file", str(egd_list))
        async with page.expect_navigation(timeout=60000):
            await page.click("#ratings-import")
        assert "45522 players" in await page.inner_text("#message")
        assert "EGD list of 2019-02-22" in await page.inner_text("#rating-list summary")
        # the focus is in the search box: type the name as the player says it, with its accents
        await _pick(page, "Çelebican Barkın")
        assert await page.input_value("#register-form input[name=surname]") == "Çelebican"
        assert await page.input_value("#register-form input[name=first_name]") == "Barkın"
        assert await page.input_value("#register-form input[name=egd_pin]") == "13701534"
        assert await _focused(page) == ""  # on the Register button (it has no id): Enter registers
        async with page.expect_navigation():
            await page.keyboard.press("Enter")
        assert "Çelebican Barkın" in await page.inner_text("#players")
        # the focus is back in the search box for the next player; a surname and an initial
        assert await _focused(page) == "ratings-q"
        await _pick(page, "Duman M.")
        assert await page.input_value("#register-form input[name=surname]") == "Duman"
        assert await page.input_value("#register-form input[name=first_name]") == "Merve"
        async with page.expect_navigation():
            await page.keyboard.press("Enter")
        assert await _focused(page) == "ratings-q"
        rows = await page.inner_text("#players")
        assert "Duman Merve" in rows and "GoR" in rows
        # sorted by rating, strongest first (Barkın's GoR 2004 is above Merve's 253)
        async with page.expect_navigation():
            await page.click("#sort-rating")
        names = await page.eval_on_selector_all("#players tbody tr td:nth-child(2)",
                                                "cells => cells.map(c => c.textContent)")
        assert names[0].startswith("Çelebican") and names[1].startswith("Duman"), names
        await browser.close()


def test_a_result_typed_minutes_later_is_answered_with_the_correction_form(tmp_path: Path) -> None:
    db = tmp_path / "desk.db"
    commands.new(db, "Late Desk Cup", 2, "mcmahon", "3d", "20k", None, None, "7.5", language="en")
    for surname in ("Sato", "Ito", "Abe", "Mori"):
        commands.register(db, surname, "Jo", "3k")
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    commands.pair(db, 1, "p0003", "p0004", 2, 0)
    commands.result(db, 1, 1, "white", actor="desk-a")  # minutes ago, at another desk
    with Server(db) as server:
        asyncio.run(_later(server))
    corrected = [r for r in commands.log(db) if r.type == "ResultCorrected"]
    assert [(r.actor, r.reason) for r in corrected] == [("desk desk-b", "the players signed black's win")]
    assert state_as_of(db).games[1][1].result.value == "black"


async def _later(server: Server) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page()
        await login(page, server, "desk-b")
        await page.goto(f"{server.url}/desk/round/1/results")  # its page already shows table 1's result
        await page.wait_for_function("() => window.htmx !== undefined")
        await page.focus("#entry-input")
        message = await press(page, "Enter", "1 b")
        assert "already has a result (white won)" in message and "goledger" not in message, message
        assert await page.inner_text("#correction-old") == "white won"
        assert await page.inner_text("#correction-new") == "black won"
        assert await _focused(page) == "correction-reason"  # the reason, then Enter corrects it
        message = await press(page, "Enter", "the players signed black's win")
        assert "round 1 table 1" in message and "black" in message, message
        assert not await page.query_selector("#correction-form")
        await browser.close()
