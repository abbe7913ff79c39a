"""Benchmark the desk under attack (issue 27, "Done when"): does a page still come back within
1 s while someone without the token tries to stall it?

A real ``goledger serve`` (uvicorn on 127.0.0.1, in a subprocess) over a generated
tournament (default 200 players × 6 rounds). A client fetches the players' page ``GET /``
and ``GET /api/head`` every 0.1 s throughout, with a 5 s timeout (a timeout counts as a
failure), first undisturbed, then under each attack:

(a) **20 unauthenticated 32 MB bodies**: 20 clients posting 32 MB forms to
    ``/desk/do/register`` without the token, again and again (the server's RSS before and
    after is printed too);
(b) **1,100 half-open connections at a 1,024-descriptor limit**: the server is started
    with ``RLIMIT_NOFILE`` = 1,024; 1,100 connections each send half a request's headers and
    wait; one the server closes is opened again a second later; (b') the same, reopened at
    once (a flood of connections from the sampling client's own address);
(c) **one director request carrying a hostile number**: a logged-in director records an
    absence worth ``1e999999999`` points (``Fraction()`` of it would compute 10**999999999);
(d) **900 slow login bodies at a 1,024-descriptor limit** (issue 41, item 5): 900 anonymous
    ``POST /login`` whose headers are whole and whose 16,000-byte body never comes (above the
    824 connections the desk may hold), each reopened at once when the desk closes it.

Each line is measured beside the undisturbed line of the same run, on the same machine, and
carries the load average (1 minute) when it ended: on a shared machine the load is part of the
number. ``--reference`` adds (b) and (b') against plain uvicorn (its own accept loop, listen
queue 64, no connection door) at the same descriptor limit: what the desk's door changes.
``--repeat N`` measures the flood lines N times.

Printed: a Markdown table (samples, failures, median and worst latency of each page) for
``benchmarks/RESULTS.md``. Run: ``python benchmarks/bench_desk_attack.py [--seconds 10]
[--players 200] [--rounds 6] [--only a,b,b',c,d] [--repeat N] [--reference]``.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import multiprocessing
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.generate import generate_events  # noqa: E402
from goledger.ledger.store import Ledger  # noqa: E402

TOKEN = "bench-attack-director-token"


class Stop(Protocol):
    """When the attack ends (a :class:`multiprocessing.Event`)."""

    def is_set(self) -> bool: ...

MB = 1024 * 1024
LAUNCH = """
import json, resource, sys
options = json.loads(sys.argv[1])
nofile = options.pop("nofile", None)
if nofile:
    resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
if options.pop("reference", False):  # plain uvicorn over the same application
    import uvicorn
    from goledger.web.app import create_app
    uvicorn.run(create_app(options.pop("db"), options.pop("token")), host="127.0.0.1", port=options.pop("port"),
                log_level="warning", lifespan="off")
else:
    from goledger.web.serve import serve
    serve(options.pop("db"), port=options.pop("port"), token=options.pop("token"), **options)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``goledger serve`` (through :func:`goledger.web.serve.serve`) in a subprocess."""

    def __init__(self, db: Path, nofile: int | None = None, reference: bool = False) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        options: dict[str, Any] = {"db": str(db), "port": self.port, "token": TOKEN}
        if nofile:
            options["nofile"] = nofile
        if reference:
            options["reference"] = True
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop()); a pipe nobody reads could fill and stall the server
        self.proc = subprocess.Popen([sys.executable, "-c", LAUNCH, json.dumps(options)], env=env,
                                     stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the desk did not start") from None
                time.sleep(0.05)

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def sample(url: str, seconds: float) -> dict[str, list[float | None]]:
    """Latencies of ``GET /`` and ``GET /api/head`` every 0.1 s for ``seconds`` (``None``: failed)."""
    out: dict[str, list[float | None]] = {"/": [], "/api/head": []}
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for path, times in out.items():
            start = time.monotonic()
            try:
                with urllib.request.urlopen(url + path, timeout=5) as r:
                    r.read()
                    ok = r.status == 200
            except (OSError, urllib.error.URLError):
                ok = False
            times.append(time.monotonic() - start if ok else None)
        time.sleep(0.1)
    return out


def under(attack: Callable[[Stop], None], url: str, seconds: float,
          warmup: float = 1.0) -> dict[str, list[float | None]]:
    """Samples taken while ``attack`` runs in a process of its own (as an attacker is another
    program: sharing this one's interpreter lock would slow the sampling client, not the desk)."""
    context = multiprocessing.get_context("fork")
    stop = context.Event()
    worker = context.Process(target=attack, args=(stop,), daemon=True)
    worker.start()
    time.sleep(warmup)
    try:
        return sample(url, seconds)
    finally:
        stop.set()
        worker.join(30)
        if worker.is_alive():
            worker.kill()
            worker.join()


# ---------------------------------------------------------------------------- the attacks


def big_bodies(port: int, clients: int = 20) -> Callable[[Stop], None]:
    """``clients`` threads posting 32 MB bodies without the token, over and over."""
    chunk = b"x" * (64 * 1024)
    head = (f"POST /desk/do/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded"
            f"\r\nContent-Length: {32 * MB}\r\n\r\n").encode()

    def one(stop: Stop) -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    s.sendall(head)
                    for _ in range(32 * MB // len(chunk)):
                        if stop.is_set():
                            break
                        s.sendall(chunk)
            except OSError:
                time.sleep(0.01)

    def run(stop: Stop) -> None:
        threads = [threading.Thread(target=one, args=(stop,), daemon=True) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)

    return run


HALF_HEADERS = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n"
SLOW_LOGIN = (b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
              b"Content-Length: 16000\r\n\r\ncsrf=")


def half_open(port: int, count: int = 1100, reopen_after: float = 1.0,
              partial: bytes = HALF_HEADERS) -> Callable[[Stop], None]:
    """``count`` connections with half a request's headers (or ``partial``: :data:`SLOW_LOGIN`,
    a login whose body never comes); one the server closes is opened again ``reopen_after``
    seconds later (0: at once, a flood of connections)."""

    def run(stop: Stop) -> None:
        selector = selectors.DefaultSelector()
        pending: list[float] = [0.0] * count  # when each closed connection is opened again

        def connect() -> bool:
            s = socket.socket()
            s.setblocking(False)
            try:
                s.connect_ex(("127.0.0.1", port))
                selector.register(s, selectors.EVENT_WRITE)
                return True
            except OSError:
                s.close()
                return False

        while not stop.is_set():
            now = time.monotonic()
            due = [t for t in pending if t <= now]
            pending = [t for t in pending if t > now]
            for _ in due:
                if not connect():
                    pending.append(now + 0.1)
            for key, events in selector.select(0.05):
                s = key.fileobj
                assert isinstance(s, socket.socket)
                if events & selectors.EVENT_WRITE:
                    try:
                        s.send(partial)
                        selector.modify(s, selectors.EVENT_READ)
                        continue
                    except OSError:
                        pass
                else:
                    try:
                        if s.recv(4096):
                            continue
                    except OSError:
                        pass
                selector.unregister(s)
                s.close()
                pending.append(time.monotonic() + reopen_after)
        for key in list(selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]

    return run


def hostile_number(url: str, db: Path) -> Callable[[Stop], None]:
    """One director request: an absence worth ``1e999999999`` points."""

    def run(stop: Stop) -> None:
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

        def csrf() -> str:
            with opener.open(url + "/login", timeout=30) as r:
                found = re.search(r'name="csrf" value="([^"]+)"', r.read().decode())
                assert found
                return found.group(1)

        data = urllib.parse.urlencode({"csrf": csrf(), "token": TOKEN, "next": "/desk"}).encode()
        opener.open(url + "/login", data=data, timeout=30).read()
        with Ledger.open(db) as ledger:
            head = ledger.head().seq
        form = {"csrf": csrf(), "expected_head": str(head), "what": "absent", "player": "p0001",
                "round": "1", "points": "1e999999999"}
        try:
            opener.open(url + "/desk/do/player", data=urllib.parse.urlencode(form).encode(), timeout=300).read()
        except (OSError, urllib.error.URLError):
            pass

    return run


# ---------------------------------------------------------------------------- report


def row(name: str, samples: dict[str, list[float | None]]) -> str:
    cells = [name, f"{os.getloadavg()[0]:.1f}"]
    for times in samples.values():
        good = [t for t in times if t is not None]
        failed = len(times) - len(good)
        median = f"{statistics.median(good) * 1000:.0f}" if good else "–"
        worst = "timeout" if failed else f"{max(good) * 1000:.0f}"
        cells += [str(len(times)), str(failed), median, worst]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--only", default="a,b,b',c,d", help="the attacks to run, among a, b, b', c, d")
    parser.add_argument("--repeat", type=int, default=1, help="how many times to measure (b), (b') and (d)")
    parser.add_argument("--reference", action="store_true", help="also (b) and (b') against plain uvicorn")
    args = parser.parse_args()
    only = set(args.only.split(","))
    with tempfile.TemporaryDirectory(prefix="bench-attack-") as folder:
        db = Path(folder) / "cup.db"
        Ledger.create_complete(db, generate_events(args.players, args.rounds, seed=1), actor="generator")
        rows = []
        server = Server(db)
        try:
            rows.append(row("undisturbed", sample(server.url, args.seconds)))
            if "a" in only:
                before = server.rss_mb()
                samples = under(big_bodies(server.port), server.url, args.seconds)
                rows.append(row(f"(a) 20 unauthenticated 32 MB bodies (server RSS {before:.0f} → "
                                f"{server.rss_mb():.0f} MB)", samples))
            if "c" in only:
                rows.append(row("(c) one director request carrying `1e999999999`",
                                under(hostile_number(server.url, db), server.url, args.seconds)))
        finally:
            server.stop()
        floods = [("b", "(b) 1,100 half-open connections, `RLIMIT_NOFILE` 1,024 (each reopened 1 s after "
                        "the desk closes it)", 1.0),
                  ("b'", "(b') the same, each reopened at once (a flood of connections)", 0.0),
                  ("d", "(d) 900 slow login bodies, `RLIMIT_NOFILE` 1,024 (each reopened at once)", 0.0)]
        for reference in (False, True) if args.reference else (False,):
            for _ in range(1 if reference else args.repeat):
                server = Server(db, nofile=1024, reference=reference)
                try:
                    if reference:
                        rows.append(row("reference: plain uvicorn, undisturbed, `RLIMIT_NOFILE` 1,024",
                                        sample(server.url, args.seconds)))
                    for key, name, reopen in floods:
                        if key in only:
                            shown = f"reference: plain uvicorn, {name[name.index(' ') + 1:]}" if reference else name
                            attack = (half_open(server.port, 900, reopen, SLOW_LOGIN) if key == "d"
                                      else half_open(server.port, reopen_after=reopen))
                            rows.append(row(shown, under(attack, server.url, args.seconds, warmup=3.0)))
                finally:
                    server.stop()
    print(f"{args.players} players × {args.rounds} rounds, {args.seconds:g} s of samples per line "
          "(a page every 0.1 s; 5 s timeout), latencies in ms; load: the 1-minute load average at the "
          "line's end:\n")
    print("| situation | load | `/` samples | failed | median | worst "
          "| `/api/head` samples | failed | median | worst |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for line in rows:
        print(line)


if __name__ == "__main__":
    main()
