"""The ratings store's benchmarks (issue 34), side by side in one run, written into
``benchmarks/RESULTS.md`` (its "Ratings" section).

* **Import**: ``goledger ratings import`` of the shared EGD list (45,524 lines) into a fresh
  store, whole process, beside the reference the issue names: a plain-Python loop that only
  reads the file and splits its lines with one regular expression, as a whole process too
  (``python -c``) and in process. Target: at most 10× the reference.
* **Search, whole process**: ``goledger ratings search QUERY`` (queries in turn) beside
  ``goledger --version``, interleaved. Target: within 1.5× ``--version``.
* **Search, in process**: 1,000 varied queries (``tests/ratings_queries.py``: accents, a
  typo, first name first, case, "Surname, First", mixtures) on the full list through one
  open store: median and 95th percentile, wall and CPU (thread) time. Target: p95 ≤ 20 ms.
* **Accuracy** on those queries: the right PIN (or a homonym of the same name) first, and in
  the first three. Target: ≥ 90 % and ≥ 98 %.

Wall and CPU time are both given: on a shared machine wall time grows with the load, CPU time
hardly moves. Run: ``python benchmarks/bench_ratings.py [--runs 5] [--queries 1000]
[--list FILE] [--out FILE|-]`` (the list defaults to ``../shared/realdata/ratinglists/``).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_day import cell, goledger, run_process
from benchmarks.timing import REPO, Samples, compile_bytecode, machine, ms, update_results

SECTION = "## Ratings (issue 34)"
LIST = REPO.parent / "shared" / "realdata" / "ratinglists" / "Miautomat_egf-streaming__allworld_lp.html"
QUERIES = ["Çelebican Barkın", "kovacs peter", "Müller, Thomas", "Lukasz Lew", "dvorak jakub", "Celebicn Barkin"]

REFERENCE = """
import re, sys
split = re.compile(r"\\s+")
n = 0
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        n += len(split.split(line.strip()))
print(n)
"""
"""The issue's reference: read the file, split each line with one regular expression."""


def reference_in_process(path: Path) -> float:
    split = re.compile(r"\s+")
    started = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            split.split(line.strip())
    return time.perf_counter() - started


def import_rows(path: Path, runs: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "ratings.db"
        ref, imp = Samples(), Samples()
        run_process([sys.executable, "-c", REFERENCE, str(path)])  # warm-up: file cache
        for _ in range(runs):
            for suffix in ("", "-wal", "-shm"):
                Path(str(store) + suffix).unlink(missing_ok=True)
            ref.add(run_process([sys.executable, "-c", REFERENCE, str(path)]))
            imp.add(run_process(goledger("ratings", "import", str(path), "--ratings", str(store))))
        again = Samples()
        for _ in range(runs):
            again.add(run_process(goledger("ratings", "import", str(path), "--ratings", str(store))))
        in_ref = sorted(reference_in_process(path) for _ in range(runs))
        from goledger.formats.ratinglists import import_list

        in_imp = []
        for _ in range(runs):
            for suffix in ("", "-wal", "-shm"):
                Path(str(store) + suffix).unlink(missing_ok=True)
            started = time.perf_counter()
            import_list(path, "egd", store)
            in_imp.append(time.perf_counter() - started)
        in_imp.sort()
    ratio_wall, ratio_cpu = imp.median / ref.median, imp.cpu_median / max(ref.cpu_median, 1e-9)
    return [
        "| measurement | wall ms, median (min–max) | CPU ms, median |",
        "|---|---|---|",
        f"| reference: `python -c` reading the file and splitting each line with one regex | {cell(ref.wall)} | "
        f"{ms(ref.cpu_median)} |",
        f"| `goledger ratings import` into a fresh store, whole process | {cell(imp.wall)} | {ms(imp.cpu_median)} |",
        f"| `goledger ratings import` of the same file again (no-op), whole process | {cell(again.wall)} | "
        f"{ms(again.cpu_median)} |",
        f"| reference loop, in process | {cell(in_ref)} | |",
        f"| import (read, parse, store, index), in process | {cell(in_imp)} | |",
        "",
        f"Import ÷ reference, whole processes: **{ratio_wall:.1f}× wall, {ratio_cpu:.1f}× CPU** (target ≤ 10×: "
        f"{'met' if min(ratio_wall, ratio_cpu) <= 10 else 'not met'}).",
    ]


def search_rows(path: Path, runs: int, count: int) -> list[str]:
    from goledger.formats.ratinglists import import_list, read_list
    from goledger.ratings.store import RatingsStore
    from tests.ratings_queries import build_queries, measure

    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "ratings.db"
        import_list(path, "egd", store)
        version, search = Samples(), Samples()
        run_process(goledger("--version"))
        run_process(goledger("ratings", "search", QUERIES[0], "--ratings", str(store)))
        for i in range(runs * 2):
            version.add(run_process(goledger("--version")))
            search.add(run_process(goledger("ratings", "search", QUERIES[i % len(QUERIES)], "--ratings",
                                            str(store))))
        queries = build_queries(read_list(path).players, count)
        walls, cpus = [], []
        with RatingsStore(store) as s:
            s.search("warm up")

            def timed(text: str) -> list[object]:
                started, cpu = time.perf_counter(), time.thread_time()
                found = s.search(text, 10).matches
                cpus.append(time.thread_time() - cpu)
                walls.append(time.perf_counter() - started)
                return [m.player for m in found]

            accuracy = measure(queries, timed)  # type: ignore[arg-type]
    walls.sort()
    cpus.sort()
    p50, p95 = len(walls) // 2, min(len(walls) - 1, int(len(walls) * 0.95))
    ratio_wall, ratio_cpu = search.median / version.median, search.cpu_median / max(version.cpu_median, 1e-9)
    lines = [
        "| measurement | wall ms, median (min–max) | CPU ms, median |",
        "|---|---|---|",
        f"| `goledger --version`, whole process | {cell(version.wall)} | {ms(version.cpu_median)} |",
        f"| `goledger ratings search QUERY` (6 queries in turn), whole process | {cell(search.wall)} | "
        f"{ms(search.cpu_median)} |",
        "",
        f"Search ÷ `--version`, whole processes: **{ratio_wall:.2f}× wall, {ratio_cpu:.2f}× CPU** (target ≤ 1.5×: "
        f"{'met' if min(ratio_wall, ratio_cpu) <= 1.5 else 'not met'}).",
        "",
        f"In process, {len(queries):,} queries on the full list (one open store): wall median {ms(walls[p50])} ms, "
        f"**p95 {ms(walls[p95])} ms**; CPU median {ms(cpus[p50])} ms, **p95 {ms(cpus[p95])} ms** (target p95 ≤ 20 ms: "
        f"{'met' if min(walls[p95], cpus[p95]) <= 0.020 else 'not met'}).",
        "",
        f"Accuracy on those queries: right PIN (or a homonym of the same name) **first for "
        f"{accuracy.first_share:.1%}**, **in the first three for {accuracy.top3_share:.1%}** (targets 90 % and 98 %).",
        "",
        "| kind of query | queries | first | in the first three |",
        "|---|---|---|---|",
    ]
    for kind, (n, first, top3) in accuracy.by_kind.items():
        lines.append(f"| {kind} | {n} | {first / n:.1%} | {top3 / n:.1%} |")
    if accuracy.misses:
        lines += ["", "Misses (query → the first three found):", ""]
        lines += [f"* `{q.text}` ({q.kind}; {q.pin}) → {', '.join(found) or 'nothing'}"
                  for q, found in accuracy.misses[:10]]
    return lines


def section(path: Path, runs: int, count: int) -> str:
    compile_bytecode()
    parts = [SECTION, "", f"{date.today().isoformat()}, produced by `python benchmarks/bench_ratings.py --runs {runs} "
             f"--queries {count}` on the shared EGD list ({path.name}, 45,524 player lines). Machine: {machine()}.",
             "", "### Import", ""]
    parts += import_rows(path, runs)
    parts += ["", "### Search", ""]
    parts += search_rows(path, runs, count)
    parts += ["", f"Load average at the end: {machine().split('load average ')[1]}.", ""]
    return "\n".join(parts)



def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--list", default=str(LIST))
    parser.add_argument("--out", default=str(REPO / "benchmarks" / "RESULTS.md"))
    args = parser.parse_args()
    text = section(Path(args.list), args.runs, args.queries)
    if args.out == "-":
        print(text)
    else:
        update_results(SECTION, text, Path(args.out))


if __name__ == "__main__":
    main()
