"""Benchmark the rating preview (issue 21) on a generated congress (default 1,500 × 12, seed 1).

Target: ``goledger rating-preview`` of a 1,500-player, 12-round congress under 1 s, whole
process. Measured (median, min and max of ``--runs``):

* whole process ``goledger rating-preview --json`` and the text table, on a ledger opened
  before (its fold snapshot cached), and on a fresh copy of the generated ledger (nothing
  cached: every event decoded and folded);
* in process: :func:`goledger.rating.preview.preview_state` on a folded state, and its JSON
  conversion.

Run: ``python benchmarks/bench_rating.py [--players 1500] [--rounds 12] [--runs 5]``. Prints a
markdown table and exits 1 when the target is missed.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events, write_ledger
from benchmarks.timing import Samples, compile_bytecode, machine, ms, process_runs, timed
from goledger.ledger.store import Ledger
from goledger.rating.preview import preview_state
from goledger.replay.loading.load import load_state

TARGET_SECONDS = 1.0


def _row(label: str, samples: Samples) -> str:
    return (f"| {label} | {ms(samples.median)} ({ms(min(samples.wall))}–{ms(max(samples.wall))}) "
            f"| {ms(samples.cpu_median)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    compile_bytecode()
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "fresh.db"
        write_ledger(generate_events(args.players, args.rounds, args.seed), fresh)
        warm = Path(tmp) / "warm.db"
        shutil.copy(fresh, warm)
        copy = Path(tmp) / "copy.db"
        rows = []
        json_run = process_runs(lambda i: ["rating-preview", "--db", warm, "--json"], args.runs)
        rows.append(_row("whole process `goledger rating-preview --json`", json_run))
        rows.append(_row("whole process `goledger rating-preview` (table)",
                         process_runs(lambda i: ["rating-preview", "--db", warm], args.runs)))
        cold = process_runs(lambda i: ["rating-preview", "--db", copy, "--json"], args.runs,
                            setup=lambda i: shutil.copy(fresh, copy))
        rows.append(_row("whole process `goledger rating-preview --json`, fresh ledger (nothing cached)", cold))
        with Ledger.open(warm) as ledger:
            state = load_state(ledger)
        preview = preview_state(state)
        rows.append(_row("`preview_state`, in process", timed(lambda: preview_state(state), args.runs)))
        rows.append(_row("`RatingPreview.to_dict`, in process", timed(preview.to_dict, args.runs)))
    print(f"Rating preview, {args.players} × {args.rounds} (seed {args.seed}, {preview.rated_games:,} rated "
          f"games); {machine()}\n")
    print("| measurement | median (min–max) wall ms | median CPU ms |\n|---|---|---|")
    print("\n".join(rows))
    worst = max(json_run.median, cold.median)
    met = worst < TARGET_SECONDS
    print(f"\nTarget: whole process under {TARGET_SECONDS * 1000:.0f} ms: {'met' if met else 'MISSED'} "
          f"(slowest median {ms(worst)} ms).")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
