"""A posted result reaching an open standings page in a real headless Chromium (issue 32, item 2),
by the live path: the server-sent event, the page's ``<main>`` fetched as rendered at the head it
names (``X-Goledger-Head``), only the rows changed since the head it shows sent
(``X-Goledger-Delta``), and only the rows that changed swapped in (the others stay the very
same elements). Two writes in quick succession: the page ends on the second head's standings,
and every standings it showed on the way were those of the head it claimed. Skipped without
Chromium or Playwright, like :mod:`tests.web.test_web_e2e` (whose server it uses)."""

from __future__ import annotations

import asyncio
import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .test_web_e2e import ARGS, CHROMIUM, RANKS, SURNAMES, TOKEN, Server, head

pytest.importorskip("playwright.async_api")
from playwright.async_api import Page, async_playwright

from goledger import commands
from goledger.replay.views import standings, state_as_of
from goledger.web.data import public_standings_rows

PLAYERS = 40


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 players paired in round 1, half the results in (built once; each test copies it)."""
    db = tmp_path_factory.mktemp("live") / "built.db"
    commands.new(db, "Live Open", 3, "mcmahon", "3d", "20k", None, None, "7.5")
    for i in range(PLAYERS):
        commands.register(db, SURNAMES[i % len(SURNAMES)], f"P{i:02d}", RANKS[i * len(RANKS) // PLAYERS])
    for table in range(1, PLAYERS // 2 + 1):
        commands.pair(db, 1, f"p{2 * table - 1:04d}", f"p{2 * table:04d}", table, 0)
    for table in range(1, PLAYERS // 4 + 1):
        commands.result(db, 1, table, "white" if table % 2 else "black")
    return db


def _tournament(built: Path, db: Path) -> None:
    shutil.copy(built, db)


def _post(url: str, table: int, result: str, token: str = TOKEN) -> int:
    body = json.dumps({"round": 1, "table": table, "result": result}).encode()
    request = urllib.request.Request(url + "/api/results", data=body, method="POST", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as r:
        return int(json.loads(r.read())["events"][-1]["seq"])


def _shown(db: Path, seq: int) -> list[list[str]]:
    """The standings rows the players' page shows at event ``seq``: each player's id and his
    criteria's values as exact text."""
    state = state_as_of(db, seq)
    return [[row[1], *row[-1]] for row in public_standings_rows(standings(db, as_of=seq), state)]


ORDER = """() => Array.from(document.querySelectorAll('#standings tbody tr')).map(tr =>
  [tr.querySelector('a').getAttribute('href').slice(8),
   ...Array.from(tr.querySelectorAll('td.crit')).map(td => td.textContent)])"""
RECORD = """() => {
  window.seenSwaps = [];
  document.addEventListener('goledger:updated', () => window.seenSwaps.push([
    document.body.getAttribute('data-head'), document.getElementById('head').textContent, (ORDER)()]));
}""".replace("ORDER", ORDER)


async def _open(page: Page, url: str) -> None:
    await page.goto(url + "/standings")
    await page.wait_for_function("() => document.body.getAttribute('data-head') !== null")
    await page.evaluate(RECORD)
    await asyncio.sleep(0.3)  # the stream is open and has sent the head


async def _updated(page: Page, seq: int) -> None:
    await page.wait_for_function("h => document.body.getAttribute('data-updated') === h", arg=str(seq),
                                 timeout=15000)


def test_a_posted_result_reaches_the_open_page_row_by_row(built: Path, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    _tournament(built, db)

    async def run(url: str) -> dict[str, Any]:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = await browser.new_page()
            fetched: list[dict[str, str]] = []
            page.on("response", lambda r: fetched.append(r.headers) if "x-goledger-head" in r.headers else None)
            await _open(page, url)
            await page.evaluate("() => document.querySelectorAll('#standings tbody tr').forEach(r => r.kept = 1)")
            shown = await page.evaluate("document.body.getAttribute('data-head')")
            seq = await asyncio.to_thread(_post, url, PLAYERS // 2, "black")  # the last table: its black moves up
            await _updated(page, seq)
            out = await page.evaluate("""() => {
                const rows = Array.from(document.querySelectorAll('#standings tbody tr'));
                return {kept: rows.filter(r => r.kept).length, rows: rows.length,
                        head: document.getElementById('head').textContent}; }""")
            out["seq"], out["order"] = seq, await page.evaluate(ORDER)
            out["fetched"], out["shown"] = fetched, shown
            await browser.close()
            return out

    with Server(db) as server:
        out = asyncio.run(run(server.url))
    assert out["order"] == _shown(db, out["seq"]) != _shown(db, out["seq"] - 1)  # the new standings, on the page
    assert out["head"] == str(out["seq"]) == str(head(db))
    assert 0 < out["kept"] < out["rows"] == PLAYERS, out  # only the rows that changed were replaced
    # the page fetched only the rows changed since the head it showed (X-Goledger-Delta), not the whole <main>
    assert [f.get("x-goledger-delta") for f in out["fetched"]] == [out["shown"]], out["fetched"]


def test_two_quick_writes_end_on_the_second_heads_standings(built: Path, tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    _tournament(built, db)

    async def run(url: str) -> tuple[int, list[list[str]], list[list[Any]]]:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = await browser.new_page()
            await _open(page, url)
            await asyncio.to_thread(_post, url, PLAYERS // 2 - 1, "white")
            second = await asyncio.to_thread(_post, url, PLAYERS // 2, "black")
            await _updated(page, second)
            await asyncio.sleep(0.3)  # nothing later may swap an older head back in
            order = await page.evaluate(ORDER)
            seen = await page.evaluate("window.seenSwaps")
            await browser.close()
            return second, order, seen

    with Server(db) as server:
        second, order, seen = asyncio.run(run(server.url))
    assert head(db) == second and order == _shown(db, second)
    assert seen and seen[-1][0] == str(second), seen
    for claimed, shown_head, shown in seen:  # every swap showed the standings of the head it claimed
        assert shown_head == claimed and shown == _shown(db, int(claimed)), claimed
    assert [int(s[0]) for s in seen] == sorted(int(s[0]) for s in seen)  # never back to an older head


def test_a_posted_result_reaches_a_page_on_the_players_port_in_two_processes(built: Path, tmp_path: Path) -> None:
    """``serve --public-port P --workers 2``: the standings page opened on the players' port
    (its page and its ``<main>`` answered by the fast path, its stream by uvicorn) shows a
    result posted at the desk, with the new standings."""
    from ..desk_server import TOKEN as DESK_TOKEN
    from ..desk_server import DeskServer, free_port, wait_port

    db = tmp_path / "live.db"
    _tournament(built, db)
    players = free_port()

    async def run(desk_url: str, players_url: str) -> tuple[int, list[list[str]]]:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            page = await browser.new_page()
            await _open(page, players_url)
            seq = await asyncio.to_thread(_post, desk_url, PLAYERS // 2, "black", DESK_TOKEN)
            await _updated(page, seq)
            order = await page.evaluate(ORDER)
            await browser.close()
            return seq, order

    with DeskServer(db, public_port=players, workers=2) as desk:
        wait_port(players, "the players' view")
        seq, order = asyncio.run(run(desk.url, f"http://127.0.0.1:{players}"))
    assert order == _shown(db, seq) != _shown(db, seq - 1)
