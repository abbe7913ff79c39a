"""A real ``goledger serve`` in a subprocess on 127.0.0.1 (uvicorn, the desk's own protocol
and middleware), for the attacks that need one (issue 27): raw sockets, descriptor limits,
concurrent slow clients.

``DeskServer(db)`` runs ``python -m goledger serve``; with options (``header_timeout``,
``work_timeout``, ``guard`` limits, ``nofile``: the server's ``RLIMIT_NOFILE``) it calls
:func:`goledger.web.serve.serve` with them in ``python -c``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .conftest import REPO

TOKEN = "attack-test-director-token"

LAUNCH = """
import json, resource, sys
options = json.loads(sys.argv[1])
nofile = options.pop("nofile", None)
if nofile:
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
from goledger.web.serve import serve
from goledger.web.guard import GuardLimits
guard = options.pop("guard", None)
serve(options.pop("db"), port=options.pop("port"), token=options.pop("token"),
      guard=GuardLimits(**guard) if guard is not None else None, **options)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class DeskServer:
    def __init__(self, db: Path, **options: Any) -> None:
        self.db = db
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(REPO), "GOLEDGER_TOKEN": TOKEN}
        new = not db.exists()  # a desk that creates its ledger is asked for (serve --new)
        if options:
            args = [sys.executable, "-c", LAUNCH,
                    json.dumps({"db": str(db), "port": self.port, "token": TOKEN, **({"new": True} if new else {}),
                                **options})]
        else:
            args = [sys.executable, "-m", "goledger", "serve", "--db", str(db), "--port", str(self.port),
                    *(["--new"] if new else [])]
        self.proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def __enter__(self) -> DeskServer:
        deadline = time.monotonic() + 30
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"goledger serve exited: {self.proc.stderr.read() if self.proc.stderr else ''}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("goledger serve did not start") from None
                time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def get(self, path: str, timeout: float = 5, headers: dict[str, str] | None = None) -> tuple[int, str, float]:
        """(status, body, seconds) of ``GET path``."""
        start = time.monotonic()
        request = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                return r.status, r.read().decode("utf-8", "replace"), time.monotonic() - start
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace"), time.monotonic() - start

    def post(self, path: str, body: bytes, headers: dict[str, str], timeout: float = 30) -> tuple[int, str]:
        request = urllib.request.Request(self.url + path, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as r:
                return r.status, r.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8", "replace")

    def raw(self, data: bytes, timeout: float = 5) -> socket.socket:
        """A socket to the desk that has sent ``data``."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        sock.sendall(data)
        return sock


def wait_port(port: int, what: str = "the server", seconds: float = 30) -> None:
    """Wait until something accepts connections on ``port`` of 127.0.0.1."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.05)


@contextmanager
def players_view(db: Path, header_timeout: float = 10.0) -> Iterator[int]:
    """The players' view of ``db`` alone (``goledger serve --public-port``'s process), forked
    from this process (so it sees this process's module constants, patched or not), on a free
    port; stopped at the end."""
    from goledger.web.connections import ConnectionLimits
    from goledger.web.serve import _start_public

    port = free_port()
    [process] = _start_public(db, "127.0.0.1", port, ConnectionLimits(64, header_timeout), None)
    try:
        wait_port(port, "the players' view")
        yield port
    finally:
        process.terminate()
        process.join(5)


def read_response(sock: socket.socket, timeout: float) -> bytes:
    """Everything the server sends within ``timeout`` seconds, until it closes or goes quiet
    after a complete header block."""
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, ConnectionResetError):
            break
        if not chunk:
            break
        data += chunk
        if b"\r\n\r\n" in data:
            head, _, rest = data.partition(b"\r\n\r\n")
            length = [int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")]
            if length and len(rest) >= length[0]:
                break
    return data


HALF_HEADERS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n"
"""Half a request's headers (slowloris)."""
SLOW_LOGIN = (b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
              b"Content-Length: 16000\r\n\r\ncsrf=")
"""A login's whole headers and the first bytes of a body that never comes (issue 41)."""


def flood(port: int, stop: Any, count: int = 1100, reopen_after: float = 0.0, partial: bytes = HALF_HEADERS) -> None:
    """Hold ``count`` connections to ``port``, each having sent ``partial`` (half a request's
    headers, or :data:`SLOW_LOGIN`); one the server closes is opened again ``reopen_after``
    seconds later (0: at once, a connection flood), until ``stop`` (an event) is set. Run it
    in a process of its own (:func:`flooding`): in the test's own interpreter it would slow
    the test's client."""
    import selectors

    selector = selectors.DefaultSelector()
    due: list[float] = [0.0] * count
    while not stop.is_set():
        now = time.monotonic()
        for _ in [t for t in due if t <= now]:
            s = socket.socket()
            s.setblocking(False)
            s.connect_ex(("127.0.0.1", port))
            selector.register(s, selectors.EVENT_WRITE)
        due = [t for t in due if t > now]
        for key, events in selector.select(0.05):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            try:
                if events & selectors.EVENT_WRITE:
                    s.send(partial)
                    selector.modify(s, selectors.EVENT_READ)
                    continue
                if s.recv(4096):
                    continue
            except OSError:
                pass
            selector.unregister(s)
            s.close()
            due.append(time.monotonic() + reopen_after)
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]


class flooding:
    """``with flooding(port, …):`` runs :func:`flood` in a forked process meanwhile."""

    def __init__(self, port: int, **options: Any) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        self.stop = context.Event()
        self.process = context.Process(target=flood, args=(port, self.stop), kwargs=options, daemon=True)

    def __enter__(self) -> flooding:
        self.process.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.process.join(20)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
