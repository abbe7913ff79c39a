"""Benchmark round 2 of a big McMahon with real EGD ratings (issue 40, item 1).

For each size (default 760, the issue's field, and 1,000) players are drawn from
``../shared/realdata/ratinglists`` (seeded; many equal GoR values), registered from a CSV with
``goledger register --from-file``, round 1 is paired with ``goledger pair-round 1`` and given
random results; then round 2 is paired with ``goledger pair-round 2 --dry-run`` as a whole
process (what the director waits for), ``--runs`` times. Each row also says whether the
tables were numbered by the fallback rule (OpenGotha's own table sort would have thrown, see
``docs/pairing-rounds.md``) and the CPU time of the process (user + system).

Run: ``python benchmarks/bench_big_field.py [--players 760 1000] [--runs 3] [--seed 1]``.
Prints a markdown table.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

EGD_LIST = "realdata/ratinglists/Miautomat_egf-streaming__allworld_lp.html"


def goledger(*args: str) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """Run ``goledger ARGS``: the process, its wall seconds and its CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "goledger", *args], capture_output=True, text=True, env=env,
                          check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done, wall, cpu


def field(size: int, seed: int, folder: Path) -> Path:
    """A ledger with ``size`` EGD players registered from a CSV, round 1 paired and played."""
    from goledger.commands.recording import record
    from goledger.formats.ratinglists.egd import read
    from goledger.ledger import events as ev
    from goledger.ledger.values import Result

    shared = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
    parsed = read((shared / EGD_LIST).read_bytes())
    pool = [p for p in parsed.players if p.gor and p.grade[-1:] in ("k", "d") and p.first_name]
    rng = random.Random(seed)
    players = rng.sample(pool, size)
    table = folder / f"players{size}.csv"
    with table.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["surname", "first_name", "rank", "country", "club", "rating"])
        for p in players:
            out.writerow([p.surname, p.first_name, p.grade, "" if p.country == "XX" else p.country,
                          "" if p.club in ("xxx", "xxxx") else p.club, p.gor])
    db = folder / f"big{size}.db"
    goledger("new", "--name", "Big Congress", "--rounds", "10", "--bar", "4d", "--db", str(db))
    goledger("register", "--from-file", str(table), "--db", str(db))
    goledger("pair-round", "1", "--db", str(db))
    results = (Result.WHITE, Result.BLACK, Result.WHITE, Result.BLACK, Result.JIGO)
    record(db, lambda state: [ev.ResultRecorded(round=1, table=g.table, result=rng.choice(results))
                              for g in state.games_of_round(1)], lambda state, events: "results")
    return db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="*", default=[760, 1000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from benchmarks.timing import machine

    tmp = Path(tempfile.mkdtemp(prefix="goledger-bench-big-"))
    print(f"Machine: {machine()}\n")
    lines = ["| players | `pair-round 2 --dry-run` wall s, median (min–max) | CPU s, median | games | tables |",
             "|---|---|---|---|---|"]
    for size in args.players:
        db = field(size, args.seed, tmp)
        walls, cpus, data = [], [], {}
        for _ in range(args.runs):
            done, wall, cpu = goledger("pair-round", "2", "--dry-run", "--json", "--db", str(db))
            walls.append(wall)
            cpus.append(cpu)
            data = json.loads(done.stdout)
        numbering = "fallback rule" if data["note"] else "OpenGotha's sort"
        lines.append(f"| {size} | {statistics.median(walls):.2f} ({min(walls):.2f}–{max(walls):.2f}) "
                     f"| {statistics.median(cpus):.2f} | {len(data['games'])} | {numbering} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
