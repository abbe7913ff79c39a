"""Benchmark the ``opengotha`` pairing engine (issue 15, item 2).

For each size (default 1,500 and 3,000 players) a McMahon congress is generated as
``benchmarks/generate.py --players N --rounds 12 --seed 1`` does, and round 7 is paired on the
state before its first game (the ledger as of the event before it). Each measurement runs in
a fresh process (so its peak memory is the engine's, not the generator's): fold the ledger,
then ``ENGINE.pair``, split into facts (scores, groups, history), cost matrices + matching
(rustworkx; the chunks are matched in threads, so the CPU time of all threads is shown beside
the wall time) and the rest (order, bye, colours, tables). OpenGotha's own ``makeAutomaticPairing`` times
from ``../shared/pairing-oracle`` (``ms``) are printed beside them for scale.

Run: ``python benchmarks/bench_pairing_opengotha.py [--players 1500 3000] [--runs 3]``.
Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CHILD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[3])
from goledger.replay.views import state_as_of
from goledger.pairing.engine import PairingRequest
from goledger.pairing.participants import players_to_pair
import goledger.pairing.opengotha.engine as eng
spent = {"facts": 0.0, "matching": 0.0}
real_facts, real_match = eng.RoundFacts, eng._match_all
def timed_facts(*a, **k):
    t = time.perf_counter(); out = real_facts(*a, **k); spent["facts"] += time.perf_counter() - t; return out
def timed_match(*a, **k):
    t = time.perf_counter(); out = real_match(*a, **k); spent["matching"] += time.perf_counter() - t; return out
eng.RoundFacts, eng._match_all = timed_facts, timed_match
t0 = time.perf_counter()
state = state_as_of(sys.argv[1], int(sys.argv[2]))
t1 = time.perf_counter()
request = PairingRequest(round=7, players=players_to_pair(state, 7))
import rustworkx  # noqa: F401  (import time is not the engine's)
import numpy  # noqa: F401
usage = resource.getrusage(resource.RUSAGE_SELF)
c2 = usage.ru_utime + usage.ru_stime
t2 = time.perf_counter()
pairing = eng.ENGINE.pair(state, request)
t3 = time.perf_counter()
usage = resource.getrusage(resource.RUSAGE_SELF)
c3 = usage.ru_utime + usage.ru_stime
print(json.dumps({"fold": t1 - t0, "engine": t3 - t2, "engine_cpu": c3 - c2,
                  "facts": spent["facts"], "matching": spent["matching"],
                  "players": len(request.players), "games": len(pairing.games), "chunks": list(pairing.chunks),
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def make_ledger(players: int, folder: Path) -> tuple[Path, int]:
    """The generated ledger and the sequence number of the last event before round 7's pairing."""
    from benchmarks.generate import generate_events, write_ledger
    from goledger.ledger import events as ev

    events = generate_events(players, 12, 1)
    db = folder / f"gen{players}.db"
    write_ledger(events, db)
    first = next(i for i, e in enumerate(events) if isinstance(e, ev.GamePaired) and e.round == 7)
    return db, first  # events[first] has seq first + 1, so the state before it is as of seq `first`


def oracle_times() -> list[str]:
    base = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared") / "pairing-oracle"
    if not base.is_dir():
        return ["(../shared/pairing-oracle not present: no OpenGotha times)"]
    buckets: dict[str, list[float]] = {}
    for path in base.glob("*.r*.json"):
        if path.name.endswith(".costs.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["round"] == 1:
            continue  # cold JVM
        n = data["players_paired"]
        label = ("< 50" if n < 50 else "50–120" if n <= 120 else "120–200" if n <= 200 else
                 "200–600" if n <= 600 else "> 600 (two chunks)")
        buckets.setdefault(label, []).append(data["ms"])
    order = ["< 50", "50–120", "120–200", "200–600", "> 600 (two chunks)"]
    lines = ["| OpenGotha 3.51.02 makeAutomaticPairing, rounds 2+ | rounds | median ms | max ms |", "|---|---|---|---|"]
    for label in order:
        if label in buckets:
            ms = buckets[label]
            lines.append(f"| {label} players | {len(ms)} | {statistics.median(ms):.0f} | {max(ms):.0f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="*", default=[1500, 3000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from benchmarks.timing import machine

    tmp = Path(tempfile.mkdtemp(prefix="goledger-bench-pair-"))
    print(f"Machine: {machine()}\n")
    lines = ["| players (round 7) | chunks | fold s | engine s (wall) | engine s (CPU, all threads) | facts s "
             "| costs + matching s | rest s | peak RSS MB |", "|---|---|---|---|---|---|---|---|---|"]
    for players in args.players:
        db, as_of = make_ledger(players, tmp)
        runs = []
        for _ in range(args.runs):
            out = subprocess.run([sys.executable, "-c", CHILD, str(db), str(as_of), str(REPO)],
                                 capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout))
        keys = ("fold", "engine", "engine_cpu", "facts", "matching", "rss_mb")
        med = {k: statistics.median(r[k] for r in runs) for k in keys}
        r0 = runs[0]
        lines.append(
            f"| {r0['players']} | {'+'.join(map(str, r0['chunks']))} | {med['fold']:.2f} | {med['engine']:.2f} "
            f"| {med['engine_cpu']:.2f} "
            f"| {med['facts']:.2f} | {med['matching']:.2f} | {med['engine'] - med['facts'] - med['matching']:.2f} "
            f"| {med['rss_mb']:.0f} |")
    print("\n".join(lines))
    print()
    print("\n".join(oracle_times()))


if __name__ == "__main__":
    main()
