"""Benchmark the FIDE tie-breaks (issue 5): BH, SB and PS under ``fide-2024`` for a generated
1,000-player × 10-round tournament (absences, withdrawals, byes, forfeits, jigo).

Each measurement starts from the folded state and builds a fresh scoring context, so it
includes the per-round categorisation (unplayed-round categories, adjusted scores) that the
criteria share; "all three" computes BH, SB and PS on one context, as the standings do.

Run: ``python benchmarks/bench_fide.py [--players 1000] [--rounds 10] [--runs 5]``. Prints a
markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events
from goledger.replay.fold.state import fold
from goledger.replay.scoring.fide_unplayed import fide_data
from goledger.replay.scoring.fide_views import adjusted_view
from goledger.replay.scoring.policies import get_policy
from goledger.replay.scoring.scoring import ScoringContext
from goledger.replay.scoring.standings import standings


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def row(label: str, samples: list[float]) -> str:
    med, lo, hi = statistics.median(samples), min(samples), max(samples)
    return f"| {label} | {med * 1000:.1f} | {lo * 1000:.1f} | {hi * 1000:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    events = generate_events(args.players, args.rounds, seed=5)
    state = fold(events)
    policy = get_policy("fide-2024")
    r = args.rounds
    unplayed = 0
    ctx = ScoringContext(state, r, policy)
    data = fide_data(ctx)
    for rows in data.rounds.values():
        unplayed += sum(1 for fr in rows if fr.kind.unplayed)
    print(f"{args.players} players × {args.rounds} rounds, {len(events):,} events, {unplayed} unplayed rounds, "
          f"policy fide-2024\n")
    lines = ["| measurement | median ms | min ms | max ms |", "|---|---|---|---|"]

    def context_only() -> None:
        fide_data(ScoringContext(state, r, policy))

    lines.append(row("scoring context + FIDE round categories and adjusted scores", timed(context_only, args.runs)))
    for name in ("BH", "SB", "PS", "BH-C1", "SB-C1"):
        def one(name: str = name) -> None:
            ScoringContext(state, r, policy).value(name)

        lines.append(row(f"{name} for every player (fresh context)", timed(one, args.runs)))

    def three() -> None:
        ctx = ScoringContext(state, r, policy)
        for name in ("BH", "SB", "PS"):
            ctx.value(name)

    lines.append(row("BH + SB + PS on one context", timed(three, args.runs)))
    lines.append(row("standings PTS, BH-C1, BH, SB, PS (sorted, places)",
                     timed(lambda: standings(state, r, policy, ["PTS", "BH-C1", "BH", "SB", "PS"]), args.runs)))
    lines.append(row("adjusted-score view", timed(lambda: adjusted_view(state, r, policy), args.runs)))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
