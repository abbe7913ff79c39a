"""The watched players' pages rendered ahead of the phones (issue 45: "pre-rendered after each
write for the pages being watched"), through a running ``goledger serve``.

When a result moves the head, the pages being watched are rendered again at once, on a thread of
their own, once, and every phone's request for them at the new head waits for that one
rendering instead of rendering them again (:mod:`goledger.web.renders`). Each kept page says how
it was made in ``Server-Timing`` (``render;dur=MS``, ``desc="ahead"`` when it was rendered ahead
of any request), which is what these tests read from outside.
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from goledger import commands
from goledger.ledger.store import Ledger

from ..desk_server import TOKEN, DeskServer, free_port, wait_port
from .test_public_cache import _get, _tournament


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


@contextmanager
def _serving(db: Path) -> Iterator[tuple[int, int]]:
    """``goledger serve --public-port`` over ``db``: (the desk's port, the players' port)."""
    desk, players = free_port(), free_port()
    proc = subprocess.Popen([sys.executable, "-m", "goledger", "serve", "--db", str(db), "--port", str(desk),
                             "--public-port", str(players)], env={**os.environ, "GOLEDGER_TOKEN": TOKEN},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_port(desk)
        wait_port(players)
        yield desk, players
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)


@contextmanager
def _stream(port: int) -> Iterator[socket.socket]:
    """An open ``/events/head`` stream on ``port``, as a phone's page holds one."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        sock.sendall(b"GET /events/head HTTP/1.1\r\nHost: x\r\n\r\n")
        yield sock
    finally:
        sock.close()


def _until_head(sock: socket.socket, seq: int, seen: bytearray) -> None:
    """Read the stream until it has told head ``seq``."""
    deadline = time.monotonic() + 10
    while f"data: {seq}\n".encode() not in seen:
        assert time.monotonic() < deadline, f"the stream did not tell head {seq}: {bytes(seen[-300:])!r}"
        seen += sock.recv(65536)


def _page_head(body: bytes) -> int:
    found = re.search(rb'data-head="(\d+)"', gzip.decompress(body))
    assert found is not None
    return int(found.group(1))


def test_a_result_at_the_desk_renders_the_watched_page_ahead_on_the_players_port(tmp_path: Path) -> None:
    """A phone on the players' port watches the standings (its page and its stream); the
    director posts a result at the desk's port: the players' process renders the standings at
    the new head before any phone asks, and the phone's next request gets that page."""
    db = tmp_path / "t.db"
    _tournament(db, 20)
    with _serving(db) as (desk, players), _stream(players) as stream:
        seen = bytearray()
        _until_head(stream, _head(db), seen)
        status, headers, _ = _get(players, "/standings", {"Accept-Encoding": "gzip"})
        assert status == 200 and 'desc="ahead"' not in headers["server-timing"]  # asked for: rendered then
        assert re.fullmatch(r"render;dur=\d+\.\d", headers["server-timing"])
        conn = http.client.HTTPConnection("127.0.0.1", desk, timeout=30)
        conn.request("POST", "/api/results", body=f'{{"round": 1, "table": 3, "result": "white", '
                                                  f'"expected_head": {_head(db)}}}'.encode(),
                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        answer = conn.getresponse()
        assert answer.status == 200, answer.read()
        conn.close()
        head = _head(db)
        _until_head(stream, head, seen)
        status, headers, body = _get(players, "/standings", {"Accept-Encoding": "gzip"})
        assert status == 200 and _page_head(body) == head
        assert re.fullmatch(r'render;dur=\d+\.\d;desc="ahead"', headers["server-timing"]), headers
        live = _get(players, "/standings", {"Accept-Encoding": "gzip", "X-Goledger-Live": "1"})
        assert live[1]["x-goledger-head"] == str(head) and live[1]["server-timing"] == headers["server-timing"]


def test_a_hall_of_phones_after_a_result_waits_for_one_rendering(tmp_path: Path) -> None:
    """No stream open, a result written from outside (as the command line writes): the first
    request that sees the new head has the watched page rendered ahead, once; thirty phones
    asking at that moment all get that one rendering (the same bytes, the same timing)."""
    db = tmp_path / "t.db"
    _tournament(db, 40)
    with _serving(db) as (_, players):
        assert _get(players, "/standings", {"Accept-Encoding": "gzip"})[0] == 200  # watched from now on
        commands.result(db, 1, 2, "black")
        head = _head(db)
        with ThreadPoolExecutor(30) as pool:
            answers = list(pool.map(lambda _: _get(players, "/standings", {"Accept-Encoding": "gzip"}), range(30)))
    assert {status for status, _, _ in answers} == {200}
    assert len({body for _, _, body in answers}) == 1 and _page_head(answers[0][2]) == head
    timings = {headers["server-timing"] for _, headers, _ in answers}
    assert len(timings) == 1 and timings.pop().endswith(';desc="ahead"')


def test_the_desk_alone_renders_the_watched_page_ahead_when_its_watcher_sees_a_write(tmp_path: Path) -> None:
    """Without a players' port: with a stream open on the desk, a write from outside moves the
    head; the head watcher has the watched page rendered ahead, and the next phone gets it."""
    db = tmp_path / "t.db"
    _tournament(db, 20)
    with DeskServer(db) as desk, _stream(desk.port) as stream:
        seen = bytearray()
        _until_head(stream, _head(db), seen)
        assert _get(desk.port, "/standings", {"Accept-Encoding": "gzip"})[0] == 200
        commands.result(db, 1, 4, "white")
        head = _head(db)
        _until_head(stream, head, seen)
        status, headers, body = _get(desk.port, "/standings", {"Accept-Encoding": "gzip"})
        assert status == 200 and _page_head(body) == head and headers["server-timing"].endswith(';desc="ahead"')


def test_a_live_fetch_gets_only_the_rows_changed_since_the_head_it_shows() -> None:
    """A page kept at a new head keeps the ``<main>`` of the head before: a live fetch naming
    that head gets the rows that changed and ``<tr data-same>`` for the others; one naming any
    other head, or none, gets the whole ``<main>``; a full page load never gets a delta."""
    from goledger.web.live import public_page_of
    from goledger.web.page_cache import SAME_ROW, PageCache, served, with_before

    rows = "".join(f"<tr><td>{i}</td><td>p{i}</td></tr>\n" for i in range(50))
    old = public_page_of(7, "aa", f"<body><main><h1>R</h1><table>{rows}</table></main></body>")
    new = public_page_of(8, "bb", old.body.decode().replace("<td>p17</td>", "<td>p18</td>"))
    cache = PageCache()
    cache.put("en:/standings?", old)
    from goledger.web.page_cache import keep_form

    kept = cache.put("en:/standings?", with_before(keep_form("en:/standings?", new), cache["en:/standings?"]))
    status, headers, body = served(kept, True, "", "", "7")
    assert status == 200 and headers["X-Goledger-Delta"] == "7" and headers["X-Goledger-Head"] == "8"
    assert body.count(SAME_ROW) == 49 and b"<tr><td>17</td><td>p18</td></tr>" in body and len(body) < len(new.main)
    assert gzip.decompress(served(kept, True, "", "gzip", "7")[2]) == body
    for shown in ("6", "8", ""):
        assert served(kept, True, "", "", shown)[2] == new.main and "X-Goledger-Delta" not in served(
            kept, True, "", "", shown)[1]
    assert served(kept, False, "", "", "7")[2] == new.body


def test_a_page_served_from_the_cache_counts_as_asked_for_and_a_look_does_not() -> None:
    """What keeps a page watched (rendered ahead at each head): being served (``hit``), not
    being looked at (``get``, as the rendering ahead checks whether it is kept already)."""
    from goledger.web.live import public_page_of
    from goledger.web.page_cache import PageCache

    cache = PageCache()
    cache.put("en:/standings?", public_page_of(3, "ab", "<main>x</main>"))
    assert cache.last_used("en:/standings?") == 0.0
    cache.get("en:/standings?")
    assert cache.last_used("en:/standings?") == 0.0
    before = time.monotonic()
    assert cache.hit("en:/standings?", 3, "ab") is not None
    assert cache.last_used("en:/standings?") >= before
    assert cache.hit("en:/standings?", 4, "cd") is None and cache.last_used("en:/nothing?") == 0.0
