"""Benchmark the audit commands (issue 8) on a generated tournament (default 1,500 × 12).

The ledger comes from ``benchmarks/generate.py`` (a congress-like McMahon with absences,
withdrawals, byes, forfeits and corrections). Then, through the library, the standings after
the last round are published and one result of that round is corrected, so that every audit
view has something to show. Measured (median, min and max of ``--runs``; library calls in
process include opening the ledger and decoding its events):

* ``diff`` across one correction; ``diff --published``; ``diff`` across the whole last round
  and across the whole log (automatic attribution budget, and a larger one);
* ``what-if --without`` a withdrawal, ``--policy egf``, ``--add`` one event;
* ``history`` of a player; the HTML ``report``;
* whole-process ``goledger diff`` and ``goledger what-if`` (``--json``).

Run: ``python benchmarks/bench_audit.py [--players 1500] [--rounds 12] [--runs 3]``. Prints a
markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events, write_ledger
from goledger import audit, commands
from goledger.commands.publish import publish
from goledger.ledger.store import Ledger
from goledger.replay.fold.state import fold

REPO = Path(__file__).resolve().parents[1]


def timed(fn: Callable[[], Any], runs: int) -> tuple[list[float], Any]:
    samples, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - started)
    return samples, result


def row(label: str, samples: list[float], note: str = "") -> str:
    med, lo, hi = statistics.median(samples), min(samples), max(samples)
    return f"| {label} | {med * 1000:,.0f} | {lo * 1000:,.0f} | {hi * 1000:,.0f} | {note} |"


def diff_note(result: audit.AuditDiff) -> str:
    causes = sum(len(c.causes) for c in result.changes)
    single = sum(1 for c in result.changes for k in c.causes if k.first_seq == k.last_seq)
    state = "complete" if result.complete else "budget reached"
    return (f"{len(result.records):,} events, {len(result.changes):,} players changed, {causes:,} causes "
            f"({single:,} single events), {result.replays} standings computed, {state}")


def cli(*args: object) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run([sys.executable, "-m", "goledger", *map(str, args)], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    runs = args.runs
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "big.db"
        write_ledger(generate_events(args.players, args.rounds, args.seed), db)
        with Ledger.open(db) as ledger:
            events = ledger.events()
        state = fold(events)
        last = state.rounds
        first_of_last = next(i for i, e in enumerate(events, start=1)
                             if e.type_name() in ("GamePaired", "ByeAssigned") and getattr(e, "round", None) == last)
        withdrawal = next(i for i, e in enumerate(events, start=1) if e.type_name() == "PlayerWithdrew")
        published = publish(db, last, "final").seqs[0]
        game = state.games[last][1]
        corrected = commands.correct(db, last, 1, game.result.flipped().value, "appeal").seqs[0]
        extra = Path(tmp) / "extra.json"
        extra.write_text(json.dumps([{"type": "ResultCorrected", "round": last, "table": 2,
                                      "result": state.games[last][2].result.flipped().value, "reason": "what if"}]))
        player = state.games[last][3].white

        lines = [
            f"Audit benchmark: {args.players} players × {args.rounds} rounds, {corrected:,} events "
            f"(seed {args.seed}); criteria {', '.join(state.settings.criteria)}; "  # type: ignore[union-attr]
            f"{platform.processor() or platform.machine()}, Python {platform.python_version()}",
            "",
            "| operation | median ms | min ms | max ms | notes |",
            "|---|---:|---:|---:|---|",
        ]
        s, r = timed(lambda: audit.diff(db, corrected - 1, corrected), runs)
        lines.append(row("diff across one correction", s, diff_note(r)))
        s, r = timed(lambda: audit.diff(db, published=last), runs)
        lines.append(row(f"diff --published {last} (verify, digest check, diff)", s, diff_note(r)))
        s, r = timed(lambda: audit.diff(db, first_of_last - 1, published - 1), runs)
        lines.append(row(f"diff across round {last} (pairings and results), auto budget", s, diff_note(r)))
        s, r = timed(lambda: audit.diff(db, first_of_last - 1, published - 1, max_replays=200), 1)
        lines.append(row(f"diff across round {last}, --max-replays 200", s, diff_note(r)))
        s, r = timed(lambda: audit.diff(db, 1), 1)
        lines.append(row("diff across the whole log, auto budget", s, diff_note(r)))
        s, r = timed(lambda: audit.what_if(db, [withdrawal]), runs)
        lines.append(row("what-if --without a withdrawal", s, f"{len(r.changes):,} players differ"))
        s, r = timed(lambda: audit.what_if(db, policy="egf"), runs)
        lines.append(row("what-if --policy egf", s, f"{len(r.changes):,} players differ"))
        s, r = timed(lambda: audit.what_if(db, add=extra), runs)
        lines.append(row("what-if --add (one correction)", s, f"{len(r.changes):,} players differ"))
        s, r = timed(lambda: audit.history(db, player), 1)
        lines.append(row(f"history {player}, auto budget", s,
                         f"{len(r.entries):,} entries, {r.replays} standings computed, "
                         f"{'complete' if r.complete else 'budget reached'}"))
        from goledger.render.audit_report import report

        html = Path(tmp) / "report.html"
        s, r = timed(lambda: report(db, html), 1)
        lines.append(row("report --html", s, f"{html.stat().st_size / 1e6:.1f} MB, {r['audited']} audited events"))
        s, _ = timed(lambda: cli("diff", "--db", db, "--from", corrected - 1, "--json"), runs)
        lines.append(row("whole process: goledger diff --from C-1 --json", s))
        s, _ = timed(lambda: cli("what-if", "--db", db, "--without", withdrawal, "--json"), runs)
        lines.append(row("whole process: goledger what-if --without W --json", s))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
