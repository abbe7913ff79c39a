"""A player's page on a phone (390×844) in Hungarian, German and French, in a real Chromium
(the QA pass of this session): the longer words of those languages (a withdrawn round, a game
both lost by default) once pushed the games table past the screen's width."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from .test_web_e2e import ARGS, CHROMIUM, Server, login

pytest.importorskip("playwright.async_api")
from playwright.async_api import async_playwright

from goledger import commands


def test_a_players_page_fits_a_phone_in_every_language(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    commands.new(db, "Ankara Açık", 4, "mcmahon", "3d", "20k", None, None, "7.5", language="tr")
    for surname, first, rank in (("Aydın", "Deniz", "5k"), ("Arslan", "Selin", "8k")):
        commands.register(db, surname, first, rank)
    commands.pair(db, 1, "p0001", "p0002", 1)
    commands.result(db, 1, 1, "both-lose", by_default=True)
    commands.withdraw(db, "p0002", 2)
    with Server(db) as server:
        asyncio.run(_phone(server.url))


async def _phone(url: str) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        # not is_mobile: a mobile page wider than the screen is zoomed out, and innerWidth grows to match it
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        for lang in ("hu", "de", "fr", "tr", "en"):
            for path in ("/player/p0002", "/player/p0001", "/player/p0002/timeline"):
                await page.goto(f"{url}{path}?lang={lang}")
                width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert width[0] <= 390, (lang, path, width)
        await browser.close()


def test_the_new_form_keeps_what_was_typed_when_the_system_is_changed(tmp_path: Path) -> None:
    """A director types the name, the place and the thinking time, then picks the system (the
    form's options change under htmx): what he typed stays, and the tournament is created with it."""
    db = tmp_path / "new.db"
    with Server(db) as server:
        asyncio.run(_new_form(server))
    [created] = [json.loads(r.payload)["settings"] for r in commands.log(db) if r.type == "TournamentCreated"]
    assert (created["name"], created["location"], created["time"]["basic_minutes"]) == ("Ankara Açık", "Keçiören", 90)
    assert created["system"] == "knockout" and created["system_options"]["third_place"] is True


async def _new_form(server: Server) -> None:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 800})
        await login(page, server, "desk-a")
        await page.goto(f"{server.url}/desk/new?lang=tr")
        await page.wait_for_function("() => window.htmx !== undefined")
        await page.fill("#new-form input[name=name]", "Ankara Açık")
        await page.fill("#new-form input[name=location]", "Keçiören")
        await page.fill("#new-form input[name=main_time]", "90")
        await page.select_option("#system-choice", "knockout")
        await page.wait_for_selector("#third-place")
        assert await page.input_value("#new-form input[name=name]") == "Ankara Açık"
        assert await page.input_value("#new-form input[name=location]") == "Keçiören"
        assert await page.input_value("#new-form input[name=main_time]") == "90"
        await page.check("#third-place")
        async with page.expect_navigation():
            await page.click("#create")
        await browser.close()
