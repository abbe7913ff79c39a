"""The wall list and the crosstable of a congress as HTML pages (issue 28, item 4: the one
renderer must not make them slower): the page rendered from the view, in process, median of
``--runs``, on generated ledgers of 1,500 and 3,000 players × 10 rounds.

``python benchmarks/bench_printouts.py [--runs 5] [CHECKOUT ...]`` times each checkout (default:
this one) in its own process, alternately, so that versions are compared in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SIZES = (1500, 3000)


def measure(db: str, runs: int) -> dict[str, float | str]:
    """Median CPU ms (the machine is shared: wall time is mostly waiting) of the wall list's page
    and the crosstable's page, from their views."""
    from goledger.render.printouts import crosstable_sheet, render, wall_sheet
    from goledger.replay.views import crosstable, wall_list

    wall = wall_list(db)
    table = crosstable(db)
    import goledger

    out: dict[str, float | str] = {"from": str(Path(goledger.__file__).resolve())}
    for name, make in (("wall", lambda: render(wall_sheet(wall), "html")),
                       ("crosstable", lambda: render(crosstable_sheet(table, table.tournament), "html"))):
        times = []
        for _ in range(runs):
            start = time.process_time()
            make()
            times.append((time.process_time() - start) * 1000)
        out[name] = sorted(times)[len(times) // 2]
        out[name + "_min"] = min(times)
        out[name + "_bytes"] = len(make())
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="alternations of the checkouts")
    parser.add_argument("checkouts", nargs="*", default=[str(REPO)])
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from benchmarks.generate import generate_events, write_ledger

    with tempfile.TemporaryDirectory() as tmp:
        dbs = {}
        for n in SIZES:
            dbs[n] = str(Path(tmp) / f"c{n}.db")
            write_ledger(generate_events(n, 10, 1), Path(dbs[n]))
        results: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for _ in range(args.rounds):
            for checkout in args.checkouts:
                for n, db in dbs.items():
                    code = ("import importlib.util, json; "
                            f"spec = importlib.util.spec_from_file_location('bench', {__file__!r}); "
                            "bench = importlib.util.module_from_spec(spec); spec.loader.exec_module(bench); "
                            f"print(json.dumps(bench.measure({db!r}, {args.runs})))")
                    env = {**os.environ, "PYTHONPATH": checkout}
                    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                          check=True, cwd=tmp)  # not this checkout's folder: sys.path[0]
                    assert json.loads(done.stdout)["from"].startswith(checkout), (checkout, done.stdout)
                    results.setdefault((checkout, n), []).append(json.loads(done.stdout))
        print("| checkout | players | wall list page, CPU ms, median (min) | crosstable page, CPU ms, median (min) "
              "| wall / crosstable KB |")
        print("|---|---|---|---|---|")
        for (checkout, n), got in results.items():
            wall = sorted(g["wall"] for g in got)[len(got) // 2]
            cross = sorted(g["crosstable"] for g in got)[len(got) // 2]
            wall_min = min(g["wall_min"] for g in got)
            cross_min = min(g["crosstable_min"] for g in got)
            print(f"| {checkout} | {n:,} | {wall:.0f} ({wall_min:.0f}) | {cross:.0f} ({cross_min:.0f}) | "
                  f"{got[0]['wall_bytes'] / 1024:.0f} / {got[0]['crosstable_bytes'] / 1024:.0f} |")


if __name__ == "__main__":
    main()
