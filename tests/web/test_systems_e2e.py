"""Issue 43's done-when, in a real headless Chromium: for each system a director creates the
tournament from the desk's New tournament form, registers its players (and, for teams, makes
the teams and puts the players on their boards), pairs every round with the round page's
button and types every result on the results page, until the system has decided its event;
then the public standings show the system's own places, the same as ``goledger standings``.
One browser for every system; skipped without Chromium or Playwright, like
:mod:`tests.web.test_web_e2e` (whose in-thread server it uses)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ..conftest import run_cli
from .test_web_e2e import ARGS, CHROMIUM, TOKEN, Server

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Browser, Page, sync_playwright

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@dataclass(frozen=True)
class Day:
    """A system's day: what the New form is given, the field, and how many rounds are played."""

    system: str
    players: int
    rounds: int | None = None  # None: computed at the draw, no field in the form
    form: dict[str, str] = field(default_factory=dict)
    checks: tuple[str, ...] = ()
    teams: int = 0


DAYS = [
    Day("knockout", 8, checks=("#third-place",)),
    Day("round-robin", 5),
    Day("double-knockout", 8),
    Day("paramus", 6),
    Day("team-swiss", 12, 2, {"boards": "3"}, teams=4),
    Day("handicap", 6, 2),
    Day("continuous-handicap", 4, 2),
    Day("match", 2, 3),
]

RANKS = ["5d", "3d", "1d", "2k", "4k", "6k", "8k", "10k", "12k", "14k", "16k", "18k"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def submit(page: Page, selector: str) -> None:
    """Click a form's submit button and wait for the page it leads to."""
    with page.expect_navigation():
        page.click(selector)


def enter(page: Page, entry: str) -> str:
    """Type ``TABLE RESULT`` in the results page's field, press Enter, wait for htmx's swap."""
    swaps = page.evaluate("Number(document.body.getAttribute('data-swaps') || 0)")
    page.keyboard.type(entry)
    page.keyboard.press("Enter")
    page.wait_for_function("n => Number(document.body.getAttribute('data-swaps') || 0) > n "
                           "&& htmx.find('#entry-form[hx-post]') && document.activeElement "
                           "&& document.activeElement.tagName !== 'BODY'", arg=swaps)
    return page.inner_text("#entry-message")


def create(page: Page, url: str, day: Day) -> None:
    page.goto(url + "/desk/new")
    page.wait_for_function("() => window.htmx !== undefined")
    page.select_option("#system-choice", day.system)  # the form follows the choice (htmx), no button needed
    page.wait_for_function("s => document.querySelector('#new-form input[name=system]').value === s", arg=day.system)
    assert page.locator("#new-form legend").first.inner_text() != ""
    page.fill("#new-form input[name=name]", f"{day.system} day")
    if day.rounds is None:
        assert page.locator("#rounds-rule").count() == 1 and page.locator("input[name=rounds]").count() == 0
    else:
        page.fill("input[name=rounds]", str(day.rounds))
    for name, value in day.form.items():
        page.fill(f"#new-form input[name={name}]", value)
    for box in day.checks:
        page.check(box)
    page.fill("input[name=begin_date]", "2026-12-06")
    page.fill("input[name=country]", "DE")
    submit(page, "#create")
    assert page.url.endswith("/desk/players"), page.url


def register(page: Page, url: str, day: Day) -> None:
    page.fill("#bulk-list", "\n".join(f"Spieler{i + 1:02d}|Ana|{RANKS[i]}" for i in range(day.players)))
    submit(page, "#bulk-form button[type=submit]")
    assert page.locator("#message").inner_text().startswith("registered"), page.locator("#message").inner_text()


def make_teams(page: Page, url: str, day: Day) -> None:
    page.goto(url + "/desk/teams")
    for t in range(1, day.teams + 1):
        page.fill("#team-add-form input[name=name]", f"Team {t}")
        submit(page, "#team-add-form button[type=submit]")
    boards = day.players // day.teams
    for t in range(1, day.teams + 1):
        for board in range(1, boards + 1):
            form = f"#assign-t{t:03d}"
            page.fill(f"{form} input[name=player]", f"p{(t - 1) * boards + board:04d}")
            page.fill(f"{form} input[name=board]", str(board))
            submit(page, f"{form} button[type=submit]")
    assert page.locator("#free .muted").count() == 1  # nobody is left on no team


def play(page: Page, url: str) -> int:
    """Pair each round with the round page's button and enter its results (White wins) until
    the system says it is decided or the last round is played; the rounds played."""
    round_ = 1
    while True:
        response = page.goto(f"{url}/desk/round/{round_}")
        assert response is not None
        if response.status == 400:  # past the last round
            return round_ - 1
        submit(page, "#pair-round-form button[type=submit]")
        if page.locator(".msg.refused").count():
            assert "decided" in page.inner_text(".msg.refused"), page.inner_text(".msg.refused")
            return round_ - 1
        tables = page.eval_on_selector_all("#games tbody tr td:nth-child(2)", "cells => cells.map(c => c.textContent)")
        assert tables, f"round {round_} has no games"
        page.goto(f"{url}/desk/round/{round_}/results")
        page.wait_for_function("() => window.htmx !== undefined")
        page.focus("#entry-input")
        for table in tables:
            message = enter(page, f"{table.strip()} w")
            assert f"table {table.strip()}" in message, message
        round_ += 1


def public_places(page: Page, url: str) -> list[tuple[str, str]]:
    """(place as shown, player id) of each row of the public standings."""
    page.goto(url + "/standings")
    rows: list[list[str]] = page.eval_on_selector_all(
        "#standings tbody tr", "rows => rows.map(r => [r.cells[0].textContent.trim(), "
        "r.querySelector('a').getAttribute('href').split('/').pop()])")
    return [(place, pid) for place, pid in rows]


def cli_places(db: Path) -> tuple[bool, list[tuple[str, str]]]:
    """Whether ``goledger standings`` gives the system's own places, and its (place, id) rows
    as the public page writes them (``=2`` for a shared place; a standings table leaves a
    place shared with the row above empty)."""
    data: dict[str, Any] = json.loads(run_cli("standings", "--json", "--db", db).out)
    own = "system" in data
    rows, previous = [], None
    for row in data["rows"]:
        if own:
            place = "—" if row["active"] else ("=" if row["shared"] else "") + str(row["place"])
            rows.append((place, row["player_id"]))
        else:
            rows.append(("" if row["place"] == previous else str(row["place"]), row["player_id"]))
        previous = row["place"]
    return own, rows


def team_order(page: Page, url: str, db: Path) -> None:
    page.goto(url + "/teams")
    shown = page.eval_on_selector_all("#team-standings tbody tr", "rows => rows.map(r => r.cells[1].textContent)")
    data = json.loads(run_cli("standings", "--teams", "--json", "--db", db).out)
    assert shown == [row["name"] for row in data["teams"]]
    assert "TEAMP" in page.inner_text("#team-legend")


@pytest.mark.parametrize("day", [pytest.param(d, id=d.system) for d in DAYS])  # every system, every run
def test_a_system_s_whole_day_in_the_desk(day: Day, browser: Browser, tmp_path: Path) -> None:
    started = time.monotonic()
    db = tmp_path / f"{day.system}.db"
    with Server(db) as server:
        context = browser.new_context()
        page = context.new_page()
        page.goto(server.url + "/login")
        page.fill("#token", TOKEN)
        page.fill("input[name=desk]", "director")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        create(page, server.url, day)
        register(page, server.url, day)
        if day.teams:
            make_teams(page, server.url, day)
        made = time.monotonic()
        played = play(page, server.url)
        print(f"{day.system}: made in {made - started:.1f} s, played in {time.monotonic() - made:.1f} s")
        assert played >= 1
        own, expected = cli_places(db)
        shown = public_places(page, server.url)
        assert shown == expected, (shown, expected)
        if own:
            assert page.locator("table.places").count() == 1 and "—" not in [p for p, _ in shown]  # all decided
            if day.system in ("knockout", "double-knockout", "paramus"):
                page.goto(server.url + "/bracket")
                assert page.locator("#bracket svg").count() >= 1 and "[" in page.inner_text("#champion")
        if day.teams:
            team_order(page, server.url, db)
        context.close()
    print(f"{day.system}: {played} rounds in {time.monotonic() - started:.1f} s")
