"""Benchmark players serving themselves on EGC 2011 (issue 46, item 6): 760 check-ins and 380
games reported by both players, each player a concurrent client of ``goledger serve``, while
the director's desk pages are timed.

The ledger is EGC 2011 imported from ``../shared/realdata/opengotha/`` (760 players, 10
rounds; the file and the server launcher are :mod:`benchmarks.bench_load`'s). Its round 10's
games and byes are removed, results and all (one transaction of ``PairingRemoved`` and
``ByeRemoved``); every player gets a personal key (``ensure_keys``). Then, against one
``goledger serve`` on 127.0.0.1 (``--games N``: the players of the first N games only):

1. **check-in**: every registered player, all at once, each an ``httpx.AsyncClient`` of his
   own (his cookie, his CSRF token): ``GET /k/KEY`` then ``POST /k/KEY/check-in`` for round 10;
2. round 10 is paired by the engine (``pair-round 10``, outside the timing);
3. **reports**: both players of every game, all at once: ``GET /k/KEY/result`` then ``POST``
   (White "I won", Black "I lost": the engine's new pairing has no original result);
   ``player_reports=record``, so the second report of each game records its result.

Meanwhile a director's client fetches ``/desk/round/10``, ``/desk/reports/10`` and ``/desk``
in turn with the bearer token, and its latencies' p50/p95 are printed. Printed: each phase's
wall time, its requests' p50/p95, answers by status, and what the log holds afterwards.
``--clients N`` caps the clients in flight at once (default: all of them). Run:
``python benchmarks/bench_selfserve.py``; ``--append`` adds the Markdown section to
``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import re
import ssl
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_load import EGC, REPO, TOKEN, desk

DESK_PAGES = ("/desk/round/10", "/desk/reports/10", "/desk")
HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')
TLS = ssl.create_default_context()
"""One TLS context for every client (the desk is plain HTTP): an ``httpx.AsyncClient`` made
without one loads the certificate store, 34 ms of this process's event loop each, so 760
phones' clients held the benchmark itself up for some 26 s, phones' and desk's timings alike."""


def prepare(folder: Path) -> tuple[Path, dict[str, str]]:
    """EGC 2011 with round 10 unpaired, ``player_reports=record`` and a key for everyone."""
    from goledger import commands
    from goledger.formats.opengotha import import_opengotha
    from goledger.keys import ensure_keys
    from goledger.replay.views import state_as_of

    db = folder / "egc2011.db"
    import_opengotha(EGC, db)
    state = state_as_of(db, None)
    from goledger.ledger import events as ev
    from goledger.ledger.store import Ledger

    removed: list[ev.Event] = [ev.PairingRemoved(round=10, table=g.table) for g in state.games_of_round(10)]
    removed += [ev.ByeRemoved(round=10, player_id=pid) for pid in state.byes.get(10, {})]
    with Ledger.open(db) as ledger:  # its results with it: round 10 is played again from the phones
        ledger.append(removed, actor="bench", reason="benchmark: round 10 played again from the phones")
    commands.change_rules(db, {"player_reports": "record"}, actor="bench")
    keys = ensure_keys(db)
    return db, keys


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def phone(base: str, key: str, path: str, fields: dict[str, str], gate: asyncio.Semaphore,
                timings: list[float], statuses: Counter[int | str]) -> None:
    """One player's phone: open his page (its cookie and CSRF token), then post ``fields``
    (a failed connection is counted by its exception's name)."""
    async with gate, httpx.AsyncClient(base_url=base, timeout=120, verify=TLS) as client:
        start = time.perf_counter()
        try:
            page = await client.get(f"/k/{key}{'/result' if path == 'result' else ''}")
            form = dict(HIDDEN.findall(page.text))
            answer = await client.post(f"/k/{key}/{path}", data={**form, **fields})
        except httpx.HTTPError as exc:
            statuses[type(exc).__name__] += 1
            return
        timings.append((time.perf_counter() - start) * 1000)
        statuses[answer.status_code] += 1


async def director(base: str, stop: asyncio.Event, timings: list[float], errors: list[str]) -> None:
    """The director's desk pages in turn, until ``stop`` (a failed fetch is listed in ``errors``)."""
    async with httpx.AsyncClient(base_url=base, timeout=120, headers={"Authorization": f"Bearer {TOKEN}"},
                                 verify=TLS) as client:
        n = 0
        while not stop.is_set():
            start = time.perf_counter()
            try:
                response = await client.get(DESK_PAGES[n % len(DESK_PAGES)])
                response.raise_for_status()
            except httpx.HTTPError:
                errors.append(DESK_PAGES[n % len(DESK_PAGES)])
            else:
                timings.append((time.perf_counter() - start) * 1000)
            n += 1
            await asyncio.sleep(0.2)


async def phase(base: str, jobs: list[tuple[str, str, dict[str, str]]], clients: int) -> dict[str, object]:
    gate = asyncio.Semaphore(clients)
    timings: list[float] = []
    desk_timings: list[float] = []
    desk_errors: list[str] = []
    statuses: Counter[int | str] = Counter()
    stop = asyncio.Event()
    watcher = asyncio.create_task(director(base, stop, desk_timings, desk_errors))
    start = time.perf_counter()
    await asyncio.gather(*(phone(base, key, path, fields, gate, timings, statuses) for key, path, fields in jobs))
    wall = time.perf_counter() - start
    stop.set()
    await watcher
    return {"wall": wall, "n": len(jobs), "p50": pct(timings, 0.5), "p95": pct(timings, 0.95),
            "statuses": dict(sorted(statuses.items(), key=str)), "desk_p50": pct(desk_timings, 0.5),
            "desk_p95": pct(desk_timings, 0.95), "desk_n": len(desk_timings), "desk_errors": len(desk_errors),
            "desk_max": max(desk_timings, default=0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=0, help="clients in flight at once (default: all)")
    parser.add_argument("--games", type=int, default=60,
                        help="only the players of the first N games of round 10 check in and report (default 60, "
                             "so that the run stays within two minutes; 0: all)")
    parser.add_argument("--append", action="store_true", help="append the section to benchmarks/RESULTS.md")
    args = parser.parse_args()
    if not EGC.exists():
        print(f"skipped: {EGC} is not there")
        return
    from goledger import commands
    from goledger.ledger.store import Ledger
    from goledger.replay.views import state_as_of

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        db, keys = prepare(Path(tmp))
        setup = time.perf_counter() - t0
        state = state_as_of(db, None)
        playing = [pid for pid in state.players if not state.players[pid].is_withdrawn(10)]
        if args.games:
            playing = sorted(playing, key=lambda pid: int(pid[1:]))[:2 * args.games]
        with desk(db, REPO) as port:
            base = f"http://127.0.0.1:{port}"
            check_ins = [(keys[pid], "check-in", {"answer": "play", "round": "10"}) for pid in playing]
            first = asyncio.run(phase(base, check_ins, args.clients or len(check_ins)))
            t1 = time.perf_counter()
            commands.pair_round(db, 10, actor="bench")
            pairing = time.perf_counter() - t1
            state = state_as_of(db, None)
            games = state.games_of_round(10)[:args.games or None]
            reports = [(keys[pid], "result", {"outcome": said})
                       for game in games for pid, said in ((game.white, "won"), (game.black, "lost"))]
            second = asyncio.run(phase(base, reports, args.clients or len(reports)))
        with Ledger.open(db) as ledger:
            kinds = Counter(r.type for r in ledger.records() if r.actor.startswith("player"))
        state = state_as_of(db, None)
        recorded = sum(1 for g in state.games_of_round(10) if g.result.is_known)
        paired = len(state.games_of_round(10))
    lines = [
        "## Issue 46: players check in and report their results from their phones (EGC 2011)",
        "",
        f"`python benchmarks/bench_selfserve.py` on {platform.machine()}, Python {platform.python_version()}, "
        f"{len(playing)} players with a key; setup (import, unpair round 10, keys) {setup:.1f} s, "
        f"`pair-round 10` {pairing:.1f} s between the phases. Each player is an `httpx.AsyncClient` of his own, "
        f"all started at once ({args.clients or 'no'} cap"
        f"{f'; the players of the first {args.games} games only' if args.games else ''}); "
        "a phone's request = GET his page + POST.",
        "",
        "| phase | phones | wall time (s) | phone GET+POST p50 / p95 (ms) | answers | desk pages p50 / p95 / max (ms),"
        " fetches |",
        "|---|---|---|---|---|---|",
    ]
    for name, r in (("check-in for round 10", first), ("both players report round 10", second)):
        lines.append(f"| {name} | {r['n']} | {r['wall']:.1f} | {r['p50']:.0f} / {r['p95']:.0f} | {r['statuses']} | "
                     f"{r['desk_p50']:.0f} / {r['desk_p95']:.0f} / {r['desk_max']:.0f}, {r['desk_n']}"
                     f"{' (' + str(r['desk_errors']) + ' failed)' if r['desk_errors'] else ''} |")
    lines += ["", f"Afterwards the log holds {kinds.get('CheckedIn', 0)} `CheckedIn`, {kinds.get('ResultClaimed', 0)} "
              f"`ResultClaimed` and {kinds.get('ResultRecorded', 0)} `ResultRecorded` by players; round 10 has "
              f"{recorded} of {paired} games recorded.", ""]
    text = "\n".join(lines)
    print(text)
    if args.append:
        with (REPO / "benchmarks" / "RESULTS.md").open("a", encoding="utf-8") as out:
            out.write("\n" + text)


if __name__ == "__main__":
    main()
