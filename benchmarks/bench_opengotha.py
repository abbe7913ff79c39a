"""Benchmark OpenGotha interchange (issue 3).

Measures, on this machine:

* whole-process ``goledger import opengotha FILE --db X`` (the issue's target: EGC 2011,
  760 players and 2,708 games, under 0.7 s; OpenGotha 3.51.02 needs about 1.4 s as a whole
  process to load it, see ``shared/oracle/README.md``);
* whole-process ``goledger export opengotha`` of the resulting ledger;
* in-process read (XML → events) and write (state → XML) of the same files.

Files default to ``egc-2011.xml``, ``synthetic-1000x10.xml`` and ``malavasi-2024.xml`` of
``../shared/oracle/inputs`` (or ``$GOLEDGER_SHARED``). Run:
``python benchmarks/bench_opengotha.py [--runs 7] [FILE…]``. Prints a markdown table.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from goledger.formats.opengotha.read import read_opengotha  # noqa: E402
from goledger.formats.opengotha.write import write_opengotha  # noqa: E402
from goledger.replay.fold.state import fold  # noqa: E402

DEFAULT_FILES = ("egc-2011.xml", "synthetic-1000x10.xml", "malavasi-2024.xml")


def shared_inputs() -> Path:
    base = Path(os.environ.get("GOLEDGER_SHARED") or REPO.parent / "shared")
    return base / "oracle" / "inputs"


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def row(label: str, samples: list[float]) -> str:
    med, lo, hi = statistics.median(samples), min(samples), max(samples)
    return f"| {label} | {med * 1000:.0f} | {lo * 1000:.0f} | {hi * 1000:.0f} |"


def cli(*args: str | Path, cwd: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "goledger", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"goledger {' '.join(map(str, args))} failed: {proc.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or [shared_inputs() / name for name in DEFAULT_FILES]
    tmp = Path(tempfile.mkdtemp(prefix="goledger-bench-og-"))
    lines = ["| measurement | median ms | min ms | max ms |", "|---|---|---|---|"]
    for file in files:
        data = file.read_bytes()
        name = file.name
        result = read_opengotha(data, source=name)
        counts = result.report.counts
        label = f"{name} ({counts['players']['recorded']} players, {counts.get('games', {}).get('recorded', 0)} games)"
        counter = iter(range(10_000))

        def import_process(file: Path = file, counter: object = counter) -> None:
            cli("import", "opengotha", file, "--db", f"{file.stem}-{next(counter)}.db", "--quiet", cwd=tmp)  # type: ignore[call-overload]

        lines.append(row(f"whole process: import {label}", timed(import_process, args.runs)))
        db = tmp / f"{file.stem}.export-source.db"
        cli("import", "opengotha", file, "--db", db, "--quiet", cwd=tmp)
        lines.append(row(f"whole process: export {name}",
                         timed(lambda db=db: cli("export", "opengotha", "--db", db, "-o", "out.xml", cwd=tmp),
                               args.runs)))
        lines.append(row(f"in process: read {name} (XML → events)",
                         timed(lambda data=data, name=name: read_opengotha(data, source=name), args.runs)))
        state = fold(result.events)
        lines.append(row(f"in process: write {name} (state → XML)",
                         timed(lambda state=state: write_opengotha(state), args.runs)))
    start = time.perf_counter()
    cli("--help", cwd=tmp)
    lines.append(row("whole process: goledger --help (start-up floor)", [time.perf_counter() - start]))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
