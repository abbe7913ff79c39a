"""Benchmark a desk write from a page that is one event old (issue 48, item 1): another desk
recorded another table's result since the page was shown, so the write depends on the one
conflict rule (:func:`goledger.ledger.store.touching`, decided inside the write lock).

The ledger comes from ``benchmarks/generate.py`` (default 1,500 players × 12 rounds, seed 1);
``--runs`` results of the last round are first set back to unknown. Each run records one of
them as "another desk" (the head moves), then times the desk's worker function for the next
table's result (:func:`goledger.web.isolate.action`, in process) against the old head. Printed:
median, min and max. Run: ``python benchmarks/bench_stale_desk.py [--players 1500] [--rounds 12]
[--runs 8]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events, write_ledger
from goledger import commands
from goledger.ledger.store import Ledger
from goledger.replay.views import state_as_of
from goledger.web.isolate import action


def _head(db: Path) -> int:
    with Ledger.open(db) as ledger:
        return ledger.head().seq


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--runs", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "stale.db"
        write_ledger(generate_events(args.players, args.rounds, 1), db)
        state = state_as_of(db, None)
        last = max(state.games)
        tables = sorted(state.games[last])[: 2 * args.runs]
        for table in tables:
            commands.correct(db, last, table, "?", "set back for the benchmark", actor="bench")
        times = []
        for other, mine in zip(tables[::2], tables[1::2], strict=True):
            seen = _head(db)
            commands.result(db, last, other, "w", actor="another desk")
            start = time.perf_counter()
            done = action(db, "result", {"round": str(last), "entry": f"{mine} b"}, "desk", "", seen, False)
            times.append(time.perf_counter() - start)
            if done.status != 200:
                raise SystemExit(f"the desk refused the write: {done.message}")
        print(f"desk write from a page one event old ({args.players} players × {args.rounds} rounds): "
              f"median {statistics.median(times) * 1e3:.1f} ms, min {min(times) * 1e3:.1f}, "
              f"max {max(times) * 1e3:.1f} (n={len(times)})")


if __name__ == "__main__":
    main()
