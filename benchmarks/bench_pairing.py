"""Benchmark ``goledger pair-round`` (issue 15): the whole process ``goledger pair-round 7
--dry-run --json`` on generated McMahon congresses of 1,500 and 3,000 players (round 7 of 12).

Each ledger is :func:`benchmarks.generate.generate_events` ``(N, 12, seed 1)`` — the same
tournament ``benchmarks/generate.py --players N --rounds 12 --seed 1`` writes — cut before round
7 (every pairing, bye, result and correction of rounds 7..12 left out), so that round 7 is the
next to pair. It prints wall time, CPU time and the child's peak memory (``getrusage`` of the
``goledger`` process), the engine's chunks, and beside them OpenGotha 3.51.02's own
``makeAutomaticPairing`` times from ``../shared/pairing-oracle/*.json`` (``ms``) for its largest
rounds, when that folder is present.

Targets: 1,500 players ≤ 2 s, 3,000 players ≤ 5 s, peak memory ≤ 300 MB.

Run: ``python benchmarks/bench_pairing.py [--engine egf] [--runs 3] [--players 1500 3000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.generate import generate_events, write_ledger  # noqa: E402
from benchmarks.timing import cli_env, compile_bytecode, machine, ms, process_runs  # noqa: E402
from goledger.ledger import events as ev  # noqa: E402

TARGETS = {1500: 2.0, 3000: 5.0}
MEMORY_MB = 300
ROUND = 7
LATER = (ev.GamePaired, ev.PairingRemoved, ev.ResultRecorded, ev.ResultCorrected, ev.ByeAssigned, ev.ByeRemoved,
         ev.PairingAnnotated)


def cut_before(events: list[ev.Event], round_: int) -> list[ev.Event]:
    """The events without any pairing, bye or result of round ``round_`` or later."""
    return [e for e in events if not (isinstance(e, LATER) and e.round >= round_)]


def opengotha_times(shared: Path) -> list[tuple[str, int, float]]:
    """(tournament and round, players matched, ms) of OpenGotha's largest rounds in the oracle."""
    rows = []
    for path in sorted((shared / "pairing-oracle").glob("*.r*.json")):
        if path.name.endswith(".costs.json"):
            continue
        data = json.loads(path.read_text())
        if data.get("ms") is not None and data.get("players_paired", 0) >= 300 and data.get("round", 0) > 1:
            rows.append((f"{data['source']} r{data['round']}", int(data["players_paired"]), float(data["ms"])))
    rows.sort(key=lambda r: -r[1])
    return rows[:6]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="egf")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="*", default=[1500, 3000])
    args = parser.parse_args()
    compile_bytecode()
    print(f"machine: {machine()}\n")
    print("| players | engine | matched | chunks | wall ms median (min–max) | CPU ms | peak MB | target | met |")
    print("|---:|---|---:|---|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for players in args.players:
            db = Path(tmp) / f"congress-{players}.db"
            write_ledger(cut_before(generate_events(players, 12, 1), ROUND), db)
            argv = ["pair-round", str(ROUND), "--dry-run", "--json", "--engine", args.engine, "--db", str(db)]
            def args_for(_run: int, argv: list[str] = argv) -> list[str]:
                return argv

            samples = process_runs(args_for, args.runs)
            out = subprocess.run([sys.executable, "-m", "goledger", *argv], env=cli_env(), capture_output=True,
                                 text=True, check=True)
            data = json.loads(out.stdout)
            matched = 2 * len(data["games"]) + (data["bye"] is not None)
            explained = subprocess.run(
                [sys.executable, "-c", "import sys; from goledger.commands.pairing import pair_round; "
                 "o = pair_round(sys.argv[1], int(sys.argv[2]), engine=sys.argv[3], dry_run=True); "
                 "print(list(o.pairing.chunks))", str(db), str(ROUND), args.engine],
                env=cli_env(), capture_output=True, text=True, check=True).stdout.strip()
            target = TARGETS.get(players)
            peak = max(samples.rss_mb)
            met = "" if target is None else (
                "yes" if samples.median <= target and peak <= MEMORY_MB else "no")
            print(f"| {players:,} | {args.engine} | {matched:,} | {explained} | {ms(samples.median)} "
                  f"({ms(min(samples.wall))}–{ms(max(samples.wall))}) | {ms(samples.cpu_median)} | {peak:.0f} | "
                  f"{'' if target is None else f'{target:.0f} s, {MEMORY_MB} MB'} | {met} |")
    shared = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
    if (shared / "pairing-oracle").is_dir():
        print("\nOpenGotha 3.51.02's own `makeAutomaticPairing` (pairing oracle `ms`; its largest rounds after "
              "round 1; cost matrix and matching only, in a warm JVM, no process start):\n")
        print("| round | players matched | OpenGotha ms |")
        print("|---|---:|---:|")
        for name, count, millis in opengotha_times(shared):
            print(f"| {name} | {count:,} | {millis:,.0f} |")


if __name__ == "__main__":
    main()
