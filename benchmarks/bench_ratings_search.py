"""``goledger ratings search`` as a whole process beside ``goledger --version`` (issue 43,
item 3: at most 1.5×), query by query, interleaved, on the shared EGD list; appended to
``benchmarks/RESULTS.md`` (its "Ratings search, whole process (issue 43)" section).

Each query is timed in its own processes (``--runs`` of each, ``--version`` run between
them), wall and CPU time (the CPU time hardly moves on a shared machine, the wall time does).
Run: ``python benchmarks/bench_ratings_search.py [--runs 15] [--list FILE] [--out FILE|-]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_day import cell, goledger, run_process
from benchmarks.bench_ratings import LIST
from benchmarks.timing import REPO, Samples, compile_bytecode, machine, ms, update_results

SECTION = "## Ratings search, whole process (issue 43)"
QUERIES = ["Duman M.", "Tara S.", "kovacs peter", "Çelebican Barkın", "Celebicn Barkin"]
"""Two surnames with an initial, a name not in the list (the typo step runs), accents, and a typo."""


def rows(path: Path, runs: int) -> list[str]:
    from goledger.formats.ratinglists import import_list

    lines = ["| command | wall ms, median (min–max) | CPU ms, median | ÷ `--version`, wall · CPU |",
             "|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "ratings.db"
        import_list(path, "egd", store)
        version = Samples()
        searches = {q: Samples() for q in QUERIES}
        run_process(goledger("--version"))
        for _ in range(runs):
            for q in QUERIES:
                version.add(run_process(goledger("--version")))
                searches[q].add(run_process(goledger("ratings", "search", q, "--ratings", str(store))))
    lines.append(f"| `goledger --version` | {cell(version.wall)} | {ms(version.cpu_median)} | |")
    everything = Samples()
    for q, s in searches.items():
        everything.add(s)
        lines.append(f"| `goledger ratings search \"{q}\"` | {cell(s.wall)} | {ms(s.cpu_median)} | "
                     f"{s.median / version.median:.2f} · {s.cpu_median / version.cpu_median:.2f} |")
    wall, cpu = everything.median / version.median, everything.cpu_median / version.cpu_median
    lines += ["", f"All searches ÷ `--version`: **{wall:.2f}× wall, {cpu:.2f}× CPU** (target ≤ 1.5×: "
              f"{'met' if cpu <= 1.5 else 'not met'} on CPU time)."]
    return lines


def section(path: Path, runs: int) -> str:
    compile_bytecode()
    parts = [SECTION, "", f"{date.today().isoformat()}, produced by `python benchmarks/bench_ratings_search.py "
             f"--runs {runs}` on the shared EGD list ({path.name}). Machine: {machine()}.", ""]
    parts += rows(path, runs)
    parts += ["", f"Load average at the end: {machine().split('load average ')[1]}.", ""]
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--list", default=str(LIST))
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "RESULTS.md"))
    args = parser.parse_args()
    text = section(Path(args.list), args.runs)
    if args.out == "-":
        print(text)
    else:
        update_results(SECTION, text, Path(args.out))


if __name__ == "__main__":
    main()
