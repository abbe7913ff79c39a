"""The players' port's fast path and its processes (issue 45): ``goledger serve --public-port P
--workers N`` runs N processes on the port, each answering a simple request for a kept page
from its own protocol (:mod:`goledger.web.fast_path`) and handing everything else, as sent, to
uvicorn (whose answers carry ``server: uvicorn``: how these tests tell the two apart); a page
not kept is asked of the application once per page and head (:mod:`goledger.web.fast_asgi`)."""

from __future__ import annotations

import asyncio
import gzip
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from goledger import commands
from goledger.web import fast_path

from ..desk_server import TOKEN, free_port, players_view, read_response, wait_port
from .test_public_cache import _get, _tournament


def _exchange(sock: socket.socket, request: bytes) -> bytes:
    sock.sendall(request)
    return read_response(sock, 10)


def _head(response: bytes) -> bytes:
    return response.partition(b"\r\n\r\n")[0].lower()


GET = b"GET /standings HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n"


def test_a_kept_page_is_answered_by_the_fast_path_and_odd_requests_by_uvicorn(tmp_path: Path) -> None:
    """A plain GET of a kept page never reaches uvicorn; a request the fast path does not read
    exactly (HTTP/1.0, a body announced, both framings at once, a folded or duplicated header, a
    bare line feed, an encoded path, a page not public) goes to uvicorn as it was sent, and the
    connection stays with uvicorn."""
    db = tmp_path / "t.db"
    _tournament(db, 6)
    odd = [
        b"GET /standings HTTP/1.0\r\nHost: x\r\n\r\n",
        b"GET /standings HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        b"GET /standings HTTP/1.1\r\nHost: x\r\nContent-Length: 44\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"0\r\n\r\nGET /desk HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /standings HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        b"GET /standings HTTP/1.1\r\nHost: x\r\nX-Folded: a\r\n b\r\n\r\n",
        b"GET /standings HTTP/1.1\nHost: x\r\n\r\n",
        b"GET /%73tandings HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /standings HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN.encode() + b"\r\n\r\n",
        b"GET /api/head HTTP/1.1\r\nHost: x\r\n\r\n",
        b"OPTIONS /standings HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    with players_view(db) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            first = _exchange(sock, GET)  # rendered (asked of the application from the fast path), then kept
            assert first.startswith(b"HTTP/1.1 200") and b"server: uvicorn" not in _head(first)
            kept = _exchange(sock, GET)
            assert kept.startswith(b"HTTP/1.1 200") and b"server: uvicorn" not in _head(kept)
            head, _, body = kept.partition(b"\r\n\r\n")
            assert b"content-encoding: gzip" in head.lower() and b"<main" in gzip.decompress(body)
            assert b"content-security-policy" in head.lower() and b"date: " in head.lower()
        for request in odd:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                answer = _exchange(sock, request)
                assert b"server: uvicorn" in _head(answer), (request, answer[:200])
                if answer.startswith(b"HTTP/1.1 200") and b"connection: close" not in _head(answer):
                    again = _exchange(sock, GET)  # the connection is uvicorn's from then on
                    assert b"server: uvicorn" in _head(again), request


def test_a_connection_stays_on_the_fast_path_after_a_result(tmp_path: Path) -> None:
    """After a result moves the head, the next request for a page is asked of the application
    (the page at the new head, rendered once) and the connection stays on the fast path."""
    db = tmp_path / "t.db"
    _tournament(db, 6)
    with players_view(db) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        request = b"GET /?round=1 HTTP/1.1\r\nHost: x\r\n\r\n"
        before = _exchange(sock, request)
        assert b"1-0" not in before
        commands.result(db, 1, 1, "white")
        after = _exchange(sock, request)
        assert b"1-0" in after and b"server: uvicorn" not in _head(after)
        assert b"server: uvicorn" not in _head(_exchange(sock, request))


def test_the_fast_path_closes_when_asked_and_after_its_request_limit(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "t.db"
    _tournament(db, 4)
    monkeypatch.setattr(fast_path, "MAX_REQUESTS", 3)
    with players_view(db) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            answers = [_exchange(sock, GET) for _ in range(3)]
            assert [b"connection: close" in _head(a) for a in answers] == [False, False, True]
            assert sock.recv(10) == b""  # closed after the third
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            _exchange(sock, GET)
            closing = _exchange(sock, GET.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n"))
            assert closing.startswith(b"HTTP/1.1 200") and b"connection: close" in _head(closing)
            assert sock.recv(10) == b""


def test_the_fast_path_cuts_off_slow_headers_between_requests(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    _tournament(db, 4)
    with players_view(db, header_timeout=1.0) as port, \
            socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        _exchange(sock, GET)
        assert b"server: uvicorn" not in _head(_exchange(sock, GET))  # on the fast path
        sock.sendall(b"GET /standings HTTP/1.1\r\nHost: x\r\n")  # and never the rest
        started = time.monotonic()
        sock.settimeout(5)
        try:
            assert sock.recv(100) == b""
        except ConnectionResetError:
            pass
        assert time.monotonic() - started < 3


def test_a_client_that_reads_nothing_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client pipelining requests without reading a byte: past the transport's write limit
    the fast path reads no more of its requests, and after ``WRITE_TIMEOUT`` drops it."""
    db = tmp_path / "t.db"
    _tournament(db, 40)
    monkeypatch.setattr(fast_path, "WRITE_TIMEOUT", 1.0)
    plain = b"GET /standings HTTP/1.1\r\nHost: x\r\n\r\n"  # not gzipped: more bytes to leave unread
    with players_view(db) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        one = _exchange(sock, plain)
        size = len(one)
        sock.setblocking(False)
        sent = 0
        for _ in range(5000):
            try:
                sent += sock.send(plain)
            except BlockingIOError:
                break
        time.sleep(4)
        sock.setblocking(True)
        sock.settimeout(5)
        got = 0
        try:
            while chunk := sock.recv(1 << 20):
                got += len(chunk)
        except (ConnectionResetError, TimeoutError):
            pass
        requests = sent // len(plain)
        assert requests > 100 and got < requests * size, (requests, got, size)


def test_requests_for_a_page_not_kept_ask_the_application_once(tmp_path: Path) -> None:
    """A hall of phones asking for a page at a new head: one request goes through the
    application (the page is rendered and kept), the others wait for it and are answered from
    the kept page, byte for byte the same. After a result the watched page is rendered ahead
    the moment the new head is seen (issue 45): then no request needs the application at all;
    either way the page is rendered once per head."""
    from goledger.web.app import create_app
    from goledger.web.cached_front import CachedFront
    from goledger.web.fast_asgi import Asker
    from goledger.web.fast_path import simple_request

    db = tmp_path / "t.db"
    _tournament(db, 8)
    app = create_app(db, TOKEN, public_only=True)
    front = app.app
    assert isinstance(front, CachedFront)
    asked: list[str] = []

    async def counted(scope: dict, receive: object, send: object) -> None:
        asked.append(scope["path"])
        await app(scope, receive, send)

    pages = app
    while not hasattr(pages, "state"):  # the Starlette application under the guard and the front
        pages = pages.app
    pages = pages.state.pages
    rendered: list[str] = []
    render_text = pages._render_text

    def counting(query: str, name: str, data: dict) -> str:
        rendered.append(name)
        return render_text(query, name, data)

    pages._render_text = counting
    asker = Asker(counted, front)
    request = simple_request(b"GET /standings HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
    assert request is not None

    async def hall(phones: int) -> list[tuple[bytes, bytes, bool]]:
        gone = asyncio.Event()
        return list(await asyncio.gather(*(asker(request, ("127.0.0.1", 1), ("127.0.0.1", 2), gone)
                                           for _ in range(phones))))

    answers = asyncio.run(hall(50))
    assert len(asked) == 1 and all(a[0].startswith(b"HTTP/1.1 200") for a in answers)
    assert len({a[1] for a in answers}) == 1 and b"<main" in gzip.decompress(answers[0][1])
    head = commands.result(db, 1, 1, "white").seqs[-1]
    again = asyncio.run(hall(50))
    assert len(asked) <= 2 and len({a[1] for a in again}) == 1 and len(rendered) == 2
    assert f'data-head="{head}"'.encode() in gzip.decompress(again[0][1])


def _holds(pid: int, port: int, state: str) -> bool:
    """Whether process ``pid`` holds a socket on local ``port`` in TCP state ``state`` (``0A``
    listening, ``01`` established), from /proc."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if os.path.exists(table):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
                    inodes.add(fields[9])
    try:
        held = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
    except OSError:
        return False
    return any(f"socket:[{inode}]" in held for inode in inodes)


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry))
    return out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_players_port_served_by_several_processes(tmp_path: Path) -> None:
    """``goledger serve --public-port P --workers 2``: two processes listen on the players'
    port; connections spread over them; a result written from outside reaches every
    connection's page; both end with the desk; ``--workers`` without ``--public-port`` or out
    of range is refused in one sentence."""
    db = tmp_path / "t.db"
    _tournament(db, 6)
    desk_port, port = free_port(), free_port()
    env = {**os.environ, "GOLEDGER_TOKEN": TOKEN}
    proc = subprocess.Popen([sys.executable, "-m", "goledger", "serve", "--db", str(db), "--port", str(desk_port),
                             "--public-port", str(port), "--workers", "2"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_port(desk_port)
        wait_port(port)
        deadline = time.monotonic() + 30
        while len([c for c in _children(proc.pid) if _holds(c, port, "0A")]) < 2:
            assert time.monotonic() < deadline, "two processes should listen on the players' port"
            time.sleep(0.1)
        sockets = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(16)]
        try:
            request = b"GET /?round=1 HTTP/1.1\r\nHost: x\r\n\r\n"
            assert all(b"1-0" not in _exchange(s, request) for s in sockets)
            assert len([c for c in _children(proc.pid) if _holds(c, port, "01")]) == 2  # both serve
            commands.result(db, 1, 1, "white")
            assert all(b"1-0" in _exchange(s, request) for s in sockets)
        finally:
            for s in sockets:
                s.close()
        assert _get(port, "/desk", {})[0] == 404
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(15)
    deadline = time.monotonic() + 5
    while True:
        try:
            _get(port, "/", {})
        except OSError:
            break
        assert time.monotonic() < deadline, "the players' processes outlived the desk"
        time.sleep(0.1)
    for extra in (["--workers", "2"], ["--public-port", str(free_port()), "--workers", "0"]):
        done = subprocess.run([sys.executable, "-m", "goledger", "serve", "--db", str(db), "--port",
                               str(free_port()), *extra], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 1 and "--workers" in done.stderr + done.stdout, extra


def test_a_new_head_read_on_the_fast_path_wakes_the_head_watcher(tmp_path: Path) -> None:
    """The first turn of the event loop that reads a head other than the last turn's calls the
    front's ``moved`` (the desk's head watcher is then woken at once); later turns at the same
    head do not."""
    from goledger.web.app import create_app
    from goledger.web.cached_front import CachedFront
    from goledger.web.fast_path import simple_request

    db = tmp_path / "t.db"
    _tournament(db, 4)
    front = create_app(db, TOKEN, public_only=True).app
    assert isinstance(front, CachedFront)
    woken: list[int] = []
    front.moved = lambda: woken.append(1)
    request = simple_request(b"GET /standings HTTP/1.1\r\nHost: x\r\n\r\n")
    assert request is not None

    async def turns() -> list[int]:
        seqs = []
        for write in (False, False, True, False, False):
            if write:
                commands.result(db, 1, 1, "white")
            where = await front.key_read(request)
            assert where is not None
            seqs.append(where[1])
            await asyncio.sleep(0)  # the next turn of the loop
            await asyncio.sleep(0)
        return seqs

    seqs = asyncio.run(turns())
    assert seqs[0] == seqs[1] < seqs[2] == seqs[3] == seqs[4] and woken == [1]


def test_head_and_a_failing_application_on_the_fast_path(tmp_path: Path) -> None:
    """``HEAD`` of a page not kept yet is asked of the application and answered without a
    body (its length said); an application that fails before answering is answered 500 and the
    connection closed, as uvicorn does."""
    from goledger.web.fast_asgi import respond
    from goledger.web.fast_path import simple_request

    db = tmp_path / "t.db"
    _tournament(db, 4)
    with players_view(db) as port, socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"HEAD /player/p0002 HTTP/1.1\r\nHost: x\r\n\r\n")
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(65536)
        lines = _head(head)
        assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n") and b"server: uvicorn" not in lines
        length = int(lines.split(b"content-length: ")[1].split(b"\r\n")[0])
        page = _exchange(sock, b"GET /player/p0002 HTTP/1.1\r\nHost: x\r\n\r\n")
        assert len(page.partition(b"\r\n\r\n")[2]) == length > 0

    async def broken(scope: dict, receive: object, send: object) -> None:
        raise RuntimeError("a bug")

    request = simple_request(b"GET /standings HTTP/1.1\r\nHost: x\r\n\r\n")
    assert request is not None
    status, body, close = asyncio.run(respond(broken, request, None, None, asyncio.Event()))
    assert status.startswith(b"HTTP/1.1 500") and body == b"Internal Server Error" and close
