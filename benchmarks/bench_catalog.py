"""Benchmark the federation archive (issue 22): 500 generated ledgers catalogued, then one of
them changed and the archive refreshed.

Targets: ``goledger catalog build`` of 500 ledgers under a minute; the refresh after one
ledger changed under 2 s (whole processes). The ledgers are small generated tournaments
(``benchmarks/generate.py``: a few base tournaments of 24–64 players × 5–7 rounds, each written
500 / bases times under a different name, so every ledger is its own tournament with its own
first-event hash). Measured: the first build (empty archive), a rebuild with nothing changed,
and a rebuild after one correction appended to one ledger; with the rows written.

Run: ``python benchmarks/bench_catalog.py [--ledgers 500] [--runs 3]``. Prints a markdown table
and exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events, write_ledger
from benchmarks.timing import Samples, cli_env, compile_bytecode, machine, ms, run_goledger
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result

BUILD_TARGET = 60.0
REFRESH_TARGET = 2.0
BASES = ((24, 5), (32, 5), (40, 6), (48, 6), (64, 7))


def make_ledgers(folder: Path, count: int) -> list[Path]:
    """``count`` ledgers of generated tournaments, each with its own name (and first event)."""
    folder.mkdir(parents=True, exist_ok=True)
    bases = [generate_events(players, rounds, seed) for seed, (players, rounds) in enumerate(BASES, 1)]
    paths = []
    for i in range(count):
        events = list(bases[i % len(bases)])
        first = events[0]
        assert isinstance(first, ev.TournamentCreated)
        settings = first.settings
        events[0] = ev.TournamentCreated(settings=ev.TournamentSettings(**{
            **{f: getattr(settings, f) for f in settings.__struct_fields__},
            "name": f"Club tournament {i + 1:04d}", "begin_date": f"{2000 + i % 25}-{1 + i % 12:02d}-15"}))
        path = folder / f"t{i + 1:04d}.db"
        write_ledger(events, path)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ledgers", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    compile_bytecode()
    rows: list[str] = []
    first = Samples()
    refresh = Samples()
    nothing = Samples()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        paths = make_ledgers(Path(tmp) / "ledgers", args.ledgers)
        made = time.perf_counter() - started
        counts: dict[str, object] = {}
        for run in range(args.runs):
            archive = Path(tmp) / f"archive{run}.db"
            first.add(run_goledger(["catalog", "build", Path(tmp) / "ledgers", "-o", archive, "--json"]))
            nothing.add(run_goledger(["catalog", "build", Path(tmp) / "ledgers", "-o", archive, "--json"]))
            with Ledger.open(paths[run]) as ledger:
                ledger.append([ev.ResultCorrected(round=1, table=1, result=Result.JIGO, reason="benchmark")],
                              actor="bench")
            refresh.add(run_goledger(["catalog", "build", Path(tmp) / "ledgers", "-o", archive, "--json"]))
            if run == 0:
                with Ledger.open(paths[-1]) as ledger:
                    ledger.append([ev.ResultCorrected(round=2, table=1, result=Result.JIGO, reason="benchmark")],
                                  actor="bench")
                out = subprocess.run([sys.executable, "-m", "goledger", "catalog", "build", Path(tmp) / "ledgers",
                                      "-o", archive, "--json"], env=cli_env(), capture_output=True, text=True,
                                     check=True)
                counts = json.loads(out.stdout)
        size = (Path(tmp) / "archive0.db").stat().st_size
    for label, samples in (("first build (empty archive), whole process", first),
                           ("rebuild, nothing changed, whole process", nothing),
                           ("rebuild after one ledger changed, whole process", refresh)):
        rows.append(f"| {label} | {ms(samples.median)} ({ms(min(samples.wall))}–{ms(max(samples.wall))}) "
                    f"| {ms(samples.cpu_median)} |")
    print(f"Catalog of {args.ledgers} generated ledgers (made in {made:.1f} s; archive {size / 1e6:.1f} MB); "
          f"{machine()}\n")
    print("| measurement | median (min–max) wall ms | median CPU ms |\n|---|---|---|")
    print("\n".join(rows))
    print(f"\nOne changed ledger: {json.dumps({k: counts.get(k) for k in ('refreshed', 'unchanged')})}, "
          f"rows written {json.dumps(counts.get('rows_written'))}")
    met_build = first.median < BUILD_TARGET
    met_refresh = refresh.median < REFRESH_TARGET
    print(f"\nTargets: build under {BUILD_TARGET:.0f} s: {'met' if met_build else 'MISSED'}; refresh of one changed "
          f"ledger under {REFRESH_TARGET:.0f} s: {'met' if met_refresh else 'MISSED'}.")
    return 0 if met_build and met_refresh else 1


if __name__ == "__main__":
    raise SystemExit(main())
