"""``register --from-file`` with 3,000 rows (issue 41, item 7): the whole command, and how long
another command waits for the write lock meanwhile.

Measured on a fresh ledger each run, for this checkout and, with ``--before PATH``, for another
checkout of goledger (the tree before the fix, e.g. a ``git archive`` of main):

* the whole ``goledger register --from-file players.csv`` process (wall and CPU);
* a ``goledger register`` of one more player started while the file is being registered,
  0.3 s after it: its wall time is what a desk's write waits while the file holds the lock.

Run: ``python benchmarks/bench_register_file.py [--rows 3000] [--runs 3] [--before /tmp/main]``;
the table is appended to ``benchmarks/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import REPO, compile_bytecode, machine, ms, update_results

SECTION = "## Issue 41: register --from-file, 3,000 rows"
_LETTERS = "abcdefghijklmnoprstuvyzçğıöşüéèáőű"


def _name(i: int) -> str:
    """A distinct surname for row ``i`` (letters only, some of them accented)."""
    word = ""
    while True:
        word += _LETTERS[i % len(_LETTERS)]
        i //= len(_LETTERS)
        if not i:
            return "X" + word


def write_sheet(path: Path, rows: int) -> Path:
    lines = ["surname,first_name,rank,country,club,rating"]
    lines += [f"{_name(i)},Ali{i % 97},{1 + i % 20}k,TR,Ist,{1000 + i % 900}" for i in range(rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _env(tree: Path) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("GOLEDGER_DB", None)
    return env


def _goledger(tree: Path, *args: str | Path) -> subprocess.Popen[bytes]:
    """``goledger ARGS`` of ``tree``, run from another folder (``python -m`` puts the current
    folder before ``PYTHONPATH``)."""
    return subprocess.Popen([sys.executable, "-m", "goledger", *map(str, args)], env=_env(tree), cwd=tree.parent,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def measure(tree: Path, sheet: Path, folder: Path, runs: int
            ) -> tuple[list[float], list[float], list[float], list[int]]:
    """Wall and CPU seconds of the whole command, and the wall seconds and exit status of the
    one write made meanwhile."""
    walls, cpus, waits, codes = [], [], [], []
    for run in range(runs):
        db = folder / f"run{run}-{tree.name}.db"
        subprocess.run([sys.executable, "-m", "goledger", "new", "--name", "Big", "--rounds", "5", "--db", str(db)],
                       env=_env(tree), cwd=tree.parent, check=True, capture_output=True)
        started = time.perf_counter()
        before = os.times()
        bulk = _goledger(tree, "register", "--from-file", sheet, "--db", db)
        time.sleep(0.3)
        other_started = time.perf_counter()
        other = _goledger(tree, "register", "--surname", "Late", "--first-name", "Comer", "--rank", "3k",
                          "--db", db)
        codes.append(other.wait())
        waits.append(time.perf_counter() - other_started)
        _, err = bulk.communicate()
        walls.append(time.perf_counter() - started)
        after = os.times()
        cpus.append(after.children_user + after.children_system - before.children_user - before.children_system)
        if bulk.returncode != 0:
            raise RuntimeError(f"register --from-file failed: {err.decode(errors='replace')}")
    return walls, cpus, waits, codes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout of goledger to compare with")
    args = parser.parse_args(argv)
    compile_bytecode()
    trees = [("this checkout", REPO)] + ([("before", args.before)] if args.before else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        sheet = write_sheet(Path(tmp) / "players.csv", args.rows)
        for label, tree in trees:
            walls, cpus, waits, codes = measure(tree, sheet, Path(tmp), args.runs)
            refused = sum(1 for c in codes if c != 0)
            rows.append(f"| {label} (`{tree}`) | {ms(statistics.median(walls))} ({ms(min(walls))}–{ms(max(walls))}) "
                        f"| {ms(statistics.median(cpus))} | {ms(statistics.median(waits))} ({ms(max(waits))}) "
                        f"| {refused} of {len(codes)} |")
    text = "\n".join([
        SECTION, "",
        f"Produced by `python benchmarks/bench_register_file.py --rows {args.rows} --runs {args.runs}"
        f"{' --before TREE' if args.before else ''}`. {machine()}. A fresh ledger per run; one `register` "
        "of another player started 0.3 s after the file's.", "",
        "| tree | whole command, wall ms median (min–max) | CPU ms | the other `register`, wall ms median (max) "
        "| the other `register` refused (lock not had in 60 s) |",
        "|---|---|---|---|---|", *rows, ""])
    print(text)
    update_results(SECTION, text, REPO / "benchmarks" / "RESULTS.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
