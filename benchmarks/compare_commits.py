"""Two commits' benchmarks side by side, in one run, interleaved (issue 28: "every benchmark
unchanged or faster").

On a shared machine the load changes by the minute, so two runs made at different times do
not compare. This script checks both commits out into temporary git worktrees and measures
them in turns: for each size it builds each commit's congress with that commit's own code
(``benchmarks.run.Congress``: the same generator and seed), then repeats ``--repeats`` times,
old and new alternately (the one going first swapping every repeat):

* the in-process measurements of ``benchmarks/run.py``'s scaling table, by each commit's own
  worker (``run.py --worker``: its own import paths, the same measurement): OpenGotha import,
  verify, the full fold, the standings of the last round and of every round (with and
  without DC), what-if without one result;
* whole ``goledger`` processes with that commit on ``PYTHONPATH``: the OpenGotha import,
  ``goledger result`` then ``goledger standings`` (computed; the result is reset untimed
  between runs), ``goledger standings`` again (cached).

It prints a markdown table of the medians (min–max) of both commits, new/old of the medians
of wall time and of CPU time, and the load averages before and after; ``--results`` puts it
into ``benchmarks/RESULTS.md`` under its own heading.

Run: ``python benchmarks/compare_commits.py --old COMMIT [--new HEAD] [--sizes 500,1500]
[--repeats 5] [--runs 1] [--results]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import LAUNCHER, REPO, Samples, checkout, git, machine, ms, remove_checkouts, update_results

SECTION = "## Issue 28: the benchmarks before and after, interleaved"

IN_PROCESS: dict[str, str] = {
    "import_inproc": "OpenGotha import, in process",
    "verify": "verify (chain, triggers, snapshot), in process",
    "fold": "full fold (decode + fold every event, no cache), in process",
    "one_round": "standings, last round, MMS/SOSM/SOSOSM, nothing cached",
    "one_round_dc": "standings, last round, MMS/DC/SOSM/SOSOSM, nothing cached",
    "all_rounds": "standings, every round 1..12, MMS/SOSM/SOSOSM",
    "all_rounds_dc": "standings, every round 1..12, MMS/DC/SOSM/SOSOSM",
    "what_if": "what-if without one result of round 6, in process",
}
"""The measurements of ``run.py --worker`` (its keys), in the scaling table's words."""

PROCESSES: dict[str, str] = {
    "import_process": "OpenGotha import, whole process `goledger import opengotha`",
    "result_process": "whole process `goledger result`",
    "standings_process": "whole process `goledger standings` right after it (computed)",
    "result_standings": "the two together: `goledger result` + `goledger standings`",
    "standings_cached": "whole process `goledger standings` again, same head (cached)",
}

_SETUP = """
import json, sys
from pathlib import Path
tree, players, seed, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
sys.path.insert(0, tree)
from benchmarks.run import ROUNDS, Congress
c = Congress(players, ROUNDS, seed, folder)
print(json.dumps({"db": str(c.db), "xml": str(c.xml), "rounds": c.rounds, "events": len(c.events),
                  "middle_result": c.middle_result, "round": c.pending.round, "table": c.pending.table,
                  "scratch": str(c.fresh("inproc"))}))
"""
"""Builds one commit's congress with its own code (run with that commit on ``sys.path``)."""

_RESET = """
import sys
sys.path.insert(0, sys.argv[1])
from goledger.ledger import events as ev
from goledger.ledger.store import Ledger
from goledger.ledger.values import Result
with Ledger.open(sys.argv[2]) as ledger:
    ledger.append([ev.ResultCorrected(round=int(sys.argv[3]), table=int(sys.argv[4]), result=Result.UNKNOWN,
                                      reason="benchmark reset")], actor="bench")
"""


@dataclass
class Side:
    """One commit checked out in a worktree of its own."""

    name: str
    commit: str
    tree: Path
    samples: dict[tuple[str, int], Samples] = field(default_factory=dict)

    def env(self) -> dict[str, str]:
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("GOLEDGER_DB", None)
        return env

    def add(self, key: str, size: int, samples: Samples) -> None:
        self.samples.setdefault((key, size), Samples()).add(samples)

    def python(self, *args: str | os.PathLike[str]) -> str:
        out = subprocess.run([sys.executable, *map(str, args)], env=self.env(), cwd=self.tree, capture_output=True,
                             text=True)
        if out.returncode != 0:
            raise RuntimeError(f"{self.name} ({self.commit[:7]}): {' '.join(map(str, args))[:200]}\n{out.stderr}")
        return out.stdout

    def goledger(self, args: Sequence[str | os.PathLike[str]]) -> Samples:
        """One whole ``python -m goledger ARGS`` process of this commit."""
        report = json.loads(self.python("-c", LAUNCHER, sys.executable, "-m", "goledger", *args))
        if report["code"] != 0:
            raise RuntimeError(f"{self.name}: goledger {' '.join(map(str, args))} failed: {report['err']}")
        return Samples([report["wall"]], [report["cpu"]], [report["rss_kb"] / 1024])


def _checkout(name: str, commit: str, folder: Path) -> Side:
    tree = folder / name
    return Side(name, checkout(commit, tree), tree)


def _fresh(path: Path) -> None:
    for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        leftover.unlink(missing_ok=True)


def measure_size(sides: list[Side], size: int, seed: int, repeats: int, runs: int, folder: Path,
                 processes: bool) -> None:
    """Both commits' measurements of one size, interleaved."""
    specs: dict[str, dict[str, object]] = {}
    for side in sides:
        place = folder / f"{side.name}-{size}"
        place.mkdir()
        specs[side.name] = json.loads(side.python("-c", _SETUP, side.tree, str(size), str(seed), place))
    counts = {name: spec["events"] for name, spec in specs.items()}
    if len(set(counts.values())) != 1:
        raise RuntimeError(f"the commits generate different congresses at {size} players: {counts}")
    for repeat in range(repeats):
        order = sides if repeat % 2 == 0 else sides[::-1]
        for side in order:
            spec = specs[side.name]
            worker = {"task": "congress", "runs": runs, **{k: spec[k] for k in ("db", "xml", "rounds", "scratch",
                                                                                 "middle_result")}}
            out = json.loads(side.python(side.tree / "benchmarks" / "run.py", "--worker", json.dumps(worker)))
            for key, value in out.items():
                side.add(key, size, Samples(**value))
            if processes:
                _processes(side, spec, size, runs)
        print(f"  {size} players: repeat {repeat + 1} of {repeats} done", file=sys.stderr)


def _processes(side: Side, spec: dict[str, object], size: int, runs: int) -> None:
    db, xml = Path(str(spec["db"])), Path(str(spec["xml"]))
    imported = db.with_name(f"imported-{size}.db")
    for i in range(runs):
        _fresh(imported)
        side.add("import_process", size, side.goledger(["import", "opengotha", xml, "--db", imported]))
        first = side.goledger(["result", "--db", db, "--round", str(spec["round"]), "--table", str(spec["table"]),
                               "white" if i % 2 else "black"])
        second = side.goledger(["standings", "--db", db])
        side.add("result_process", size, first)
        side.add("standings_process", size, second)
        side.add("result_standings", size, Samples([first.wall[0] + second.wall[0]], [first.cpu[0] + second.cpu[0]],
                                                   [max(first.rss_mb[0], second.rss_mb[0])]))
        side.add("standings_cached", size, side.goledger(["standings", "--db", db]))
        side.python("-c", _RESET, side.tree, db, str(spec["round"]), str(spec["table"]))


def _cell(s: Samples) -> str:
    return f"{ms(s.median)} ({ms(min(s.wall))}–{ms(max(s.wall))})"


def table(old: Side, new: Side, sizes: list[int], keys: dict[str, str]) -> list[str]:
    lines = ["| measurement (median, min–max; ms) | players | old | new | new / old: median | best | CPU |",
             "|---|---|---|---|---|---|---|"]
    for key, label in keys.items():
        for size in sizes:
            a, b = old.samples.get((key, size)), new.samples.get((key, size))
            if a is None or b is None:
                continue
            wall, best = b.median / a.median, min(b.wall) / min(a.wall)
            cpu = b.cpu_median / a.cpu_median if a.cpu_median else float("nan")
            mark = " (slower)" if best > 1.1 and cpu > 1.1 else ""
            lines.append(f"| {label} | {size:,} | {_cell(a)} | {_cell(b)} | {wall:.2f} | {best:.2f}{mark} "
                         f"| {cpu:.2f} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--old", required=True, help="the earlier commit")
    parser.add_argument("--new", default="HEAD", help="the later commit (default: HEAD)")
    parser.add_argument("--sizes", default="500,1500")
    parser.add_argument("--repeats", type=int, default=5, help="turns of old and new (default 5)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each measurement per turn (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-processes", action="store_true", help="in-process measurements only")
    parser.add_argument("--results", action="store_true", help="write the table into benchmarks/RESULTS.md")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    folder = Path(tempfile.mkdtemp(prefix="goledger-compare-"))
    sides: list[Side] = []
    before = machine()
    started = time.perf_counter()
    try:
        sides = [_checkout("old", args.old, folder), _checkout("new", args.new, folder)]
        for size in sizes:
            measure_size(sides, size, args.seed, args.repeats, args.runs, folder, not args.no_processes)
    finally:
        remove_checkouts(side.tree for side in sides)
        shutil.rmtree(folder, ignore_errors=True)
    after = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    old, new = sides
    keys = {**IN_PROCESS, **({} if args.no_processes else PROCESSES)}
    subject = {side.name: git("log", "-1", "--format=%s", side.commit)[:90] for side in sides}
    text = "\n".join([
        SECTION,
        "",
        f"{date.today().isoformat()}, produced by `python benchmarks/compare_commits.py --old {old.commit[:7]} "
        f"--new {new.commit[:7]} --sizes {args.sizes} --repeats {args.repeats} --runs {args.runs}` in "
        f"{time.perf_counter() - started:.0f} s. Old: {old.commit[:7]} ({subject['old']}…); "
        f"new: {new.commit[:7]} ({subject['new']}…).",
        f"Machine: {before} at the start; {after} at the end. Old and new were measured in turns "
        f"({args.repeats} turns, the first of each turn alternating), each commit with its own code on "
        "`PYTHONPATH` and its own congress (the same generator and seed); samples per cell: "
        f"{args.repeats * args.runs} (the one-round standings: 15 a turn).",
        "",
        *table(old, new, sizes, keys),
        "",
        "new / old (below 1: faster): of the median wall times, of the best ones (the runs least disturbed by "
        "the machine's other work) and of the median CPU times; *(slower)* when the best wall time and the median "
        "CPU time both grew by more than 10 %.",
        "",
    ])
    print(text)
    if args.results:
        update_results(SECTION, text, REPO / "benchmarks" / "RESULTS.md")


if __name__ == "__main__":
    main()
