"""Benchmark the players' pages under a hall of phones (issue 45), side by side with nginx
serving the same bytes as static files, in the same run, on 127.0.0.1.

The ledger is EGC 2011 imported from ``../shared/realdata/opengotha/`` (760 players, 10 rounds;
``--file`` for another). ``goledger serve`` runs in a process of its own (its descriptor limit
raised to 4,096 so 800 connections fit); each page is fetched once from it, gzipped, and the
bytes it sent are written to a folder that nginx serves with ``gzip_static`` (one worker
process per core, as a default nginx does), so both answer the same compressed bytes.

The load generator is ``wrk`` (Debian's package) with ``Accept-Encoding: gzip``, ``-t 2``, for
``--seconds`` each at 50, 200 and 800 connections:

* ``/standings`` (the 200 KB page every phone opens), ``/`` (the round's pairings), and a small
  page (a player's find-my-table answer);
* ``/player/ID`` rotating over all 760 players (a wrk script), each page its own cache entry;
* the director's ``POST /api/results`` timed from a separate client while wrk loads
  ``/standings`` at 200 connections: on the desk's own port, and with the players' view on a
  port and process of its own (``goledger serve --public-port``).

Printed: a Markdown table of requests/s and latency p50/p99 for goledger (the desk's own port,
and the players' port of ``--public-port`` in ``--workers`` processes, one per core by default
as nginx's) and nginx and their ratio, the CPU time each spent per request (user and system,
the server's processes and their children, from /proc: what a shared machine's load does not
change), and the director's POST p50/p95. ``--tree PATH`` runs the desk from another checkout
(its ``goledger`` package) for a before/after comparison. Run:
``python benchmarks/bench_load.py [--seconds 10] [--connections 50,200,800]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
EGC = SHARED / "realdata" / "opengotha" / "lucvannier_opengotha__egc2011.xml"
TOKEN = "benchmark-director-token"
LAUNCH = """
import resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))
from goledger.web.serve import serve
serve(sys.argv[1], port=int(sys.argv[2]), token=sys.argv[3], public_port=int(sys.argv[4]) if sys.argv[4] else None,
      **({"workers": int(sys.argv[5])} if int(sys.argv[5]) > 1 else {}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, proc: subprocess.Popen[str] | None, what: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.05)


SERVERS: dict[str, int] = {}
"""The process ids of the servers measured (``goledger serve``, nginx): their CPU time and their children's."""


@contextmanager
def desk(db: Path, tree: Path, public_port: int | None = None, workers: int = 1) -> Iterator[int]:
    """``goledger serve`` over ``db`` (the package of ``tree``) on a free port (with the players'
    view on ``public_port`` too, in ``workers`` processes)."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(tree), "GOLEDGER_TOKEN": TOKEN}
    args = [sys.executable, "-c", LAUNCH, str(db), str(port), TOKEN, str(public_port or ""), str(workers)]
    proc = subprocess.Popen(args, env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    try:
        wait_port(port, proc, "goledger serve")
        SERVERS["goledger"] = proc.pid
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextmanager
def nginx(root: Path) -> Iterator[int]:
    """nginx serving ``root`` (``gzip_static``), one worker per core, on a free port."""
    port = free_port()
    conf = root.parent / "nginx.conf"
    user = "user root;" if os.geteuid() == 0 else ""
    conf.write_text(f"""
{user}
worker_processes auto;
worker_rlimit_nofile 8192;
pid {root.parent}/nginx.pid;
error_log {root.parent}/nginx-error.log;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  default_type text/html;
  gzip_static on;
  etag on;
  keepalive_requests 100000;
  client_body_temp_path {root.parent}/body;
  proxy_temp_path {root.parent}/proxy;
  fastcgi_temp_path {root.parent}/fastcgi;
  uwsgi_temp_path {root.parent}/uwsgi;
  scgi_temp_path {root.parent}/scgi;
  server {{
    listen 127.0.0.1:{port};
    root {root};
    location / {{ try_files $uri $uri/index.html =404; }}
  }}
}}
""")
    proc = subprocess.Popen(["nginx", "-c", str(conf), "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        wait_port(port, proc, "nginx")
        SERVERS["nginx"] = proc.pid
        yield port
    finally:
        proc.terminate()
        proc.wait(10)


def fetch(port: int, path: str) -> bytes:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=60) as r:
        body = r.read()
        return gzip.decompress(body) if r.headers.get("Content-Encoding") == "gzip" else body


def mirror(port: int, paths: list[str], root: Path) -> None:
    """Each page's bytes as the desk sends them, as static files (and their .gz) under ``root``."""
    for path in paths:
        plain = fetch(port, path)
        target = root / (path.strip("/") or "index.html")
        if path.endswith("/") or path == "/":
            target = root / path.strip("/") / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(plain)
        target.with_name(target.name + ".gz").write_bytes(gzip.compress(plain, 6))


LATENCY = re.compile(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.M)
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _more_descriptors() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_NOFILE, (8192, 8192))


def cpu_seconds(server: str) -> float:
    """User and system CPU seconds of server ``server`` (its process and its children, from /proc;
    0 elsewhere)."""
    root = SERVERS.get(server)
    if root is None or not os.path.isdir("/proc"):
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == root or ppid == root:
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def wrk(port: int, path: str, connections: int, seconds: int, script: Path | None = None,
        server: str = "goledger") -> tuple[float, float, float, float]:
    """(requests/s, p50 ms, p99 ms, CPU µs per request of ``server``) of wrk on ``path``."""
    args = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "10s",
            "-H", "Accept-Encoding: gzip"]
    if script is not None:
        args += ["-s", str(script)]
    before = cpu_seconds(server)
    out = subprocess.run([*args, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True,
                         preexec_fn=_more_descriptors).stdout
    spent = cpu_seconds(server) - before
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    done = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    lat = {q: float(v) * UNITS[u] for q, v, u in LATENCY.findall(out)}
    return rate, lat.get("50", float("nan")), lat.get("99", float("nan")), spent * 1e6 / max(1, done)


def rotation_script(folder: Path, ids: list[str]) -> Path:
    script = folder / "rotate.lua"
    listed = ",".join(f'"{i}"' for i in ids)
    script.write_text(f"""
ids = {{{listed}}}
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/player/" .. ids[(counter % #ids) + 1])
end
""")
    return script


def director_posts(port: int, db: Path, results: list[tuple[int, int]]) -> list[float]:
    """Milliseconds of each ``POST /api/results`` (one after another)."""
    from goledger.ledger.store import Ledger

    with Ledger.open(db) as ledger:
        head = ledger.head().seq
    times = []
    for round_, table in results:
        body = json.dumps({"round": round_, "table": table, "result": "w", "expected_head": head}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/results", data=body, method="POST",
                                         headers={"Authorization": f"Bearer {TOKEN}",
                                                  "Content-Type": "application/json"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=60) as r:
            out = json.loads(r.read())
        times.append((time.perf_counter() - start) * 1000)
        head = out["events"][-1]["seq"]
        time.sleep(0.2)
    return times


def under_load(desk_port: int, load_port: int, db: Path, results: list[tuple[int, int]]) -> list[float]:
    """The director's POSTs to ``desk_port`` while wrk loads ``/standings`` at 200 connections on
    ``load_port``."""
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            wrk(load_port, "/standings", 200, 3)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    time.sleep(1.0)
    try:
        return director_posts(desk_port, db, results)
    finally:
        stop.set()
        thread.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=EGC)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", default="50,200,800")
    parser.add_argument("--tree", type=Path, default=REPO, help="the checkout whose desk is measured")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="processes serving the players' port (goledger serve --workers; default: one per core, "
                             "as nginx here)")
    args = parser.parse_args()
    if shutil.which("wrk") is None or shutil.which("nginx") is None:
        sys.exit("needs wrk and nginx (apt-get install wrk nginx)")
    from goledger import commands
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.views import state_as_of

    counts = [int(c) for c in args.connections.split(",")]
    before = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = folder / "egc.db"
        import_opengotha(args.file, db)
        state = state_as_of(db)
        last = max(r for r in state.games if state.games[r])
        open_tables = [g.table for g in state.games_of_round(last)][:11]
        for table in open_tables:
            commands.correct(db, last, table, "unknown", "slip not in yet", actor="bench")
        ids = sorted(state.players)
        find = state.players[ids[0]].surname
        pages = {"/standings": "standings (200 KB)", "/": "round pairings", f"/?find={find}": "find-my-table"}
        rows = []
        players = free_port()
        with desk(db, args.tree, players, args.workers) as port:
            wait_port(players, None, "the players' view")
            root = folder / "www"
            mirror(port, ["/standings", "/"], root)
            (root / "find").mkdir()
            (root / "find" / "index.html").write_bytes(fetch(port, f"/?find={find}"))
            (root / "find" / "index.html.gz").write_bytes(gzip.compress(fetch(port, f"/?find={find}")))
            for pid in ids:
                mirror(port, [f"/player/{pid}"], root)  # also renders each player's page once
            script = rotation_script(folder, ids)
            with nginx(root) as web:
                for path, label in pages.items():
                    static = "/find/" if path.startswith("/?find") else path
                    for _ in range(2 * args.workers):  # each worker keeps its own pages: warm them all
                        fetch(players, path)
                    for c in counts:
                        theirs = wrk(web, static, c, args.seconds, server="nginx")
                        for where, at in (("desk", port), ("players' port", players)):
                            rows.append((label, where, c, wrk(at, path, c, args.seconds), theirs))
                for pid in ids:
                    for _ in range(2 * args.workers):
                        fetch(players, f"/player/{pid}")
                for c in counts:
                    theirs = wrk(web, "/", c, args.seconds, script, server="nginx")
                    for where, at in (("desk", port), ("players' port", players)):
                        ours = wrk(at, "/", c, args.seconds, script)
                        rows.append(("/player/ID, all in turn", where, c, ours, theirs))
            idle = director_posts(port, db, [(last, open_tables[0])])
            loaded = under_load(port, port, db, [(last, t) for t in open_tables[1:6]])
            apart = under_load(port, players, db, [(last, t) for t in open_tables[6:]])
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()};"
          f" players' port in {args.workers} processes; load average before: {before}, after: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| page | served by | connections | goledger req/s | nginx req/s | goledger / nginx "
          "| goledger p50 / p99 ms | nginx p50 / p99 ms | CPU µs per request goledger / nginx |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, where, c, (r1, p50, p99, cpu1), (r2, q50, q99, cpu2) in rows:
        print(f"| {label} | {where} | {c} | {r1:,.0f} | {r2:,.0f} | {r1 / r2:.2f} | {p50:.1f} / {p99:.1f} "
              f"| {q50:.1f} / {q99:.1f} | {cpu1:.0f} / {cpu2:.0f} |")
    print(f"\nDirector's `POST /api/results` while 200 connections load `/standings` on the same port: p50 "
          f"{statistics.median(loaded):.0f} ms, max {max(loaded):.0f} ms ({len(loaded)} results); with the "
          f"players on `--public-port`: p50 {statistics.median(apart):.0f} ms, max {max(apart):.0f} ms "
          f"({len(apart)}); idle: {idle[0]:.0f} ms.")


if __name__ == "__main__":
    main()
