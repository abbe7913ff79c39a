"""Commits' whole-process commands side by side, counted in instructions (issue 28: "every
benchmark unchanged or faster").

On this machine a process's CPU time swings by ±10 % from one minute to the next, with the
code unchanged (``compare_commits.py`` measures it and says so), which hides a change of a few
per cent either way. The number of instructions a process executes does not swing: Valgrind's
Cachegrind counts them (``--cache-sim=no``), and with the same hash seed (``PYTHONHASHSEED=0``)
and a fresh copy of the same ledger for every run, two runs of one commit count the same to
within a few instructions in a billion. It is not time (a cache miss costs more than an
addition), but between two versions of the same Python code it is the fairest single number.

The script checks each commit out into a temporary git worktree, builds the benchmarks'
congress (``benchmarks/generate.py``, 1,500 players × 12 rounds, seed 1) with the first
commit's code, so every commit reads the same ledger, then, for each command of
:data:`COMMANDS`, runs every commit's ``python -m goledger`` once to warm its caches (the
bytecode of its modules, its compiled templates) and once under Cachegrind, on a fresh copy
of the ledger. It prints a markdown table: the instructions of each commit and the ratio of
each to the first; with ``--cpu-runs N``, also each command's CPU time (user + system of the
whole process), median (min–max) of ``N`` runs per commit made in turns, the commit going
first changing every turn. ``--results`` puts it into ``benchmarks/RESULTS.md`` under its
heading.

Run: ``python benchmarks/instructions.py --commits fb6b656,HEAD [--only report,history]
[--cpu-runs 10] [--results]`` (needs ``valgrind``: ``apt install valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import LAUNCHER, REPO, checkout, machine, remove_checkouts, update_results

SECTION = "## Issue 28: whole commands counted in instructions"

COMMANDS: dict[str, tuple[str, list[str]]] = {
    "version": ("", ["--version"]),
    "standings-sample": ("sample", ["standings"]),
    "register": ("congress", ["register", "--surname", "Bench", "--first-name", "Mark", "--rank", "3k"]),
    "standings": ("congress", ["standings"]),
    "wall-list": ("congress", ["wall-list", "--format", "html"]),
    "history": ("congress", ["history", "p0001"]),
    "diff": ("congress", ["diff", "--from", "9759"]),
    "report": ("congress", ["report", "--html", "{out}/report.html", "--force"]),
}
"""Each command's ledger (``sample``: ``samples/sample.db``; ``congress``: the generated one;
``""``: none) and arguments (``{out}``: a scratch folder)."""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


class Tree:
    """One commit checked out in a worktree, with its own cache folder."""

    def __init__(self, commit: str, folder: Path, index: int) -> None:
        self.commit = commit
        self.path = folder / f"tree-{index}"
        self.full = checkout(commit, self.path)
        self.cache = folder / f"cache-{self.path.name}"
        self.out = folder / f"out-{self.path.name}"
        self.out.mkdir()

    def env(self) -> dict[str, str]:
        env = {**os.environ, "PYTHONPATH": str(self.path), "PYTHONHASHSEED": "0", "XDG_CACHE_HOME": str(self.cache)}
        for name in ("PYTHONDONTWRITEBYTECODE", "GOLEDGER_DB"):
            env.pop(name, None)
        return env

    def _words(self, args: list[str], db: Path | None) -> list[str]:
        """The command line's words, ``--db`` naming a fresh copy of ``db``."""
        words = [a.replace("{out}", str(self.out)) for a in args]
        if db is not None:
            copy = self.out / f"run-{db.name}"
            for stale in (copy, Path(f"{copy}-wal"), Path(f"{copy}-shm")):
                stale.unlink(missing_ok=True)
            shutil.copyfile(db, copy)
            words += ["--db", str(copy)]
        return words

    def run(self, args: list[str], db: Path | None, counted: bool) -> int | None:
        """``python -m goledger ARGS [--db copy of DB]``, under Cachegrind when ``counted``:
        its instruction count (``None`` uncounted)."""
        words = self._words(args, db)
        prefix = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"] if counted \
            else []
        done = subprocess.run([*prefix, sys.executable, "-m", "goledger", *words], env=self.env(), cwd=self.out,
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{self.commit}: goledger {' '.join(words)} failed:\n{done.stderr[-2000:]}")
        if not counted:
            return None
        found = _REFS.search(done.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count in Cachegrind's output:\n{done.stderr[-2000:]}")
        return int(found.group(1).replace(",", ""))

    def cpu(self, args: list[str], db: Path | None) -> float:
        """CPU seconds (user + system) of one whole ``python -m goledger ARGS`` process, started
        from a small launcher (:data:`benchmarks.timing.LAUNCHER`), on a fresh copy of ``db``."""
        words = self._words(args, db)
        done = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-m", "goledger", *words],
                              env=self.env(), cwd=self.out, capture_output=True, text=True, check=True)
        report = json.loads(done.stdout)
        if report["code"] != 0:
            raise RuntimeError(f"{self.commit}: goledger {' '.join(words)} failed:\n{report['err'][-2000:]}")
        return float(report["cpu"])


def _cpu_cell(seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    return f"{statistics.median(ms):,.0f} ({ms[0]:,.0f}–{ms[-1]:,.0f})"


def measure(commits: list[str], only: list[str] | None, cpu_runs: int = 0) -> str:
    """The markdown table of :data:`COMMANDS` (or ``only`` of them) for ``commits``; with
    ``cpu_runs``, a second table of their CPU times, in turns."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt install valgrind)")
    folder = Path(tempfile.mkdtemp(prefix="goledger-instructions-"))
    trees: list[Tree] = []
    try:
        trees = [Tree(c, folder, i) for i, c in enumerate(commits)]
        congress = folder / "congress.db"
        subprocess.run([sys.executable, str(trees[0].path / "benchmarks" / "generate.py"), "--players", "1500",
                        "--rounds", "12", "--seed", "1", "--db", str(congress)], env=trees[0].env(), check=True,
                       capture_output=True)
        # the first commit's ledgers: every later one reads them
        ledgers = {"": None, "sample": trees[0].path / "samples" / "sample.db", "congress": congress}
        names = only or list(COMMANDS)
        rows = []
        for name in names:
            which, args = COMMANDS[name]
            counts = []
            for tree in trees:
                tree.run(args, ledgers[which], counted=False)  # warm: bytecode, compiled templates
                counted = tree.run(args, ledgers[which], counted=True)
                assert counted is not None
                counts.append(counted)
            first = counts[0]
            cells = [f"{c / 1e6:,.0f} M" for c in counts]
            ratios = [f"{c / first:.3f}" for c in counts[1:]]
            shown = " ".join(a if not a.startswith("{out}") else "FILE" for a in args)
            rows.append(f"| `goledger {shown}` ({which or 'no ledger'}) | " + " | ".join([*cells, *ratios]) + " |")
        heads = [f"`{t.commit}` ({t.full[:7]})" for t in trees]
        header = "| command (ledger), instructions | " + " | ".join([*heads, *(f"{t.commit} / {trees[0].commit}"
                                                                            for t in trees[1:])]) + " |"
        rule = "|" + "---|" * (1 + 2 * len(trees) - 1)
        tables = [header, rule, *rows]
        if cpu_runs:
            timed = []
            for name in names:
                which, args = COMMANDS[name]
                seconds: dict[str, list[float]] = {t.full: [] for t in trees}
                for turn in range(cpu_runs):
                    for tree in trees if turn % 2 == 0 else trees[::-1]:
                        seconds[tree.full].append(tree.cpu(args, ledgers[which]))
                medians = [statistics.median(seconds[t.full]) for t in trees]
                shown = " ".join(a if not a.startswith("{out}") else "FILE" for a in args)
                timed.append(f"| `goledger {shown}` ({which or 'no ledger'}) | " + " | ".join(
                    [*(_cpu_cell(seconds[t.full]) for t in trees), *(f"{m / medians[0]:.2f}" for m in medians[1:])])
                    + " |")
            tables += ["", f"CPU ms, median (min–max) of {cpu_runs} runs each, in turns; load average after: "
                       + ", ".join(f"{x:.2f}" for x in os.getloadavg()) + ".", "",
                       header.replace("instructions", "CPU ms"), rule, *timed]
        return "\n".join(tables)
    finally:
        remove_checkouts(tree.path for tree in trees)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", default="fb6b656,HEAD", help="commits to compare, the reference first")
    parser.add_argument("--only", default="", help="some of: " + ", ".join(COMMANDS))
    parser.add_argument("--cpu-runs", type=int, default=0, help="also time each command this many times per commit")
    parser.add_argument("--results", action="store_true", help="write the table into benchmarks/RESULTS.md")
    options = parser.parse_args()
    commits = [c.strip() for c in options.commits.split(",") if c.strip()]
    only = [c.strip() for c in options.only.split(",") if c.strip()] or None
    table = measure(commits, only, options.cpu_runs)
    text = "\n".join([
        SECTION, "",
        f"{date.today().isoformat()}, produced by `python benchmarks/instructions.py --commits {','.join(commits)}"
        f"{f' --cpu-runs {options.cpu_runs}' if options.cpu_runs else ''}`. "
        f"{machine()}. Instructions of the whole process, counted by Cachegrind (`--cache-sim=no`, "
        "`PYTHONHASHSEED=0`, a fresh copy of the ledger each run, caches warmed by one uncounted run). "
        "Ledger: 1,500 players × 12 rounds, 19,519 events (`generate.py --seed 1`); `sample`: the first "
        "commit's `samples/sample.db`.",
        "", table, ""])
    print(text)
    if options.results:
        update_results(SECTION, text, REPO / "benchmarks" / "RESULTS.md")


if __name__ == "__main__":
    main()
