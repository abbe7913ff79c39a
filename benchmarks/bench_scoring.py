"""Benchmark the scoring engine on the largest real OpenGotha file (issue 4).

On ``egc-2011`` (760 players × 10 rounds, 2,708 games; ``../shared/oracle/inputs``),
imported with the real OpenGotha importer, standings with the criteria
MMS, SOSM, SOSM-1, SOSM-2, SOSOSM, SODOSM, DC (policy ``opengotha``):

* in process, one round (the last), from the folded state (every scoring structure built
  from scratch);
* in process, every round 1..10 one after the other, total and per round;
* in process, the same with the DC variant placed right after MMS (where DC has to order
  every tied MMS group);
* whole process ``goledger standings --round 10 --criteria … --format json`` (and the
  default table) on a ledger written by ``goledger import opengotha``.

OpenGotha on the same machine (oracle README): about 11 ms per round and 13 ms for all
rounds once warm, 1.4–2.0 s as a whole process. Targets: < 30 ms per round in process,
< 0.5 s whole process.

Run: ``python benchmarks/bench_scoring.py [--runs 7] [--file PATH]``. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from goledger.formats.opengotha import import_opengotha
from goledger.formats.opengotha.read import read_opengotha
from goledger.replay.fold.state import fold

ROOT = Path(__file__).resolve().parents[1]

CRITERIA = ["MMS", "SOSM", "SOSM-1", "SOSM-2", "SOSOSM", "SODOSM", "DC"]
DC_AFTER_MMS = ["MMS", "DC", "SOSM", "SOSM-1", "SOSM-2", "SOSOSM", "SODOSM"]


def timed(fn: Callable[[], object], runs: int, warmup: int = 1) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each run (CPU: this process and its children, so that a
    busy machine shows as wall ≫ CPU)."""
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(runs):
        c = _cpu()
        t = time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(_cpu() - c)
    return wall, cpu


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def row(label: str, samples: tuple[list[float], list[float]], per: int = 1) -> str:
    wall, cpu = samples
    med, lo, cpu_med = statistics.median(wall), min(wall), statistics.median(cpu)
    note = f"{min(cpu_med, med) * 1000 / per:.1f} ms per round (CPU)" if per > 1 else ""
    return f"| {label} | {med * 1000:.1f} | {lo * 1000:.1f} | {cpu_med * 1000:.1f} | {note} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    default = ROOT.parent / "shared" / "oracle" / "inputs" / "egc-2011.xml"
    parser.add_argument("--file", type=Path, default=default)
    args = parser.parse_args()

    from goledger.replay.scoring.standings import standings

    result = read_opengotha(args.file.read_bytes(), source=args.file.name)
    state = fold(result.events)
    rounds = state.last_round_with_games()
    games = sum(len(t) for t in state.games.values())
    lines = [
        f"{args.file.stem}: {len(state.players)} players × {rounds} rounds, {games} games; "
        f"criteria {'/'.join(CRITERIA)}, policy opengotha",
        "",
        "| measurement | median wall ms | min wall ms | median CPU ms | note |",
        "|---|---|---|---|---|",
    ]
    from goledger.replay.scoring import rounds as round_tables

    def cold() -> None:
        round_tables._CACHE.clear()
        standings(state, rounds, "opengotha", CRITERIA)

    lines.append(row(f"in process: standings after round {rounds}, from the folded state (nothing cached)",
                     timed(cold, args.runs)))
    lines.append(row(f"in process: standings after round {rounds} again (round table cached)",
                     timed(lambda: standings(state, rounds, "opengotha", CRITERIA), args.runs)))

    def every_round(criteria: list[str]) -> Callable[[], None]:
        def run() -> None:
            round_tables._CACHE.clear()
            for r in range(1, rounds + 1):
                standings(state, r, "opengotha", criteria)
        return run

    lines.append(row(f"in process: standings after every round 1..{rounds}",
                     timed(every_round(CRITERIA), args.runs), rounds))
    lines.append(row(f"in process: every round with DC right after MMS ({'/'.join(DC_AFTER_MMS)})",
                     timed(every_round(DC_AFTER_MMS), args.runs), rounds))

    tmp = Path(tempfile.mkdtemp(prefix="goledger-bench-scoring-"))
    db = tmp / "egc.db"
    lines.append(row("in process: import opengotha into a new ledger (for reference)",
                     timed(lambda: import_opengotha(args.file, db), 1, warmup=0)))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GOLEDGER_DB", None)

    def cli(*argv: str) -> Callable[[], None]:
        def run() -> None:
            subprocess.run([sys.executable, "-m", "goledger", *argv], check=True, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return run

    crit = ",".join(CRITERIA)
    lines.append(row(f"whole process: goledger standings --round {rounds} --criteria {crit} --format json",
                     timed(cli("standings", "--db", str(db), "--round", str(rounds), "--criteria", crit,
                               "--format", "json"), args.runs)))
    lines.append(row(f"whole process: goledger standings --round {rounds} --criteria {crit} (table)",
                     timed(cli("standings", "--db", str(db), "--round", str(rounds), "--criteria", crit),
                           args.runs)))
    lines.append(row("whole process: goledger standings (the file's criteria, table)",
                     timed(cli("standings", "--db", str(db)), args.runs)))
    lines.append(row("whole process: goledger explain (one player, every criterion)",
                     timed(cli("explain", "p0001", "--db", str(db), "--criteria", crit), args.runs)))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
