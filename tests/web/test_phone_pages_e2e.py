"""Every page on a phone (issue 44, item 5) in a real headless Chromium at 390×844 — a real
390 px viewport, not a mobile emulation that hides overflow — in Turkish and Hungarian: every
public page and every desk page (the routes are read from the app, so a new page is measured
by itself), the printouts included. On each page, every word of every player's name that is
rendered is measured with ``Range.getClientRects``: its boxes lie on one line (no name breaks
inside a word, "Csiz|madi|a|Györ|gy"; a double name may break after its own hyphen, between
its two words, "Ohlenbusch-|Schulz", as a printed page breaks it); and the header (the bar and
the search box, all above ``<main>``) is at most 15 % of the first screen; and no screen is
wider than the phone (the printouts and the audit report are A4 documents). The field has the
long names the native review cites and, when ``../shared`` is here, the longest names of EGC
2011 (760 players). One browser; skipped without Chromium or Playwright, like :mod:`tests.web.test_web_e2e`
(whose server and login it uses)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from .test_web_e2e import ARGS, CHROMIUM, Server, login
from .test_web_routes import _routes

pytest.importorskip("playwright.async_api")
from playwright.async_api import Browser, async_playwright

from goledger import commands

from ..phone_support import LONG_NAMES, field, name_words

WIDTH, HEIGHT = 390, 844
HEADER_SHARE = 0.15
SKIPPED = ("/api/", "/events/", "/desk/export/")
"""Not pages a person reads: JSON, the live stream, file downloads."""

MEASURE = """([words, share]) => {
  const broken = [];
  const wanted = new Set(words);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let measured = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.data;
    const re = /[^\\s,;:()\\[\\]·–—-]+/g;
    let m;
    while ((m = re.exec(text)) !== null) {
      if (!wanted.has(m[0])) continue;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = Array.from(range.getClientRects()).filter(r => r.width > 0 && r.height > 0);
      if (!rects.length) continue;  // not rendered (a hidden column, a closed menu)
      measured += 1;
      const tops = rects.map(r => r.top);
      const lines = Math.max(...tops) - Math.min(...tops);
      if (lines > rects[0].height / 2) broken.push([m[0], rects.length, Math.round(lines)]);
    }
  }
  // the header: the bar and the search box under it, all that comes before the page's <main>
  const header = document.querySelector("header.bar"), main = document.querySelector("main");
  const height = header && main ? main.getBoundingClientRect().top + window.scrollY : 0;
  return {broken, measured, header: height, limit: share * window.innerHeight, width: window.innerWidth,
          page: document.documentElement.scrollWidth, document: !header};
}"""


def _field(db: Path) -> list[str]:
    """A 3-round McMahon in Turkish with long names, round 1 played, round 2 paired; the words
    of the players' names."""
    commands.new(db, "Ankara Kupası — Uzun İsimler Açık Turnuvası", 3, "mcmahon", "3d", "20k", None, None, "6.5",
                 language="tr")
    names = field(8)
    ranks = ["4d", "3d", "2d", "1d", "1k", "2k", "3k", "5k", "7k", "9k"]
    for i, (surname, first, country) in enumerate(names):
        commands.register(db, surname, first, ranks[i % len(ranks)], country, "Ankara Go Kulübü" if i % 2 else "")
    commands.pair_round(db, 1)
    state_games = len(names) // 2
    for table in range(1, state_games + 1):
        commands.result(db, 1, table, "white" if table % 3 else "black")
    commands.pair_round(db, 2)
    commands.result(db, 2, 1, "black")
    return name_words(names)


def _pages(server: Server, pid: str, seq: int) -> list[str]:
    """Every GET page of the desk, its path parameters filled in (a player, round 1, an event)."""
    from goledger.keys import issue_key
    from goledger.web import create_app

    # the player's own pages by his key (issue 46) are phone pages above all
    fill = {"{pid}": pid, "{round:int}": "1", "{seq:int}": str(seq), "{fmt}": "opengotha",
            "{key}": issue_key(server.db, pid)}
    paths = []
    for route in _routes(create_app(server.db, "x")):
        if "GET" not in (route.methods or ()) or route.path.startswith(SKIPPED):
            continue
        paths.append(re.sub(r"\{[^}]+\}", lambda m: fill[m.group(0)], route.path))
    return [p if p != "/find" else f"/find?q={pid}" for p in paths]


def test_every_page_keeps_names_whole_on_a_phone_in_turkish_and_hungarian(tmp_path: Path) -> None:
    db = tmp_path / "uzun.db"
    words = _field(db)
    from goledger.replay.views import state_as_of

    state = state_as_of(db)
    longest = max(state.players.values(), key=lambda p: len(p.full_name))
    with Server(db) as server:
        paths = _pages(server, longest.id, state.seq)
        assert len(paths) >= 30, paths
        report, details = asyncio.run(_measure(server, paths, words, longest.id))
    measured = sum(r["measured"] for r in report.values())
    assert measured > 500, "the names were not found on the pages"  # the measure itself works
    broken = {page: r["broken"] for page, r in report.items() if r["broken"]}
    assert not broken, "\n".join(f"{page}: {words}" for page, words in broken.items())
    tall = {page: (round(r["header"]), round(r["limit"])) for page, r in report.items() if r["header"] > r["limit"]}
    assert not tall, tall
    assert {r["width"] for r in report.values()} == {360, WIDTH, 414}
    # no screen of the desk is wider than the phone (its wide tables scroll inside it); the printouts
    # and the audit report are A4 documents (``/print/…``, ``/desk/report``: no header bar)
    wide = {page: r["page"] for page, r in report.items() if r["page"] > r["width"] and not r["document"]}
    assert not wide, wide
    assert sum(r["document"] for r in report.values()) >= 10
    # the player's page shows handicap and komi on a phone (komi in the page's numbers: 6,5)
    assert details["handicap"] and all(details["handicap"]), details
    assert details["komi"] and set(details["komi"]) <= {"6,5", "0,5"}, details  # the round's komi, or ½ with handicap
    # the standings' tiebreaks: hidden on a phone, shown by a tap
    assert details["tiebreaks"] == [False, True], details


TEAMS = ["Budapesti Egyetemi Go Egyesület", "Ankara Üniversitesi Go Topluluğu", "Szegedi Góbarátok", "İzmir Go Kulübü"]


def test_team_pages_keep_names_whole_on_a_phone(tmp_path: Path) -> None:
    """The team pages with teams: the players' team standings and matches, a member's page, the
    director's round by match, at 390 px in tr and hu."""
    from goledger.commands.teams import pair_teams, team_add, team_assign

    db = tmp_path / "takim.db"
    commands.new(db, "Takımlar Kupası", 2, "team-swiss", options={"boards": 3}, language="tr")
    for i, (surname, first, country) in enumerate(LONG_NAMES[:12]):
        commands.register(db, surname, first, ["2d", "1k", "4k"][i % 3], country)
    for t, team in enumerate(TEAMS):
        team_add(db, team)
        for board in range(1, 4):
            team_assign(db, team, f"p{3 * t + board:04d}", board)
    pair_teams(db, 1, TEAMS[0], TEAMS[1])
    pair_teams(db, 1, TEAMS[2], TEAMS[3])
    words = sorted(set(name_words(LONG_NAMES[:12])) | {w for team in TEAMS for w in team.split()})
    paths = ["/teams", "/teams/round/1", "/player/p0001", "/desk/teams/round/1"]
    with Server(db) as server:
        report, _ = asyncio.run(_measure(server, paths, words, "p0001", phones=False))
    assert sum(r["measured"] for r in report.values()) > 100
    assert not {page: r["broken"] for page, r in report.items() if r["broken"]}, report
    assert all(r["header"] <= r["limit"] for r in report.values()), report


async def _measure(server: Server, paths: list[str], words: list[str], pid: str,
                   phones: bool = True) -> tuple[dict[str, dict], dict]:
    """Every page at 390 px in tr and hu, as a player and as the director; the players' pages at
    360 and 414 px too (the narrowest and widest phones), in hu; and what a phone shows of a
    player's page and the standings' tiebreaks."""
    report: dict[str, dict] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for language in ("tr", "hu"):
            report |= await _language(browser, server, paths, words, language, WIDTH, ("player", "director"))
        details = {}
        if phones:
            for width in (360, 414):
                report |= await _language(browser, server, paths, words, "hu", width, ("player",))
            details = await _phone_details(browser, server, pid)
        await browser.close()
    return report, details


async def _phone_details(browser: Browser, server: Server, pid: str) -> dict:
    context = await browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    await context.add_cookies([{"name": "goledger_lang", "value": "tr", "url": server.url}])
    page = await context.new_page()
    await page.goto(f"{server.url}/player/{pid}")
    details = {"handicap": [await e.is_visible() for e in await page.query_selector_all("#games .handicap")],
               "komi": [await e.inner_text() for e in await page.query_selector_all("#games .komi")
                        if await e.is_visible()]}
    await page.goto(f"{server.url}/standings")
    shown = [await page.is_visible("#standings td.tiebreak >> nth=0")]
    await page.click("label.show-tiebreaks")
    shown.append(await page.is_visible("#standings td.tiebreak >> nth=0"))
    await context.close()
    return {**details, "tiebreaks": shown}


async def _language(browser: Browser, server: Server, paths: list[str], words: list[str], language: str,
                    width: int, readers: tuple[str, ...]) -> dict[str, dict]:
    """Each page as a player (the public ones) and as the director (all), in ``language``."""
    report: dict[str, dict] = {}
    for who in readers:
        context = await browser.new_context(viewport={"width": width, "height": HEIGHT}, locale=language)
        await context.add_cookies([{"name": "goledger_lang", "value": language, "url": server.url}])
        page = await context.new_page()
        if who == "director":
            await login(page, server, "telefon")
        for path in paths:
            if who == "player" and path.startswith("/desk"):
                continue
            response = await page.goto(server.url + path)
            assert response is not None and response.status in (200, 400, 401), (path, response and response.status)
            lang = await page.evaluate("document.doctype ? document.documentElement.lang : null")  # null: a fragment
            assert lang in (language, None), (language, who, path, lang)
            report[f"{width} {language} {who} {path}"] = await page.evaluate(MEASURE, [words, HEADER_SHARE])
        await context.close()
    return report
