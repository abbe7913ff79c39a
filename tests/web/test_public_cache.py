"""The players' pages under a hall of phones (issue 45, items 1 and 2), through a running
``goledger serve``: every public page is sent gzipped to a client that accepts gzip, with an
entity tag that a phone sends back for ``304``; the tag changes when a result moves the head
(written from outside the desk, as the command line does); every player's page is kept, not
only the last 256; and a kept page costs no SQLite (the head is known from the files'
signature, :class:`goledger.web.live.HeadMark`)."""

from __future__ import annotations

import gzip
import http.client
import os
import time
from pathlib import Path

from goledger import commands
from goledger.web.live import PublicPage, public_page_of
from goledger.web.page_cache import PageCache

from ..desk_server import DeskServer

PUBLIC = ["/", "/standings", "/player/p0001", "/player/p0040", "/?round=1", "/?find=Sur"]


def _tournament(db: Path, players: int = 40) -> None:
    commands.new(db, "Cache Cup", 3, "mcmahon", "3d", "20k", None, None, "7.5")
    for i in range(players):
        commands.register(db, f"Sur{i:02d}", f"Given{i:02d}", f"{1 + i % 9}k")
    for table in range(players // 2):
        commands.pair(db, 1, f"p{2 * table + 1:04d}", f"p{2 * table + 2:04d}", table + 1, 0)


def _get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def test_public_pages_are_gzipped_tagged_and_revalidated(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _tournament(db)
    with DeskServer(db) as desk:
        for path in PUBLIC:
            _get(desk.port, path, {})  # rendered once
            status, headers, body = _get(desk.port, path, {"Accept-Encoding": "gzip, br"})
            assert status == 200 and headers.get("content-encoding") == "gzip", (path, headers)
            page = gzip.decompress(body)
            assert b"<main" in page and "Accept-Encoding" in headers["vary"]
            plain_status, plain_headers, plain = _get(desk.port, path, {})
            assert plain_status == 200 and "content-encoding" not in plain_headers and plain == page
            tag = headers["etag"]
            status, again, body = _get(desk.port, path, {"Accept-Encoding": "gzip", "If-None-Match": tag})
            assert (status, body, again["etag"]) == (304, b"", tag), path
        _, before, _ = _get(desk.port, "/?round=1", {"Accept-Encoding": "gzip"})
        commands.result(db, 1, 1, "white")  # from outside the desk, as the command line writes
        deadline = time.monotonic() + 5
        while True:
            status, after, body = _get(desk.port, "/?round=1",
                                       {"Accept-Encoding": "gzip", "If-None-Match": before["etag"]})
            if status == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert status == 200 and after["etag"] != before["etag"] and b"1-0" in gzip.decompress(body)


def test_every_player_page_stays_kept(tmp_path: Path) -> None:
    """The old cache was cleared whole at 256 pages: rotating 300 player pages always missed.
    Now each is kept, and the standings asked for first is still kept after all of them."""
    cache = PageCache(max_bytes=1 << 30)
    cache.put("en:/standings?", public_page_of(5, "h", "<main>standings</main>"))
    for i in range(3000):
        cache.put(f"en:/player/p{i:04d}?", public_page_of(5, "h", f"<main>player {i}</main>"))
    assert len(cache) == 3001 and cache.hit("en:/standings?", 5, "h") is not None
    assert cache.hit("en:/standings?", 6, "h2") is None  # another head: not served


def test_the_byte_bound_evicts_least_recently_used_first() -> None:
    page = public_page_of(1, "h", "<main>" + "x" * 5000 + "</main>")
    size = PageCache().put("k", page).size
    cache = PageCache(max_bytes=size * 3)
    for key in ("a", "b", "c"):
        cache.put(key, page)
    assert cache.hit("a", 1, "h") is not None  # a is now the most recently used
    cache.put("d", page)
    assert list(cache) == ["c", "a", "d"] and cache.bytes <= cache.max_bytes
    assert cache.put("huge", public_page_of(1, "h", "y" * size * 4)) is not None and "huge" not in cache


def test_a_kept_head_is_read_once_while_the_files_are_unchanged(tmp_path: Path) -> None:
    from goledger.web.live import HeadMark

    db = tmp_path / "t.db"
    _tournament(db, 4)
    past = time.time() - 60
    for path in (db, db.with_name(db.name + "-wal")):
        if path.exists():
            os.utime(path, (past, past))
    mark = HeadMark(db)
    reads = []
    read = mark._read

    def counted() -> tuple[int, str]:
        reads.append(1)
        return read()

    mark._read = counted  # type: ignore[method-assign]
    first = mark.current()
    assert [mark.current() for _ in range(100)] == [first] * 100 and len(reads) == 1
    commands.result(db, 1, 1, "white")
    soon = time.time() + 5  # as if written in the same clock tick as the next read
    for path in (db, db.with_name(db.name + "-wal")):
        if path.exists():
            os.utime(path, (soon, soon))
    moved = mark.current()
    assert moved[0] == first[0] + 1 and moved[1] != first[1] and len(reads) == 2
    # the files changed too recently to vouch for the head: it is read again, every time
    assert mark.current() == moved and len(reads) == 3


def test_a_page_rendered_at_no_kept_head_is_not_kept() -> None:
    cache = PageCache()
    kept = cache.put("k", PublicPage(1, "", b"<main>x</main>", b"x"))
    assert kept.tag == "" and "k" not in cache and len(cache) == 0


def test_the_players_view_on_a_port_of_its_own(tmp_path: Path) -> None:
    """``goledger serve --public-port``: the players' pages on their own port, in a process of
    their own; no director page, login or write there; the desk's port keeps everything; a
    result recorded at the desk reaches the players' port; both end with the desk."""
    import signal
    import subprocess
    import sys

    from ..desk_server import TOKEN, free_port

    db = tmp_path / "t.db"
    _tournament(db, 4)
    desk_port, players_port = free_port(), free_port()
    env = {**os.environ, "GOLEDGER_TOKEN": TOKEN}
    proc = subprocess.Popen([sys.executable, "-m", "goledger", "serve", "--db", str(db), "--port", str(desk_port),
                             "--public-port", str(players_port)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if _get(players_port, "/standings", {})[0] == 200 and _get(desk_port, "/", {})[0] == 200:
                    break
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "the desk did not start"
                time.sleep(0.1)
        for path in ("/", "/standings", "/player/p0001", "/api/standings", "/static/htmx.min.js"):
            assert _get(players_port, path, {})[0] == 200, path
        for path in ("/desk", "/login", "/desk/round/1", "/print/players"):
            assert _get(players_port, path, {})[0] == 404, path
        auth = {"Authorization": f"Bearer {TOKEN}"}
        assert _get(desk_port, "/desk", auth)[0] == 200
        from goledger.ledger.store import Ledger

        with Ledger.open(db) as ledger:
            before = ledger.head().seq
        conn = http.client.HTTPConnection("127.0.0.1", players_port, timeout=10)
        conn.request("POST", "/api/results", body=b'{"round": 1, "table": 1, "result": "w", "expected_head": 1}',
                     headers={**auth, "Content-Type": "application/json"})
        assert conn.getresponse().status in (401, 404, 405)  # nothing writes on the players' port
        conn.close()
        from goledger.ledger.store import Ledger

        with Ledger.open(db) as ledger:
            assert ledger.head().seq == before
        commands.result(db, 1, 1, "white")
        deadline = time.monotonic() + 5
        while b"1-0" not in _get(players_port, "/?round=1", {})[2]:
            assert time.monotonic() < deadline, "the result did not reach the players' port"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    deadline = time.monotonic() + 5
    while True:
        try:
            _get(players_port, "/", {})
        except OSError:
            break  # the players' process ended with the desk
        assert time.monotonic() < deadline, "the players' view outlived the desk"
        time.sleep(0.1)


def test_the_players_port_bounds_the_headers_of_every_request(tmp_path: Path) -> None:
    """The players' port parses with httptools, which has no header limit of its own: the
    headers of a keep-alive request after the first are counted, and past 16 KB the connection
    is answered 400 and closed (the first request's are bounded by the door, as on the desk)."""
    import socket

    from ..desk_server import players_view, read_response

    db = tmp_path / "t.db"
    _tournament(db, 4)
    with players_view(db) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET /standings HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(sock, 10).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /standings HTTP/1.1\r\nHost: x\r\n")
        for _ in range(40):
            sock.sendall(b"X-Filler: " + b"a" * 1000 + b"\r\n")
        answer = read_response(sock, 10)
        assert answer.startswith(b"HTTP/1.1 400"), answer[:80]
