"""Benchmark the event store and the command line's start-up (issue 2).

Measures, on this machine:

* appending a generated 1,500 × 12 tournament in one transaction, and 40,000 events one
  transaction each (each commit fsynced: ``synchronous=FULL``), in events per second;
* ``verify`` of a 40,000-event ledger, in process;
* whole-process ``goledger --help``, ``goledger result`` and ``goledger standings`` on the
  1,500 × 12 ledger (median of several runs).

Run: ``python benchmarks/bench_ledger.py [--runs 5]``. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result


def timed(fn, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def row(label: str, samples: list[float], per: int | None = None) -> str:
    med, lo, hi = statistics.median(samples), min(samples), max(samples)
    rate = f"{per / med:,.0f} events/s" if per else ""
    return f"| {label} | {med * 1000:.1f} | {lo * 1000:.1f} | {hi * 1000:.1f} | {rate} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="goledger-bench-"))
    lines = ["| measurement | median ms | min ms | max ms | rate |", "|---|---|---|---|---|"]

    events = generate_events(1500, 12, seed=7)
    # leave the very last game without its result, so `goledger result` has something to record
    last = max(i for i, e in enumerate(events) if isinstance(e, ev.ResultRecorded))
    pending = events.pop(last)
    assert isinstance(pending, ev.ResultRecorded)

    def bulk() -> None:
        path = tmp / f"bulk-{time.perf_counter_ns()}.db"
        with Ledger.create(path) as led:
            led.append(events)

    lines.append(row(f"append 1,500×12 tournament ({len(events):,} events), one transaction",
                     timed(bulk, args.runs), len(events)))

    forty = [ev.PlayerUpdated(player_id=f"p{i % 1500:04d}", changes={"club": f"c{i}"}) for i in range(40_000)]
    single = tmp / "single.db"

    def one_by_one() -> None:
        with Ledger.create(single) as led:
            for e in forty:
                led.append([e])

    lines.append(row("append 40,000 events, one transaction each", timed(one_by_one, 1), len(forty)))
    with Ledger.open(single) as led:
        lines.append(row("verify 40,000 events (in process)", timed(led.verify, args.runs), 40_000))

    ledger_path = tmp / "congress.db"
    with Ledger.create(ledger_path) as led:
        led.append(events)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}

    def cli(*argv: str) -> None:
        subprocess.run([sys.executable, "-m", "goledger", *argv], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    lines.append(row("whole process: goledger --help", timed(lambda: cli("--help"), args.runs)))
    results = iter([Result.WHITE, Result.BLACK] * args.runs)

    def record() -> None:
        outcome = next(results)
        cli("result", "--db", str(ledger_path), "-r", str(pending.round), "-t", str(pending.table), outcome.value)
        # undo for the next run, as a correction to "unknown" would not let `result` run again
        with Ledger.open(ledger_path) as led:
            led.append([ev.ResultCorrected(round=pending.round, table=pending.table, result=Result.UNKNOWN,
                                           reason="benchmark reset")])

    lines.append(row(f"whole process: goledger result on the 1,500×12 ledger ({len(events):,} events)",
                     timed(record, args.runs)))
    lines.append(row("whole process: goledger standings (MMS) on the 1,500×12 ledger",
                     timed(lambda: cli("standings", "--db", str(ledger_path), "--criteria", "MMS"), args.runs)))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
