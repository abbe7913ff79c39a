"""The director's day benchmarks (issue 20): start-up and audit at congress scale, whole
processes, written into ``benchmarks/RESULTS.md`` (its "Director's day" section).

* **Start-up**: ``python -c pass`` (the interpreter alone), ``goledger --version`` (or
  ``goledger --help`` where ``--version`` does not exist yet) and ``goledger standings`` on
  ``samples/sample.db``, in the same run, each with its ratio to ``python -c pass``.
* **Audit at congress scale**: a 1,500 × 12 ledger from ``benchmarks/generate.py`` (seed 1),
  then ``goledger history p0001``, ``goledger diff --from N`` (N: the middle of the log) and
  ``goledger report --html`` as whole processes; the target of the issue is 1 s each.

Wall and CPU time are both given (median, min–max): on a shared machine wall time grows with
the load, CPU time hardly moves.

Run: ``python benchmarks/bench_day.py [--runs 5] [--audit-runs 3] [--players 1500] [--out FILE]``;
``--out -`` prints the section instead of updating ``RESULTS.md``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.generate import generate_events, write_ledger
from benchmarks.timing import REPO, Samples, cli_env, compile_bytecode, machine, ms, update_results

SECTION = "## Director's day (issue 20)"
AUDIT_TARGET_S = 1.0


def run_process(argv: list[str]) -> Samples:
    """One whole process (any command) measured by the launcher of :mod:`benchmarks.timing`."""
    from benchmarks.timing import LAUNCHER

    out = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], env=cli_env(), capture_output=True, text=True,
                         check=True)
    import json

    report = json.loads(out.stdout)
    if report["code"] != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {report['err']}")
    return Samples([report["wall"]], [report["cpu"]], [report["rss_kb"] / 1024])


def repeat(argv: list[str], runs: int, warmup: int = 1) -> Samples:
    out = Samples()
    for i in range(warmup + runs):
        sample = run_process(argv)
        if i >= warmup:
            out.add(sample)
    return out


def goledger(*args: str) -> list[str]:
    return [sys.executable, "-m", "goledger", *args]


def has_version() -> bool:
    done = subprocess.run(goledger("--version"), env=cli_env(), capture_output=True, text=True)
    return done.returncode == 0


def cell(samples: list[float]) -> str:
    s = sorted(samples)
    return f"{ms(s[len(s) // 2])} ({ms(s[0])}–{ms(s[-1])})"


def startup(runs: int) -> list[str]:
    version = ["--version"] if has_version() else ["--help"]
    sample = str(REPO / "samples" / "sample.db")
    cases = [
        ("`python -c pass` (the interpreter alone)", [sys.executable, "-c", "pass"]),
        (f"`goledger {version[0]}`", goledger(*version)),
        ("`goledger standings` on `samples/sample.db`", goledger("standings", "--db", sample)),
    ]
    # Interleaved runs, so that a change of load touches every case alike.
    results = {label: Samples() for label, _ in cases}
    for _, argv in cases:
        run_process(argv)  # warm-up: file cache, byte code
    for _ in range(runs):
        for label, argv in cases:
            results[label].add(run_process(argv))
    base = results[cases[0][0]]
    lines = ["| whole process | wall ms, median (min–max) | CPU ms, median | ratio to `python -c pass` (wall / CPU) |",
             "|---|---|---|---|"]
    for label, _ in cases:
        s = results[label]
        lines.append(f"| {label} | {cell(s.wall)} | {ms(s.cpu_median)} | "
                     f"{s.median / base.median:.1f} / {s.cpu_median / max(base.cpu_median, 1e-9):.1f} |")
    return lines


def audit(runs: int, players: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "congress.db"
        events = generate_events(players, 12, 1)
        write_ledger(events, db)
        middle = len(events) // 2
        report = Path(tmp) / "report.html"
        cases = [
            ("`goledger history p0001`", goledger("history", "p0001", "--db", str(db))),
            (f"`goledger diff --from {middle:,}`".replace(",", ""), goledger("diff", "--from", str(middle), "--db",
                                                                          str(db))),
            ("`goledger report --html`", goledger("report", "--html", str(report), "--force", "--db", str(db))),
        ]
        lines = [f"Ledger: {players:,} players × 12 rounds, {len(events):,} events (`generate.py --seed 1`).", "",
                 "| whole process | wall ms, median (min–max) | CPU ms, median | peak RSS MB | target 1 s |",
                 "|---|---|---|---|---|"]
        for label, argv in cases:
            s = repeat(argv, runs, warmup=0)
            met = "yes" if s.cpu_median <= AUDIT_TARGET_S else "no"
            lines.append(f"| {label} | {cell(s.wall)} | {ms(s.cpu_median)} | {max(s.rss_mb):.0f} | {met} (CPU) |")
        reference = repeat([sys.executable, "-c", REFERENCE_LOOP], runs, warmup=0)
        lines += ["", f"Machine speed in the same run: `python -c` over a loop of 10⁷ additions (the reference "
                      f"of pure-Python speed; this machine's varies by ±10 % from one hour to the next) took "
                      f"{cell(reference.cpu)} ms of CPU (median, min–max)."]
    return lines


REFERENCE_LOOP = "total = 0\nfor i in range(10_000_000):\n    total += i"
"""A fixed pure-Python workload, timed beside the audit commands: numbers of two runs compare
once divided by it."""


def section(runs: int, audit_runs: int, players: int) -> str:
    compile_bytecode()
    before = machine()
    parts = [SECTION, "", f"{date.today().isoformat()}, produced by `python benchmarks/bench_day.py --runs {runs} "
             f"--audit-runs {audit_runs}`. Machine: {before}.", "", "### Start-up", ""]
    parts += startup(runs)
    parts += ["", "### Audit at congress scale", ""]
    parts += audit(audit_runs, players)
    parts += ["", f"Load average at the end: {machine().split('load average ')[1]}.", ""]
    return "\n".join(parts)



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--audit-runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=1500)
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "RESULTS.md"))
    args = parser.parse_args()
    text = section(args.runs, args.audit_runs, args.players)
    if args.out == "-":
        print(text)
    else:
        update_results(SECTION, text, Path(args.out))
        print(text)


if __name__ == "__main__":
    main()
