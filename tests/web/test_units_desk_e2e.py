"""Pair Go and Rengo at the desk (issue 47 item 1) in a real headless Chromium: the director
creates the tournament, pastes the players, forms the units on the units page, pairs each of
four rounds with the round page's button and types the results; the standings are the units'.
Skipped without Chromium or Playwright, like :mod:`tests.web.test_web_e2e` (whose server it uses)."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from pathlib import Path

import pytest

from .test_web_e2e import ARGS, CHROMIUM, Server, click, enter_results, login

pytest.importorskip("playwright.async_api")
from playwright.async_api import Page, async_playwright

from goledger.ledger.store import Ledger
from goledger.replay.loading.load import load_state

RANKS = ["3d", "1k", "5k", "2d", "10k", "1d", "4k", "6k", "2k", "12k", "3k", "8k", "1d", "15k", "7k", "5k",
         "4d", "20k"]


def _state(db: Path) -> object:
    with Ledger.open(db) as ledger:
        return load_state(ledger)


async def _create(page: Page, server: Server, name: str, system: str, players: int) -> None:
    await login(page, server, "desk-a")
    assert page.url.endswith("/desk/new")
    await page.select_option("#system-choice", system)  # the New form follows the system chosen (htmx)
    await page.wait_for_function("s => document.querySelector('#new-form input[name=system]').value === s",
                                 arg=system)
    await page.fill("#new-form input[name=name]", name)
    await page.fill("#new-form input[name=rounds]", "4")
    await click(page, "#create")
    await page.fill("#bulk-list", "\n".join(f"Member{i:02d}|X|{RANKS[i]}" for i in range(players)))
    await click(page, "#bulk-form button")
    assert f"registered {players} players" in await page.inner_text("#message")
    await click(page, "#units-link")
    assert page.url.endswith("/desk/units")


async def _form_units(page: Page, size: int, count: int, pair_go: bool) -> None:
    for k in range(count):
        await page.fill("#unit-form input[name=name]", f"Unit {k + 1}")
        for i in range(size):
            await page.fill(f"#unit-form input[name=member{i + 1}]", f"p{size * k + i + 1:04d}")
        if pair_go:  # the man named first: the desk records the woman first
            await page.select_option("#unit-form select[name=sex1]", "M")
            await page.select_option("#unit-form select[name=sex2]", "F")
        await click(page, "#unit-form button")
        message = await page.inner_text("#message")
        assert f"Unit {k + 1} formed" in message, message
    assert await page.locator("#units tbody tr").count() == count


async def _play(page: Page, server: Server, units: int) -> None:
    for round_ in range(1, 5):
        await page.goto(f"{server.url}/desk/round/{round_}")
        await click(page, "#pair-round-form button")
        assert "refused" not in (await page.get_attribute("#message", "class") or "")
        games = await page.locator("#games tbody tr").count()
        assert games == units // 2
        names = await page.inner_text("#games")
        # the round page names the units, each with its members' surnames in their order of play
        assert len(re.findall(r"Unit \d+ Member\d\d(?:/Member\d\d)+ p\d{4}", names)) == 2 * games, names
        await enter_results(page, server, round_, [f"{t} {'w' if t % 2 else 'b'}" for t in range(1, games + 1)])


async def _event(server: Server, system: str, size: int, units: int) -> str:
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        await _create(page, server, f"{system} at the desk", system, size * units)
        await _form_units(page, size, units, system == "pairgo")
        await _play(page, server, units)
        await page.goto(f"{server.url}/standings")
        text = await page.inner_text("main")
        await browser.close()
        return text


def test_a_pair_go_of_eight_pairs_through_the_desk(tmp_path: Path) -> None:
    with Server(tmp_path / "pairgo.db") as server:
        standings = asyncio.run(_event(server, "pairgo", 2, 8))
    state = _state(tmp_path / "pairgo.db")
    units = list(state.units.values())  # type: ignore[attr-defined]
    assert len(units) == 8 and all(u.sexes == ("F", "M") for u in units)
    assert all(u.members[0] == f"p{2 * k + 2:04d}" for k, u in enumerate(units))   # the woman first
    games = list(state.all_games())  # type: ignore[attr-defined]
    assert len(games) == 16 and all(g.result.value != "unknown" for g in games)
    assert all(f"Unit {k} Member{2 * k - 1:02d}/Member{2 * k - 2:02d}" in standings for k in range(1, 9))


def test_a_rengo_three_through_the_desk(tmp_path: Path) -> None:
    with Server(tmp_path / "rengo.db") as server:
        standings = asyncio.run(_event(server, "rengo3", 3, 6))
    state = _state(tmp_path / "rengo.db")
    games = list(state.all_games())  # type: ignore[attr-defined]
    reps = {u.representative for u in state.units.values()}  # type: ignore[attr-defined]
    assert len(games) == 12 and all({g.white, g.black} <= reps for g in games)
    pairs = {frozenset((g.white, g.black)) for g in games}
    assert len(pairs) == 12   # no two units met twice in four rounds
    assert all(f"Unit {k}" in standings for k in range(1, 7))


def test_a_member_finds_his_units_table_on_a_running_desk(tmp_path: Path) -> None:
    """The players' "find my table" (``GET /api/find``): a unit's second member (not the one its
    games are recorded under) finds his unit's table, colour and the opposing unit."""
    from goledger import commands
    from goledger.commands.units import unit_add

    db = tmp_path / "find.db"
    commands.new(db, "Find", 2, "pairgo")
    for i in range(4):
        commands.register(db, f"Member{i:02d}", "X", RANKS[i])
    unit_add(db, "Alpha", ["p0001", "p0002"], ["F", "M"])
    unit_add(db, "Beta", ["p0003", "p0004"], ["F", "M"])
    commands.pair(db, 1, "p0001", "p0003", 1, 0)
    with Server(db) as server:
        found = server.get_json("/api/find?q=Member01")["players"]
        with urllib.request.urlopen(f"{server.url}/player/p0002", timeout=10) as r:
            page = r.read().decode()
    assert [f["id"] for f in found] == ["p0002"]
    now = found[0]["now"]
    assert (now["table"], now["colour"], now["opponent"]["name"]) == (1, "white", "Beta Member02/Member03"), now
    # his player page is his unit's, with the game against the other unit
    assert "Alpha" in page and "Beta" in page and "Member02/Member03" in page
