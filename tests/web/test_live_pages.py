"""The players' pages kept per head and what a live page fetches (issue 32, item 2), through
Starlette's test client: a live fetch (``X-Goledger-Live: 1``) gets the page's ``<main>`` as
rendered at the head it names (``X-Goledger-Head``); a kept page is for one event of one log (its
hash), not for "as many events"; the head watcher has watched pages rendered again when the head
moves, whoever wrote (here the library itself, as the command line does)."""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.views import standings
from goledger.web import create_app

TOKEN = "live-pages-director-token"
LIVE = {"X-Goledger-Live": "1"}


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def _tournament(db: Path) -> None:
    commands.new(db, "Live Cup", 3, "mcmahon", "3d", "20k", None, None, "7.5")
    for surname, first, rank in (("Sato", "Ken", "2d"), ("Ito", "Mai", "2d"), ("Abe", "Jo", "4k"),
                                 ("Mori", "Aya", "4k")):
        commands.register(db, surname, first, rank)
    commands.pair(db, 1, "p0001", "p0002", 1, 0)
    commands.pair(db, 1, "p0003", "p0004", 2, 0)


def _pages(app: Any) -> Any:
    inner = app
    while not isinstance(inner, Starlette):
        inner = inner.app
    return inner.state.pages


def _order(html: str) -> list[str]:
    """The player ids of a standings table, top to bottom."""
    return re.findall(r'href="/player/(p\d+)"', html)


def test_a_live_fetch_gets_the_main_rendered_at_the_head_it_names(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _tournament(db)
    commands.result(db, 1, 2, "black")
    client = TestClient(create_app(db, TOKEN))
    whole = client.get("/standings").text
    part = client.get("/standings", headers=LIVE)
    assert part.status_code == 200 and part.headers["x-goledger-head"] == str(_head(db))
    assert "X-Goledger-Live" in part.headers["vary"] and part.headers["cache-control"] == "no-store"
    assert "<html" not in part.text and "<main>" not in part.text and part.text in whole
    assert _order(part.text) == [r.player_id for r in standings(db).rows]
    commands.result(db, 1, 1, "white")  # the head moves: the next fetch is for the new head
    again = client.get("/standings", headers=LIVE)
    assert again.headers["x-goledger-head"] == str(_head(db))
    assert _order(again.text) == [r.player_id for r in standings(db).rows] != _order(part.text)


def test_a_kept_page_is_for_its_events_hash_not_just_its_count(tmp_path: Path) -> None:
    """Two logs of as many events that differ in the last one: the page kept for one is never
    served for the other (the cache is keyed by the head's hash, as the state the desk keeps)."""
    db, other = tmp_path / "t.db", tmp_path / "other.db"
    _tournament(db)
    shutil.copy(db, other)
    commands.result(db, 1, 1, "white")
    commands.result(other, 1, 1, "black")
    assert _head(db) == _head(other)
    client = TestClient(create_app(db, TOKEN))
    first = client.get("/standings", headers=LIVE)
    assert _order(first.text)[0] == "p0001"
    assert client.get("/standings", headers=LIVE).text == first.text  # kept while the head is that event
    shutil.copy(other, db)  # the same number of events, another last event
    second = client.get("/standings", headers=LIVE)
    assert second.headers["x-goledger-head"] == first.headers["x-goledger-head"]
    assert _order(second.text) == [r.player_id for r in standings(other).rows] != _order(first.text)


def test_the_head_watcher_has_watched_pages_rendered_again(tmp_path: Path) -> None:
    """With a live stream open, a write from outside the desk (the library, as the command
    line) moves the head: the watched standings page is rendered at the new head before any
    phone asks for it, and what is kept claims that head's hash."""
    db = tmp_path / "t.db"
    _tournament(db)
    app = create_app(db, TOKEN, poll=0.02)
    pages = _pages(app)
    with TestClient(app) as client, client.stream("GET", "/events/head?lifetime=3") as stream:
        lines = stream.iter_lines()
        while not next(lines).startswith("data:"):
            pass
        client.get("/standings")
        (key,) = pages.public_pages
        commands.result(db, 1, 1, "white")
        with Ledger.open(db) as ledger:
            now = ledger.head()
        deadline = time.monotonic() + 3
        while pages.public_pages.get(key, (0,))[0] != now.seq and time.monotonic() < deadline:
            time.sleep(0.02)
        kept = pages.public_pages[key]
        assert (kept.seq, kept.hash) == (now.seq, now.hash)
        assert _order(kept.main.decode()) == [r.player_id for r in standings(db).rows]


def _pid() -> Any:
    import os

    from goledger.web.isolate import Done

    return Done(200, "", os.getpid())


def test_a_write_runs_in_the_spare_forked_ahead_and_each_in_a_process_of_its_own() -> None:
    from goledger.web.isolate import WorkerPool

    pool = WorkerPool(timeout=60)
    pool.prepare()
    deadline = time.monotonic() + 30
    while pool._spare is None and time.monotonic() < deadline:
        time.sleep(0.05)
    spare = pool._spare
    assert spare is not None and spare.process.is_alive()
    first = pool.run(_pid).data
    assert first == spare.process.pid and pool._spare is None  # the spare did the work, and is used up
    second = pool.run(_pid).data  # no spare: forked for this call
    assert second not in (first, None)
    spare.process.join(10)
    assert not spare.process.is_alive()  # one job per process: it exited
