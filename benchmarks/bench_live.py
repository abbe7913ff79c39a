"""Benchmark the live update (issue 32, item 2): a result posted at the desk → visible on an open
standings page in a real browser, on EGC 2011 (760 players, 10 rounds, 7,752 events).

The ledger is imported from ``../shared/realdata/opengotha/lucvannier_opengotha__egc2011.xml``
(``--file`` for another), then ``--runs`` + 1 results of the last round are set back to unknown
(``correct … unknown``), as if their slips had not come in yet. The desk is ``goledger serve``
on 127.0.0.1, in a process of its own; headless Chromium (Playwright, Debian's
``/usr/bin/chromium``) opens the public standings page of the last round. Each run posts one
result to ``POST /api/results`` (what a desk's form does, with the director token) and waits
until the page has swapped in the new standings (the server-sent event, the page's ``<main>``
fetched again, the rows that changed swapped in): the time from just before the POST to the
moment the page recorded its update (``window.goledgerUpdatedAt``, the same clock), so the
whole path is measured: the write, the head watcher, the stream, the re-render, the transfer
and the DOM; and to the end of the next frame after it (``window.goledgerPaintedAt``: the new
standings drawn on the screen).

Printed: p50, p95, min and max of both (targets: p50 ≤ 300 ms, p95 ≤ 1 s, judged on the frame
drawn), the median of each stage, and the load average before and after the runs. Run:
``python benchmarks/bench_live.py [--runs 40] [--file EGC.xml] [--page /standings]``; with
``--load 200 --public-port`` while 200 ``wrk`` connections load the page on the players' port.

``--old COMMIT [--repeats N]`` measures that commit's desk beside this checkout's in the same
run (on a shared machine two runs at different times do not compare): COMMIT is checked out
into a temporary git worktree, each desk serves a fresh copy of the same ledger with the same
load and browser, ``N`` sessions each, in turns (the one going first swapping every repeat);
each session's medians are printed, then the pooled p50/p95.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
EGC = SHARED / "realdata" / "opengotha" / "lucvannier_opengotha__egc2011.xml"
CHROMIUM = Path("/usr/bin/chromium")
TOKEN = "benchmark-director-token"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
P50_MS, P95_MS = 300.0, 1000.0


def egc_ledger(db: Path, source: Path = EGC, open_results: int = 41) -> tuple[int, list[int]]:
    """EGC 2011 imported into ``db`` with ``open_results`` results of its last round set back to
    unknown; returns the last round and those tables."""
    from goledger import commands
    from goledger.formats.opengotha import import_opengotha
    from goledger.replay.views import state_as_of

    import_opengotha(source, db)
    state = state_as_of(db)
    last = max(r for r in state.games if state.games[r])
    tables = [g.table for g in state.games_of_round(last)][:open_results]
    for table in tables:
        commands.correct(db, last, table, "unknown", "slip not in yet", actor="bench")
    return last, tables


@contextmanager
def serving(db: Path, public_port: int | None = None, workers: int = 1, tree: Path = REPO) -> Iterator[str]:
    """``goledger serve`` over ``db`` on a free port of 127.0.0.1, in a process of its own, as a
    director starts it (the desk's own door, worker processes forked from its fork server), not
    in this process: the browser's driver and the client posting the results do not share the
    desk's interpreter. The desk's code is that of checkout ``tree`` (this one by default)."""
    import subprocess

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = {**os.environ, "PYTHONPATH": str(tree), "GOLEDGER_TOKEN": TOKEN}
    with tempfile.TemporaryFile("w+") as errors:  # not a pipe: nobody reads it while the desk runs
        extra = ["--public-port", str(public_port), "--workers", str(workers)] if public_port else []
        server = subprocess.Popen([sys.executable, "-m", "goledger", "serve", "--db", str(db), "--port", str(port),
                                   *extra],
                                  env=env, stdout=subprocess.DEVNULL, stderr=errors, text=True,
                                  cwd=tree)  # ``-m`` puts the working folder first on the path: the tree's own
        try:
            deadline = time.monotonic() + 60
            while True:
                if server.poll() is not None:
                    errors.seek(0)
                    raise RuntimeError(f"goledger serve exited: {errors.read()[-2000:]}")
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("goledger serve did not start") from None
                    time.sleep(0.05)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def post_result(url: str, round_: int, table: int, result: str, head: int) -> dict[str, Any]:
    body = json.dumps({"round": round_, "table": table, "result": result, "expected_head": head}).encode()
    request = urllib.request.Request(url + "/api/results", data=body, method="POST", headers={
        "Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        out: dict[str, Any] = json.loads(r.read())
        return out


async def measure(url: str, last: int, tables: list[int], page_path: str, head: int,
                  viewport: tuple[int, int] = (1280, 900), page_url: str | None = None) -> list[float]:
    """Seconds from each POST to the open page's update, one per table after the first (which
    warms the caches and is not counted); each run's stages are added to :data:`STAGES`."""
    from playwright.async_api import async_playwright

    samples = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = await browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        page.on("response", _note_rendering)
        await page.goto((page_url or url) + page_path)
        await page.wait_for_function("() => document.body.getAttribute('data-head') !== null")
        await asyncio.sleep(0.3)  # the stream is open and has sent the head
        painting = None
        for i, table in enumerate(tables):
            seen = await page.evaluate("window.goledgerUpdatedAt || 0")
            started = time.time()
            out = await asyncio.to_thread(post_result, url, last, table, "wb"[table % 2], head)
            posted = time.time()
            head = out["events"][-1]["seq"]
            await page.wait_for_function("([h, t]) => document.body.getAttribute('data-updated') === h "
                                         "&& (window.goledgerUpdatedAt || 0) > t", arg=[str(head), seen],
                                         timeout=10000)
            if painting:  # the page marks the frame after its swap (older desks did not)
                await page.wait_for_function("h => document.body.getAttribute('data-painted') === h",
                                             arg=str(head), timeout=10000)
            if painting is None:  # after the first update: does this desk mark the frame drawn?
                await asyncio.sleep(0.2)
                painting = await page.evaluate("document.body.hasAttribute('data-painted')")
            marks = await page.evaluate("[window.goledgerHeadAt || 0, window.goledgerFetchedAt || 0, "
                                        "window.goledgerUpdatedAt, window.goledgerPaintedAt || 0]")
            if i:
                samples.append(max(0.0, marks[2] / 1000 - started))
                STAGES.append((posted - started, *(m / 1000 - started for m in marks)))
        await browser.close()
    return samples


def _note_rendering(response: Any) -> None:
    """Keep what a live fetch's answer says of its page's rendering (``Server-Timing:
    render;dur=MS``, ``desc="ahead"`` when rendered ahead of any request; desks before issue 45's
    third stop send none) and whether it was a delta (``X-Goledger-Delta``)."""
    headers = response.headers
    if "x-goledger-head" in headers:
        timing = headers.get("server-timing", "")
        dur = timing.partition("dur=")[2].partition(";")[0]
        RENDERINGS[headers["x-goledger-head"]] = (float(dur) if dur else -1.0, 'desc="ahead"' in timing,
                                                  "x-goledger-delta" in headers)


RENDERINGS: dict[str, tuple[float, bool, bool]] = {}
"""Per head fetched live: its page's rendering in ms (-1: not said), whether rendered ahead,
whether a delta (once per head: a response may be reported more than once)."""

STAGES: list[tuple[float, ...]] = []
"""Per run, seconds after the POST was sent: its answer, the stream's event, the page's fetch
answered, the new ``<main>`` swapped in, and the frame after the swap drawn."""


@contextmanager
def loading(url: str, connections: int) -> Iterator[None]:
    """``wrk`` with ``connections`` connections on ``url`` (gzip accepted) while the block runs."""
    import shutil
    import subprocess

    if not connections:
        yield
        return
    if shutil.which("wrk") is None:
        raise SystemExit("--load needs wrk (apt-get install wrk)")
    load = subprocess.Popen(["wrk", "-t", "1", "-c", str(connections), "-d", "3600s", "-H", "Accept-Encoding: gzip",
                             url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(2.0)
        yield
    finally:
        load.terminate()
        load.wait(10)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--file", type=Path, default=EGC)
    parser.add_argument("--page", default="/standings")
    parser.add_argument("--load", type=int, default=0,
                        help="phones loading the page meanwhile (wrk connections, gzip), e.g. 200")
    parser.add_argument("--public-port", action="store_true",
                        help="serve the players' view on a port of its own (goledger serve --public-port): the "
                             "browser and the load use it, the results go to the desk's port")
    parser.add_argument("--workers", type=int, default=1,
                        help="with --public-port: processes serving the players' port (goledger serve --workers)")
    parser.add_argument("--old", metavar="COMMIT",
                        help="measure COMMIT's desk beside this checkout's in the same run, in turns (checked out "
                             "into a temporary git worktree): the same ledger, load and browser for both")
    parser.add_argument("--repeats", type=int, default=3, help="with --old: sessions of each, alternating")
    args = parser.parse_args(argv)
    if not args.file.exists():
        print(f"{args.file} is not here (it is in ../shared/realdata; or set GOLEDGER_SHARED)", file=sys.stderr)
        return 2
    if args.old:
        return side_by_side(args)
    from goledger.ledger.store import Ledger

    with tempfile.TemporaryDirectory(prefix="bench-live-") as folder:
        db = Path(folder) / "egc.db"
        last, tables = egc_ledger(db, args.file, args.runs + 1)
        with Ledger.open(db) as ledger:
            head = ledger.head().seq
        from benchmarks.bench_load import free_port, wait_port

        players = free_port() if args.public_port else None
        with serving(db, players, args.workers) as url:
            page_url = f"http://127.0.0.1:{players}" if players else url
            if players:
                wait_port(players, None, "the players' view")
            before = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            with loading(page_url + args.page, args.load):
                samples = asyncio.run(measure(url, last, tables, args.page, head, page_url=page_url))
    p50, p95 = percentile(samples, 50) * 1000, percentile(samples, 95) * 1000
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"# live update: {args.file.name}, page {args.page}, {len(samples)} runs, {head} events"
          + (f", {args.load} connections loading it meanwhile" if args.load else "")
          + (f", players on --public-port ({args.workers} processes)" if args.public_port else ""))
    print(f"load average {before} before the runs, {load} after them (1, 5, 15 min) on {os.cpu_count()} cores; "
          f"Python {platform.python_version()}; headless Chromium; goledger serve in its own process")
    print()
    print("| result POST → page updated in the browser (ms) | p50 | p95 | min | max |")
    print("|---|---|---|---|---|")
    print(f"| {args.page}, swapped in | {p50:,.0f} | {p95:,.0f} | {min(samples) * 1000:,.0f} | "
          f"{max(samples) * 1000:,.0f} |")
    painted = [s[4] for s in STAGES if s[4] > 0]
    if painted:
        print(f"| {args.page}, the next frame drawn | {percentile(painted, 50) * 1000:,.0f} | "
              f"{percentile(painted, 95) * 1000:,.0f} | {min(painted) * 1000:,.0f} | {max(painted) * 1000:,.0f} |")
    medians = [statistics.median(s[k] for s in STAGES) * 1000 for k in range(5)]
    frame = f" · next frame {medians[4]:,.0f}" if painted else ""
    print(f"\nmedian breakdown (ms after the POST was sent): POST answered {medians[0]:,.0f} · the stream's "
          f"event {medians[1]:,.0f} · the page's fetch answered {medians[2]:,.0f} · swapped in "
          f"{medians[3]:,.0f}{frame}")
    judged, what = (painted, "the next frame drawn") if painted else (samples, "swapped in")
    p50, p95 = percentile(judged, 50) * 1000, percentile(judged, 95) * 1000
    verdict = "meets" if p50 <= P50_MS and p95 <= P95_MS else "MISSES"
    print(f"\n{verdict} the targets (p50 ≤ {P50_MS:.0f} ms, p95 ≤ {P95_MS:.0f} ms), judged on {what}: "
          f"p50 {p50:,.0f} ms, p95 {p95:,.0f} ms")
    return 0 if verdict == "meets" else 1


def session(base: Path, folder: Path, args: argparse.Namespace, last: int, tables: list[int], head: int,
            tree: Path = REPO) -> list[tuple[float, ...]]:
    """One ``goledger serve`` of checkout ``tree`` over a fresh copy of ledger ``base``, the
    load on, the runs measured: each run's stages (:data:`STAGES`), the first run left out."""
    import shutil

    from benchmarks.bench_load import free_port, wait_port

    db = folder / "egc.db"
    for suffix in ("", "-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
        if base.with_name(base.name + suffix).exists():
            shutil.copy(base.with_name(base.name + suffix), db.with_name(db.name + suffix))
    players = free_port() if args.public_port else None
    STAGES.clear()
    RENDERINGS.clear()
    with serving(db, players, args.workers, tree) as url:
        page_url = f"http://127.0.0.1:{players}" if players else url
        if players:
            wait_port(players, None, "the players' view")
        with loading(page_url + args.page, args.load):
            asyncio.run(measure(url, last, tables, args.page, head, page_url=page_url))
    RENDERED.extend(list(RENDERINGS.values())[1:])
    return list(STAGES)


RENDERED: list[tuple[float, bool, bool]] = []
""":data:`RENDERINGS` of every session of this checkout's desk (the old one's say nothing)."""


def side_by_side(args: argparse.Namespace) -> int:
    """``--old COMMIT``: that commit's desk and this checkout's in turns (the one going first
    swapping every repeat), ``--repeats`` sessions each over copies of one ledger; prints each
    one's medians and the pooled p50/p95 of the frame drawn."""
    from benchmarks.timing import checkout, git, remove_checkouts
    from goledger.ledger.store import Ledger

    with tempfile.TemporaryDirectory(prefix="bench-live-") as temp:
        folder = Path(temp)
        old_tree = folder / "old"
        old = checkout(args.old, old_tree)
        new = git("rev-parse", "HEAD") + (" + changes" if git("status", "--porcelain", "--untracked-files=no") else "")
        try:
            base = folder / "base.db"
            last, tables = egc_ledger(base, args.file, args.runs + 1)
            with Ledger.open(base) as ledger:
                head = ledger.head().seq
            before = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            runs: dict[str, list[list[tuple[float, ...]]]] = {"old": [], "new": []}
            for repeat in range(args.repeats):
                for name in (("old", "new") if repeat % 2 == 0 else ("new", "old")):
                    runs[name].append(session(base, folder, args, last, tables, head,
                                              old_tree if name == "old" else REPO))
            after = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        finally:
            remove_checkouts([old_tree])
    print(f"# live update side by side: {args.file.name}, page {args.page}, {args.runs} runs × {args.repeats} "
          f"sessions each, in turns" + (f", {args.load} connections loading it meanwhile" if args.load else "")
          + (f", players on --public-port ({args.workers} processes)" if args.public_port else ""))
    print(f"old {old[:10]}, new {new[:10]}; load average {before} before, {after} after (1, 5, 15 min) on "
          f"{os.cpu_count()} cores; Python {platform.python_version()}; headless Chromium")
    print()
    print("| desk | session | POST answered | the stream's event | the page's fetch answered | swapped in | "
          "next frame drawn p50 / p95 |")
    print("|---|---|---|---|---|---|---|")
    for repeat in range(args.repeats):
        for name in ("old", "new"):
            stages = runs[name][repeat]
            medians = [statistics.median(s[k] for s in stages) * 1000 for k in range(5)]
            frames = [s[4] for s in stages]
            print(f"| {name} | {repeat + 1} | " + " | ".join(f"{m:,.0f}" for m in medians[:4])
                  + f" | {percentile(frames, 50) * 1000:,.0f} / {percentile(frames, 95) * 1000:,.0f} |")
    for name in ("old", "new"):
        pooled = [s for stages in runs[name] for s in stages]
        frames, posts = [s[4] for s in pooled], [s[0] for s in pooled]
        print(f"| {name} | all {len(pooled)} | {percentile(posts, 50) * 1000:,.0f} | "
              + " | ".join(f"{statistics.median(s[k] for s in pooled) * 1000:,.0f}" for k in (1, 2, 3))
              + f" | **{percentile(frames, 50) * 1000:,.0f}** / {percentile(frames, 95) * 1000:,.0f} |")
    print("\n(ms after the POST was sent, medians; the frame drawn: the first frame after the new standings were "
          "swapped in)")
    said = [r for r in RENDERED if r[0] >= 0]
    if said:
        print(f"\nnew: the standings' rendering (Server-Timing) {statistics.median(r[0] for r in said):.1f} ms median "
              f"(max {max(r[0] for r in said):.1f}); rendered ahead {sum(r[1] for r in said)} of {len(said)}; "
              f"a delta {sum(r[2] for r in said)} of {len(said)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
